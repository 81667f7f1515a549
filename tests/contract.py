"""Every answer the suite's API tests receive is checked against the schema the service serves
(``/api/schema/``): its status must be declared for the operation, its content type and body must
conform. An answer that does not fails the test that received it — so the schema and the code
cannot drift apart unnoticed (issue 21). The schema is generated once per test session.

Opt out, for a test that calls something deliberately outside the contract, with
``@pytest.mark.no_contract``.
"""

from __future__ import annotations

import json
import re
from functools import cache

from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest

# API.md conventions: every time is UTC, spelled with ``Z`` and microseconds — a ``date-time`` of
# the schema in any other spelling (``+00:00``, no fraction) breaks the contract (issue 39)
ONE_TIME_SPELLING = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def _one_time_spelling(value) -> bool:
    return not isinstance(value, str) or bool(ONE_TIME_SPELLING.match(value))


@cache
def _openapi() -> OpenAPI:
    return OpenAPI.from_dict(served_schema(), config=Config(extra_format_validators={"date-time": _one_time_spelling}))


def _readable(response):
    """A streamed answer (the account's export) read whole for the check, and given back to the
    test as the same stream of bytes."""
    if not getattr(response, "streaming", False):
        return response
    from django.http import HttpResponse

    body = b"".join(response.streaming_content)
    response.streaming_content = [body]
    copy = HttpResponse(body, status=response.status_code, content_type=response["Content-Type"])
    for header, value in response.items():
        copy[header] = value
    return copy


def check_response(request, response) -> None:
    """Raise ``AssertionError`` when ``response`` (to ``request``) breaks the served schema."""
    path = request.path
    if not path.startswith("/api/v1/"):
        return
    response = _readable(response)
    try:
        # the request as far as finding its operation goes (its body is not read again: it may be
        # the too-large body a 413 answers)
        found = MockRequest("http://testserver", request.method.lower(), path)
        _openapi().validate_response(found, DjangoOpenAPIResponse(response))
    except (PathNotFound, OperationNotFound):
        return  # not an operation of the schema (the load benchmark's floor, a method a path lacks: 405)
    except Exception as exc:  # reported with the request and the answer
        cause = exc.__cause__
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in getattr(cause, "schema_errors", [])]
        raise AssertionError(
            f"{request.method} {path} answered {response.status_code} outside its schema: "
            f"{type(exc).__name__} {errors or repr(cause or exc)}\n{response.content[:300]!r}"
        ) from exc


@cache
def served_schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


def check_component(name: str, value) -> None:
    """Raise ``AssertionError`` when ``value`` is not a ``name`` of the served schema (its
    ``components/schemas``), times in the one spelling included — for what no REST answer carries
    (the live socket's messages)."""
    import jsonschema

    checker = jsonschema.FormatChecker()
    checker.checks("date-time")(_one_time_spelling)
    root = {"$ref": f"#/components/schemas/{name}", "components": served_schema()["components"]}
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in jsonschema.Draft202012Validator(root, format_checker=checker).iter_errors(value)
    ]
    assert not errors, f"{name}: {errors}"
