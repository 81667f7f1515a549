"""Test setup: real PostgreSQL (DATABASE_URL, else the embedded one), never SQLite, no mocks.

Transactional tests flush tables with TRUNCATE at teardown; the event table refuses TRUNCATE,
so — in test code only — that flush runs with ``session_replication_role = replica``, under which
PostgreSQL fires no ordinary trigger. Only a superuser may set it (the test database's user is
one; the application's role in production is not), so it is no escape for the application.
"""

from __future__ import annotations

import pytest
from django.db import connections
from django.test import TransactionTestCase
from rest_framework.test import APIClient

# Tasks the code under test schedules (a round's end check, an expiry) go to an in-memory broker
# that nothing consumes: the tests drive time themselves, and a real worker and beat are started
# by the tests that prove that path (tests/platform/test_celery_worker.py, tests/matches).
from config.celery import app as _celery_app  # noqa: E402

_celery_app.conf.broker_url = "memory://"

_original_teardown = TransactionTestCase._fixture_teardown


def _fixture_teardown_ignoring_event_protection(self):
    for alias in self._databases_names(include_mirrors=False):
        with connections[alias].cursor() as cur:
            cur.execute("SET session_replication_role = replica")
    try:
        return _original_teardown(self)
    finally:
        for alias in self._databases_names(include_mirrors=False):
            with connections[alias].cursor() as cur:
                cur.execute("SET session_replication_role = DEFAULT")


TransactionTestCase._fixture_teardown = _fixture_teardown_ignoring_event_protection


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """``make test`` stops what it started: the embedded PostgreSQL, unless another process
    (``make run``, a second test run) still uses it."""
    from config.embedded import release_embedded_database

    connections.close_all()
    release_embedded_database()


@pytest.fixture(autouse=True)
def _answers_conform_to_the_schema(request, monkeypatch):
    """Issue 21: every API answer a test receives must conform to the served schema
    (``tests/contract.py``); ``@pytest.mark.no_contract`` opts a test out."""
    if "no_contract" in request.keywords:
        yield
        return
    from rest_framework.test import APIClient as Client

    from tests.contract import check_response

    original = Client.request

    def checked(self, **kwargs):
        response = original(self, **kwargs)
        if getattr(response, "wsgi_request", None) is not None:
            check_response(response.wsgi_request, response)
        return response

    monkeypatch.setattr(Client, "request", checked)
    yield


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the (per-process) cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def eager_tasks():
    """Tasks run in place when enqueued (e.g. the email outbox's delivery at commit)."""
    _celery_app.conf.task_always_eager = True
    yield
    _celery_app.conf.task_always_eager = False


@pytest.fixture
def operator(client, django_user_model):
    """A Django test client signed in to the admin as an operator (``operator.user``)."""
    user = django_user_model.objects.create_superuser("operator", "op-password-1")
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def guest(api):
    """A signed-in guest: returns (client, account_id)."""

    from tests.factories import device_id_for

    def make(device_id: str = "device-1"):
        client = APIClient()
        res = client.post("/api/v1/auth/guest", {"device_id": device_id_for(device_id)}, format="json")
        assert res.status_code in (200, 201), res.content
        client.credentials(HTTP_AUTHORIZATION=f"Token {res.json()['token']}")
        return client, res.json()["account_id"]

    return make


@pytest.fixture(autouse=True)
def _anchors_of_this_test(tmp_path, monkeypatch):
    """Issue 31: the event log's anchors belong to one database; each test's to its own folder
    (never the worktree's .data/anchors/), for this process and the workers it starts."""
    from django.conf import settings

    folder = str(tmp_path / "anchors")
    monkeypatch.setitem(settings.RIVALS, "ANCHOR_DIR", folder)
    monkeypatch.setenv("RIVALS_ANCHOR_DIR", folder)
    yield
