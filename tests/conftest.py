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
from config.celery import app as _celery_app

_celery_app.conf.broker_url = "memory://"

from tests import quiet  # noqa: E402
from tests.browser import browser  # noqa: E402, F401 - the real browser's fixture (a proof: PROOF_FIXTURES)

# --- issue 32: the two lanes ---------------------------------------------------------------------
# A test is a *proof* (``make proof``; ``make fast`` leaves it out, ``make test`` runs both lanes)
# when it starts something beside the suite's own process and database — a server, a Celery worker
# or beat, uvicorn, a browser, a second PostgreSQL or Redis — or waits on the real clock. Known by
# the fixtures it uses, and for the modules that start theirs in the test's body, by name.
PROOF_FIXTURES = frozenset(
    {
        "live",  # uvicorn serving config.asgi (tests/live/conftest.py)
        "live_folder",  # the folder of a uvicorn a test starts itself (tests/live)
        "live_server",  # pytest-django's threaded server (the admin's browser tests)
        "browser",  # Debian's chromium through Playwright
        "own_postgres",  # a PostgreSQL of the test's own, stopped and killed (tests/platform/test_outages.py)
        "own_redis",  # a Redis of the test's own
        "pair",  # a primary and its streaming replica (tests/platform/test_replica.py)
        "bouncer",  # PgBouncer (tests/platform/test_pooler_safety.py)
        "real_clock",  # waits on the real clock (below)
        "two_servers",  # two web processes on the test's database (tests/security/test_abuse.py)
    }
)
PROOF_MODULES = frozenset(
    {
        "tests.platform.test_celery_worker",  # beat and a real worker process
        "tests.matches.test_clock_with_a_real_worker",  # beat and a real worker process
        "tests.tournaments.test_worker",  # beat and a real worker process
        "tests.live.test_serve",  # manage.py serve: web, worker, beat
        "tests.live.test_frames",  # uvicorn with and without its frame limit (fixtures chosen by name)
        "tests.platform.test_event_partitions_migration",  # manage.py migrate on a database of its own
        "tests.accounts.test_admin_browser",  # every test a page in chromium (or its screenshots' folder)
        "tests.play.test_play_browser",  # the reference client in chromium against uvicorn (issue 37)
    }
)
# Proofs that must not run beside each other (``--dist loadgroup``): they stop, kill and restart
# servers of their own, or drive a browser, and their clocks — a visibility timeout, a replica's
# lag, a page's wait — assume the cores they asked for. One after another on one worker; the other
# proofs (mostly waiting on a clock: a round's 20 s, a tournament's end, a worker's next beat) one
# after another on another.
HEAVY_PROOFS = frozenset(
    {
        "tests.platform.test_outages",
        "tests.platform.test_replica",
        "tests.platform.test_event_partitions_migration",
        "tests.accounts.test_admin_browser",
        "tests.fairplay.test_admin_browser",  # chromium, as the admin's
        "tests.play.test_play_browser",
    }
)


@pytest.fixture
def real_clock():
    """Asked for by a test that waits on the real clock (a proof): it gives nothing else."""


def _group(name: str, proof: bool) -> str:
    """Every other test runs with its module, so that a module's fixtures (a seeded world, a
    generated client) are made once per run."""
    if proof:
        return "proof-heavy" if name in HEAVY_PROOFS else "proof-clock"
    return name.removeprefix("tests.")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config, items):
    grouped = config.pluginmanager.hasplugin("xdist")
    for item in items:
        module = getattr(item, "module", None)
        name = module.__name__ if module else item.nodeid.partition("::")[0]
        proof = bool(PROOF_FIXTURES & set(getattr(item, "fixturenames", ())) or name in PROOF_MODULES)
        if proof:
            item.add_marker(pytest.mark.proof)
        if grouped:
            item.add_marker(pytest.mark.xdist_group(_group(name, proof)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test (its setup, call and teardown) runs holding the running lock shared, so that a
    wall-clock measure can pause the other workers (tests/quiet.py)."""
    with quiet.running(worker=hasattr(item.config, "workerinput")):
        yield


def pytest_collection_finish(session):
    """The groups must hold (a proof beside another of its group, a module's fixtures made twice):
    pytest-xdist marks a grouped test by its node id's ``@<group>``; fail loudly if it did not."""
    if session.config.getoption("dist", "no") == "loadgroup" or getattr(session.config.option, "loadgroup", False):
        if session.items and not all("@" in item.nodeid for item in session.items):
            raise pytest.UsageError("--dist loadgroup: the tests carry no group (a pytest-xdist and pytest mismatch?)")


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


@pytest.fixture(scope="session")
def django_db_setup(django_test_environment, django_db_blocker):
    """Issue 32: the worker's own database, cloned from the run's migrated template
    (``tests/testdb.py``) instead of migrated afresh; dropped at the end of the session."""
    from tests import testdb

    with django_db_blocker.unblock():
        name = testdb.clone_for_worker(testdb.worker_id())
    yield
    with django_db_blocker.unblock():
        testdb.drop(name)


def pytest_configure(config):
    quiet.name_the_run(config)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """``make test`` stops what it started: the embedded PostgreSQL, unless another process
    (``make run``, a second test run) still uses it; and removes the run's lock files."""
    from config.embedded import release_embedded_database

    quiet.remove(config)
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
def _fresh_rate_limits(request):
    """Rate-limit counters and mail budgets live in the shared cache — by default a table of the
    database (``config/caches.py``), written by the test's own process and by the servers some
    tests start: each test that reaches the database starts with none. (A test that does not
    reach it cannot count in it either.)"""
    from django.core.cache import cache

    if request.node.get_closest_marker("django_db") is None and "django_db_setup" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("django_db_setup")
    with request.getfixturevalue("django_db_blocker").unblock():
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
