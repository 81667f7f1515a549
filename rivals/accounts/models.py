"""Emails waiting to leave (R-36: verification, password reset): an outbox, not events."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class OutboundEmail(models.Model):
    """One email to send, written in the transaction that decided it and sent after the commit
    by a worker (``rivals.accounts.emails``); retried with backoff, ``failed`` after the last attempt (the
    admin lists them). Its code, when it carries one, is made when it is sent: no secret waits
    here. A sent email's row is deleted."""

    KINDS = (
        ("verification", "verify an email address"),
        ("already_registered", "address already registered"),
        ("password_reset", "password reset"),
    )
    STATUSES = (("pending", "pending"), ("failed", "failed"))

    kind = models.CharField(max_length=20, choices=KINDS)
    to = models.EmailField()
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=STATUSES, default="pending")
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "rivals_outbound_email"
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbound_email_due")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status}, {self.attempts} attempts)"
