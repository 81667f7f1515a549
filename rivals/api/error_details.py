"""What an error's ``details`` hold, per error code (API.md conventions): a registry the rooms fill
with the fields their refusals carry, so that the schema's ``ErrorBody`` is a union on ``code``
with one typed ``details`` per code (``rivals.api.unions``) — a client reads the ``seq`` of a
``409 conflict`` or the ``retry_after_s`` of a ``429`` as typed fields.

Each room declares a serializer per code beside its serializers (``GamesNotAllowedDetails`` …)
and registers it from its app's ``ready()``; the fields of every room's shapes for one code are
merged (one key, one type: a key two rooms type differently is refused at start-up). The platform
registers the codes it answers itself (below). ``invalid``'s details are the refused fields, each
with its messages (``{"tiles": ["two tile ids"]}``); its shapes declare only the few keys that are
not a field (``part``). A key a shape does not declare makes the answer break the schema: the
suite's contract check names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers

from rivals.errors import ERROR_CODES

_SHAPES: dict[str, list[tuple[str, type[serializers.Serializer]]]] = {code: [] for code in ERROR_CODES}
# the codes whose details are a map of refused fields to their messages
FIELD_ERRORS = frozenset({"invalid"})


def register(*, feature: str, shapes: Mapping[str, type[serializers.Serializer]]) -> None:
    """Register ``feature``'s details shape for each of the codes in ``shapes``."""
    for code, shape in shapes.items():
        if code not in _SHAPES:
            raise ImproperlyConfigured(f"{feature}: unknown error code {code!r} (rivals.errors.ERROR_CODES)")
        if (feature, shape) not in _SHAPES[code]:
            _SHAPES[code].append((feature, shape))
            _check(code)
    fields.cache_clear()


def _kind(field) -> tuple:
    child = getattr(field, "child", None)
    return type(field).__name__, type(child).__name__ if child is not None else None


def _check(code: str) -> None:
    seen: dict[str, tuple[str, tuple]] = {}
    for feature, shape in _SHAPES[code]:
        for name, field in shape().fields.items():
            kind = _kind(field)
            if name in seen and seen[name][1] != kind:
                raise ImproperlyConfigured(
                    f"details.{name} of {code!r} is {seen[name][1][0]} for {seen[name][0]} and {kind[0]} for {feature}"
                )
            seen.setdefault(name, (feature, kind))


@cache
def fields(code: str) -> dict[str, serializers.Field]:
    """The merged fields of ``code``'s details (name → a fresh field), by name."""
    merged: dict[str, serializers.Field] = {}
    for _, shape in _SHAPES.get(code, []):
        for name, field in shape().fields.items():
            merged.setdefault(name, field)
    return dict(sorted(merged.items()))


# --- what the platform answers itself -------------------------------------------------------------


class RetryDetails(serializers.Serializer):
    retry_after_s = serializers.IntegerField(required=False, help_text="seconds to wait before sending it again")


class InvalidDetails(serializers.Serializer):
    part = serializers.CharField(
        required=False, allow_null=True, help_text="a malformed game code: the part that is wrong (T-9)"
    )


class ConflictDetails(RetryDetails):
    seq = serializers.IntegerField(
        required=False, help_text="a stale seq: the intents the game, round or table has accepted — resend with it"
    )
    stream = serializers.CharField(required=False, help_text="a concurrent writer: the stream it changed")
    expected_version = serializers.IntegerField(required=False)
    current_version = serializers.IntegerField(required=False)
    # an Idempotency-Key replay whose first answer carried a secret that is not kept: that answer's
    # status and its other fields
    replayed = serializers.BooleanField(required=False)
    status = serializers.IntegerField(required=False)
    account_id = serializers.IntegerField(required=False)
    created = serializers.BooleanField(required=False)
    idempotency_key = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="the key was used with another request"
    )


class ForbiddenDetails(serializers.Serializer):
    doing = serializers.CharField(
        required=False,
        help_text="a suspended account's refused act (R-38): display_name_change, club_found, club_join, report_file",
    )
    suspended_at = serializers.DateTimeField(required=False)


class UnauthenticatedDetails(serializers.Serializer):
    sign_in = serializers.CharField(required=False, help_text="password: the device is no longer linked (R-36)")


class NoDetails(serializers.Serializer):
    """Nothing more to say."""


register(
    feature="api",
    shapes={
        "invalid": InvalidDetails,
        "conflict": ConflictDetails,
        "throttled": RetryDetails,
        "unavailable": RetryDetails,
        "forbidden": ForbiddenDetails,
        "unauthenticated": UnauthenticatedDetails,
        "not_found": NoDetails,
        "method_not_allowed": NoDetails,
        "not_allowed": NoDetails,
        "no_jokers": NoDetails,
        "limit_reached": NoDetails,
        "not_eligible": NoDetails,
    },
)
