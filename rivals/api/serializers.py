"""The serializers every API layer shares: cleaned client text, the page parameters, the error body
and a plain ``{"detail"}``. Each feature keeps its own shapes beside its views."""

from django.core.validators import RegexValidator
from rest_framework import serializers

from rivals.errors import ERROR_CODES, Invalid
from rivals.text import SAFE_TEXT, clean_text


class StrictCharField(serializers.CharField):
    """Text, and only text: DRF's ``CharField`` turns a number into its digits, where the schema
    says ``string`` (a client sending ``46645`` for a name has a bug the answer should show)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictEmailField(serializers.EmailField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class CleanTextField(StrictCharField):
    """A client-chosen name or id, validated by ``rivals.text.clean_text`` (NFC, length, no
    control characters, BOMs or bidi overrides); the schema says the length limits."""

    def __init__(self, *, max_length: int, collapse_spaces: bool = True, **kwargs):
        self.collapse_spaces = collapse_spaces
        super().__init__(max_length=max_length, min_length=1, trim_whitespace=False, **kwargs)
        # the schema's pattern (what clean_text refuses, said in the schema; clean_text answers first)
        self.validators.append(RegexValidator(SAFE_TEXT))

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return clean_text(
                value, field=self.field_name, max_length=self.max_length, collapse_spaces=self.collapse_spaces
            )
        except Invalid as exc:
            raise serializers.ValidationError(exc.details[self.field_name]) from None


class QueryIn(serializers.Serializer):
    """A query string's parameters: one given empty (``?limit=``) is refused, not read as absent
    (DRF reads form-style input that way), since the schema says what each one holds."""

    def to_internal_value(self, data):
        empty = [
            name
            for name, field in self.fields.items()
            if name in data and data.get(name) == "" and not getattr(field, "allow_blank", False)
        ]
        if empty:
            raise serializers.ValidationError(
                {name: ["may not be empty: give a value or leave it out"] for name in empty}
            )
        return super().to_internal_value(data)


class PageIn(QueryIn):
    """``?limit=&offset=`` of every paginated list (API.md conventions)."""

    MAX_LIMIT = 100
    MAX_OFFSET = 1_000_000_000  # past any list we have; keeps the value inside PostgreSQL's bigint
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class PlayerRefOut(serializers.Serializer):
    """A player named in another answer (a ranking row, a club member, an opponent, a table seat)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()


class DetailOut(serializers.Serializer):
    detail = serializers.CharField()


class EventOut(serializers.Serializer):
    """An event of the log as a client may see it (its stream's version, type, data, time)."""

    version = serializers.IntegerField(help_text="its place in its stream (1, 2, …)")
    type = serializers.CharField(help_text="a past-tense noun: PairRemoved, RoundEnded …")
    data = serializers.DictField(help_text="the event's data; its shape depends on the type")
    recorded_at = serializers.DateTimeField()


class ErrorBody(serializers.Serializer):
    """In the schema: a union on ``code``, each code with its typed ``details``
    (``rivals.api.unions``, ``rivals.api.error_details``)."""

    code = serializers.ChoiceField(choices=ERROR_CODES, help_text="machine-readable (API.md conventions)")
    message = serializers.CharField(help_text="for people")
    details = serializers.DictField(help_text="what the code says of it (the current seq of a conflict …)")


class ErrorOut(serializers.Serializer):
    error = ErrorBody()


class NotificationOut(serializers.Serializer):
    """A notification (API.md Notifications). In the schema: a union on ``type``, each type with its
    typed ``data`` (``rivals.api.unions``, ``rivals.notification_types``)."""

    position = serializers.IntegerField(help_text="the event's position in the log (resume with since=)")
    type = serializers.CharField()
    at = serializers.DateTimeField()
    data = serializers.DictField()
