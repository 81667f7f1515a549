"""The read replica (rivals/replica) against a real streaming replica: a primary of the module's
own, ``pg_basebackup -R`` of it streaming into a hot standby (tests/perf/replica.py), and gunicorn
with ``DATABASE_URL`` on the primary and ``DATABASE_REPLICA_URL`` on the replica.

What the replica serves is seen by stopping its replay (``pg_wal_replay_pause()``) and writing: a
read that shows the old value came from the replica; the caller's own reads must show the new one.
Then: a replica paused longer than the lag bound, stopped, or failing under a request is bypassed
and the answers stay right (never a 5xx).
"""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.perf.replica import Postgres
from tests.perf.stack import ROOT, Stack

pytestmark = pytest.mark.timeout(180)

MAX_LAG_S = 3.0  # the bound the web process is given; samples every 50 ms, 1 s out after a failure
SEED = """
import django, sys
from datetime import timedelta
django.setup()
from django.core.management import call_command
from django.utils import timezone
call_command("migrate", "--noinput", verbosity=0)
from tournaments.services.lifecycle import tournament_create
now = timezone.now()
t = tournament_create(  # due to start since a minute, never read since: time's decision is pending
    actor="operator:test", kind="regular", title="Replica Cup", registration_opens_at=now - timedelta(hours=2),
    starts_at=now - timedelta(minutes=1), ends_at=now + timedelta(hours=1), min_players=2,
    prize_table=[100, 50], multipliers=[1], now=now - timedelta(hours=2),
)
print(t.pk)
"""


class Pair:
    def __init__(self, folder: Path):
        self.folder = folder
        self.primary = Postgres.primary(folder / "primary")
        self.replica: Postgres | None = None
        self.webs: list[Stack] = []

    def web(self, name: str, **settings: str) -> Stack:
        """gunicorn (one process, 4 threads) on the pair, in a folder of its own (its log)."""
        (self.folder / name).mkdir()
        stack = Stack(
            database_url=self.primary.url("rivals"),
            broker_url="",  # the filesystem broker under the folder: nothing consumes it here
            cache_url="locmemcache://",  # one web process: its own cache is every process's
            folder=self.folder / name,
            web_workers=1,
            threads=4,
            DATABASE_REPLICA_URL=self.replica.url("rivals"),
            **settings,
        )
        self.webs.append(stack)
        stack.start_web()
        return stack

    def stop(self) -> None:
        for stack in self.webs:
            stack.stop()
        for server in (self.replica, self.primary):
            if server is not None:
                server.remove()


@pytest.fixture(scope="module")
def pair():
    folder = Path(tempfile.mkdtemp(prefix="rivals-replica-"))
    pair = Pair(folder)
    try:
        pair.primary.create_database("rivals")
        env = Stack(
            database_url=pair.primary.url("rivals"), broker_url="", cache_url="locmemcache://", folder=folder
        ).env
        seeded = subprocess.run([sys.executable, "-c", SEED], cwd=ROOT, env=env, capture_output=True, text=True)
        assert seeded.returncode == 0, seeded.stderr[-3000:]
        pair.tournament = seeded.stdout.split()[-1]
        pair.replica = pair.primary.replica(folder / "replica")
        pair.main = pair.web(
            "main",
            DATABASE_REPLICA_MAX_LAG_S=str(MAX_LAG_S),
            DATABASE_REPLICA_CHECK_S="0.05",
            DATABASE_REPLICA_RETRY_S="1",
        )
        yield pair
    finally:
        pair.stop()
        shutil.rmtree(folder, ignore_errors=True)


def call(stack: Stack, method: str, path: str, body=None, token: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    res = conn.getresponse()
    raw = res.read()
    conn.close()
    return res.status, (json.loads(raw) if raw else None)


def name_of(stack: Stack, account: int, token: str | None = None) -> str:
    status, body = call(stack, "GET", f"/api/v1/players/{account}", token=token)
    assert status == 200, body
    return body["display_name"]


def found(stack: Stack, q: str, token: str | None = None) -> list[int]:
    status, body = call(stack, "GET", f"/api/v1/players?q={q}", token=token)
    assert status == 200, body
    return [row["id"] for row in body["results"]]


def rename(stack: Stack, token: str, name: str) -> None:
    status, body = call(stack, "PATCH", "/api/v1/account", {"display_name": name}, token=token)
    assert status == 200, body


def sign_in(stack: Stack, device: str) -> tuple[str, int]:
    status, body = call(stack, "POST", "/api/v1/auth/guest", {"device_id": f"{device}-0123456789abcdef"})
    assert status in (200, 201), body
    return body["token"], body["account_id"]


def web_log(stack: Stack) -> str:
    return (stack.folder / "web.log").read_text(errors="replace")


def settled(pair: Pair, web: Stack | None = None) -> None:
    """The replica has everything, the callers' marks are behind it (a mark is a second ahead of
    its write), and the web process has sampled it since (a sample is taken by a public read)."""
    pair.replica.wait_caught_up(pair.primary)
    time.sleep(1.1)
    assert call(web or pair.main, "GET", "/api/v1/rankings/daily")[0] == 200


def assert_the_replica_serves_the_public(pair: Pair, web: Stack, token: str, account: int, name: str) -> None:
    """With replay stopped, a rename shows to its author at once and to others as the old name:
    the others' read came from the replica."""
    old = name_of(web, account)
    pair.replica.pause_replay()
    try:
        rename(web, token, name)
        assert name_of(web, account, token) == name  # one's own write, read at once
        assert name_of(web, account) == old  # the public's read: the replica's, behind
    finally:
        pair.replica.resume_replay()


def test_a_write_then_the_callers_own_read_is_never_stale_while_the_public_reads_the_replica(pair):
    settled(pair)
    pair.replica.pause_replay()
    try:  # a new account: its own profile at once, the public's a 404 until the replica has it
        token, account = sign_in(pair.main, "ryw")
        assert call(pair.main, "GET", f"/api/v1/players/{account}", token=token)[0] == 200
        assert call(pair.main, "GET", f"/api/v1/players/{account}")[0] == 404
    finally:
        pair.replica.resume_replay()
    settled(pair)
    pair.replica.pause_replay()
    paused_at = time.monotonic()
    try:
        rename(pair.main, token, "Freshly Renamed")
        own, public = name_of(pair.main, account, token), name_of(pair.main, account)
        own_search, public_search = found(pair.main, "freshly", token), found(pair.main, "freshly")
        assert time.monotonic() - paused_at < MAX_LAG_S, "the machine is too slow for this check"
        assert own == "Freshly Renamed" and account in own_search  # the primary's: never stale
        assert public != "Freshly Renamed" and account not in public_search  # the replica's: behind
        for _ in range(5):  # and so every read of the caller's until the replica has the write
            assert name_of(pair.main, account, token) == "Freshly Renamed"
            time.sleep(0.05)
        # paused past the bound: the replica is bypassed, the public sees the primary
        while name_of(pair.main, account) != "Freshly Renamed":
            assert time.monotonic() - paused_at < MAX_LAG_S + 2, web_log(pair.main)[-3000:]
            time.sleep(0.05)
        bypassed_after = time.monotonic() - paused_at
        assert bypassed_after >= MAX_LAG_S - 0.2  # not before the bound: the replica was serving
        assert account in found(pair.main, "freshly")
        assert "behind (bound 3.0 s): reads go to the primary" in web_log(pair.main)
    finally:
        pair.replica.resume_replay()
    print(f"replay paused: the public's reads went to the primary {bypassed_after:.2f} s later (bound {MAX_LAG_S} s)")
    settled(pair)  # caught up: the replica serves again
    assert_the_replica_serves_the_public(pair, pair.main, token, account, "Renamed Again")


def test_time_applied_on_read_is_shown_as_written_not_as_the_replica_has_it(pair):
    settled(pair)
    pair.replica.pause_replay()
    try:
        status, page = call(pair.main, "GET", f"/api/v1/tournaments/{pair.tournament}")
        on_replica = pair.replica.query(
            "SELECT status FROM tournaments_tournament WHERE id = %s", [pair.tournament], database="rivals"
        )
    finally:
        pair.replica.resume_replay()
    assert status == 200, page
    # due since a minute with nobody registered: cancelled by the read itself, and shown so
    assert page["status"] == "cancelled", page
    assert on_replica == [("scheduled",)]


def test_a_replica_that_is_down_is_bypassed_and_used_again_once_back(pair):
    token, account = sign_in(pair.main, "down")
    rename(pair.main, token, "Before The Outage")
    settled(pair)
    pair.replica.stop("immediate")
    try:
        rename(pair.main, token, "During The Outage")
        for _ in range(10):  # the first read finds the replica gone (a sample or the query): no 5xx
            assert name_of(pair.main, account) == "During The Outage"
            assert name_of(pair.main, account, token) == "During The Outage"
            status, _ = call(pair.main, "GET", "/api/v1/rankings/amr")
            assert status == 200
        assert "the replica failed" in web_log(pair.main)
    finally:
        pair.replica.start()
    time.sleep(1.0)  # the retry delay: then sampled, and used again
    settled(pair)
    assert_the_replica_serves_the_public(pair, pair.main, token, account, "After The Outage")


def test_a_replica_that_fails_under_a_request_is_left_for_the_primary_not_answered_5xx(pair):
    """A web process that samples rarely (once an hour, lag bound a minute): the replica stops
    between its sample and the next request, whose reads find it gone."""
    web = pair.web(
        "rare", DATABASE_REPLICA_MAX_LAG_S="60", DATABASE_REPLICA_CHECK_S="3600", DATABASE_REPLICA_RETRY_S="3600"
    )
    token, account = sign_in(web, "mid")
    settled(pair, web)  # the one sample: the replica is usable for this process from now on
    assert_the_replica_serves_the_public(pair, web, token, account, "Seen Before The Stop")
    pair.replica.wait_caught_up(pair.primary)
    pair.replica.stop("immediate")
    try:
        rename(web, token, "Renamed While Down")
        assert name_of(web, account) == "Renamed While Down"  # the replica failed, the primary answered
        log = web_log(web)
        assert "the replica failed during GET /api/v1/players/" in log, log[-3000:]
        for path in ("/api/v1/rankings/amr", f"/api/v1/players/{account}", "/api/v1/players?q=renamed"):
            assert call(web, "GET", path)[0] == 200  # out for the retry delay: the primary's
    finally:
        pair.replica.start()


# --- the parts, in this process (no replica needed) ----------------------------------------------


def test_the_horizon_is_the_time_of_the_newest_sample_the_replica_has_replayed():
    from rivals.replica.health import Horizon, lsn

    assert lsn("0/3001A68") == 0x3001A68 and lsn("16/B374D848") == (0x16 << 32) + 0xB374D848
    h = Horizon()
    assert h.observe(10.0, primary=100, replayed=100) == 10.0  # idle: caught up at once
    assert h.observe(10.2, primary=180, replayed=150) == 10.0  # behind the sample of 10.2
    assert h.observe(10.4, primary=260, replayed=170) == 10.0  # stopped: the horizon stays
    assert h.observe(10.6, primary=260, replayed=200) == 10.2  # past 180, not 260
    assert h.observe(10.8, primary=300, replayed=300) == 10.8  # caught up: every sample passed
    assert not h.samples


@pytest.mark.django_db(transaction=True)
def test_a_commit_or_an_orm_write_sends_the_rest_of_the_request_to_the_primary():
    """The backend reports a commit of the primary (raw SQL included); the router an ORM write; a
    read inside a transaction is the primary's."""
    from django.db import connections, transaction

    from rivals.models import Account
    from rivals.replica import base, routing

    def request_on_the_replica():
        state = routing.RequestRouting()
        state.replica = True
        return state, routing._routing.set(state)

    state, token = request_on_the_replica()
    try:
        assert routing.read_alias() == "replica"
        with transaction.atomic():
            assert routing.read_alias() == "default"
        primary = base.DatabaseWrapper(connections["default"].settings_dict, alias="default")
        try:
            primary.set_autocommit(False)
            with primary.cursor() as cur:
                cur.execute("SELECT 1")
            primary.commit()
        finally:
            primary.close()
        assert state.wrote and routing.read_alias() == "default"
    finally:
        routing._routing.reset(token)
    state, token = request_on_the_replica()
    try:
        assert routing.ReplicaRouter().db_for_write(Account) == "default"
        assert state.wrote and routing.read_alias() == "default"
    finally:
        routing._routing.reset(token)
    assert routing.read_alias() == "default"  # outside a request: the primary


def test_a_callers_marks_are_written_at_most_every_half_second_and_cover_its_writes(monkeypatch):
    from django.core.cache import cache

    from rivals.replica import marks

    clock = [1000.0]
    monkeypatch.setattr(marks.time, "time", lambda: clock[0])
    monkeypatch.setattr(marks, "_marked", {})
    writes = []
    original = cache.set
    monkeypatch.setattr(cache, "set", lambda *a, **kw: (writes.append(a[1]), original(*a, **kw)))
    marks.mark(7)
    clock[0] += 0.3
    marks.mark(7)  # covered by the first mark (1001.0 > 1000.3)
    assert writes == [1001.0]
    assert not marks.replica_has_writes_of(7, horizon=1000.9)
    assert marks.replica_has_writes_of(7, horizon=1001.0)
    assert marks.replica_has_writes_of(8, horizon=0.0)  # no mark: nothing recent
    clock[0] += 0.25  # past half the mark: a new one
    marks.mark(7)
    assert writes == [1001.0, 1001.55]


def test_without_a_replica_url_nothing_of_it_is_installed():
    from django.conf import settings

    assert not settings.DATABASE_REPLICA_URL  # the suite's own settings (the embedded database)
    assert list(settings.DATABASES) == ["default"]
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert not settings.DATABASE_ROUTERS
    assert "rivals.replica.middleware.ReplicaMiddleware" not in settings.MIDDLEWARE


@pytest.mark.django_db
def test_a_replica_that_does_not_answer_is_down_one_that_refuses_a_query_is_not():
    """Real errors of the replica's connection: refused (nothing listens there), and a query its
    server refuses; a primary's error is not the replica's."""
    from django.db import DatabaseError, connection

    from rivals.replica import base, routing
    from tests.perf.stack import free_port

    def error_of(alias: str, **settings) -> DatabaseError:
        wrapper = base.DatabaseWrapper({**connection.settings_dict, **settings}, alias=alias)
        try:
            with pytest.raises(DatabaseError) as raised, wrapper.cursor() as cur:
                cur.execute("SELECT * FROM no_such_table")
            return raised.value
        finally:
            wrapper.close()

    assert routing.replica_failure(error_of("replica", HOST="127.0.0.1", PORT=free_port(), OPTIONS={})) == "down"
    assert routing.replica_failure(error_of("replica")) == "query"
    assert routing.replica_failure(error_of("default")) is None


def test_production_refuses_a_replica_without_a_shared_cache(tmp_path):
    from tests.platform.test_production_settings import PRODUCTION, _manage

    res = _manage(
        "check",
        **PRODUCTION,
        DATABASE_URL="postgres://rivals@db.invalid:5432/rivals",
        DATABASE_REPLICA_URL="postgres://rivals@replica.invalid:5432/rivals",
        CACHE_URL="",
        RIVALS_DATA_DIR=str(tmp_path),
    )
    assert res.returncode != 0 and "DATABASE_REPLICA_URL needs CACHE_URL" in res.stderr
