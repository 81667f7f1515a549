"""Schemathesis over the whole OpenAPI schema: every operation, present and future.

Bounded and deterministic: hypothesis is derandomized (a fixed seed per operation) with a fixed
number of examples per operation; calls go in-process through the WSGI application against the
test database, authenticated as a fresh guest. Checked on every response: no 5xx, the status is
documented for the operation, and the body conforms to the documented schema. ``make fuzz`` runs
it larger, time-bounded and with fresh seeds (tests/platform/fuzz.py).
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.platform.fuzz import run_examples

EXAMPLES_PER_OPERATION = 40

_raw = SchemaGenerator().get_schema(request=None, public=True)
schema = schemathesis.openapi.from_dict(_raw)
schema.app = get_wsgi_application()
OPERATIONS = [result.ok() for result in schema.get_all_operations()]
SHARE = 0.55 / len(OPERATIONS)  # of ``make fuzz``'s time, each operation its share


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
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method.upper()} {op.path}")
def test_every_operation_answers_as_documented(operation, token):
    # positive and negative data, as schemathesis' own pytest runner generates (a branch that
    # cannot produce a case for an operation — no invalid path id is possible — is drawn again)
    cases = st.one_of(*(operation.as_strategy(mode) for mode in GenerationMode))

    def call(case):
        case.call_and_validate(
            headers={"Authorization": token},
            checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
        )

    run_examples(call, {"case": cases}, examples=EXAMPLES_PER_OPERATION, share=SHARE)
