"""Events in the OpenAPI schema: a discriminated union on ``type``, one schema per event type, with
the shape of its payload (``rivals.event_types``: every room registers its own).

An event type's payload — the ``TypedDict`` ``<Type>Data`` beside its constructor, which builds its
data as that type — is the one description of its data, so the schema is read from it: ``list[int]``
an array of integers, a ``TypedDict`` (a row of a list, a structured value) an object with its keys
(``NotRequired`` ones not required), ``Instant`` a ``date-time`` string, ``Day`` a ``date`` string,
``X | None`` nullable. Extra keys stay allowed: a schema version may add some. ``time_paths`` lists
where an event type's data holds instants, so that the API and the socket answer every time in one
spelling (``rivals.api.times``).
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from rivals import event_types

_UNTYPED = object()  # a type that says nothing of its values (``Any``, ``dict[str, Any]``): refused


def _annotated(hint: Any) -> tuple[Any, tuple]:
    """``hint`` without ``Annotated``'s extras (returned beside it) nor a ``TypedDict`` key's
    ``Required`` / ``NotRequired``."""
    if typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        return _annotated(typing.get_args(hint)[0])
    if typing.get_origin(hint) is typing.Annotated:
        base, *extras = typing.get_args(hint)
        return base, tuple(extras)
    return hint, ()


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "type": [schema["type"], "null"]}


# the scalar types event data holds, as JSON schema (lists are ``list[X]``; a payload that needs
# another container or type adds its case to ``hint_schema``)
_SCALARS = (
    (bool, {"type": "boolean"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (str, {"type": "string"}),
)  # instants and days are strings marked ``Instant`` / ``Day`` (rivals.event_types)


def hint_schema(hint: Any) -> Any:
    """The JSON schema of a Python type as stored in event data (``_UNTYPED`` where the type says
    nothing of its values)."""
    hint, extras = _annotated(hint)
    if event_types.INSTANT_MARK in extras:
        return {"type": "string", "format": "date-time"}
    if event_types.DAY_MARK in extras:
        return {"type": "string", "format": "date"}
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _union_schema(hint)
    if origin is list:
        items = hint_schema(typing.get_args(hint)[0])
        return _UNTYPED if items is _UNTYPED else {"type": "array", "items": items}
    if event_types.is_typed_dict(hint):
        return _typed_dict_schema(hint)
    # a scalar; anything else (``Any``, a ``Literal``, a ``dict``) is untyped, which ``data_schema``
    # refuses: a payload that needs one adds its case here
    return next((dict(schema) for scalar, schema in _SCALARS if hint is scalar), _UNTYPED)


def _union_schema(hint: Any) -> Any:
    """``X | None``: ``X``'s schema, nullable; any other union is untyped."""
    members = [a for a in typing.get_args(hint) if a is not type(None)]
    if len(members) != 1:
        return _UNTYPED
    schema = hint_schema(members[0])
    return _UNTYPED if schema is _UNTYPED else _nullable(schema)


def _typed_dict_schema(hint: Any) -> Any:
    hints = typing.get_type_hints(hint, include_extras=True)
    properties = {}
    for key, value in hints.items():
        schema = hint_schema(value)
        if schema is _UNTYPED:
            return _UNTYPED
        properties[key] = schema
    schema = {"type": "object", "properties": properties}
    required = event_types.required_keys(hint)
    if required:
        schema["required"] = required
    if hint.__doc__ and not hint.__doc__.startswith(f"{hint.__name__}("):
        schema["description"] = " ".join(hint.__doc__.split())
    return schema


def data_schema(entry: event_types.EventType) -> dict[str, Any]:
    """The JSON schema of ``entry``'s data: its payload's."""
    schema = _typed_dict_schema(entry.payload)
    if schema is _UNTYPED:
        raise ImproperlyConfigured(f"{entry.payload.__qualname__}: a key whose type says nothing of its values")
    return schema


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
