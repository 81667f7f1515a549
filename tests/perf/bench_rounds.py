"""Benchmark of competitive rounds (issue "Competitive play"): the server-owned clock and the
round hot path.

1. **End enforcement** — how late a round's end is recorded after its deadline when no client
   calls: a Celery worker and beat run (as in production: the ETA task scheduled at the
   deadline, the 2-s sweeper behind it); ``--rounds`` rounds get idle deadlines spread over the
   next 18 s; lateness = ``RoundEnded`` recorded at − the deadline. Median, p90, worst, and which
   path ended each round.
2. **Intents/s through HTTP + PostgreSQL** — gunicorn (2 workers × 4 threads) and 2-player
   Quick Match rounds: each client joins the queue, plays its board along a winning plan of the
   deal (a perfect player); the first to complete ends the round for both, and both queue again.
   Interleaved with the solo single-player benchmark (level 1, the same 36-tile layout) on the
   same server, so the ratio rounds / solo is measured in one run.
3. **GET /rounds/{id}** — latency of one client polling a running round (median, p99).

    .venv/bin/python tests/perf/bench_rounds.py [--quick] [--rounds 120] [--seconds 10]

The broker is ``CELERY_BROKER_URL``, else an empty database of the machine's Redis that this run
claims (``stack.free_redis_dbs``, flushed at the end) if Redis answers, else the filesystem
transport in a temporary folder. A throw-away database ``rivals_bench_rounds_<pid>`` (a name of
its own: two runs never share it) is made on the server of ``DATABASE_URL`` (else the embedded
PostgreSQL) and dropped at the end, with every process this script started.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf import bench_games_http as solo  # noqa: E402
from tests.perf.stack import free_redis_dbs, spawn, stop  # noqa: E402

DB_NAME = f"rivals_bench_rounds_{os.getpid()}"
CLAIMED: list[str] = []  # the Redis databases this run claimed (flushed at the end)


def broker_url(tmp: Path) -> str:
    if os.environ.get("CELERY_BROKER_URL"):
        return os.environ["CELERY_BROKER_URL"]
    try:
        CLAIMED.extend(free_redis_dbs(1))
        return CLAIMED[0]
    except Exception:  # no Redis here (or none free): the broker that needs no server
        os.environ["RIVALS_DATA_DIR"] = str(tmp)
        return "filesystem://"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


# --- 1. end enforcement ------------------------------------------------------------------------------


def lateness(n: int) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from rivals.accounts.services import account_guest_signin
    from rivals.matches.services import match_create
    from rivals.models import Event

    accounts = [account_guest_signin(device_id=f"late-{i:06d}-perf-device")[0] for i in range(2 * n)]
    now = timezone.now()
    round_ids = []
    for i in range(n):
        offset = 2 + 18 * i / n  # deadlines from now + 2 s to now + 20 s
        m = match_create(
            mode="quick",
            account_ids=[accounts[2 * i].pk, accounts[2 * i + 1].pk],
            starts_at=now - timedelta(seconds=20 - offset),
        )
        round_ids.append(f"round-{m.rounds.get().pk}")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = Event.objects.filter(stream_id__in=round_ids, type="RoundEnded").count()
        if done == n:
            break
        time.sleep(0.5)
    late, via = [], {}
    for event in Event.objects.filter(stream_id__in=round_ids, type="RoundEnded"):
        from django.utils.dateparse import parse_datetime

        late.append((event.recorded_at - parse_datetime(event.data["ended_at"])).total_seconds())
        path = event.metadata.get("via")
        via[path] = via.get(path, 0) + 1
    print(
        f"1. end enforcement, {len(late)}/{n} rounds ended with no client calling: lateness after the deadline "
        f"median {ms(statistics.median(late))}, p90 {ms(solo.pct(late, 0.9))}, worst {ms(max(late))}; "
        f"ended by {via}  (targets: median <= 500 ms, worst <= 2 s)"
    )


# --- 2. intents/s ------------------------------------------------------------------------------------


def plan_from_view(engine, view: dict) -> list[list[int]]:
    """A winning plan of the board a round's answer shows, solved from its tiles as any client
    could (R-40 keeps the deal's code secret until the round is over, not the faces on the board)."""
    layout = engine.get_layout(view["layout"])
    faces: list[str | None] = [None] * layout.size
    for tile in view["tiles"]:
        faces[tile["id"]] = tile["face"]
    result = engine.solve(engine.Board(layout, faces, view["ruleset"]))
    return [list(p) for p in result.plan] if result.solvable else []


class RoundPlayer:
    """A perfect player: joins the queue (``mode`` quick or arena), plays its board of each round
    along a winning plan of the deal; when a round is over (it completed, or an opponent did) it
    plays the match's next round once it starts (an arena's break), else queues again."""

    PATIENCE = 3.0  # seconds in the queue before leaving it
    POLL = 0.05  # a client's poll of its waiting ticket (not every 5 ms: the polls would outnumber the intents)
    SAFETY_NET = 0.5  # on the socket: a poll of the ticket after this long without a notice

    def __init__(self, name: str, mode: str = "quick", prefer: str | None = None, live: bool = False):
        from rivals import engine

        self.engine = engine
        self.mode = mode
        self.api = solo.Api(prefer)
        self.account_id = self.api.guest(name)
        self.round_id = self.match_id = None
        self.plan: list = []
        self.seq = 0
        # live: the player hears of its rounds on the live socket (its account's round_started
        # notifications) instead of polling the queue and reading the match (a Quick Match)
        self.ws = self._socket() if live else None
        self.started: list[dict] = []  # round_started notifications not yet played
        self.found: set[str] = set()  # rounds the safety-net poll found before their notice came

    def _socket(self):
        import json

        from websockets.sync.client import connect

        status, ticket = self.api.call("POST", "/api/v1/live/ticket", {})
        assert status == 201, ticket
        ws = connect(ticket["url"], open_timeout=30, max_size=None)  # the url carries the ticket
        ws.send(json.dumps({"op": "subscribe", "topic": "account"}))
        while json.loads(ws.recv(timeout=30)).get("op") != "subscribed":
            pass
        return ws

    def _round_started(self, timeout: float = 60.0) -> dict:
        """The next round_started notification of the socket (those already read first)."""
        deadline = time.monotonic() + timeout
        while not self.started:
            self._heard(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        return self.started.pop(0)

    def _heard(self, message) -> None:
        """One message of the socket: a round_started is kept (unless the round was joined already,
        from the join's answer or the poll); the rest is read and dropped."""
        import json

        msg = json.loads(message)
        data = msg.get("data") or {}
        if msg.get("op") == "event" and "round_started" in (msg.get("type"), data.get("type")):
            started = data.get("data", data) if "round_id" not in data else data
            if started.get("round_id") in self.found:  # already joined through the answer or the poll
                self.found.discard(started["round_id"])
            else:
                self.started.append(started)

    def _drain(self) -> None:
        """Read what the socket holds already, as a client does all along: a player whose joins
        pair at once (the answer names the round) reads nothing else, and websockets stops
        reading a socket whose 16 received frames are not taken — its keepalive's pong with them
        (the connection closed as 1011 "keepalive ping timeout" after 20 s)."""
        while True:
            try:
                self._heard(self.ws.recv(timeout=0))
            except TimeoutError:
                return

    def queue(self) -> None:
        """Join the queue and wait for the match; a player nobody joins within ``PATIENCE`` s
        leaves the queue (a closed loop's last player must not wait for a partner who stopped):
        its plan stays empty."""
        status, ticket = self.api.call("POST", "/api/v1/queue", {"mode": self.mode})
        assert status in (200, 201), ticket
        deadline = time.monotonic() + self.PATIENCE
        if self.ws is not None and self.mode == "quick":  # one round: the socket tells which
            round_id = ticket.get("round")  # the join that paired answers it at once (its notice follows)
            if round_id is not None:
                self.found.add(round_id)
            self._drain()
            while round_id is None:
                try:
                    round_id = self._round_started(
                        timeout=min(self.SAFETY_NET, max(0.05, deadline - time.monotonic()))
                    )["round_id"]
                except TimeoutError:
                    # the socket said nothing for a while: the ticket, once (a late notice must not
                    # stall the client; each such poll is counted with the ticket's reads)
                    status, ticket = self.api.call("GET", f"/api/v1/queue/{ticket['id']}")
                    if status == 200 and ticket.get("round"):
                        round_id = ticket["round"]
                        self.found.add(round_id)
                    elif time.monotonic() > deadline:
                        if self.api.call("DELETE", f"/api/v1/queue/{ticket['id']}")[0] == 200:
                            return  # left: nobody came
                        deadline = time.monotonic() + 30  # matched meanwhile: its round is on its way
            self.match_id = None  # a Quick Match has one round: the next is a new match
            return self.join(round_id)
        while ticket["status"] == "waiting":
            if time.monotonic() > deadline:
                status, left = self.api.call("DELETE", f"/api/v1/queue/{ticket['id']}")
                if status == 200:
                    return  # left: nobody came
                deadline = time.monotonic() + 30
            time.sleep(self.POLL)
            status, ticket = self.api.call("GET", f"/api/v1/queue/{ticket['id']}")
        self.match_id = ticket["match"]
        if ticket.get("round"):  # the ticket names the round to play: no read of the match
            if self.mode == "quick":
                self.match_id = None  # a Quick Match has one round: the next is a new match
            return self.join(ticket["round"])
        self.next_round()

    def next_round(self) -> None:
        """The match's first round not yet ended; a finished match (or none) queues again."""
        if self.match_id is None:
            return self.queue()
        status, match = self.api.call("GET", f"/api/v1/matches/{self.match_id}")
        upcoming = [r for r in match["rounds"] if r["status"] != "ended"] if status == 200 else []
        if match.get("status") != "running" or not upcoming:
            self.match_id = None
            return self.queue()
        self.join(upcoming[0]["id"])

    def join(self, round_id: str) -> None:
        status, view = self.api.call("GET", f"/api/v1/rounds/{round_id}")
        while status == 200 and view["status"] == "scheduled":  # an arena's break: wait for the start
            time.sleep(0.25)
            status, view = self.api.call("GET", f"/api/v1/rounds/{round_id}")
        assert status == 200, view
        self.round_id, self.seq = round_id, view["seq"]
        self.plan = plan_from_view(self.engine, view)
        if view["status"] == "ended":
            self.plan = []

    def step(self) -> tuple[bool, float]:
        if not self.plan:
            self.next_round()
            if not self.plan:  # no round to play now (the queue found nobody, a round already over)
                return False, 0.0
        t = time.perf_counter()
        status, body = self.api.call(
            "POST",
            f"/api/v1/rounds/{self.round_id}/intents",
            {"seq": self.seq, "type": "remove_pair", "tiles": self.plan[0]},
        )
        elapsed = time.perf_counter() - t
        if status == 200:
            self.seq += 1
            self.plan = self.plan[1:]
            if (body.get("game") or body)["status"] == "ended":  # the full answer, or the compact one
                self.plan = []
            return True, elapsed
        if status == 422 and body["error"]["code"] == "not_allowed":  # the opponent completed first
            self.plan = []
            return False, elapsed
        raise RuntimeError(f"refused: {status} {body}")


def closed_loop(clients, seconds):
    stop_at = time.perf_counter() + seconds
    accepted, lat, lock = [0], [], threading.Lock()

    def run(c):
        local, ok = [], 0
        while time.perf_counter() < stop_at:
            good, elapsed = c.step()
            ok += good
            if elapsed:  # a step with no request (no round to play yet) has no latency
                local.append(elapsed)
        with lock:
            accepted[0] += ok
            lat.extend(local)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return accepted[0] / (time.perf_counter() - t0), lat


def throughput(url: str, clients: int, seconds: float, repeats: int) -> None:
    players = [RoundPlayer(f"bench-round-{i}") for i in range(clients)]
    solo_players = [solo.Player(f"bench-solo-{i}", "single", url) for i in range(clients)]
    warm = [threading.Thread(target=p.step) for p in players]  # pairs form in the queue
    for t in warm:
        t.start()
    for t in warm:
        t.join()
    for p in solo_players:
        p.step()
    figures = []
    for r in range(repeats):
        solo_rate, solo_lat = solo.closed_loop(solo_players, seconds)
        round_rate, round_lat = closed_loop(players, seconds)
        figures.append((solo_rate, round_rate))
        print(
            f"2.{r + 1} solo single-player {solo_rate:.0f} accepted/s (median {ms(statistics.median(solo_lat))}, "
            f"p99 {ms(solo.pct(solo_lat, 0.99))}) | 2-player rounds {round_rate:.0f} accepted/s "
            f"(median {ms(statistics.median(round_lat))}, p99 {ms(solo.pct(round_lat, 0.99))})"
        )
    for p in solo_players:
        p.db.close()
    solo_mean = statistics.mean(f[0] for f in figures)
    round_mean = statistics.mean(f[1] for f in figures)
    print(
        f"2. round intents: {round_mean:.0f}/s vs solo {solo_mean:.0f}/s on the same server = "
        f"{round_mean / solo_mean:.2f} of the solo figure ({clients} clients, {repeats} × {seconds:.0f} s each)"
    )


# --- 3. GET /rounds/{id} ------------------------------------------------------------------------------


def poll_latency(count: int) -> None:
    from rivals.matches.services import match_create

    a, b = (RoundPlayer(f"bench-poll-{k}") for k in range(2))
    round_id = str(match_create(mode="quick", account_ids=[a.account_id, b.account_id]).rounds.get().pk)
    a.join(round_id)
    for _ in range(20):  # warm-up
        a.api.call("GET", f"/api/v1/rounds/{round_id}")
    lat = []
    for i in range(count):
        if i % 200 == 0 and a.plan:  # keep the round alive (R-17: 20 s without a pair ends it)
            a.step()
        t = time.perf_counter()
        status, _ = a.api.call("GET", f"/api/v1/rounds/{round_id}")
        lat.append(time.perf_counter() - t)
        assert status == 200
    print(
        f"3. GET /rounds/{{id}} x{count}: median {ms(statistics.median(lat))}, p99 {ms(solo.pct(lat, 0.99))}, "
        f"max {ms(max(lat))}  (target p99 <= 10 ms)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=120)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--polls", type=int, default=2000)
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.repeats, args.polls = 100, 4, 1, 500

    tmp = Path(tempfile.mkdtemp(prefix="bench-rounds-"))
    base, _ = solo.bench_db_url()
    from urllib.parse import urlsplit, urlunsplit

    url = urlunsplit(urlsplit(base)._replace(path=f"/{DB_NAME}"))  # a socket URL keeps its ?host=
    solo.psql(base, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    solo.psql(base, f"CREATE DATABASE {DB_NAME}")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": broker_url(tmp),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "THROTTLE_USER": "1000000/minute",
        "THROTTLE_ANON": "1000000/minute",
        "LOG_LEVEL": "WARNING",
        "RIVALS_ROUND_LAYOUTS": "L08",
    }
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "CELERY_BROKER_URL", "RIVALS_ROUND_LAYOUTS", "DJANGO_SETTINGS_MODULE")}
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [sys.executable, "manage.py", "setup_periodic_tasks"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
    )
    import django

    django.setup()
    procs = []
    try:
        procs.append(
            spawn(
                [
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--loglevel",
                    "WARNING",
                    "--concurrency",
                    "2",
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
                tmp / "worker.log",
            )
        )
        procs.append(
            spawn(
                ["-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING", "-s", str(tmp / "beat-schedule")],
                env,
                tmp / "beat.log",
            )
        )
        time.sleep(4)  # the worker connects to the broker
        print(f"broker {env['CELERY_BROKER_URL'].split('://')[0]}, worker prefork x2, beat (sweeper every 2 s)")
        lateness(args.rounds)
        procs.append(
            spawn(
                [
                    "-m",
                    "gunicorn",
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{solo.PORT}",
                    "--workers",
                    "2",
                    "--worker-class",
                    "gthread",
                    "--threads",
                    "4",
                    "--keep-alive",
                    "30",
                    "--log-level",
                    "warning",
                ],
                env,
                tmp / "web.log",
            )
        )
        for _ in range(100):
            try:
                if solo.Api().call("GET", "/healthz")[0] in (200, 503):
                    break
            except OSError:
                time.sleep(0.2)
        throughput(url, args.clients, args.seconds, args.repeats)
        poll_latency(args.polls)
    finally:
        for proc in procs:
            stop(proc)
        from django.db import connections

        connections.close_all()
        solo.psql(base, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        import redis

        for url in CLAIMED:
            redis.Redis.from_url(url).flushdb()


if __name__ == "__main__":
    main()
