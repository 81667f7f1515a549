"""Every answer the suite's API tests receive is checked against the schema the service serves
(``/api/schema/``): its status must be declared for the operation, its content type and body must
conform. An answer that does not fails the test that received it — so the schema and the code
cannot drift apart unnoticed (issue 21). The schema is generated once per test session.

Opt out, for a test that calls something deliberately outside the contract, with
``@pytest.mark.no_contract``.
"""

from __future__ import annotations

import json
from functools import cache

from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest


@cache
def _openapi() -> OpenAPI:
    from drf_spectacular.generators import SchemaGenerator

    schema = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))
    return OpenAPI.from_dict(schema)


def check_response(request, response) -> None:
    """Raise ``AssertionError`` when ``response`` (to ``request``) breaks the served schema."""
    path = request.path
    if not path.startswith("/api/v1/"):
        return
    try:
        # the request as far as finding its operation goes (its body is not read again: it may be
        # the too-large body a 413 answers)
        found = MockRequest("http://testserver", request.method.lower(), path)
        _openapi().validate_response(found, DjangoOpenAPIResponse(response))
    except (PathNotFound, OperationNotFound):
        return  # not an operation of the schema (the load benchmark's floor, a method a path lacks: 405)
    except Exception as exc:  # noqa: BLE001 - reported with the request and the answer
        cause = exc.__cause__
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in getattr(cause, "schema_errors", [])]
        raise AssertionError(
            f"{request.method} {path} answered {response.status_code} outside its schema: "
            f"{type(exc).__name__} {errors or repr(cause or exc)}\n{response.content[:300]!r}"
        ) from exc
