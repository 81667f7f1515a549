"""Two unions of the schema read from the rooms' registries when the schema is made (so a room that
adds a notification type or an error's field adds it with one registration):

- ``ErrorBody``: one shape per error code, discriminated by ``code``, each with its typed
  ``details`` (``rivals.api.error_details``);
- ``Notification``: one shape per notification type, discriminated by ``type``, each with its
  typed ``data`` (``rivals.notification_types``) — the REST page's and the socket's alike.

Details and notification data say every key they may hold (``additionalProperties: false``): a key
the server writes and no shape declares breaks the schema, and the suite's contract check names it.
``invalid``'s details are a map of refused fields to their messages (``additionalProperties``: an
array of strings) beside the few keys its shapes declare.
"""

from __future__ import annotations

from functools import cache

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from rivals import notification_types
from rivals.api import error_details
from rivals.errors import ERROR_CODES


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


@cache
def _error_serializers(code: str) -> tuple[type[serializers.Serializer], type[serializers.Serializer]]:
    details = type(f"{_camel(code)}Details", (serializers.Serializer,), dict(error_details.fields(code)))
    body = type(
        f"{_camel(code)}Error",
        (serializers.Serializer,),
        {
            "code": serializers.CharField(),
            "message": serializers.CharField(help_text="for people"),
            "details": details(),
        },
    )
    return body, details


@cache
def _notification_serializers(name: str) -> tuple[type[serializers.Serializer], type[serializers.Serializer]]:
    entry = next(t for t in notification_types.registered() if t.name == name)
    return entry.shape, type(
        f"{_camel(name)}Notification",
        (serializers.Serializer,),
        {
            "position": serializers.IntegerField(help_text="the event's position in the log (resume with since=)"),
            "type": serializers.CharField(),
            "at": serializers.DateTimeField(),
            "data": entry.shape(),
        },
    )


def _closed(component, discriminator: str, value: str) -> None:
    schema = component.schema
    schema["properties"][discriminator] = {"type": "string", "enum": [value]}
    schema["required"] = sorted(set(schema.get("required", [])) | {discriminator})


def _union(refs: dict[str, dict], discriminator: str, description: str) -> dict:
    return {
        "description": description,
        "oneOf": list(refs.values()),
        "discriminator": {"propertyName": discriminator, "mapping": {k: r["$ref"] for k, r in refs.items()}},
    }


class ErrorBodyUnion(OpenApiSerializerExtension):
    target_class = "rivals.api.serializers.ErrorBody"

    def map_serializer(self, auto_schema, direction):
        refs = {}
        for code in ERROR_CODES:
            body, details = _error_serializers(code)
            shape = auto_schema.resolve_serializer(details, direction)
            component = auto_schema.resolve_serializer(body, direction)
            _closed(component, "code", code)
            if code in error_details.FIELD_ERRORS:
                extra = {
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    "description": "the refused fields, each with its messages",
                }
            else:
                extra = {"additionalProperties": False}
            if shape.schema is None:  # a code whose details are always empty
                component.schema["properties"]["details"] = {"type": "object", "properties": {}, **extra}
            else:
                shape.schema.update(extra)
            refs[code] = component.ref
        return _union(refs, "code", "An error: its shape, and what its details hold, depend on its code")


class NotificationUnion(OpenApiSerializerExtension):
    target_class = "rivals.api.serializers.NotificationOut"

    def map_serializer(self, auto_schema, direction):
        refs = {}
        for name in notification_types.names():
            data, notification = _notification_serializers(name)
            auto_schema.resolve_serializer(data, direction).schema["additionalProperties"] = False
            component = auto_schema.resolve_serializer(notification, direction)
            _closed(component, "type", name)
            refs[name] = component.ref
        return _union(refs, "type", "A notification of the caller's (API.md Notifications): one shape per type")
