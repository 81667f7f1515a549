"""Ranking read models (R-33…R-35): projections of ``PointsAwarded`` plus the AMR window clock.

* ``DailyPoints`` — one bucket per account and Romanian day (sum of counting points that day).
  It is also the Daily board: the board of day D is the rows of D.
* ``WeeklyPoints`` — one row per account and Romanian week (keyed by its Monday); the Weekly
  board of a day is the rows of that day's Monday, so Weekly restarts on Monday 00:00 Romanian
  time by construction.
* ``AmrPoints`` — one row per account: the sum of its buckets from ``RankingClock.window_start``
  on. The roll job moves ``window_start`` to today−364 and subtracts the days that left.
* ``PointsHistogram`` — how many accounts hold each positive total on each board, at two levels
  (exact value, and value // ``HISTOGRAM_BUCKET``), so a place is 1 + a sum over a few hundred
  index rows, whatever the number of accounts.

``points`` may be zero or negative (operator adjustments); only positive totals are ranked.
``reached_at`` is the latest award instant inside the total: the time the total was reached
(R-35 secondary display order).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

HISTOGRAM_BUCKET = 1024  # level-1 histogram rows cover this many point values


class DailyPoints(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    day = models.DateField(help_text="Romanian calendar day (Europe/Bucharest)")
    points = models.IntegerField(default=0)
    reached_at = models.DateTimeField()

    class Meta:
        verbose_name = "daily points bucket"
        # (day, account): the roll reads and prunes whole days by range
        constraints = [models.UniqueConstraint(fields=["day", "account"], name="rankings_daily_day_account")]
        indexes = [
            models.Index(
                fields=["day", "-points", "reached_at", "account"],
                name="rankings_daily_board",
                condition=Q(points__gt=0),
            )
        ]

    def __str__(self) -> str:
        return f"{self.account_id} {self.day} {self.points}"


class WeeklyPoints(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    week = models.DateField(help_text="Monday of the Romanian week")
    points = models.IntegerField(default=0)
    reached_at = models.DateTimeField()

    class Meta:
        verbose_name = "weekly points"
        verbose_name_plural = "weekly points"
        constraints = [models.UniqueConstraint(fields=["week", "account"], name="rankings_weekly_week_account")]
        indexes = [
            models.Index(
                fields=["week", "-points", "reached_at", "account"],
                name="rankings_weekly_board",
                condition=Q(points__gt=0),
            )
        ]

    def __str__(self) -> str:
        return f"{self.account_id} week {self.week} {self.points}"


class AmrPoints(models.Model):
    account = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    points = models.IntegerField(default=0)
    reached_at = models.DateTimeField()

    class Meta:
        verbose_name = "AMR points"
        verbose_name_plural = "AMR points"
        indexes = [
            models.Index(
                fields=["-points", "reached_at", "account"],
                name="rankings_amr_board",
                condition=Q(points__gt=0),
            )
        ]

    def __str__(self) -> str:
        return f"{self.account_id} AMR {self.points}"


class PointsHistogram(models.Model):
    """Number of accounts (``n``) whose positive total on ``board_key`` is ``value`` (level 0) or
    falls in ``[value * HISTOGRAM_BUCKET, (value + 1) * HISTOGRAM_BUCKET)`` (level 1)."""

    board_key = models.CharField(max_length=16, help_text='"amr", "w:<monday>" or "d:<day>"')
    level = models.PositiveSmallIntegerField()
    value = models.IntegerField()
    n = models.IntegerField(default=0)

    class Meta:
        verbose_name = "points histogram row"
        constraints = [
            models.UniqueConstraint(fields=["board_key", "level", "value"], name="rankings_histogram_key"),
        ]

    def __str__(self) -> str:
        return f"{self.board_key} L{self.level} {self.value}: {self.n}"


class RankingClock(models.Model):
    """Singleton (pk=1): the first Romanian day inside the AMR totals. Job state, not an event
    projection: ``rebuild_projections`` keeps it and replays the ledger against it."""

    window_start = models.DateField()
    rolled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "ranking clock"

    def __str__(self) -> str:
        return f"AMR window from {self.window_start}"


class RankingExclusion(models.Model):
    """R-38: an account absent from every board — suspended (until lifted) or closed. A projection
    of the account events; the histogram never counts an excluded account, so places stay exact."""

    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True, related_name="+"
    )
    suspended = models.BooleanField(default=False)
    closed = models.BooleanField(default=False)
    since = models.DateTimeField()

    class Meta:
        verbose_name = "ranking exclusion"

    def __str__(self) -> str:
        return f"{self.account_id} excluded ({'closed' if self.closed else 'suspended'})"
