"""Players' reports (R-39): the operators' review queue, a projection of the ``report-<id>``
streams. One open report per reporter and subject (the database's unique key decides)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

REASONS = (("name", "offensive name"), ("personal_data", "personal data in a name"), ("cheating", "cheating"))
STATUSES = (("open", "open"), ("dismissed", "dismissed"), ("upheld", "upheld"))
ACTIONS = (
    ("none", "none"),
    ("name_reset", "display name reset"),
    ("club_renamed", "club renamed"),
)


class Report(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    subject = models.CharField(max_length=60, help_text="player:<id> or club:<id>")
    subject_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    subject_club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(max_length=20, choices=REASONS)
    note = models.TextField(blank=True, default="", help_text="the reporter's words (empty once erased)")
    status = models.CharField(max_length=10, choices=STATUSES, default="open")
    action = models.CharField(max_length=20, choices=ACTIONS, default="none")
    filed_at = models.DateTimeField()
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.CharField(max_length=60, blank=True, default="")
    review_note = models.CharField(max_length=300, blank=True, default="")
    version = models.PositiveIntegerField(default=0, help_text="stream version")

    class Meta:
        verbose_name = "player report"
        ordering = ["-filed_at"]
        constraints = [
            models.UniqueConstraint(fields=["reporter", "subject"], condition=Q(status="open"), name="report_open_once")
        ]
        indexes = [
            models.Index(fields=["status", "filed_at"], name="report_queue"),
            models.Index(fields=["subject", "status"], name="report_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} — {self.subject} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"report-{self.id}"
