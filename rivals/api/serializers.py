"""The serializers every API layer shares: cleaned client text, the page parameters, the error body
and a plain ``{"detail"}``. Each feature keeps its own shapes beside its views."""

from rest_framework import serializers

from rivals.errors import Invalid
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


class ErrorBody(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class ErrorOut(serializers.Serializer):
    error = ErrorBody()
