"""The event vocabulary: every event type with its payload type and its one typed constructor
(house style 6).

Each feature keeps its events in one module (``rivals/games/events.py`` …): a frozenset of its
type names and, per type, its payload — a ``TypedDict`` named ``<Type>Data`` (``PairRemovedData``):
the keys of its data at its current schema version — and a constructor named after it in snake_case
(``pair_removed`` builds ``PairRemoved``) with keyword-only, typed arguments, which builds that
payload and returns it in a ``NewEvent``. The feature registers them here from its app's
``ready()``; the platform imports no feature. Tools that describe the events (the OpenAPI schema's
union on ``type``, derived from the payloads) list them with ``registered()``; readers take an
event's data as its payload type (a step's argument: ``d: PairRemovedData``).
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeGuard

from django.core.exceptions import ImproperlyConfigured

from rivals.eventstore import NewEvent

INSTANT_MARK = "instant"
# An instant stored as an ISO 8601 string inside a row of event data (a ``TypedDict``'s key): the
# schema says ``date-time`` and the API answers it in one spelling (``rivals.api.times``).
# A constructor's own ``datetime`` arguments say it by their type.
Instant = typing.Annotated[str, INSTANT_MARK]
DAY_MARK = "day"
# a calendar day stored as an ISO 8601 date string (``2026-01-02``): the schema says ``date``
Day = typing.Annotated[str, DAY_MARK]


@dataclass(frozen=True)
class EventType:
    name: str  # the stored type, e.g. "PairRemoved"
    feature: str  # the app that registered it, e.g. "games"
    constructor: Callable[..., NewEvent]
    payload: type  # its data's TypedDict, e.g. PairRemovedData
    schema_version: int = 1


_TYPES: dict[str, EventType] = {}


def constructor_name(type_name: str) -> str:
    """``PairRemoved`` → ``pair_removed``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type_name).lower()


def payload_name(type_name: str) -> str:
    """``PairRemoved`` → ``PairRemovedData``."""
    return f"{type_name}Data"


def is_typed_dict(value: object) -> TypeGuard[type]:
    """Whether ``value`` is a ``TypedDict`` class (a payload, or a row of one)."""
    return isinstance(value, type) and issubclass(value, dict) and hasattr(value, "__required_keys__")


def required_keys(typed_dict: Any) -> list[str]:
    """A ``TypedDict``'s required keys, read from its hints (``__required_keys__`` misses a
    ``NotRequired`` written under ``from __future__ import annotations`` before Python 3.12)."""
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    out = []
    for key, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is typing.Required or (typed_dict.__total__ and origin is not typing.NotRequired):
            out.append(key)
    return out


def register(
    *, feature: str, types: Iterable[str], module: ModuleType, schema_versions: Mapping[str, int] | None = None
) -> None:
    """Register the payloads and constructors of ``types`` found in ``module`` (one each per type,
    by name).

    Refuses (``ImproperlyConfigured``) a type without a keyword-only constructor returning a
    ``NewEvent`` or without its payload ``TypedDict``, and a type another feature registered.
    Registering the same again is a no-op."""
    types, versions = frozenset(types), dict(schema_versions or {})
    unknown = set(versions) - types
    if unknown:
        raise ImproperlyConfigured(f"{feature}: schema versions of unknown event types {sorted(unknown)}")
    entries = []
    for name in sorted(types):
        constructor = getattr(module, constructor_name(name), None)
        if not callable(constructor):
            raise ImproperlyConfigured(f"{feature}: no constructor {module.__name__}.{constructor_name(name)}")
        params = inspect.signature(constructor).parameters.values()
        if any(p.kind is not inspect.Parameter.KEYWORD_ONLY for p in params):
            raise ImproperlyConfigured(f"{feature}: {constructor.__qualname__} takes keyword-only arguments only")
        payload = getattr(module, payload_name(name), None)
        if not is_typed_dict(payload):
            raise ImproperlyConfigured(f"{feature}: no payload TypedDict {module.__name__}.{payload_name(name)}")
        entry = EventType(name, feature, constructor, payload, versions.get(name, 1))
        known = _TYPES.get(name)
        if known is not None and known != entry:
            raise ImproperlyConfigured(f"event type {name} is registered by {known.feature} and {feature}")
        entries.append(entry)
    _TYPES.update((e.name, e) for e in entries)


def registered() -> list[EventType]:
    """Every registered event type, by feature then name."""
    return sorted(_TYPES.values(), key=lambda e: (e.feature, e.name))


def event_type(name: str) -> EventType:
    """The registered type ``name`` (``KeyError`` when no feature registered it)."""
    return _TYPES[name]
