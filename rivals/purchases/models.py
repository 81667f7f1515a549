"""Joker purchases and refunds (R-11), as the store backend reported them: a projection of the
``JokersPurchased`` and ``JokerPurchaseRefunded`` events on the buyer's stream, one row per store
transaction (its id is the key: a transaction is recorded once)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

KINDS = (("purchase", "purchase"), ("refund", "refund"))


class Purchase(models.Model):
    transaction_id = models.CharField(max_length=200, primary_key=True, help_text="the store's transaction id")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=KINDS)
    product = models.CharField(max_length=100)
    jokers = models.PositiveIntegerField(help_text="as the store sent it")
    applied = models.IntegerField(help_text="the balance's change: +jokers, or −taken for a refund")
    shortfall = models.PositiveIntegerField(default=0, help_text="a refund's jokers already spent (not taken back)")
    balance = models.IntegerField(help_text="the account's jokers after it")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-recorded_at"]
        indexes = [models.Index(fields=["account", "recorded_at"], name="purchase_account")]

    def __str__(self) -> str:
        return f"{self.kind} {self.transaction_id} ({self.jokers} jokers, account {self.account_id})"
