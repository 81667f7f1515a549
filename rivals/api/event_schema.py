"""Events in the OpenAPI schema: a discriminated union on ``type``, one schema per event type, with
the shape its typed constructor writes (``rivals.event_types``: every room registers its own).

A constructor is the one place an event's data is made, so the shape is read from it, in two ways:

- **its argument types**: a key the constructor stores under its argument's name is described by
  that argument's type — ``list[int]`` an array of integers, a ``TypedDict`` (a row of a list, a
  structured value: declared beside the constructor) an object with its keys, ``datetime`` a
  ``date-time`` string, ``X | None`` nullable;
- **its output**: it is called twice with placeholder values of its argument types — once with only
  its required arguments, once with every argument given (lists with one item, rows with every
  key) — and a key the arguments do not name (a setting spread into the data, a time stored under
  another name) is described from the data it returned: keys present in both calls are required,
  a value that is ``None`` in either call is nullable, a string that is the placeholder instant is
  a ``date-time``.

Placeholders are values of the declared types, never stored anywhere. Extra keys stay allowed: a
schema version may add some. ``time_paths`` lists where an event type's data holds instants, so that
the API and the socket answer every time in one spelling (``rivals.api.times``).
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

INSTANT = dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)
_INSTANT_SPELLINGS = frozenset({INSTANT.isoformat(), INSTANT.isoformat().replace("+00:00", "Z")})
DAY = dt.date(2026, 1, 2)

_PLACEHOLDERS: dict[Any, Any] = {
    bool: True,
    int: 1,
    float: 1.5,
    str: "x",
    dt.datetime: INSTANT,
    dt.date: DAY,
    uuid.UUID: uuid.UUID(int=1),
}
_SEQUENCES = (list, tuple, set, frozenset, abc.Sequence, abc.Iterable, abc.Collection)
_UNTYPED = object()  # a type that says nothing of its values (``Any``, ``dict[str, Any]``)


def _is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__required_keys__")


def _required_keys(typed_dict: Any) -> list[str]:
    """A ``TypedDict``'s required keys, read from its hints (``__required_keys__`` misses a
    ``NotRequired`` written under ``from __future__ import annotations`` before Python 3.12)."""
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    out = []
    for key, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is typing.Required or (typed_dict.__total__ and origin is not typing.NotRequired):
            out.append(key)
    return out


def _annotated(hint: Any) -> tuple[Any, tuple]:
    """``hint`` without ``Annotated``'s extras (returned beside it) nor a ``TypedDict`` key's
    ``Required`` / ``NotRequired``."""
    if typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        return _annotated(typing.get_args(hint)[0])
    if typing.get_origin(hint) is typing.Annotated:
        base, *extras = typing.get_args(hint)
        return base, tuple(extras)
    return hint, ()


def _placeholder(hint: Any, full: bool = True) -> Any:
    hint, extras = _annotated(hint)
    if event_types.INSTANT_MARK in extras:
        return INSTANT.isoformat()
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        choices = [a for a in typing.get_args(hint) if a is not type(None)]
        return _placeholder(choices[0], full) if choices else None
    if origin in _SEQUENCES or hint in (list, tuple):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return [_placeholder(args[0], full)] if full and args else []
    if _is_typed_dict(hint):
        hints = typing.get_type_hints(hint, include_extras=True)
        keys = hints if full else _required_keys(hint)
        return {k: _placeholder(hints[k], full) for k in keys}
    if origin in (dict, abc.Mapping) or hint is dict:
        return {}
    if origin is typing.Literal:
        return typing.get_args(hint)[0]
    return _PLACEHOLDERS.get(hint)


def _admits_none(hint: Any) -> bool:
    hint, _ = _annotated(hint)
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema:
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]} if {"type": "null"} not in schema["anyOf"] else schema
    kind = schema.get("type")
    if kind is None or kind == "null" or (isinstance(kind, list) and "null" in kind):
        return schema
    return {**schema, "type": [kind, "null"]}


# the scalar types event data holds, as JSON schema
_SCALARS = (
    (bool, {"type": "boolean"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (str, {"type": "string"}),
    (dt.datetime, {"type": "string", "format": "date-time"}),
    (dt.date, {"type": "string", "format": "date"}),
    (uuid.UUID, {"type": "string", "format": "uuid"}),
)


def hint_schema(hint: Any) -> Any:
    """The JSON schema of a Python type as stored in event data (``_UNTYPED`` where the type says
    nothing of its values)."""
    hint, extras = _annotated(hint)
    if event_types.INSTANT_MARK in extras:
        return {"type": "string", "format": "date-time"}
    origin = typing.get_origin(hint)
    if hint is typing.Any:
        return _UNTYPED
    if origin in (typing.Union, types.UnionType):
        return _union_schema(hint)
    if origin is typing.Literal:
        values = list(typing.get_args(hint))
        return {"type": _json_type(values[0])["type"], "enum": values}
    if origin in _SEQUENCES or hint in (list, tuple):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = hint_schema(args[0]) if args else _UNTYPED
        return _UNTYPED if items is _UNTYPED else {"type": "array", "items": items}
    if _is_typed_dict(hint):
        return _typed_dict_schema(hint)
    if origin in (dict, abc.Mapping):
        args = typing.get_args(hint)
        values = hint_schema(args[1]) if len(args) == 2 else _UNTYPED
        return _UNTYPED if values is _UNTYPED else {"type": "object", "additionalProperties": values}
    return next((dict(schema) for scalar, schema in _SCALARS if hint is scalar), _UNTYPED)


def _union_schema(hint: Any) -> Any:
    members = [a for a in typing.get_args(hint) if a is not type(None)]
    schemas = [hint_schema(m) for m in members]
    if _UNTYPED in schemas:
        return _UNTYPED
    kinds = {s.get("type") for s in schemas}
    if len(kinds) == 1 and None not in kinds:  # UUID | str: a string (of either spelling)
        first = dict(schemas[0])
        if any(s != schemas[0] for s in schemas):
            first.pop("format", None)
        schema = first
    else:
        schema = {"anyOf": schemas}
    return _nullable(schema) if len(members) < len(typing.get_args(hint)) else schema


def _typed_dict_schema(hint: Any) -> Any:
    hints = typing.get_type_hints(hint, include_extras=True)
    properties = {}
    for key, value in hints.items():
        schema = hint_schema(value)
        if schema is _UNTYPED:
            return _UNTYPED
        properties[key] = schema
    schema = {"type": "object", "properties": properties}
    required = _required_keys(hint)
    if required:
        schema["required"] = required
    if hint.__doc__ and not hint.__doc__.startswith(f"{hint.__name__}("):
        schema["description"] = " ".join(hint.__doc__.split())
    return schema


def _json_type(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        if value in _INSTANT_SPELLINGS:
            return {"type": "string", "format": "date-time"}
        if value == DAY.isoformat():
            return {"type": "string", "format": "date"}
        return {"type": "string"}
    return {}


_ABSENT = object()


def described(most: Any, least: Any = _ABSENT) -> dict[str, Any]:
    """The schema of a value from the two samples of it (``least``: the required-arguments call's,
    ``_ABSENT`` when that call did not write it)."""
    sample = most if most is not None else (None if least is _ABSENT else least)
    nullable = most is None or least is None
    if isinstance(sample, dict):
        other = least if isinstance(least, dict) else {}
        schema = {
            "type": "object",
            "properties": {
                k: described(sample.get(k), other.get(k, _ABSENT)) for k in dict.fromkeys([*sample, *other])
            },
        }
        required = [k for k in sample if k in other]
        if required:
            schema["required"] = required
    elif isinstance(sample, list | tuple):
        first = next(iter(sample), None)
        other = least[0] if isinstance(least, list | tuple) and least else _ABSENT
        schema = {"type": "array", "items": described(first, other) if first is not None else {}}
    else:
        schema = _json_type(sample)
    return _nullable(schema) if nullable and schema else schema


def _agrees(schema: dict[str, Any], value: Any) -> bool:
    import jsonschema

    return jsonschema.Draft202012Validator(schema, format_checker=None).is_valid(value)


def data_schema(entry: event_types.EventType) -> dict[str, Any]:
    """The JSON schema of ``entry``'s data, read from its constructor (free-form if it cannot be)."""
    hints = entry.hints()
    params = entry.signature.parameters
    required = [n for n, p in params.items() if p.default is p.empty]
    # the least call: the required arguments only, ``None`` where the type admits it (a key stored
    # under another name than its argument's — Sichuan's ``from`` — is then seen to be nullable)
    least_args = {n: None if _admits_none(hints[n]) else _placeholder(hints[n], full=False) for n in required}
    all_args = {n: _placeholder(hints[n]) for n in params}
    try:
        most = entry.constructor(**all_args).data
        try:
            least = entry.constructor(**least_args).data
        except Exception:  # a constructor that needs a value where None is admitted
            least = entry.constructor(**{n: _placeholder(hints[n], full=False) for n in required}).data
    except Exception:  # a constructor that checks its values: documented as free-form
        return {"type": "object", "description": "free-form: the constructor refused placeholder values"}
    # a TypedDict argument spread into the data (a tournament's settings, a joker change's ref)
    # says the types of its keys
    spread = {}
    for name, hint in hints.items():
        bare = _annotated(hint)[0]
        if typing.get_origin(bare) in (typing.Union, types.UnionType):
            bare = next(a for a in typing.get_args(bare) if a is not type(None))
        if _is_typed_dict(bare) and name not in most:
            spread.update(typing.get_type_hints(bare, include_extras=True))
    hints = {**spread, **hints}
    properties = {}
    for key in dict.fromkeys([*most, *least]):
        schema = hint_schema(hints[key]) if key in hints else _UNTYPED
        value = most.get(key, least.get(key))
        if schema is _UNTYPED or not _agrees(schema, value):
            schema = described(most.get(key, least.get(key)), least.get(key, _ABSENT))
        if key in least and least[key] is None or key in hints and _admits_none(hints[key]):
            schema = _nullable(schema)
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


def schema_time_paths(schema: dict[str, Any], prefix: tuple = ()) -> list[tuple]:
    """Where ``schema`` holds ``date-time`` strings: key paths, ``"*"`` for an array's items."""
    if schema.get("format") == "date-time":
        return [prefix]
    paths = []
    for key, sub in schema.get("properties", {}).items():
        paths += schema_time_paths(sub, (*prefix, key))
    if isinstance(schema.get("items"), dict):
        paths += schema_time_paths(schema["items"], (*prefix, "*"))
    for sub in schema.get("anyOf", []):
        paths += schema_time_paths(sub, prefix)
    return paths


@cache
def time_paths(type_name: str) -> tuple[tuple, ...]:
    """Where the data of events of ``type_name`` holds instants (none for an unknown type)."""
    component = event_components().get(f"{type_name}Event")
    return tuple(schema_time_paths(component["properties"]["data"])) if component else ()


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


def event_union(
    auto_schema, *, features: tuple[str, ...], suffix: str, fields: dict, data_of, seen_as: str, description: str
) -> dict:
    """A union on ``type`` of the event types of ``features``, one component ``<Type><suffix>`` each —
    for answers that show events their own way (a Sichuan seat's view, an account's export): an
    object of ``fields`` (the envelope's other properties, all required), its ``type`` and its
    ``data`` (``data_of(type name, the event's data schema)``). Registered with drf-spectacular's
    ``auto_schema``; ``seen_as`` ends each component's description."""
    from drf_spectacular.plumbing import ResolvedComponent

    components, refs = event_components(), {}
    for entry in sorted(event_types.registered(), key=lambda e: e.name):
        if entry.feature not in features:
            continue
        name = f"{entry.name}{suffix}"
        data = data_of(entry.name, components[f"{entry.name}Event"]["properties"]["data"])
        properties = {"type": {"type": "string", "enum": [entry.name]}, **fields, "data": data}
        schema = {
            "type": "object",
            "description": f"{entry.name} {seen_as}",
            "properties": properties,
            "required": list(properties),
        }
        component = ResolvedComponent(name, ResolvedComponent.SCHEMA, schema=schema, object=name)
        auto_schema.registry.register_on_missing(component)
        refs[entry.name] = component.ref
    return {
        "description": description,
        "oneOf": list(refs.values()),
        "discriminator": {"propertyName": "type", "mapping": {k: r["$ref"] for k, r in refs.items()}},
    }
