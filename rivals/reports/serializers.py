"""The shapes of the reports API (R-39)."""

from django.core.validators import RegexValidator
from rest_framework import serializers

from rivals.api.serializers import StrictCharField
from rivals.reports.models import REASONS
from rivals.reports.services import NOTE_MAX
from rivals.text import SAFE_TEXT

SUBJECT_PATTERN = r"^(player:[1-9][0-9]{0,17}|club:[0-9a-fA-F-]{36})$"


class ReportIn(serializers.Serializer):
    subject = StrictCharField(
        max_length=60,
        validators=[RegexValidator(SUBJECT_PATTERN)],
        help_text='"player:<id>" (a display name, or cheating) or "club:<id>" (a club\'s name)',
    )
    reason = serializers.ChoiceField(choices=[r for r, _ in REASONS])
    note = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=NOTE_MAX,
        trim_whitespace=False,
        validators=[RegexValidator(SAFE_TEXT)],  # what rivals.text.clean_text refuses, said in the schema
        help_text="what the operators should know (no control characters); kept sealed",
    )


class ReportOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["open", "dismissed", "upheld"])
    subject = serializers.CharField()
    reason = serializers.ChoiceField(choices=[r for r, _ in REASONS])
    filed_at = serializers.DateTimeField()


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class ReportsNotAllowedDetails(serializers.Serializer):
    status = serializers.CharField(required=False, help_text="the club's status")


class ReportsConflictDetails(serializers.Serializer):
    report = serializers.CharField(required=False, allow_null=True, help_text="the open report")


ERROR_DETAILS = {"not_allowed": ReportsNotAllowedDetails, "conflict": ReportsConflictDetails}
