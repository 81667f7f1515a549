"""Daily-bonus claims: the projection of the daily bonus's events (R-30…R-32)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class DailyBonusClaim(models.Model):
    """Projection of ``DailyBonusClaimed`` / ``DailyBonusDoubled`` (R-30…R-32): one row per
    account and Romanian day."""

    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="daily_bonus_claims")
    day = models.DateField(help_text="Romanian calendar day (Europe/Bucharest)")
    streak = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    jokers = models.PositiveSmallIntegerField(default=0)
    doubled = models.BooleanField(default=False)
    claimed_at = models.DateTimeField()

    class Meta:
        db_table = "rivals_daily_bonus_claim"
        constraints = [models.UniqueConstraint(fields=["account", "day"], name="daily_bonus_once_per_day")]
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"account {self.account_id} on {self.day}: day {self.streak} of the streak"
