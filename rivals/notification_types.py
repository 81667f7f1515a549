"""The notification vocabulary (API.md "Notifications"): every notification type with the typed
shape of its ``data`` — a serializer declared beside where the room makes those notifications and
registered from its app's ``ready()`` (each room's ``notices`` module, beside who hears of what).
Adding a type anywhere is one registration; the schema's ``Notification`` union on ``type``
(``rivals.api.unions``) and the one time spelling of notification data (``data_view``, used by
REST and the socket alike) are read from here. The platform imports no room.

A shape's fields are what its data holds, each typed (``DateTimeField`` for an instant); a key the
shape does not declare makes the answer break the schema (the suite's contract check says which),
so a new key is declared where it is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers

from rivals.api.times import times_z


@dataclass(frozen=True)
class NotificationType:
    name: str  # e.g. "duel_challenged"
    feature: str  # the room that registered it
    shape: type[serializers.Serializer]  # its data


_TYPES: dict[str, NotificationType] = {}


def register(*, feature: str, shapes: Mapping[str, type[serializers.Serializer]]) -> None:
    """Register the data shape of each notification type of ``feature`` (a type another room
    registered is refused; registering the same again is a no-op)."""
    for name, shape in shapes.items():
        if not (isinstance(shape, type) and issubclass(shape, serializers.Serializer)):
            raise ImproperlyConfigured(f"{feature}: the shape of {name} is not a serializer")
        entry = NotificationType(name, feature, shape)
        known = _TYPES.get(name)
        if known is not None and known != entry:
            raise ImproperlyConfigured(f"notification type {name} is registered by {known.feature} and {feature}")
        _TYPES[name] = entry
    time_paths.cache_clear()


def registered() -> list[NotificationType]:
    """Every registered notification type, by name."""
    return sorted(_TYPES.values(), key=lambda t: t.name)


def names() -> list[str]:
    return [t.name for t in registered()]


def _field_time_paths(field, prefix: tuple) -> list[tuple]:
    if isinstance(field, serializers.DateTimeField):
        return [prefix]
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        return _field_time_paths(field.child, (*prefix, "*"))
    if isinstance(field, serializers.Serializer):
        return [p for key, sub in field.fields.items() for p in _field_time_paths(sub, (*prefix, key))]
    return []


@cache
def time_paths(name: str) -> tuple[tuple, ...]:
    """Where the data of notifications of type ``name`` holds instants."""
    entry = _TYPES.get(name)
    return tuple(_field_time_paths(entry.shape(), ())) if entry else ()


def data_view(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A notification's data as REST and the socket answer it: its instants in the one spelling
    (a notification made before that spelling stored ``+00:00``)."""
    paths = time_paths(name)
    return times_z(data, paths) if paths else data
