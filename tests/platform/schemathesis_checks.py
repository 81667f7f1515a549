"""A check schemathesis runs in place of its ``negative_data_rejection`` (schemathesis.toml turns
the built-in one off): the same check, but a case whose only "negative" part is its body, and whose
body the operation's whole request schema accepts, is not negative data.

Why: schemathesis makes a negative body by mutating one branch of a ``oneOf``; the result may be a
valid instance of another branch (``POST /games``: ``mode`` mutated away from ``single`` in the
single player branch gives ``{"mode": "classic", "level": 3}``, a valid classic game whose
``level`` is an ignored, undeclared property). The server is right to accept it.

Loaded by the suite (tests/platform/test_schemathesis.py imports it) and by the CLI run of
``make fuzz`` (``SCHEMATHESIS_HOOKS``, tests/perf/fuzz_live.py).
"""

from __future__ import annotations

import json

import jsonschema
import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import negative_data_rejection

_OTHER_LOCATIONS = (ParameterLocation.PATH, ParameterLocation.QUERY, ParameterLocation.HEADER, ParameterLocation.COOKIE)


@schemathesis.check
def negative_data_rejection_whole_schema(ctx, response, case):
    if _only_the_body_is_negative(case) and _schema_accepts_body(case):
        return None
    return negative_data_rejection(ctx, response, case)


def _only_the_body_is_negative(case) -> bool:
    meta = case.meta
    return (
        meta is not None
        and meta.is_negative_at(ParameterLocation.BODY)
        and not any(meta.is_negative_at(location) for location in _OTHER_LOCATIONS)
    )


def _schema_accepts_body(case) -> bool:
    raw = case.operation.schema.raw_schema
    operation = raw["paths"][case.operation.path][case.method.lower()]
    media = (case.media_type or "application/json").split(";")[0]
    schema = operation.get("requestBody", {}).get("content", {}).get(media, {}).get("schema")
    if schema is None:
        return False
    key = (id(raw), json.dumps(schema, sort_keys=True))
    if key not in _VALIDATORS:
        # the body's schema with the document's components beside it, so that its $refs resolve
        document = {**schema, "components": raw.get("components", {})}
        _VALIDATORS[key] = jsonschema.Draft202012Validator(
            document, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
    return _VALIDATORS[key].is_valid(case.body)


_VALIDATORS: dict[tuple[int, str], jsonschema.Validator] = {}
