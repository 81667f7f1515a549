"""The serializers every API layer shares: cleaned client text, the page parameters, the error body
and a plain ``{"detail"}``. Each feature keeps its own shapes beside its views."""

from rest_framework import serializers

from rivals.errors import ERROR_CODES, Invalid
from rivals.text import clean_text


class CleanTextField(serializers.CharField):
    """A client-chosen name or id, validated by ``rivals.text.clean_text`` (NFC, length, no
    control characters, BOMs or bidi overrides); the schema says the length limits."""

    def __init__(self, *, max_length: int, collapse_spaces: bool = True, **kwargs):
        self.collapse_spaces = collapse_spaces
        super().__init__(max_length=max_length, min_length=1, trim_whitespace=False, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return clean_text(
                value, field=self.field_name, max_length=self.max_length, collapse_spaces=self.collapse_spaces
            )
        except Invalid as exc:
            raise serializers.ValidationError(exc.details[self.field_name]) from None


class PageIn(serializers.Serializer):
    """``?limit=&offset=`` of every paginated list (API.md conventions)."""

    MAX_LIMIT = 100
    MAX_OFFSET = 1_000_000_000  # past any list we have; keeps the value inside PostgreSQL's bigint
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class DetailOut(serializers.Serializer):
    detail = serializers.CharField()


class EventOut(serializers.Serializer):
    """An event of the log as a client may see it (its stream's version, type, data, time)."""

    version = serializers.IntegerField(help_text="its place in its stream (1, 2, …)")
    type = serializers.CharField(help_text="a past-tense noun: PairRemoved, RoundEnded …")
    data = serializers.DictField(help_text="the event's data; its shape depends on the type")
    recorded_at = serializers.DateTimeField()


class ErrorBody(serializers.Serializer):
    code = serializers.ChoiceField(choices=ERROR_CODES, help_text="machine-readable (API.md conventions)")
    message = serializers.CharField(help_text="for people")
    details = serializers.DictField(
        help_text="free-form: what the code's operation says of it (the current seq of a conflict, the "
        "fields of an invalid body, retry_after_s …)"
    )


class ErrorOut(serializers.Serializer):
    error = ErrorBody()
