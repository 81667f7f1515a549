"""Live updates: the single-use tickets that open a socket, and the notifications projection."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LiveTicket(models.Model):
    """A single-use ticket (API.md: valid 30 s, bound to the account). Only its SHA-256 is kept
    (docs/security.md: no secret at rest); redeeming deletes it. Not a domain fact: no event."""

    digest = models.CharField(max_length=64, primary_key=True)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    expires_at = models.DateTimeField()

    class Meta:
        db_table = "live_ticket"
        indexes = [models.Index(fields=["expires_at"], name="live_ticket_expiry")]

    def __str__(self) -> str:
        return f"ticket of {self.account_id} until {self.expires_at:%H:%M:%S}"


class Notification(models.Model):
    """One notification of an account (API.md "Notifications"): a projection of the event at
    ``position`` (rebuilt by ``rebuild_projections``). An event may notify several accounts, and
    one account twice (a tournament's places and its trophy)."""

    account_id = models.BigIntegerField()
    position = models.BigIntegerField(help_text="the event's position in the log")
    type = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        db_table = "live_notification"
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["account_id", "position", "type"], name="live_notification_once"),
        ]
        indexes = [models.Index(fields=["position"], name="live_notification_position")]

    def __str__(self) -> str:
        return f"#{self.position} {self.type} → {self.account_id}"
