"""Schemathesis over the whole OpenAPI schema: every operation, present and future.

Bounded and deterministic: hypothesis is derandomized (a fixed seed per operation) with a fixed
number of examples per operation; calls go in-process through the WSGI application against the
test database, authenticated as a fresh guest. Checked on every response: no 5xx, the status is
documented for the operation, and the body conforms to the documented schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES_PER_OPERATION = 40

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = get_wsgi_application()


@pytest.fixture
def token(guest):
    """A guest's token; and, as Django's test client does, the WSGI calls keep the test's
    connection (and its transaction) instead of closing it at the end of each request."""
    client, _ = guest("schemathesis-device")
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield client._credentials["HTTP_AUTHORIZATION"]
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, token):
    case.call_and_validate(
        headers={"Authorization": token},
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
    )
