"""Skill ratings (R-41): projections of ``RatingsUpdated`` (and, for the board, of the account
events that take an account off public lists, R-38), rebuilt by ``manage.py rebuild_projections``.

* ``Rating`` — one row per account that was rated (or suspended or closed): μ, σ, the ordinal
  μ − 3σ and its ``figure`` in hundredths (what the board shows and ranks), the rated results
  of each kind, and whether the account is on the board (``listed``: not provisional, not
  suspended, not closed).
* ``RatingChange`` — one row per player of each rated result: the rating history.
* ``RatingHistogram`` — how many listed accounts hold each figure (level 0) and each block of
  ``HISTOGRAM_BLOCK`` figures (level 1), so a place is 1 + a sum over a few hundred index rows,
  whatever the number of accounts (as the ranking boards count theirs).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rivals.ratings.skill import MU, SIGMA

HISTOGRAM_BLOCK = 100  # level-1 rows cover this many figures (one point of ordinal)
KINDS = (("one_to_one", "one-to-one"), ("multi", "multi-player"))


class Rating(models.Model):
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True, related_name="+"
    )
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    ordinal = models.FloatField(default=0.0, help_text="μ − 3σ (R-41)")
    figure = models.IntegerField(default=0, help_text="the ordinal in hundredths: the board's order and ties")
    one_to_one = models.PositiveIntegerField(default=0, help_text="rated results of two players")
    multi = models.PositiveIntegerField(default=0, help_text="rated results of three or four players")
    provisional = models.BooleanField(default=True, help_text="fewer than 12 one-to-one and 5 multi-player results")
    suspended = models.BooleanField(default=False)
    closed = models.BooleanField(default=False)
    listed = models.BooleanField(default=False, help_text="on the rating board: not provisional, suspended or closed")
    last_opponents = models.JSONField(default=list, blank=True, help_text="the players of its last rated result")
    last_result = models.CharField(max_length=80, blank=True, default="")
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "ratings_rating"
        indexes = [models.Index(fields=["-figure", "account"], name="ratings_board", condition=Q(listed=True))]

    def __str__(self) -> str:
        return f"{self.account_id}: μ {self.mu:.2f} σ {self.sigma:.2f}"


class RatingChange(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    position = models.BigIntegerField(help_text="the RatingsUpdated event's position in the log")
    result = models.CharField(max_length=80, help_text="the rated result (match:<id>)")
    mode = models.CharField(max_length=12)
    kind = models.CharField(max_length=12, choices=KINDS)
    players = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(help_text="the result's place")
    rated_place = models.PositiveSmallIntegerField(help_text="the place it was rated by (an idle player: last)")
    idle = models.BooleanField(default=False, help_text="removed no pair (R-18a)")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    rated_at = models.DateTimeField()

    class Meta:
        db_table = "ratings_change"
        ordering = ["-position"]
        constraints = [models.UniqueConstraint(fields=["account", "position"], name="ratings_change_once")]

    def __str__(self) -> str:
        return f"{self.account_id} {self.result}: {self.ordinal_before:.2f} → {self.ordinal_after:.2f}"


class RatingHistogram(models.Model):
    """Number of listed accounts (``n``) whose figure is ``value`` (level 0) or falls in
    ``[value * HISTOGRAM_BLOCK, (value + 1) * HISTOGRAM_BLOCK)`` (level 1)."""

    level = models.PositiveSmallIntegerField()
    value = models.IntegerField()
    n = models.IntegerField(default=0)

    class Meta:
        db_table = "ratings_histogram"
        constraints = [models.UniqueConstraint(fields=["level", "value"], name="ratings_histogram_key")]

    def __str__(self) -> str:
        return f"L{self.level} {self.value}: {self.n}"
