"""Schemathesis over the whole OpenAPI schema: every operation, present and future.

Bounded and deterministic: hypothesis is derandomized (a fixed seed per operation) with a fixed
number of examples per operation; calls go in-process through the WSGI application against the
test database, authenticated as a fresh guest. Checked on every response: no 5xx, the status is
documented for the operation, and the body conforms to the documented schema. ``make fuzz`` runs
it larger, time-bounded and with fresh seeds (tests/platform/fuzz.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from drf_spectacular.generators import SchemaGenerator
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.modes import GenerationMode

from tests.platform import schemathesis_checks  # noqa: F401 (registers negative_data_rejection_whole_schema)
from tests.platform.fuzz import run_examples

EXAMPLES_PER_OPERATION = 40
ROOT = Path(__file__).resolve().parents[2]

_raw = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))
# every check schemathesis has, as configured for this API in schemathesis.toml (the CLI reads it too)
schema = schemathesis.openapi.from_dict(_raw, config=SchemathesisConfig.from_path(ROOT / "schemathesis.toml"))
schema.app = get_wsgi_application()
OPERATIONS = [result.ok() for result in schema.get_all_operations()]
SHARE = 0.4 / len(OPERATIONS)  # of ``make fuzz``'s time, each operation its share


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Issue 32: the fuzzed guest and the states clients meet (``tests/platform/seeded.py``),
    seeded once for the module in a transaction that is rolled back after its last test — each
    test runs in a savepoint inside it, so what one test's examples write is undone before the
    next, and the seeded world is the same for every operation."""
    from rivals.accounts.services import account_guest_signin
    from tests.factories import device_id_for
    from tests.platform.seeded import seed

    with django_db_blocker.unblock(), transaction.atomic():
        account, token, _ = account_guest_signin(device_id=device_id_for("schemathesis-device"))
        ids = seed(account)
        yield f"Token {token}", account.pk, ids
        transaction.set_rollback(True)


@pytest.fixture
def caller(world, settings):
    """The seeded guest's token, account id and the seeded ids; and, as Django's test client
    does, the WSGI calls keep the test's connection (and its transaction) instead of closing it at
    the end of each request. The store's purchase reports are accepted (their secret set):
    unsigned, each is 401."""
    settings.PURCHASES_WEBHOOK_SECRET = "schemathesis-store-secret"
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield world
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _reads_state(operation) -> bool:
    """Operations whose answers show what the database holds: every read, and every operation on
    a resource (a path id) — they run against the seeded states as well as against random ids."""
    return operation.method.upper() == "GET" or "{" in operation.path


@pytest.mark.django_db
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method.upper()} {op.path}")
def test_every_operation_answers_as_documented(operation, caller):
    token, _, ids = caller
    # positive and negative data, as schemathesis' own pytest runner generates (a branch that
    # cannot produce a case for an operation — no invalid path id is possible — is drawn again)
    strategies = [operation.as_strategy(mode) for mode in GenerationMode]
    if _reads_state(operation):  # and the states clients meet: the seeded resources' own ids
        names = [p.name for p in operation.path_parameters]
        if all(name in ids for name in names):
            path = {name: str(ids[name]) for name in names}
            strategies.append(operation.as_strategy(GenerationMode.POSITIVE, path_parameters=path))
    cases = st.one_of(*strategies)

    def call(case):
        case.call_and_validate(headers={"Authorization": token})  # every check schemathesis has

    run_examples(call, {"case": cases}, examples=EXAMPLES_PER_OPERATION, share=SHARE)
