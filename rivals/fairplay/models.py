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
