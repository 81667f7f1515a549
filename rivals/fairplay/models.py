"""The operators' fair-play review queue (R-38): a projection of ``FairPlayFlagged`` and
``FairPlayFlagReviewed`` events on the flagged account's stream."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class FairPlayFlag(models.Model):
    KINDS = (
        ("fast_pairs", "pairs faster than a human"),
        ("refused_intents", "many refused intents"),
        ("outside_round_time", "intent outside the round's time"),
        # R-42's signals (rivals.fairplay.scoring): scored after each rated result
        ("solver_assist", "plays as a solver would"),
        ("pace", "pace unlike a human's"),
        ("collusion", "same pairs as another account on the same deal"),
    )
    STATUSES = (("open", "open"), ("dismissed", "dismissed"), ("confirmed", "confirmed"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="fairplay_flags")
    kind = models.CharField(max_length=24, choices=KINDS)
    subject = models.CharField(max_length=120, help_text="what was flagged: game-…, round-…, or a time window")
    game_id = models.UUIDField(null=True, blank=True, help_text="the flagged board, if any")
    round_id = models.UUIDField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    flagged_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=STATUSES, default="open")
    reviewed_by = models.CharField(max_length=60, blank=True, default="")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        db_table = "fairplay_flag"
        ordering = ["-flagged_at"]
        verbose_name = "fair-play flag"
        constraints = [models.UniqueConstraint(fields=["account", "kind", "subject"], name="fairplay_flag_once")]
        indexes = [models.Index(fields=["status", "flagged_at"], name="fairplay_flag_queue")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.account} ({self.status})"


# --- R-42's signals: projections of ``FairPlaySignalsScored`` (and ``FairPlayFlagged``) ---------------


class FairPlayWindow(models.Model):
    """One account's recent competitive boards, scored (``rivals.fairplay.scoring.account_add``)."""

    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True, related_name="fairplay_window"
    )
    scored = models.PositiveIntegerField(default=0, help_text="boards scored so far")
    entries = models.JSONField(default=list, help_text="the last boards' numbers, oldest first")
    history = models.JSONField(default=dict, help_text="sums of the older boards' log intervals")
    flagged = models.JSONField(default=dict, help_text="kind → boards scored when last flagged")

    class Meta:
        db_table = "fairplay_window"
        verbose_name = "fair-play signal window"

    def __str__(self) -> str:
        return f"signals of {self.account_id} ({self.scored} boards)"


class FairPlayBaseline(models.Model):
    """What players of one rating band do on one layout (``layout:band``, ``layout:*``, ``*:*``)."""

    key = models.CharField(max_length=24, primary_key=True)
    choices = models.BigIntegerField(default=0)
    plan_hits = models.BigIntegerField(default=0)
    critical = models.BigIntegerField(default=0)
    kept = models.BigIntegerField(default=0)
    pace_boards = models.BigIntegerField(default=0)
    pace_sum = models.FloatField(default=0.0)
    pace_sq = models.FloatField(default=0.0)

    class Meta:
        db_table = "fairplay_baseline"
        ordering = ["key"]
        verbose_name = "fair-play baseline"

    def __str__(self) -> str:
        return self.key


class FairPlayBoard(models.Model):
    """A scored board's unforced pairs, found by its deal for the collusion signal."""

    game_id = models.UUIDField(primary_key=True)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    code = models.CharField(max_length=20)
    result = models.CharField(max_length=80)
    round_id = models.UUIDField(null=True, blank=True)
    free_pairs = models.JSONField(default=list)
    scored_at = models.DateTimeField()

    class Meta:
        db_table = "fairplay_board"
        indexes = [models.Index(fields=["code", "scored_at"], name="fairplay_board_deal")]

    def __str__(self) -> str:
        return f"board {self.game_id} on {self.code}"


class FairPlayPair(models.Model):
    """Two accounts that played the same deals: the similarity of each shared deal, oldest first."""

    key = models.CharField(max_length=40, primary_key=True, help_text="<lower account id>-<higher>")
    account_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    account_b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    shared = models.JSONField(default=list, help_text="[[result, round of a, round of b, similarity]]")

    class Meta:
        db_table = "fairplay_pair"
        verbose_name = "fair-play account pair"

    def __str__(self) -> str:
        return self.key
