"""Behind PgBouncer in transaction mode (issue 26, "Topology"; config/pooler.py): nothing that
needs a session goes through the pooled ``default`` alias — session advisory locks, LISTEN, a SET
without LOCAL, prepared statements — and one beat leads while a second waits and sends nothing
(config/beat.py). Against the real PostgreSQL; the last tests run PgBouncer itself (Debian's
binary) and skip where it is not installed or the test server has no TCP address."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import environ
import psycopg
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from config import pooler
from config.beat import LOCK as BEAT_LOCK
from config.beat import LeaderScheduler
from config.celery import app
from rivals import direct
from rivals.live import db as live_db
from rivals.rebuild import REBUILD_LOCK, rebuild

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rivals", "tournaments", "rankings", "config", "demo")

# what only a session keeps: a session advisory lock, LISTEN, a session's setting
SESSION_STATE = (
    re.compile(r"pg_(try_)?advisory_lock(_shared)?\("),
    re.compile(r"""["']\s*(UN)?LISTEN\b"""),
    re.compile(r"set_config\([^)]*,\s*false\s*\)"),
    re.compile(r"""execute\(\s*f?["']SET (?!LOCAL\b|TRANSACTION\b|CONSTRAINTS\b)""", re.IGNORECASE),
)
# the modules that hold such state, each on a direct connection (rivals/direct.py, or the live
# room's connections made by it), or only where no pooler is configured (demo: direct.pooled())
ON_DIRECT_CONNECTIONS = {
    "rivals/live/relay.py",  # the relay's lock (on rivals.live.db's connection)
    "rivals/live/layers.py",  # LISTEN (rivals.live.db)
    "rivals/live/db.py",  # plan_cache_mode of the live room's own connections
    "rivals/rebuild/__init__.py",  # the rebuild's lock, on direct.connect()
    "config/beat.py",  # beat's leader lock, on direct.connect()
    "demo/world.py",  # synchronous_commit, skipped behind a pooler
}


def _env(monkeypatch, **values) -> environ.Env:
    for name in ("DATABASE_POOLER", "DATABASE_DIRECT_URL", "DATABASE_POOLER_PREPARED"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return environ.Env()


def _databases() -> dict:
    return {"default": {"OPTIONS": {"prepare_threshold": 5}}}


def test_transaction_mode_turns_off_prepared_statements_and_server_side_cursors(monkeypatch):
    databases = _databases()
    env = _env(monkeypatch, DATABASE_POOLER="transaction", DATABASE_DIRECT_URL="postgres://u@db:5432/rivals")
    assert pooler.install(env, databases) == ("transaction", "postgres://u@db:5432/rivals")
    assert databases["default"]["OPTIONS"]["prepare_threshold"] is None  # PgBouncer < 1.21
    assert databases["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True

    databases = _databases()  # PgBouncer >= 1.21 with max_prepared_statements: kept
    env = _env(
        monkeypatch,
        DATABASE_POOLER="transaction",
        DATABASE_DIRECT_URL="postgres://u@db/rivals",
        DATABASE_POOLER_PREPARED="1",
    )
    pooler.install(env, databases)
    assert databases["default"]["OPTIONS"]["prepare_threshold"] == 5


def test_transaction_mode_needs_a_direct_url_and_no_pooler_changes_nothing(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_DIRECT_URL"):
        pooler.install(_env(monkeypatch, DATABASE_POOLER="transaction"), _databases())
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOLER"):
        pooler.install(_env(monkeypatch, DATABASE_POOLER="statement"), _databases())
    databases = _databases()
    assert pooler.install(_env(monkeypatch), databases) == ("", "")
    assert databases == _databases()


def test_session_state_only_in_modules_on_direct_connections():
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            hits = [p.pattern for p in SESSION_STATE if p.search(text)]
            if hits:
                found[path.relative_to(ROOT).as_posix()] = hits
    assert set(found) <= ON_DIRECT_CONNECTIONS, {k: v for k, v in found.items() if k not in ON_DIRECT_CONNECTIONS}
    for module in ON_DIRECT_CONNECTIONS:
        text = (ROOT / module).read_text()
        assert "direct" in text or "from rivals.live import db" in text, module


@override_settings(DATABASE_DIRECT_URL="postgres://someone:secret@direct-host:6543/rivals?sslmode=require")
def test_the_live_room_connects_to_the_direct_url():
    info = psycopg.conninfo.conninfo_to_dict(live_db.conninfo())
    assert info == {
        "dbname": "rivals",
        "user": "someone",
        "password": "secret",
        "host": "direct-host",
        "port": "6543",
        "sslmode": "require",
    }


def test_without_a_direct_url_the_direct_connection_is_the_default_alias():
    info = psycopg.conninfo.conninfo_to_dict(direct.conninfo())
    assert info["dbname"] == connection.settings_dict["NAME"]
    with direct.connect(application_name="rivals-test") as conn:
        assert conn.execute("SELECT current_database()").fetchone()[0] == connection.settings_dict["NAME"]


def _advisory_holders(key: tuple[int, int]) -> list[tuple[int, str]]:
    with direct.connect(application_name="rivals-test-probe") as probe:
        return probe.execute(
            "SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
            "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.granted "
            # an advisory lock is its database's: another test database on the server (a parallel
            # worker's) may hold the same key at the same time
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            list(key),
        ).fetchall()


@pytest.mark.django_db(transaction=True)
def test_the_rebuild_holds_its_lock_on_a_direct_connection_and_sets_nothing_for_the_session():
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid(), current_setting('search_path')")
        django_pid, search_path = cur.fetchone()
    seen = {}
    rebuild(verify_only=True, between=lambda: seen.update(holders=_advisory_holders(REBUILD_LOCK)))
    assert [name for _, name in seen["holders"]] == ["rivals-rebuild-lock"]
    assert seen["holders"][0][0] != django_pid
    # freed with its session: the server's backend leaves a moment after the connection closes
    # (seconds on a loaded machine), as the closed beats' lock below
    deadline = time.monotonic() + 20
    while _advisory_holders(REBUILD_LOCK) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _advisory_holders(REBUILD_LOCK) == []
    with connection.cursor() as cur:
        cur.execute(
            "SELECT current_setting('search_path'), count(*) FROM pg_locks "
            "WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        )
        assert cur.fetchone() == (search_path, 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_a_second_beat_waits_as_standby_and_sends_nothing_until_the_leader_stops(real_clock):
    call_command("setup_periodic_tasks")
    leader = LeaderScheduler(app=app)
    standby = LeaderScheduler(app=app)
    try:
        assert leader.leading and not standby.leading
        assert [name for _, name in _advisory_holders(BEAT_LOCK)] == ["rivals-beat"]
        deadline = time.monotonic() + 20
        while leader.sent == 0 and time.monotonic() < deadline:  # matches-sweep is due every 2 s
            time.sleep(max(0.0, min(leader.tick(), 0.5)))
            assert standby.tick() > 0
        assert leader.sent > 0
        assert standby.sent == 0 and not standby.leading
        leader.close()  # the leader stops: its lock goes with its connection — once its backend has gone
        deadline = time.monotonic() + 10
        while not standby.leading and time.monotonic() < deadline:
            standby.tick()
            time.sleep(0.05)
        assert standby.leading
        assert leader.lock_conn is None and not leader.leading
    finally:
        leader.close()
        standby.close()
    # a closed connection's backend leaves a moment later: its session lock goes with it
    deadline = time.monotonic() + 10
    while _advisory_holders(BEAT_LOCK) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _advisory_holders(BEAT_LOCK) == []


# --- through PgBouncer itself -------------------------------------------------------------------


@pytest.fixture
def bouncer():
    from tests.perf.stack import PgBouncer

    host = connection.settings_dict.get("HOST") or ""
    if not (shutil.which("pgbouncer") or Path("/usr/sbin/pgbouncer").exists()):
        pytest.skip("pgbouncer is not installed")
    if not host or host.startswith("/"):
        pytest.skip("the test server has no TCP address for PgBouncer to reach (the embedded one)")
    server = PgBouncer(
        server_host=host,
        server_port=int(connection.settings_dict.get("PORT") or 5432),
        dbname=connection.settings_dict["NAME"],
        pool_size=1,
    )
    yield server
    server.stop()


@pytest.mark.timeout(60)
def test_through_pgbouncer_a_session_lock_excludes_nothing_and_prepared_statements_break(bouncer):
    """Why config/pooler.py sends session state around the pooler: through one server connection
    two clients "hold" the same session advisory lock at once; and prepared statements are not
    carried between server connections (PgBouncer < 1.21)."""
    url = f"host=127.0.0.1 port={bouncer.port} user=postgres dbname={bouncer.dbname}"
    with psycopg.connect(url, autocommit=True) as a, psycopg.connect(url, autocommit=True) as b:
        assert a.execute("SELECT pg_try_advisory_lock(4242, 1)").fetchone()[0]
        assert b.execute("SELECT pg_try_advisory_lock(4242, 1)").fetchone()[0]  # the same server session
        a.execute("SELECT pg_advisory_unlock_all()")
    # psycopg's prepare_threshold = None (config/pooler.py): many clients, many transactions, fine
    conns = [psycopg.connect(url, autocommit=True, prepare_threshold=None) for _ in range(3)]
    try:
        for i in range(20):
            for conn in conns:
                assert conn.execute("SELECT %s::int + 1", [i]).fetchone()[0] == i + 1
    finally:
        for conn in conns:
            conn.close()
    if int(bouncer.admin("SHOW VERSION")[0]["version"].split()[-1].split(".")[1]) >= 21:
        return  # protocol-level prepared statements carried by the pooler
    failed = 0
    conns = [psycopg.connect(url, autocommit=True, prepare_threshold=0) for _ in range(2)]
    try:
        for i in range(10):
            for conn in conns:
                try:
                    conn.execute("SELECT %s::int + 2", [i]).fetchone()
                except psycopg.Error:
                    failed += 1
    finally:
        for conn in conns:
            conn.close()
    assert failed > 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_the_hot_path_through_pgbouncer_with_the_pooler_settings(bouncer, monkeypatch):
    """Django's connection configured by config/pooler.py, through PgBouncer (one server
    connection): a game created and played by the services, the rebuild's verify beside."""
    from django.db import connections
    from django.db.utils import load_backend

    from rivals import engine
    from rivals.games.services import game_board, game_create, game_intent_apply
    from tests.factories import AccountFactory

    account = AccountFactory()
    databases = {
        "default": {
            **connection.settings_dict,
            "HOST": "127.0.0.1",
            "PORT": bouncer.port,
            "OPTIONS": {**connection.settings_dict["OPTIONS"], "prepare_threshold": 5},
        }
    }
    env = _env(monkeypatch, DATABASE_POOLER="transaction", DATABASE_DIRECT_URL="postgres://unused/x")
    pooler.install(env, databases)
    backend = load_backend("django.db.backends.postgresql")
    pooled = backend.DatabaseWrapper(databases["default"], "default")
    original = connections["default"]
    connections["default"] = pooled
    try:
        game = game_create(account=account, mode="classic", code=engine.random_code(rng_seed=5, layout_id="L08"))
        for _ in range(8):
            game.refresh_from_db()
            pair = list(engine.solve(game_board(game)).plan[0])
            game_intent_apply(
                account=account, game_id=game.pk, intent={"seq": game.seq, "type": "remove_pair", "tiles": pair}
            )
        game.refresh_from_db()
        assert game.seq == 8
    finally:
        connections["default"] = original
        pooled.close()
    stats = [s for s in bouncer.admin("SHOW STATS") if s["database"] == bouncer.dbname]
    assert sum(s["total_xact_count"] for s in stats) > 8
