"""Events in the OpenAPI schema: a discriminated union on ``type``, one schema per event type, with
the shape its typed constructor writes (``rivals.event_types``: every room registers its own).

A constructor is the one place an event's data is made, so the shape is read from it: it is called
twice with placeholder values of its argument types — once with only its required arguments, once
with every argument given — and the data it returns is described: keys present in both are
required, keys that only the second call writes are optional, a value that is ``None`` in either
call is nullable. Placeholders are values of the declared types, never stored anywhere. A key's
nested lists and objects are described as arrays and objects (their items are documented with the
event type where they matter). Extra keys stay allowed: a schema version may add some.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
import uuid
from collections import abc
from functools import cache
from typing import Any

from rivals import event_types

_PLACEHOLDERS: dict[Any, Any] = {
    bool: True,
    int: 1,
    float: 1.5,
    str: "x",
    dt.datetime: dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    dt.date: dt.date(2026, 1, 1),
    uuid.UUID: uuid.UUID(int=1),
}


def _placeholder(hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        choices = [a for a in typing.get_args(hint) if a is not type(None)]
        return _placeholder(choices[0]) if choices else None
    if origin in (list, tuple, set, frozenset, abc.Sequence, abc.Iterable, abc.Collection) or hint in (list, tuple):
        return []
    if origin in (dict, abc.Mapping) or hint is dict:
        return {}
    if origin is typing.Literal:
        return typing.get_args(hint)[0]
    return _PLACEHOLDERS.get(hint)


def _admits_none(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)


def _json_type(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    if isinstance(value, list | tuple):
        return {"type": "array", "items": {}}
    if isinstance(value, dict):
        return {"type": "object"}
    return {}


def data_schema(entry: event_types.EventType) -> dict[str, Any]:
    """The JSON schema of ``entry``'s data, read from its constructor (free-form if it cannot be)."""
    hints = entry.hints()
    params = entry.signature.parameters
    required_args = {n: _placeholder(hints[n]) for n, p in params.items() if p.default is p.empty}
    all_args = {n: _placeholder(hints[n]) for n in params}
    try:
        least = entry.constructor(**required_args).data
        most = entry.constructor(**all_args).data
    except Exception:  # noqa: BLE001 - a constructor that checks its values: documented as free-form
        return {"type": "object"}
    properties = {}
    for key in dict.fromkeys([*most, *least]):
        sample = most.get(key, least.get(key))
        schema = _json_type(sample if sample is not None else least.get(key))
        nullable = least.get(key, 0) is None or most.get(key, 0) is None or _admits_none(hints.get(key))
        if nullable and schema:
            schema = {"type": [schema["type"], "null"], **{k: v for k, v in schema.items() if k != "type"}}
        properties[key] = schema
    required = [key for key in least if key in most]
    return {"type": "object", "properties": properties, "required": required}


@cache
def event_components() -> dict[str, dict[str, Any]]:
    """``{"<Type>Event": schema}`` for every registered event type."""
    components = {}
    for entry in sorted(event_types.registered(), key=lambda e: e.name):
        components[f"{entry.name}Event"] = {
            "type": "object",
            "description": f"{entry.name} (the {entry.feature} room's; schema version {entry.schema_version})",
            "properties": {
                "version": {"type": "integer", "description": "its place in its stream (1, 2, …)"},
                "type": {"type": "string", "enum": [entry.name]},
                "data": data_schema(entry),
                "recorded_at": {"type": "string", "format": "date-time"},
            },
            "required": ["version", "type", "data", "recorded_at"],
        }
    return components


def events_as_a_union(result, generator, request, public):
    """drf-spectacular postprocessing hook: the ``Event`` component becomes the union on ``type``
    of one component per event type."""
    schemas = result.get("components", {}).get("schemas", {})
    if "Event" not in schemas:
        return result
    components = event_components()
    schemas.update(components)
    schemas["Event"] = {
        "description": "An event of the log as a client may see it: one shape per type",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in components],
        "discriminator": {
            "propertyName": "type",
            "mapping": {name.removesuffix("Event"): f"#/components/schemas/{name}" for name in components},
        },
    }
    return result
