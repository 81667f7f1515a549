"""The reports room's part of a player's export (``rivals.accounts.export``): the reports the
account filed (R-39) with its own words; the operator's review note stays in the admin."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, chunked
from rivals.reports.models import REASONS, Report


class ExportedReport(serializers.Serializer):
    id = serializers.UUIDField()
    subject = serializers.CharField(help_text="player:<id> or club:<id>, as filed")
    reason = serializers.ChoiceField(choices=[r for r, _ in REASONS])
    note = serializers.CharField(allow_blank=True, help_text="your words")
    status = serializers.CharField(help_text="open, dismissed or upheld")
    filed_at = serializers.DateTimeField()
    reviewed_at = serializers.DateTimeField(allow_null=True)


def reports(subject: Subject):
    filed = Report.objects.filter(reporter=subject.account).values(
        "id", "subject", "reason", "note", "status", "filed_at", "reviewed_at"
    )
    yield from chunked(filed, order=("filed_at", "id"))


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="reports",
        feature="reports",
        rows=reports,
        shape=ExportedReport,
        order=60,
        description="the reports you filed (R-39)",
    )
