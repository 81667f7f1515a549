"""Benchmark: accepted ``remove_pair`` intents per second through HTTP + PostgreSQL.

Starts gunicorn (2 workers by default) on a loopback port against a throw-away database
``rivals_bench_<pid>`` (a name of its own: two runs never share it) on the server of ``DATABASE_URL`` (else the embedded PostgreSQL), signs in
guest accounts, starts games and plays them along the server's winning plan (read from the
database, as a perfect player would), then measures:

1. closed loop — N concurrent players as fast as the server answers: sustained accepted/s;
2. open loop — a fixed arrival rate (default 200/s): latency median / p99 / max, measured from
   the scheduled send time (no coordinated omission).

    .venv/bin/python tests/perf/bench_games_http.py [--mode single|classic] [--seconds 20]

Everything it starts is stopped, and the database dropped, at the end. Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf.stack import free_port  # noqa: E402

PORT = free_port()  # a port of its own: another engineer's run may serve beside this one
DB_NAME = f"rivals_bench_{os.getpid()}"


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bench_db_url() -> str:
    base = os.environ.get("DATABASE_URL")
    if not base:
        from config.embedded import embedded_database_url

        base = embedded_database_url()
    parts = urlsplit(base)
    return base, urlunsplit(parts._replace(path=f"/{DB_NAME}"))


def psql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


class Api:
    port = PORT
    # called as observer(api, method, path, body, status, answer, seconds) after every answer
    # (tests/perf/load.py, tests/perf/faults.py)
    observer = None

    def __init__(self, prefer: str | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.token = None
        self.prefer = prefer  # a Prefer header for the intents (``return=minimal``: the compact answer)
        self.last_size = 0  # bytes of the last answer's body (tests/perf/load.py reports them)

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if self.prefer and path.endswith("/intents"):
            headers["Prefer"] = self.prefer
        payload = json.dumps(body) if body is not None else None
        for _attempt in range(3):
            t = time.perf_counter()
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                res = self.conn.getresponse()
                data = res.read()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # an idle keep-alive connection closed by the server: reconnect (the request was
                # not processed — the server closes only idle connections)
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        else:
            raise RuntimeError("server unreachable")
        answer = json.loads(data) if data else None
        self.last_size = len(data)
        if self.observer is not None:
            self.observer(self, method, path, body, res.status, answer, time.perf_counter() - t)
        return res.status, answer

    def guest(self, name: str) -> int:
        """Signs in as the guest of the device ``<name>-perf-device-…``: its token kept, its account id returned."""
        status, body = self.call("POST", "/api/v1/auth/guest", {"device_id": f"{name}-perf-device-0123456789"})
        assert status in (200, 201), body
        self.token = body["token"]
        return body["account_id"]


class Player:
    """One account playing one game at a time along the server's plan."""

    def __init__(self, name: str, mode: str, db_url: str, prefer: str | None = None, layout: str | None = None):
        import psycopg

        self.api = Api(prefer)
        self.mode = mode
        self.layout = layout  # classic games dealt on this layout (else the server's choice)
        self.db_url = db_url
        self.db = psycopg.connect(db_url, autocommit=True)
        self.api.guest(name)
        self.new_game()

    def new_game(self):
        body: dict = {"mode": "single", "level": 1} if self.mode == "single" else {"mode": "classic"}
        if self.layout is not None:
            from rivals import engine

            body["code"] = engine.random_code(layout_id=self.layout)
        status, game = self.api.call("POST", "/api/v1/games", body)
        assert status == 201, game
        self.game_id, self.seq = game["id"], 0
        if self.db.broken or self.db.closed:  # the database restarted (tests/perf/faults.py)
            import psycopg

            self.db = psycopg.connect(self.db_url, autocommit=True)
        self.plan = self.db.execute("SELECT plan FROM rivals_game WHERE id = %s", [self.game_id]).fetchone()[0]

    def step(self) -> tuple[bool, float]:
        """Send one remove_pair; returns (accepted, seconds)."""
        if not self.plan:
            self.new_game()
        pair = self.plan[0]
        t = time.perf_counter()
        status, body = self.api.call(
            "POST", f"/api/v1/games/{self.game_id}/intents", {"seq": self.seq, "type": "remove_pair", "tiles": pair}
        )
        elapsed = time.perf_counter() - t
        if status != 200:
            raise RuntimeError(f"refused: {status} {body}")
        self.seq += 1
        self.plan = self.plan[1:]
        return True, elapsed


def closed_loop(players, seconds):
    stop = time.perf_counter() + seconds
    lat, lock = [], threading.Lock()

    def run(p):
        local = []
        while time.perf_counter() < stop:
            local.append(p.step()[1])
        with lock:
            lat.extend(local)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return len(lat) / wall, lat


def run_open_loop(players, rate: float, seconds: float, act) -> None:
    """Requests scheduled at a fixed rate: slot ``i`` is due at ``t0 + i / rate``; each player's
    thread takes the next free slot, sleeps until it is due and calls ``act(player, due)``."""
    total = int(rate * seconds)
    counter = iter(range(total))
    lock = threading.Lock()
    t0 = time.perf_counter() + 0.5

    def run(p):
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            due = t0 + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            act(p, due)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def open_loop(players, rate, seconds):
    """The open loop of solo intents: each slot's latency from its due time, and the service's."""
    lock = threading.Lock()
    lat_sched, lat_service = [], []

    def act(p, due):
        _, service = p.step()
        done = time.perf_counter()
        with lock:
            lat_sched.append(done - due)
            lat_service.append(service)

    run_open_loop(players, rate, seconds, act)
    return lat_sched, lat_service


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="single", choices=("single", "classic"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=4, help="gthread threads per gunicorn worker")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--rate", type=float, default=200)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.seconds = 5

    base, url = bench_db_url()
    psql(base, f"DROP DATABASE IF EXISTS {DB_NAME}")
    psql(base, f"CREATE DATABASE {DB_NAME}")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "THROTTLE_USER": "1000000/minute",
        "THROTTLE_ANON": "1000000/minute",
        "LOG_LEVEL": "WARNING",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            str(args.workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(args.threads),
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                if Api().call("GET", "/healthz")[0] in (200, 503):
                    break
            except OSError:
                time.sleep(0.2)
        # warm-up: level 1 generated on demand, connection pools, engine caches
        players = [Player(f"bench-{args.mode}-{i}", args.mode, url) for i in range(max(args.clients, 16))]
        for p in players:
            p.step()
        rate, lat = closed_loop(players[: args.clients], args.seconds)
        print(f"mode={args.mode} gunicorn workers={args.workers}x{args.threads} threads, clients={args.clients}")
        print(
            f"closed loop: {rate:.0f} accepted remove_pair/s over {args.seconds:.0f}s "
            f"(latency median {statistics.median(lat) * 1000:.1f} ms, p99 {pct(lat, 0.99) * 1000:.1f} ms)"
        )
        sched, service = open_loop(players, args.rate, args.seconds)
        print(
            f"open loop at {args.rate:.0f}/s ({len(sched)} intents): latency from schedule median "
            f"{statistics.median(sched) * 1000:.1f} ms, p99 {pct(sched, 0.99) * 1000:.1f} ms, "
            f"max {max(sched) * 1000:.1f} ms; service time median {statistics.median(service) * 1000:.1f} ms, "
            f"p99 {pct(service, 0.99) * 1000:.1f} ms"
        )
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=20)
        for p in locals().get("players", []):
            p.db.close()
        psql(base, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


if __name__ == "__main__":
    main()
