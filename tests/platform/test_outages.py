"""Outages and faults against real servers of the test's own (never the machine's shared ones).

A second PostgreSQL (pgserver's binaries, a temporary data folder) is migrated once for the
module and then really stopped and started again; a Redis server of the test's own runs for the
visibility-timeout test. Measured: no 500 and nothing accepted lost through a database restart
under load; a task hit by the outage is retried until it succeeds; a message of a SIGKILLed
worker is delivered again after the visibility timeout.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tests.perf.stack import free_port as _free_port
from tests.perf.stack import spawn as _spawn
from tests.perf.stack import stop as _stop

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(240)


class OwnPostgres:
    """A PostgreSQL server of this test module's own that can really be stopped and restarted."""

    def __init__(self, folder: Path):
        from config.embedded import import_pgserver

        self.server = import_pgserver().get_server(folder / "pg", cleanup_mode="delete")
        self.url = self.server.get_uri("rivals")
        with psycopg.connect(self.server.get_uri(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE rivals")

    def stop(self) -> None:
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.server.pgdata, user=self.server.system_user)

    def start(self) -> None:
        self.server.ensure_postgres_running()

    def query(self, sql: str, params=()):
        with psycopg.connect(self.url) as conn:
            return conn.execute(sql, params).fetchall()


@pytest.fixture(scope="module")
def folder():
    """A folder outside pytest's temporary root: pgserver's server runs as another user, and
    pytest resets its root to owner-only whenever a session starts (another worktree's, say)."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="rivals-outage-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def own_postgres(folder):
    pg = OwnPostgres(folder)
    env = _env(folder, pg.url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    yield pg
    pg.server.cleanup()


def _env(folder: Path, database_url: str, **extra) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "RIVALS_DATA_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "THROTTLE_ANON": "100000/minute",
        "THROTTLE_USER": "100000/minute",
        **extra,
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.pop("CELERY_BROKER_URL", None)
    env.update(extra)
    return env


# --- the database restarts under 8 clients -------------------------------------------------------


class Client:
    def __init__(self, port: int, device: str):
        self.port = port
        self.token = None
        self.answers: list[tuple[int, str, str | None, float]] = []  # status, error code, Retry-After, at
        self.token = self.call("POST", "/api/v1/auth/guest", {"device_id": f"{device}-0123456789abcdef"})[1]["token"]
        self.game = self.call("POST", "/api/v1/games", {"mode": "classic"})[1]["id"]
        self.seq = 0
        self.accepted: list[int] = []  # seq values the server answered 200 for

    def call(self, method: str, path: str, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        res = conn.getresponse()
        raw = res.read()
        conn.close()
        data = json.loads(raw) if raw else None
        code = data.get("error", {}).get("code") if isinstance(data, dict) else None
        self.answers.append((res.status, code, res.getheader("Retry-After"), time.monotonic()))
        return res.status, data

    def play(self, until: float) -> None:
        while time.monotonic() < until:
            status, data = self.call("POST", f"/api/v1/games/{self.game}/intents", {"seq": self.seq, "type": "hint"})
            if status == 200:
                self.accepted.append(self.seq)
                self.seq += 1
            elif status == 409:  # committed, answer lost: the server says where it is
                self.seq = data["error"]["details"]["seq"]
            self.call("GET", f"/api/v1/games/{self.game}")
            if status == 503:
                time.sleep(0.05)


def test_a_database_restart_under_load_answers_503_never_500_and_loses_nothing_accepted(own_postgres, folder):
    port = _free_port()
    web = _spawn(
        [
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--control-socket",
            str(folder / "gunicorn.ctl"),
        ],
        _env(folder, own_postgres.url),
        folder / "web.log",
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and web.poll() is None, (folder / "web.log").read_text()[-3000:]
            time.sleep(0.3)
        clients = [Client(port, f"outage-{i}") for i in range(8)]
        t0 = time.monotonic()
        threads = [threading.Thread(target=c.play, args=(t0 + 9,)) for c in clients]
        for t in threads:
            t.start()
        time.sleep(2)
        stopped_at = time.monotonic()
        own_postgres.stop()
        time.sleep(4)
        health = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        health.request("GET", "/healthz")
        health_status = health.getresponse().status
        own_postgres.start()
        restarted_at = time.monotonic()
        for t in threads:
            t.join(timeout=60)
    finally:
        _stop(web)
    answers = [a for c in clients for a in c.answers]
    statuses = {a[0] for a in answers}
    unavailable = [a for a in answers if a[0] == 503]
    print(f"{len(answers)} answers, {len(unavailable)} x 503 during the outage, statuses {sorted(statuses)}")
    assert statuses <= {200, 201, 409, 503}, sorted(statuses)  # 201: the sign-ins and games before
    assert health_status == 503
    assert unavailable and all(code == "unavailable" and retry == "5" for _, code, retry, _ in unavailable)
    assert all(stopped_at - 0.5 <= at <= restarted_at + 5 for *_, at in unavailable)
    for c in clients:  # service came back for everyone, and every accepted intent is in the log
        assert any(s == 200 and at > restarted_at for s, _, _, at in c.answers)
        stored = {
            row[0]
            for row in own_postgres.query(
                "SELECT (data->>'seq')::int - 1 FROM rivals_event WHERE stream_id = %s AND type = 'HintGiven'",
                [f"game-{c.game}"],
            )
        }
        assert set(c.accepted) <= stored
        assert own_postgres.query("SELECT seq FROM rivals_game WHERE id = %s", [c.game])[0][0] >= len(c.accepted)


# --- a task running into the outage is retried, with backoff, until it succeeds ------------------


def test_a_task_hit_by_a_database_outage_is_retried_until_it_succeeds(own_postgres, folder):
    env = _env(folder, own_postgres.url)
    worker = _spawn(
        [
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            "retry-worker@%h",
        ],
        env,
        folder / "retry.log",
    )
    try:
        own_postgres.stop()
        subprocess.run(
            [
                sys.executable,
                "-c",
                (
                    "import django; django.setup(); from rivals.games.tasks import "
                    "levels_generate_chunk as t; t.delay(start=1, end=3)"
                ),
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        time.sleep(5)  # the task runs into the outage and is retried (1 s, 2 s … with jitter)
        own_postgres.start()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if own_postgres.query("SELECT count(*) FROM rivals_level WHERE number <= 3")[0][0] == 3:
                break
            time.sleep(0.5)
        log = (folder / "retry.log").read_text(errors="replace")
        assert own_postgres.query("SELECT count(*) FROM rivals_level WHERE number <= 3")[0][0] == 3, log[-4000:]
        assert "Retry in" in log and "OperationalError" in log
        assert "succeeded" in log
    finally:
        _stop(worker)


# --- a SIGKILLed worker's message comes back after the visibility timeout ------------------------


@pytest.fixture
def own_redis(folder):
    from tests.perf.stack import OwnRedis

    try:
        server = OwnRedis(folder)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    yield server.url
    server.stop()


def test_a_message_of_a_sigkilled_worker_is_delivered_again_after_the_visibility_timeout(
    own_postgres, folder, own_redis
):
    import redis

    env = _env(folder, own_postgres.url, CELERY_BROKER_URL=own_redis, CELERY_VISIBILITY_TIMEOUT_S="4")
    args = [
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
        "--without-gossip",
        "--without-mingle",
    ]
    first = _spawn([*args, "-n", "doomed@%h"], env, folder / "doomed.log")
    second = None
    # the chunk copies rows from the shipped level table in milliseconds: a lock on the table keeps
    # it busy (waiting inside the task) until the worker is killed
    holder = psycopg.connect(own_postgres.url)
    holder.execute("LOCK TABLE rivals_level IN ACCESS EXCLUSIVE MODE")
    try:
        subprocess.run(
            [
                sys.executable,
                "-c",
                (
                    "import django; django.setup(); from rivals.games.tasks import "
                    "levels_generate_chunk as t; t.delay(start=6001, end=6040)"
                ),
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        deadline = time.monotonic() + 60
        while "Task rivals.levels_generate_chunk" not in (folder / "doomed.log").read_text(errors="replace"):
            assert time.monotonic() < deadline, (folder / "doomed.log").read_text()[-3000:]
            time.sleep(0.2)
        time.sleep(1)
        _stop(first, signal.SIGKILL)  # the main process and its pool: an OOM kill
        killed_at = time.monotonic()
        client = redis.Redis(unix_socket_path=own_redis.removeprefix("redis+socket://"))
        assert client.hlen("unacked") == 1  # taken, never acknowledged: stranded until the timeout
        holder.rollback()  # the table is free again
        done_before = own_postgres.query("SELECT count(*) FROM rivals_level WHERE number BETWEEN 6001 AND 6040")[0][0]
        assert done_before < 40
        second = _spawn([*args, "-n", "rescuer@%h"], env, folder / "rescuer.log")
        deadline = killed_at + 90
        while time.monotonic() < deadline:
            done = own_postgres.query("SELECT count(*) FROM rivals_level WHERE number BETWEEN 6001 AND 6040")[0][0]
            if done == 40:
                break
            time.sleep(0.5)
        recovered_s = time.monotonic() - killed_at
        print(f"visibility timeout 4 s: the chunk was delivered again and finished {recovered_s:.1f} s after the kill")
        assert done == 40, (folder / "rescuer.log").read_text()[-3000:]
        assert recovered_s < 60
        # acknowledged once the task returns (acks_late), a moment after its last row committed
        acked_by = time.monotonic() + 15
        while client.hlen("unacked") and time.monotonic() < acked_by:
            time.sleep(0.1)
        assert client.hlen("unacked") == 0
    finally:
        holder.close()
        _stop(first, signal.SIGKILL)
        if second is not None:
            _stop(second)


def test_time_limits_retry_backoff_and_visibility_timeout_fit_together():
    from django.conf import settings

    from config.celery import Task

    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT < settings.CELERY_VISIBILITY_TIMEOUT
    assert Task.retry_backoff_max < settings.CELERY_VISIBILITY_TIMEOUT  # a waiting retry is never re-delivered
    assert settings.CELERY_VISIBILITY_TIMEOUT <= 600  # a lost message waits minutes, not an hour


def test_a_long_levels_job_is_split_into_short_chunk_tasks(monkeypatch):
    from rivals.games import tasks

    sent = []
    monkeypatch.setattr(tasks.levels_generate_chunk, "delay", lambda **kw: sent.append(kw))
    assert tasks.levels_generate.run(start=1, end=250) == 3
    assert sent == [{"start": 1, "end": 100}, {"start": 101, "end": 200}, {"start": 201, "end": 250}]
