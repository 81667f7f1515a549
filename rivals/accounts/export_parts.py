"""The accounts room's parts of a player's export (``rivals.accounts.export``): the account itself
(profile and identity), its display names over time (sealed names opened with the account's key),
its jokers, and the events of its own stream — what the player may see of each."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from rivals.accounts.events import (
    ACCOUNT_CLOSED,
    ACCOUNT_CREATED,
    DISPLAY_NAME_CHANGED,
    DISPLAY_NAME_RESET,
    JOKERS_CHANGED,
)
from rivals.accounts.export import Subject, chunked
from rivals.api.times import event_data_view
from rivals.models import AccessToken, Event
from rivals.personal import unseal

# never in an export: secrets (a token's reference is a hash of it; a legacy event's device id) and
# an operator's own words (API.md Notifications: "the operator's own note never leaves the admin")
SECRET_KEYS = frozenset({"token", "device_id"})
OPERATOR_WORDS = frozenset({"note"})
OPERATOR_REASON = frozenset(
    {"AccountSuspended", "AccountSuspensionLifted", DISPLAY_NAME_RESET, ACCOUNT_CLOSED, "FairPlayFlagReviewed"}
)
SEALED = {"display_name_sealed": "display_name", "previous_name_sealed": "previous_name"}


def by_whom(actor: str | None, account_id: int) -> str:
    """An event's actor as the export names it: ``you``, ``operator`` (never which one: an
    operator's identity is not the player's data), ``system``, or the service that acted."""
    if not actor or actor == f"account:{account_id}":
        return "you"
    if actor.startswith("operator:"):
        return "operator"
    return actor.split(":", 1)[0]


def _withheld(type_name: str, key: str) -> bool:
    return key in SECRET_KEYS or key in OPERATOR_WORDS or (key == "reason" and type_name in OPERATOR_REASON)


def event_as_exported(event: Event, account_id: int) -> dict[str, Any]:
    """One event of the account's own stream: its data as the API spells it, secrets and
    operators' words left out, sealed names opened."""
    data = {}
    for key, value in event_data_view(event.type, event.data).items():
        if _withheld(event.type, key):
            continue
        if key in SEALED:
            data[SEALED[key]] = unseal({key: value}, account_id=account_id, field=SEALED[key].replace("previous_", ""))
            continue
        data[key] = value
    return {
        "version": event.version,
        "type": event.type,
        "at": event.recorded_at,
        "by": by_whom((event.metadata or {}).get("actor"), account_id),
        "data": data,
    }


def _stream(subject: Subject, types: tuple[str, ...] | None = None):
    qs = Event.objects.filter(stream_id=subject.account.stream_id).only(
        "version", "type", "data", "metadata", "recorded_at"
    )
    if types:
        qs = qs.filter(type__in=types)
    return chunked(qs, order=("version",))


# --- the account --------------------------------------------------------------------------------


class ExportedAccount(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["active", "suspended", "closed"])
    display_name = serializers.CharField(allow_null=True)
    email = serializers.EmailField(allow_null=True, help_text="your own, verified or not")
    email_verified = serializers.BooleanField()
    pending_email = serializers.EmailField(allow_null=True, help_text="an address waiting for its verification")
    joined_at = serializers.DateTimeField(allow_null=True)
    last_login = serializers.DateTimeField(allow_null=True)
    jokers = serializers.IntegerField(allow_null=True)
    device_linked = serializers.BooleanField(help_text="a guest device signs in to this account")
    signed_in_devices = serializers.IntegerField(help_text="tokens that sign in now (never the tokens)")
    suspended_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)


def account_part(subject: Subject) -> dict[str, Any]:
    a = subject.account
    status = "closed" if a.closed_at else "suspended" if a.suspended_at else "active"
    if subject.erased:
        empty = dict.fromkeys(("display_name", "email", "pending_email", "joined_at", "last_login", "jokers"))
        return {
            "id": a.pk,
            "status": status,
            **empty,
            "email_verified": False,
            "device_linked": False,
            "signed_in_devices": 0,
            "suspended_at": None,
            "closed_at": a.closed_at,
        }
    return {
        "id": a.pk,
        "status": status,
        "display_name": a.display_name,
        "email": a.email,
        "email_verified": a.email_verified,
        "pending_email": a.pending_email,
        "joined_at": a.date_joined,
        "last_login": a.last_login,
        "jokers": a.jokers,
        "device_linked": a.device_id is not None and a.device_unlinked_at is None,
        "signed_in_devices": AccessToken.objects.filter(account=a).count(),
        "suspended_at": a.suspended_at,
        "closed_at": a.closed_at,
    }


# --- display names ------------------------------------------------------------------------------


class ExportedDisplayName(serializers.Serializer):
    display_name = serializers.CharField(allow_null=True, help_text="null: no longer readable")
    at = serializers.DateTimeField()
    by = serializers.CharField(help_text="you, or operator (a reset to a neutral name, R-39)")


def display_names(subject: Subject):
    account_id = subject.account.pk
    for event in _stream(subject, (ACCOUNT_CREATED, DISPLAY_NAME_CHANGED, DISPLAY_NAME_RESET)):
        shown = event_as_exported(event, account_id)
        yield {"display_name": shown["data"].get("display_name"), "at": event.recorded_at, "by": shown["by"]}


# --- jokers -------------------------------------------------------------------------------------


class ExportedJokerChange(serializers.Serializer):
    delta = serializers.IntegerField()
    reason = serializers.CharField(help_text="joker_used, daily_bonus, purchase, refund, operator_grant …")
    at = serializers.DateTimeField()
    by = serializers.CharField()
    game_id = serializers.UUIDField(required=False)
    day = serializers.DateField(required=False)
    streak = serializers.IntegerField(required=False)
    transaction_id = serializers.CharField(required=False)
    product = serializers.CharField(required=False)


def jokers(subject: Subject):
    account_id = subject.account.pk
    for event in _stream(subject, (JOKERS_CHANGED,)):
        shown = event_as_exported(event, account_id)
        data = {k: v for k, v in shown["data"].items() if k not in ("account_id",)}
        yield {**data, "at": shown["at"], "by": shown["by"]}


# --- the account's own events ---------------------------------------------------------------------


# the rooms whose events are appended to an account's own stream (``account-<id>``)
ACCOUNT_STREAM_FEATURES = ("accounts", "fairplay", "purchases")


class ExportedEvent(serializers.Serializer):
    """In the schema: a union on ``type`` of the account stream's event types, each with its data
    as exported (``ExportedEvents``)."""

    version = serializers.IntegerField(help_text="its place in the account's stream")
    type = serializers.CharField()
    at = serializers.DateTimeField()
    by = serializers.CharField(help_text="you, operator, system, or the service that acted")
    data = serializers.DictField()


def exported_data_schema(type_name: str, data: dict) -> dict:
    """The schema of an event's data as exported, from the event's own (``event_as_exported``)."""
    properties, required = {}, []
    for key, schema in data.get("properties", {}).items():
        if _withheld(type_name, key):
            continue
        name = SEALED.get(key, key)
        properties[name] = {"type": ["string", "null"]} if key in SEALED else schema
        if key in data.get("required", []):
            required.append(name)
    return {"type": "object", "properties": properties, "required": required}


class ExportedEvents(OpenApiSerializerExtension):
    target_class = ExportedEvent

    def map_serializer(self, auto_schema, direction):
        from rivals.api.event_schema import event_union

        return event_union(
            auto_schema,
            features=ACCOUNT_STREAM_FEATURES,
            suffix="Exported",
            fields={
                "version": {"type": "integer", "description": "its place in the account's stream"},
                "at": {"type": "string", "format": "date-time"},
                "by": {"type": "string", "description": "you, operator, system, or the service that acted"},
            },
            data_of=exported_data_schema,
            seen_as="as your export shows it",
            description="An event of your account's own stream as your export shows it: one shape per type",
        )


def account_events(subject: Subject):
    account_id = subject.account.pk
    for event in _stream(subject):
        yield event_as_exported(event, account_id)


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="account",
        feature="accounts",
        rows=account_part,
        shape=ExportedAccount,
        many=False,
        order=0,
        description="profile and identity (R-36, R-37)",
    )
    register_export_part(
        name="display_names",
        feature="accounts",
        rows=display_names,
        shape=ExportedDisplayName,
        order=1,
        description="every display name the account had, oldest first",
    )
    register_export_part(
        name="jokers",
        feature="accounts",
        rows=jokers,
        shape=ExportedJokerChange,
        order=40,
        description="every change of the joker balance (R-11)",
    )
    register_export_part(
        name="events",
        feature="accounts",
        rows=account_events,
        shape=ExportedEvent,
        order=90,
        description="the events of the account's own stream (account-<id>), oldest first",
    )
