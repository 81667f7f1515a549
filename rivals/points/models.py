"""The points ledger: the projection of ``PointsAwarded`` events (R-33)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# the sources that may count for rankings. Jokers, purchases and intermediate TP are never
# points-ledger entries at all; pot winnings count only when an operator marks them (P-5).
SOURCES = (
    "single_player",
    "quick_match",
    "arena",
    "tournament_prize",
    "daily_bonus",
    "daily_bonus_double",
    "pool_pot",
    "operator_adjustment",
)


class PointsLedgerEntry(models.Model):
    """One award of account points. Exactly once per ``award_key`` (unique)."""

    event_position = models.BigIntegerField(unique=True)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="points")
    amount = models.IntegerField()
    source = models.CharField(max_length=40)
    counts = models.BooleanField(help_text="counts for AMR / weekly / daily (R-33)")
    award_key = models.CharField(max_length=200, unique=True)
    awarded_at = models.DateTimeField(db_index=True)
    ref = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "rivals_points_ledger"
        ordering = ["-awarded_at", "-event_position"]
        indexes = [models.Index(fields=["account", "awarded_at"], name="ledger_account_time")]
        verbose_name = "points ledger entry"
        verbose_name_plural = "points ledger"

    def __str__(self) -> str:
        return f"{self.account_id} {self.amount:+d} {self.source}"
