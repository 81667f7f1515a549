"""Load (issues 14 and 25): guests sign in and play real solo games, Quick Matches and an Arena
through HTTP against the service run as in production — gunicorn (2 workers × 4 threads), the
live WebSocket on its own uvicorn (deploy/'s ``live``), PostgreSQL, Redis as broker and cache, one
Celery worker and one beat — and every figure is set against a **floor measured in the same run**:
``POST /api/v1/bench/floor`` (rivals/api/views_floor.py), a bare DRF endpoint on the same gunicorn
and database that does the least an intent must.

1. **Interleaved closed loops** (``--clients`` players each, as fast as answers come):
   floor, solo ``remove_pair``, floor, solo ``remove_pair`` with ``Prefer: return=minimal`` (the
   compact answer), floor, Quick Match round ``remove_pair``, floor, the same compact, floor, …
   ``--repeats`` times; each real run's accepted intents/s is divided by the mean of the floor runs
   beside it, and so are its CPU per intent in the web workers and in the database's backends.
   Round players hear of their rounds on the live socket (``--poll``: they poll the queue).
   1s. What the database ran per accepted intent (``pg_stat_statements``, when the server has it
   in ``shared_preload_libraries``: statements, server time, WAL, each statement's calls); 1t. the
   rows written per table per accepted intent and the share of UPDATEs that were HOT
   (``pg_stat_user_tables``, tests/perf/load_tables.py), the server's WAL per intent; 1b. the
   bytes per answer.
2. **Mixed open loop** at ``--rate`` intents/s (default: half the floor's rate) for
   ``--mixed-seconds``: solo single player, solo classic and Quick Match players with compact
   answers take the scheduled slots (latency counted from the scheduled send time: no
   coordinated omission), while four players play an Arena (three rounds, the 10-s breaks) at a
   human pace beside them. p50 / p99 per endpoint, errors.
3. **Database size per 1,000 games** (boards of rounds included) and events per game.
4. ``--profile``: one intent end to end under pyinstrument, in this process (Django's test client
   through every middleware, DRF, the service and the database of the run).

    .venv/bin/python tests/perf/load.py [--quick] [--profile] [--poll] [--rate N]

PostgreSQL: the server of ``DATABASE_URL``, else the machine's (127.0.0.1:5432), on a throw-away
database of its own (``rivals_load_<pid>``: two runs never share one). Redis: ``CELERY_BROKER_URL``
/ ``CACHE_URL``, else two empty databases of the machine's Redis that this run claims (emptied again
at the end). Targets (issue 25; exit 1 when one is missed): solo ≥ 0.9 of the floor, round ≥ 0.8,
database CPU per intent ≤ 1.2× the floor's, p99 ≤ 50 ms in the open loop at half the floor's rate,
0 errors. Traffic stays on 127.0.0.1; everything started is stopped and the database dropped at
the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf import bench_games_http as solo  # noqa: E402
from tests.perf import bench_rounds as rounds  # noqa: E402
from tests.perf.benchdb import bench_database  # noqa: E402
from tests.perf.load_tables import Tables, tables_report  # noqa: E402
from tests.perf.stack import MACHINE_POSTGRES, Stack, free_redis_dbs  # noqa: E402

# issue 25's targets: accepted intents/s against the floor (solo, round), the database's CPU per
# intent against the floor's, p99 of an open loop at half the floor's rate, no error
TARGET_RATIO = {"solo": 0.9, "round": 0.8}
TARGET_DB_CPU, TARGET_P99_MS = 1.2, 50.0
MINIMAL = "return=minimal"
_ID = re.compile(r"/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)(?=/|$)")


class Recorder:
    """Every HTTP answer of the clients: latency per endpoint, status counts (``solo.Api.observer``)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.phase = "setup"
        self.latency: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.sizes: dict[tuple[str, str], list[int]] = defaultdict(list)  # answers' bytes

    def __call__(self, api, method, path, body, status, answer, seconds):
        endpoint = f"{method} {_ID.sub('/{id}', path.split('?')[0])}"
        with self.lock:
            self.latency[(self.phase, endpoint)].append(seconds)
            self.statuses[self.phase][status] += 1
            if status == 200:
                self.sizes[(self.phase, endpoint)].append(api.last_size)

    def server_errors(self) -> int:
        return sum(n for counts in self.statuses.values() for s, n in counts.items() if s >= 500)


class Guarded:
    """A player whose failures are counted instead of ending its thread; counts accepted intents."""

    def __init__(self, player, errors: list):
        self.player, self.errors = player, errors
        self.accepted = 0

    def step(self) -> tuple[bool, float]:
        try:
            ok, seconds = self.player.step()
        except Exception as exc:  # counted and reported; the player starts afresh
            self.errors.append(f"{type(self.player).__name__}: {exc}"[:300])
            self.player.plan = []
            return False, 0.0
        self.accepted += ok
        return ok, seconds


class FloorPlayer:
    """Sends intent-shaped bodies to the floor endpoint, one seq after the other."""

    def __init__(self, name: str):
        self.api = solo.Api()
        self.api.guest(name)
        self.seq, self.plan = 0, [None]

    def step(self) -> tuple[bool, float]:
        t = time.perf_counter()
        status, body = self.api.call(
            "POST", "/api/v1/bench/floor", {"seq": self.seq, "type": "remove_pair", "tiles": [3, 7]}
        )
        if status != 200:
            raise RuntimeError(f"floor refused: {status} {body}")
        self.seq += 1
        return True, time.perf_counter() - t


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def parallel(fn, items) -> None:
    threads = [threading.Thread(target=fn, args=(x,)) for x in items]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # a backend that ended since it was listed
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """Each process's CPU seconds so far (``cpu_spent`` takes the difference later)."""
    return {pid: cpu_seconds([pid]) for pid in pids}


def cpu_spent(before: dict[int, float]) -> float:
    """CPU seconds these processes spent since ``before`` (``cpu_by_pid``), over those that lived
    through it (a task's connection that closed meanwhile is left out)."""
    alive = {pid: t for pid, t in before.items() if os.path.exists(f"/proc/{pid}/stat")}
    return cpu_seconds(list(alive)) - sum(alive.values())


def database_backends(url: str, live: bool = False) -> list[int]:
    """The PostgreSQL backends serving this run's database (the web workers' persistent
    connections among them), when the server runs on this machine — without (or, ``live``, only)
    the live room's own connections (relay, hub, channel layer: ``application_name`` rivals-live…),
    whose polling is a cost per second of the deployment, not of an intent."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND (application_name LIKE 'rivals-live%%') = %s",
            [live],
        ).fetchall()
    return [pid for (pid,) in rows if os.path.exists(f"/proc/{pid}/stat")]


# the live room's statements (rivals/live: the relay's horizon, its log reads, the channel layer):
# polled every 10 ms whatever the load, reported apart from the intents' own
LIVE_STATEMENTS = ("pg_locks", "pg_sequence_last_value", "pg_notify", "LISTEN ", "WHERE position > $")


class Statements:
    """What the database ran for this run's database, from ``pg_stat_statements`` when the server
    has it (``shared_preload_libraries``; the machine's PostgreSQL may not — then ``None``):
    snapshots of each statement's calls, time and WAL, compared before and after a run. Nothing is
    reset, so another run on the same server loses nothing."""

    SQL = (
        "SELECT queryid, calls, total_exec_time + total_plan_time, wal_bytes::float8, query "
        "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )

    def __init__(self, url: str):
        import psycopg

        self.url = url
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
                conn.execute("SELECT 1 FROM pg_stat_statements LIMIT 1")
            self.available = True
        except psycopg.Error:
            self.available = False

    def snapshot(self) -> dict | None:
        if not self.available:
            return None
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return {row[0]: row[1:] for row in conn.execute(self.SQL).fetchall()}

    @staticmethod
    def per_intent(before: dict | None, after: dict | None, done: int) -> dict | None:
        """Statements, server time (ms) and WAL (bytes) per accepted intent, and the statements
        by calls per intent (the monitoring's own reads left out)."""
        if before is None or after is None:
            return None
        rows, live = [], 0.0
        for qid, (calls, ms_, wal, query) in after.items():
            c0, t0, w0, _ = before.get(qid, (0, 0.0, 0.0, ""))
            if calls <= c0 or "pg_stat_statements" in query or "pg_stat_activity" in query:
                continue
            if any(mark in query for mark in LIVE_STATEMENTS):
                live += (calls - c0) / done
                continue
            rows.append(((calls - c0) / done, (ms_ - t0) / done, (wal - w0) / done, " ".join(query.split())))
        rows.sort(key=lambda r: -r[0])
        return {
            "statements": sum(r[0] for r in rows),
            "ms": sum(r[1] for r in rows),
            "wal": sum(r[2] for r in rows),
            "top": rows,
            "live": live,
        }


def measured(
    players,
    seconds: float,
    pids: list[int],
    url: str | None = None,
    statements: Statements | None = None,
    tables: Tables | None = None,
    rest: Callable[[], list[int]] | None = None,
):
    """A closed loop: accepted/s, latencies, the CPU ms per accepted intent of the web workers
    and of the database's backends — figures the other load on the machine moves far less than
    throughput —, what the database ran per accepted intent (``Statements``), the rows it
    wrote per table (``Tables``, appended to ``tables.runs``), and the CPU ms per intent of the
    rest of the service (``rest``: its other processes — Celery worker and beat, the live
    socket — with the live room's database backends; 0 without ``rest``)."""
    rows0 = tables.begin() if tables else None
    backends = cpu_by_pid(database_backends(url) if url else [])
    others = cpu_by_pid([*rest(), *(database_backends(url, live=True) if url else [])] if rest else [])
    snap = statements.snapshot() if statements else None
    web0, accepted0 = cpu_seconds(pids), sum(p.accepted for p in players)
    rate, lat = rounds.closed_loop(players, seconds)
    done = max(sum(p.accepted for p in players) - accepted0, 1)
    db_ms = cpu_spent(backends) * 1000 / done
    web_ms = (cpu_seconds(pids) - web0) * 1000 / done
    rest_ms = cpu_spent(others) * 1000 / done
    stmts = Statements.per_intent(snap, statements.snapshot() if statements else None, done)
    if tables:
        tables.runs.append(Tables.per_intent(rows0, tables.end(), done))
    return rate, lat, web_ms, db_ms, stmts, rest_ms


def interleaved(
    recorder,
    floor,
    real: dict,
    seconds: float,
    repeats: int,
    pids: list[int],
    url: str,
    statements,
    tables: Tables | None = None,
    rest: Callable[[], list[int]] | None = None,
):
    """F, then (real run, F) for each kind, ``repeats`` times: ratio of each real run to the mean of
    the floor runs on either side of it, in throughput and in CPU per intent (web, database); the
    rows written per table of each run by kind (``tables.by_kind``; without ``tables``, none); each
    run's CPU ms per intent as measured (web, database, the rest of the service: ``measured``'s
    ``rest``), by kind, the floor's too."""

    def kept(kind: str) -> None:
        if tables:
            tables.by_kind[kind].append(tables.runs[-1])

    ratios: dict[str, list[float]] = defaultdict(list)
    rates: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[tuple[float, float]]] = defaultdict(list)
    absolute: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    stmts: dict[str, list[dict]] = defaultdict(list)
    recorder.phase = "closed floor"
    before, _, before_web, before_db, floor_stmts, floor_rest = measured(
        floor, seconds, pids, url, statements, tables, rest
    )
    absolute["floor"].append((before_web, before_db, floor_rest))
    stmts["floor"].append(floor_stmts)
    kept("floor")
    print(f"1. floor {before:.0f}/s; CPU per intent: web {before_web:.2f} ms, database {before_db:.2f} ms", flush=True)
    for r in range(repeats):
        for kind, players in real.items():
            recorder.phase = f"closed {kind}"
            rate, lat, web, db, run_stmts, run_rest = measured(players, seconds, pids, url, statements, tables, rest)
            absolute[kind].append((web, db, run_rest))
            stmts[kind].append(run_stmts)
            kept(kind)
            recorder.phase = "closed floor"
            after, _, after_web, after_db, floor_stmts, floor_rest = measured(
                floor, seconds, pids, url, statements, tables, rest
            )
            absolute["floor"].append((after_web, after_db, floor_rest))
            stmts["floor"].append(floor_stmts)
            kept("floor")
            ratio = rate / ((before + after) / 2)
            ratios[kind].append(ratio)
            rates[kind].append(rate)
            rates["floor"] += [before, after]
            cpu[kind].append((web / ((before_web + after_web) / 2), db / ((before_db + after_db) / 2)))
            print(
                f"1.{r + 1} {kind}: {rate:.0f} accepted/s (median {ms(statistics.median(lat)) if lat else '-'}, "
                f"p99 {ms(solo.pct(lat, 0.99))}) = {ratio:.2f} of the floor; CPU per intent: web {web:.2f} ms "
                f"(×{cpu[kind][-1][0]:.2f} the floor's), database {db:.2f} ms (×{cpu[kind][-1][1]:.2f})"
                f"{f', the rest of the service {run_rest:.2f} ms' if rest else ''}; "
                f"floor {after:.0f}/s, web {after_web:.2f} ms, database {after_db:.2f} ms; "
                f"load average {os.getloadavg()[0]:.2f}",
                flush=True,
            )
            before, before_web, before_db = after, after_web, after_db
    return ratios, rates, cpu, stmts, absolute


def statements_report(stmts: dict[str, list[dict]], top: int = 12) -> None:
    """1s. What the database ran per accepted intent (pg_stat_statements), each kind over its runs."""
    if not any(x for runs in stmts.values() for x in runs):
        print("1s. statements per intent: n/a (the server has no pg_stat_statements in shared_preload_libraries)")
        return
    for kind, runs in stmts.items():
        runs = [x for x in runs if x]
        if not runs:
            continue
        n = len(runs)
        merged: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for x in runs:
            for calls, ms_, wal, query in x["top"]:
                m = merged[query]
                m[0] += calls / n
                m[1] += ms_ / n
                m[2] += wal / n
        print(
            f"1s. {kind}: {sum(x['statements'] for x in runs) / n:.2f} statements per accepted intent, "
            f"server time {sum(x['ms'] for x in runs) / n:.3f} ms, WAL {sum(x['wal'] for x in runs) / n:.0f} B "
            f"(and {sum(x['live'] for x in runs) / n:.2f} of the live relay's polling per intent, apart)"
        )
        for query, (calls, ms_, wal) in sorted(merged.items(), key=lambda kv: -kv[1][0])[:top]:
            if calls >= 0.01:
                print(f"      {calls:5.2f}  {ms_ / calls:6.3f} ms  {wal / calls:6.0f} B  {query[:110]}")


def arena_background(players, stop: threading.Event, pace: float) -> list[threading.Thread]:
    """Four players in one Arena, a pair every ``pace`` seconds each, until ``stop``."""

    def run(p):
        while not stop.is_set():
            p.step()
            stop.wait(pace)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for t in threads:
        t.start()
    return threads


def database_figures(url: str) -> tuple[int, int, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        games = conn.execute("SELECT count(*) FROM rivals_game").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM rivals_event").fetchone()[0]
    return size, games, events


def profile_one_intent(count: int) -> None:
    """pyinstrument over ``count`` remove_pair intents through Django's whole request path."""
    import django
    from pyinstrument import Profiler

    django.setup()
    from django.db import connection
    from rest_framework.test import APIClient

    client = APIClient()
    token = client.post("/api/v1/auth/guest", {"device_id": "profiled-0123456789abcdef"}, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    games = []
    for _ in range(count // 18 + 1):
        game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
        with connection.cursor() as cur:  # Django's cursor leaves jsonb as text
            cur.execute("SELECT plan FROM rivals_game WHERE id = %s", [game["id"]])
            games.append((game["id"], json.loads(cur.fetchone()[0])))
    profiler = Profiler(interval=0.0002)
    done = 0
    profiler.start()
    for game_id, plan in games:
        for seq, pair in enumerate(plan):
            if done == count:
                break
            res = client.post(
                f"/api/v1/games/{game_id}/intents", {"seq": seq, "type": "remove_pair", "tiles": pair}, format="json"
            )
            assert res.status_code == 200, res.content
            done += 1
    profiler.stop()
    print(f"5. profile of {done} remove_pair intents in one process (pyinstrument):")
    print(profiler.output_text(unicode=True, color=False, show_all=False, short_mode=True))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--clients", type=int, default=8, help="players per closed-loop run")
    ap.add_argument("--seconds", type=float, default=8, help="length of each closed-loop run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rate", type=float, default=0, help="the mixed open loop's rate (default: half the floor's)")
    ap.add_argument("--mixed-seconds", type=float, default=30)
    ap.add_argument("--poll", action="store_true", help="round players poll the queue instead of the live socket")
    ap.add_argument("--web-workers", type=int, default=2, help="gunicorn workers (the worker model)")
    ap.add_argument("--threads", type=int, default=4, help="gthread threads per gunicorn worker")
    ap.add_argument(
        "--stats-settle",
        type=float,
        default=10.5,
        help="seconds waited after each closed-loop run before reading pg_stat_user_tables (load_tables.py)",
    )
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--profile-intents", type=int, default=400)
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.repeats, args.mixed_seconds = 4, 1, 10

    base = os.environ.get("DATABASE_URL") or MACHINE_POSTGRES
    redis_urls = [os.environ.get("CELERY_BROKER_URL"), os.environ.get("CACHE_URL")]
    own_redis = free_redis_dbs(sum(u is None for u in redis_urls)) if None in redis_urls else []
    broker = redis_urls[0] or own_redis.pop(0)
    cache = redis_urls[1] or own_redis.pop(0)
    flush = [u for u in (broker, cache) if u not in redis_urls]
    folder = Path(tempfile.mkdtemp(prefix="rivals-load-"))
    recorder, errors = Recorder(), []
    failed = []
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (2 cores, shared)", flush=True)
    with bench_database("rivals_load", base):
        url = os.environ["DATABASE_URL"]
        os.environ.update(
            CELERY_BROKER_URL=broker,
            CACHE_URL=cache,
            RIVALS_ROUND_LAYOUTS="L08",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        # connections kept for the whole run, so that the database backends measured stay the same
        stack = Stack(
            database_url=url,
            broker_url=broker,
            cache_url=cache,
            folder=folder,
            web_workers=args.web_workers,
            threads=args.threads,
            RIVALS_BENCH_FLOOR="1",
            RIVALS_ROUND_LAYOUTS="L08",
            DATABASE_CONN_MAX_AGE="900",
        )
        solo.Api.port, solo.Api.observer = stack.port, recorder
        try:
            stack.prepare()
            stack.start()
            live = not args.poll
            if live:
                stack.start_live()
            time.sleep(3)  # the worker connects to the broker
            statements = Statements(url)
            print(
                f"service: gunicorn {stack.web_workers}×{stack.threads} gthread, "
                + ("live WebSocket on uvicorn ×1, " if live else "")
                + f"worker prefork ×2, beat; PostgreSQL {url.rsplit('@', 1)[-1]}, broker {broker}, cache {cache}; "
                + f"statements per intent {'from pg_stat_statements' if statements.available else 'n/a'}",
                flush=True,
            )
            size0, games0, _ = database_figures(url)
            c = args.clients
            floor = [Guarded(FloorPlayer(f"floor-{i}"), errors) for i in range(c)]
            singles = [Guarded(solo.Player(f"single-{i}", "single", url), errors) for i in range(c)]
            singles_min = [Guarded(solo.Player(f"single-m{i}", "single", url, MINIMAL), errors) for i in range(c)]
            classics = [Guarded(solo.Player(f"classic-{i}", "classic", url, MINIMAL), errors) for i in range(c)]
            pairs = c - c % 2
            quick = [Guarded(rounds.RoundPlayer(f"quick-{i}", live=live), errors) for i in range(pairs)]
            quick_min = [
                Guarded(rounds.RoundPlayer(f"quick-m{i}", prefer=MINIMAL, live=live), errors) for i in range(pairs)
            ]
            arena = [Guarded(rounds.RoundPlayer(f"arena-{i}", mode="arena", prefer=MINIMAL), errors) for i in range(4)]
            # warm-up; pairs form in the queue
            parallel(lambda p: p.step(), floor + singles + singles_min + classics + quick + quick_min)
            tables = Tables(url, args.stats_settle)
            ratios, rates, cpu, stmts, _absolute = interleaved(
                recorder,
                floor,
                {
                    "solo remove_pair": singles,
                    "solo remove_pair minimal": singles_min,
                    "round remove_pair": quick,
                    "round remove_pair minimal": quick_min,
                },
                args.seconds,
                args.repeats,
                stack.web_worker_pids(),
                url,
                statements,
                tables,
            )
            statements_report(stmts)
            tables_report(tables.by_kind)
            print(
                "1b. bytes per answer (closed loops): "
                + ", ".join(
                    f"{phase.removeprefix('closed ')} {statistics.mean(sizes):.0f}"
                    for (phase, endpoint), sizes in sorted(recorder.sizes.items())
                    if phase.startswith("closed")
                    and endpoint.endswith("/intents")
                    or endpoint == "POST /api/v1/bench/floor"
                )
            )

            floor_rate = statistics.mean(rates["floor"])
            recorder.phase = "half"  # an open loop the server can take: half the solo closed loop's rate
            solo_rate = statistics.median(rates["solo remove_pair minimal"])
            sched, _ = solo.open_loop(singles_min, solo_rate / 2, args.mixed_seconds / 2)
            print(
                f"2a. solo open loop (compact answers) at {solo_rate / 2:.0f}/s (half the closed loop's "
                f"{solo_rate:.0f}/s): latency from the schedule p50 {ms(statistics.median(sched))}, "
                f"p99 {ms(solo.pct(sched, 0.99))}"
            )

            rate = args.rate or floor_rate / 2
            recorder.phase = "mixed"
            stop_arena = threading.Event()
            arena_threads = arena_background(arena, stop_arena, pace=0.15)
            accepted0 = sum(p.accepted for p in singles_min + classics + quick_min + arena)
            t0 = time.perf_counter()
            sched, service = solo.open_loop(singles_min + classics + quick_min, rate, args.mixed_seconds)
            wall = time.perf_counter() - t0
            stop_arena.set()
            for t in arena_threads:
                t.join()
            accepted = sum(p.accepted for p in singles_min + classics + quick_min + arena) - accepted0
            load = os.getloadavg()
            p99 = solo.pct(sched, 0.99) * 1000
            print(
                f"2. mixed open loop at {rate:.0f}/s ({'--rate' if args.rate else 'half the floor'}'s "
                f"{floor_rate:.0f}/s) for {args.mixed_seconds:.0f} s (solo single, solo classic, Quick Match "
                f"{'on the live socket' if live else 'polling'}, compact answers; an Arena beside): "
                f"{accepted / wall:.0f} accepted intents/s; latency from the schedule p50 "
                f"{ms(statistics.median(sched))}, p99 {p99:.1f} ms, max {ms(max(sched))}; load average {load[0]:.2f}"
            )
            for (phase, endpoint), lat in sorted(recorder.latency.items()):
                if phase == "mixed":
                    print(
                        f"   {endpoint:42s} n={len(lat):6d}  p50 {ms(statistics.median(lat)):>9s}  "
                        f"p99 {ms(solo.pct(lat, 0.99)):>9s}"
                    )
            arena_rounds = sum(1 for p in arena if p.player.match_id is None) if arena else 0
            print(
                f"   arena: {sum(p.accepted for p in arena)} intents accepted by its 4 players "
                f"({arena_rounds} between matches at the end)"
            )

            size1, games1, events1 = database_figures(url)
            games = games1 - games0
            print(
                f"3. database: {games} games (round boards included), {events1} events; "
                f"{(size1 - size0) / max(games, 1) * 1000 / 2**20:.1f} MiB per 1,000 games "
                f"({events1 / max(games1, 1):.1f} events per game)"
            )
            for kind in ratios:
                calls = Counter()
                for (phase, endpoint), lat in recorder.latency.items():
                    if phase == f"closed {kind}":
                        calls[endpoint] += len(lat)
                print(f"   closed loop {kind}: {sum(calls.values())} requests — {dict(calls.most_common())}")
            replay_ok = replay_beside_load(stack, singles + classics, solo_rate / 2, recorder)
            if not replay_ok:
                failed.append("replay")
            statuses = {phase: dict(sorted(c.items())) for phase, c in recorder.statuses.items()}
            server_errors = recorder.server_errors()
            print(f"   statuses by phase: {statuses}")
            print(
                f"   errors: {server_errors} answers ≥ 500, {len(errors)} client failures"
                + (f" — first: {errors[:3]}" if errors else "")
            )
            print(f"load average after: {load[0]:.2f} {load[1]:.2f}")
            for kind, values in ratios.items():
                mean = statistics.mean(values)
                target = TARGET_RATIO[kind.split()[0]]
                db = statistics.mean(c[1] for c in cpu[kind])
                verdict = "PASS" if mean >= target else "FAIL"
                print(
                    f"{verdict} {kind}: {mean:.2f} of the floor (target ≥ {target}; runs "
                    f"{', '.join(f'{v:.2f}' for v in values)}); CPU per intent ×"
                    f"{statistics.mean(c[0] for c in cpu[kind]):.2f} the floor's in the web workers"
                )
                print(
                    f"{'PASS' if db <= TARGET_DB_CPU else 'FAIL'} {kind}: database CPU per intent ×{db:.2f} "
                    f"the floor's (target ≤ {TARGET_DB_CPU})"
                )
                failed += [kind] * (verdict == "FAIL") + [f"{kind} database"] * (db > TARGET_DB_CPU)
            print(
                f"{'PASS' if p99 <= TARGET_P99_MS else 'FAIL'} p99 {p99:.1f} ms at {rate:.0f}/s "
                f"(target ≤ {TARGET_P99_MS:.0f} ms)"
            )
            if p99 > TARGET_P99_MS:
                failed.append("p99")
            print(f"{'PASS' if not (server_errors or errors) else 'FAIL'} errors: {server_errors + len(errors)}")
            if server_errors or errors:
                failed.append("errors")
            if args.profile:
                os.environ["RIVALS_BENCH_FLOOR"] = "1"
                profile_one_intent(args.profile_intents)
        finally:
            solo.Api.observer = None
            stack.stop()
            import redis

            for u in flush:
                redis.Redis.from_url(u).flushdb()
    return 1 if failed else 0


def replay_beside_load(stack, players, rate: float, recorder) -> bool:
    """4. ``rebuild_projections`` while clients play (an open loop at ``rate``), then ``--verify``:
    every projection equals the log; the clients' latency while it ran; the rebuild's own figures."""
    import subprocess

    recorder.phase = "replay"
    out: dict = {}

    def run_rebuild():
        started = time.perf_counter()
        out["rebuild"] = subprocess.run(
            [sys.executable, "manage.py", "rebuild_projections", "--no-progress"],
            cwd=ROOT,
            env=stack.env,
            capture_output=True,
            text=True,
        )
        out["seconds"] = time.perf_counter() - started

    thread = threading.Thread(target=run_rebuild)
    thread.start()
    lat_all = []
    while thread.is_alive() or not lat_all:  # the open loop covers the whole rebuild
        sched, _ = solo.open_loop(players, rate, 2)
        lat_all += sched
    thread.join()
    verify = subprocess.run(
        [sys.executable, "manage.py", "rebuild_projections", "--verify", "--no-progress"],
        cwd=ROOT,
        env=stack.env,
        capture_output=True,
        text=True,
    )
    rebuilt = out["rebuild"]
    print(
        f"4. replay beside the load: rebuild_projections ({out['seconds']:.1f} s, exit {rebuilt.returncode}) while "
        f"an open loop at {rate:.0f}/s played: latency p50 {ms(statistics.median(lat_all))}, "
        f"p99 {ms(solo.pct(lat_all, 0.99))}, max {ms(max(lat_all))} over {len(lat_all)} intents"
    )
    for line in (rebuilt.stdout + rebuilt.stderr).strip().splitlines()[-3:]:
        print(f"   {line}")
    equal = verify.returncode == 0
    print(
        f"{'PASS' if equal else 'FAIL'} every projection equals the log after the load (--verify: "
        f"{(verify.stdout + verify.stderr).strip().splitlines()[-1] if (verify.stdout + verify.stderr).strip() else '?'})"
    )
    return equal and rebuilt.returncode == 0


if __name__ == "__main__":
    sys.exit(main())
