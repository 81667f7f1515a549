"""Topology, proven on this machine (issue 26): the service as deploy/ runs it on real hosts, with
every piece its own process, and what a node's death costs.

- **PgBouncer** (Debian's, transaction pooling: deploy/topology/pgbouncer.ini rendered with its
  port) in front of a fresh database of the machine's PostgreSQL; every web and worker process
  goes through it (``DATABASE_POOLER=transaction``: config/pooler.py), what needs a session (the
  live relay's lock, LISTEN, beat's leader lock, the rebuild's lock) goes direct
  (``DATABASE_DIRECT_URL``); migrations too.
- **Redis** (the machine's; empty databases this run claims) as broker, cache and channel layer.
- **Two web nodes**, each gunicorn (gthread) and the live ASGI process (uvicorn) on ports of their
  own, behind **HAProxy** (Debian's: deploy/topology/haproxy.cfg; health checks on /healthz).
- **Two Celery worker nodes**, and **two beats**: one leads (config/beat.py), the second — "started
  by mistake" — waits as standby; the sends of each are counted.

The run: bots of tests/perf/load.py's kinds through the balancer — solo games, Quick Matches, an
Arena — while a tournament runs: a closed loop with **one web node** in rotation, then with
**two** (throughput, p50/p99, errors each); then, under load, **one web node (gunicorn + its live
process) and one worker node SIGKILLed** and restarted. Then the checks, each a PASS/FAIL line:
0 accepted intents lost (every 2xx intent answer's event is in the log), 0 duplicated results (one
RoundEnded per round, one MatchFinished per match, the tournament finalized once, no seq twice in a
stream), every round ended once, the standby beat sent 0, no deadlock, PgBouncer's transactions
and server connections against its clients, ``rebuild_projections --verify``.

    .venv/bin/python tests/perf/topology.py [--quick]      # make topology

Exit 1 on any FAIL. Everything started is stopped (process groups, haproxy, pgbouncer), the
database dropped and the Redis databases emptied, on failure and Ctrl-C too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf import bench_games_http as solo  # noqa: E402
from tests.perf import bench_rounds as rounds  # noqa: E402
from tests.perf.benchdb import bench_database  # noqa: E402
from tests.perf.faults import RESULTS, Ledger, accepted_lost, verdict, wait_for  # noqa: E402
from tests.perf.load import Guarded, Recorder  # noqa: E402
from tests.perf.stack import MACHINE_POSTGRES, HAProxy, PgBouncer, Stack, free_redis_dbs, stop  # noqa: E402


class Observers:
    """Every answer to both: the latencies (load.Recorder) and the accepted intents (faults.Ledger)."""

    def __init__(self):
        self.recorder, self.ledger = Recorder(), Ledger()

    def __call__(self, *args):
        self.recorder(*args)
        self.ledger(*args)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


class Load:
    """The bots, each in a thread of its own until ``stop()``: solo players and Quick Match players
    as fast as answers come (a closed loop), four Arena players at a human pace."""

    def __init__(self, url: str, clients: int, errors: list):
        self.errors = errors
        half = clients // 2 - clients // 2 % 2
        run = os.getpid()
        self.fast = [Guarded(solo.Player(f"t{run}-s{i}", "single", url), errors) for i in range(clients - half)]
        self.fast += [Guarded(rounds.RoundPlayer(f"t{run}-q{i}"), errors) for i in range(half)]
        self.arena = [Guarded(rounds.RoundPlayer(f"t{run}-a{i}", mode="arena"), errors) for i in range(4)]
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        self.stopping.clear()

        def run(p, pace):
            while not self.stopping.is_set():
                ok, _ = p.step()
                if pace or not ok:
                    self.stopping.wait(pace or 0.05)

        self.threads = [threading.Thread(target=run, args=(p, 0)) for p in self.fast]
        self.threads += [threading.Thread(target=run, args=(p, 0.3)) for p in self.arena]
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=90)

    def accepted(self) -> int:
        return sum(p.accepted for p in self.fast + self.arena)


def measure(load: Load, obs: Observers, phase: str, seconds: float) -> dict:
    """The load for ``seconds``: accepted intents/s, p50/p99 of the intents, errors."""
    obs.recorder.phase = phase
    errors0, accepted0 = len(load.errors), load.accepted()
    t0 = time.perf_counter()
    time.sleep(seconds)
    wall = time.perf_counter() - t0
    lat = [x for (p, endpoint), xs in obs.recorder.latency.items() if p == phase and "intents" in endpoint for x in xs]
    statuses = obs.recorder.statuses[phase]
    return {
        "rate": (load.accepted() - accepted0) / wall,
        "p50": statistics.median(lat) if lat else 0.0,
        "p99": solo.pct(lat, 0.99) if lat else 0.0,
        "answers": sum(statuses.values()),
        "5xx": sum(n for s, n in statuses.items() if s >= 500),
        "failures": len(load.errors) - errors0,
        "load": os.getloadavg()[0],
    }


def figures(m: dict) -> str:
    return (
        f"{m['rate']:.0f} accepted intents/s, p50 {ms(m['p50'])}, p99 {ms(m['p99'])}, {m['answers']} answers, "
        f"errors {m['5xx']} × 5xx + {m['failures']} client failures (load average {m['load']:.2f})"
    )


def beat_sends(log: Path) -> tuple[int | None, str]:
    """(tasks sent, role at the end) from the beat's closing line (config/beat.py)."""
    found = re.findall(r"beat: stopping; sent (\d+) tasks \((\w+)\)", log.read_text(errors="replace"))
    return (int(found[-1][0]), found[-1][1]) if found else (None, "?")


def sql(url: str, query: str, params=()) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(query, params).fetchall()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="short phases (about 3 minutes in all)")
    ap.add_argument("--clients", type=int, default=12, help="closed-loop bots (half solo, half Quick Match)")
    ap.add_argument("--seconds", type=float, default=30, help="length of each measured phase")
    ap.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per web node")
    ap.add_argument("--pool-size", type=int, default=5, help="PgBouncer's server connections (default_pool_size)")
    args = ap.parse_args()
    if args.quick:
        args.seconds = 12
    folder = Path(tempfile.mkdtemp(prefix="rivals-topology-"))
    redis_urls = free_redis_dbs(3)  # broker, cache, channel layer
    procs: list = []  # everything to stop, last started first
    signal.signal(signal.SIGTERM, _interrupt)  # stopped from outside: clean up as on Ctrl-C
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores, shared)", flush=True)
    try:
        with bench_database("rivals_topology", MACHINE_POSTGRES) as dbname:
            return run(args, folder, dbname, redis_urls, procs)
    except KeyboardInterrupt:
        print("FAIL interrupted", flush=True)
        return 1
    finally:
        solo.Api.observer = None
        for p in reversed(procs):
            try:
                p.stop()
            except Exception as exc:  # stop the others whatever happens
                print(f"   could not stop {p}: {exc}", flush=True)
        import redis

        for url in redis_urls:
            redis.Redis.from_url(url).flushdb()
        print(f"stopped everything; logs were in {folder}", flush=True)


def _interrupt(*_):
    raise KeyboardInterrupt


def run(args, folder: Path, dbname: str, redis_urls: list[str], procs: list) -> int:
    direct_url = os.environ["DATABASE_URL"]  # bench_database: the run's database, direct
    broker, cache, layer = redis_urls
    bouncer = PgBouncer(server_host="127.0.0.1", server_port=5432, dbname=dbname, pool_size=args.pool_size)
    procs.append(bouncer)
    common = {
        "database_url": bouncer.url(),
        "broker_url": broker,
        "cache_url": cache,
        "web_workers": args.web_workers,
        "DATABASE_POOLER": "transaction",
        "DATABASE_DIRECT_URL": direct_url,
        "DATABASE_CONN_MAX_AGE": "600",
        "RIVALS_LIVE_LAYER_URL": layer,
        "RIVALS_ROUND_LAYOUTS": "L08",
        "CELERY_VISIBILITY_TIMEOUT_S": "10",
    }
    nodes = []
    for i in (1, 2):
        (folder / f"node{i}").mkdir()
        nodes.append(Stack(folder=folder / f"node{i}", **common))
    os.environ.update(
        CELERY_BROKER_URL=broker,
        CACHE_URL=cache,
        DJANGO_SETTINGS_MODULE="config.settings",
        RIVALS_ROUND_LAYOUTS="L08",
        LOG_LEVEL="WARNING",
    )
    # migrations and the schedule's rows: on the direct connection (deploy/README.md)
    first = nodes[0]
    first.env.update(DATABASE_URL=direct_url, DATABASE_POOLER="")
    first.prepare()
    for node in nodes:
        node.env.update(DATABASE_URL=bouncer.url(), DATABASE_POOLER="transaction")
        procs.append(node)
    lb = HAProxy(
        folder / "haproxy",
        web=[(f"node{i}", n.port) for i, n in enumerate(nodes, 1)],
        live=[(f"live{i}", n.live_port) for i, n in enumerate(nodes, 1)],
    )
    procs.append(lb)
    for node in nodes:  # a live ticket names the balancer's address
        node.env["RIVALS_LIVE_URL"] = f"ws://127.0.0.1:{lb.port}/api/v1/live"
    t0 = time.monotonic()
    for i, node in enumerate(nodes, 1):
        node.start_worker(f"worker{i}")
    nodes[0].start_beat()
    time.sleep(2)
    nodes[1].start_beat()  # the second beat, "started by mistake"
    for node in nodes:
        node.start_web()
        node.start_live()
    deadline = time.monotonic() + 30
    while set(lb.servers().values()) != {"UP"} and time.monotonic() < deadline:
        time.sleep(0.5)
    print(
        f"topology up in {time.monotonic() - t0:.0f} s: HAProxy :{lb.port} → web {[n.port for n in nodes]}, live "
        f"{[n.live_port for n in nodes]} ({lb.servers()}); PgBouncer :{bouncer.port} (transaction, pool "
        f"{args.pool_size}) → PostgreSQL 127.0.0.1:5432/{dbname}; 2 workers × 2, 2 beats; Redis broker "
        f"{broker}, cache {cache}, channel layer {layer}",
        flush=True,
    )

    import django

    os.environ["DATABASE_URL"] = direct_url  # this process reads the log directly
    django.setup()
    from django.utils import timezone

    from rivals.accounts.services import account_guest_signin
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register

    deadlocks0 = sql(direct_url, "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")[0][0]
    solo.Api.port = lb.port
    obs = Observers()
    solo.Api.observer = obs
    errors: list[str] = []
    load = Load(direct_url, args.clients, errors)
    live_ok = live_through_balancer()
    now = timezone.now()
    total = 3 * args.seconds + 40  # the tournament ends after the kill and restart
    tournament = tournament_create(
        actor="operator:topology",
        kind="regular",
        title="Topology Cup",
        starts_at=now + timedelta(seconds=5),
        ends_at=now + timedelta(seconds=total),
        min_players=2,
        prize_table=[50, 30, 10],
        multipliers=[1, 2],
        now=now,
    )
    for i in range(12):
        account = account_guest_signin(device_id=f"topology-{os.getpid()}-t{i:03d}-device")[0]
        tournament_register(tournament_id=tournament.pk, account=account, now=now)

    load.start()
    try:
        time.sleep(3)  # pairs form in the queue, the Arena starts
        lb.command("disable server web/node2")
        lb.command("disable server live/live2")
        time.sleep(1)
        one = measure(load, obs, "one node", args.seconds)
        print(f"   one web node: {figures(one)}", flush=True)
        lb.command("enable server web/node2")
        lb.command("enable server live/live2")
        time.sleep(2)
        two = measure(load, obs, "two nodes", args.seconds)
        print(f"   two web nodes: {figures(two)}", flush=True)

        obs.recorder.phase = "kill"
        accepted0 = load.accepted()
        time.sleep(3)
        killed_at = time.monotonic()
        victim = nodes[0]
        for proc in (victim.web, victim.live, victim.worker):
            stop(proc, signal.SIGKILL)
        seen_down = wait_for(lambda: lb.servers().get("web/node1") not in (None, "UP"), 10)
        states_down = lb.servers()
        time.sleep(3)
        victim.start_worker("worker1")
        restarts = [threading.Thread(target=victim.start_web), threading.Thread(target=victim.start_live)]
        for t in restarts:
            t.start()
        for t in restarts:
            t.join()
        seen_up = wait_for(lambda: lb.servers().get("web/node1") == "UP", 20)
        back = time.monotonic() - killed_at
        time.sleep(max(3.0, args.seconds / 2))
        kill_statuses = dict(sorted(obs.recorder.statuses["kill"].items()))
        kill_rate = (load.accepted() - accepted0) / (time.monotonic() - killed_at + 3)
    finally:
        load.stop()
    print(
        f"   kill: web node1 (gunicorn + live) and worker1 SIGKILLed; the balancer marked it down: {seen_down} "
        f"({states_down.get('web/node1')}); restarted, back in rotation after {back:.1f} s: {seen_up}; answers "
        f"meanwhile {kill_statuses}; {kill_rate:.0f} accepted intents/s across the kill",
        flush=True,
    )
    solo.Api.observer = None
    failures = Counter(e.split(":", 1)[0] + ": " + e.split(":", 1)[1][:60] for e in errors)
    if errors:
        print(f"   client failures ({len(errors)}): {failures.most_common(4)}", flush=True)
    return checks(args, nodes, bouncer, lb, obs, tournament, deadlocks0, direct_url, one, two, live_ok)


def live_through_balancer() -> bool:
    """A live socket through the balancer, twice (leastconn: one on each node): subscribed."""
    import json

    from websockets.sync.client import connect

    api = solo.Api()
    status, body = api.call("POST", "/api/v1/auth/guest", {"device_id": f"topology-live-{os.getpid()}-device"})
    api.token = body["token"]
    try:
        with contextlib.ExitStack() as sockets:
            for _ in range(2):
                status, ticket = api.call("POST", "/api/v1/live/ticket", {})
                ws = sockets.enter_context(connect(ticket["url"], open_timeout=15))
                ws.send(json.dumps({"op": "subscribe", "topic": "account"}))
                while json.loads(ws.recv(timeout=15)).get("op") != "subscribed":
                    pass
        return True
    except Exception as exc:  # reported as the check's failure
        print(f"   live socket through the balancer: {exc!r}", flush=True)
        return False


def checks(args, nodes, bouncer, lb, obs, tournament, deadlocks0, url, one, two, live_ok) -> int:
    from rivals.models import Event
    from tournaments.models import Tournament

    # every round ends (R-17: 20 s without a pair at most) and the tournament is finalized
    def settled() -> bool:
        running = sql(url, "SELECT count(*) FROM matches_round WHERE status <> 'ended'")[0][0]
        t = Tournament.objects.get(pk=tournament.pk)
        return running == 0 and t.status in ("finished", "cancelled")

    waited = time.monotonic()
    settled_ok = wait_for(settled, 150)
    waited = time.monotonic() - waited
    accepted, lost = accepted_lost(obs.ledger.accepted)
    verdict(
        "0 accepted intents lost",
        lost == 0,
        f"{accepted} intents answered 2xx through the balancer, {lost} missing from the log",
    )

    rounds_n, ended = sql(url, "SELECT count(*), count(*) FILTER (WHERE status = 'ended') FROM matches_round")[0]
    doubled_rounds = sql(
        url,
        "SELECT count(*) FROM (SELECT stream_id FROM rivals_event WHERE type = 'RoundEnded' GROUP BY stream_id "
        "HAVING count(*) > 1) d",
    )[0][0]
    round_ends = Event.objects.filter(type="RoundEnded").count()
    verdict(
        "every round ended once",
        settled_ok and rounds_n == ended == round_ends and doubled_rounds == 0,
        f"{rounds_n} rounds, {ended} ended, {round_ends} RoundEnded events, {doubled_rounds} rounds ended twice "
        f"(settled {waited:.0f} s after the load)",
    )
    matches_n, finished = sql(url, "SELECT count(*), count(*) FILTER (WHERE status = 'finished') FROM matches_match")[0]
    finishes = dict(
        sql(
            url,
            "SELECT type, count(*) - count(DISTINCT stream_id) FROM rivals_event "
            "WHERE type IN ('MatchFinished', 'TournamentFinalized') GROUP BY type",
        )
    )
    match_events = Event.objects.filter(type="MatchFinished").count()
    t = Tournament.objects.get(pk=tournament.pk)
    finals = Event.objects.filter(stream_id=f"tournament-{t.pk}", type="TournamentFinalized").count()
    seq_twice = sql(
        url,
        "SELECT count(*) FROM (SELECT stream_id, data->>'seq' FROM rivals_event WHERE data ? 'seq' "
        "GROUP BY 1, 2 HAVING count(*) > 1) d",
    )[0][0]
    verdict(
        "0 duplicated results",
        sum(finishes.values()) == 0 and match_events == finished and finals == 1 and seq_twice == 0,
        f"{matches_n} matches, {finished} finished, {match_events} MatchFinished events (doubled: "
        f"{finishes.get('MatchFinished', 0)}); tournament {t.status}, finalized ×{finals}; {seq_twice} seqs twice "
        "in a stream",
    )
    deadlocks = sql(url, "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")[0][0] - deadlocks0
    logged = sum(
        log.read_text(errors="replace").count("deadlock detected") for n in nodes for log in n.folder.glob("*.log")
    )
    verdict("no deadlock", deadlocks == 0 and logged == 0, f"{deadlocks} in pg_stat_database, {logged} in the logs")
    verdict(
        "load through the balancer, one node and two",
        one["5xx"] == one["failures"] == two["5xx"] == two["failures"] == 0 and live_ok,
        f"one node {one['rate']:.0f}/s p50 {ms(one['p50'])} p99 {ms(one['p99'])}; two nodes {two['rate']:.0f}/s "
        f"p50 {ms(two['p50'])} p99 {ms(two['p99'])} (×{two['rate'] / max(one['rate'], 1):.2f}); errors "
        f"{one['5xx'] + one['failures']} and {two['5xx'] + two['failures']}; live sockets through the balancer: {live_ok}",
    )

    pools = [p for p in bouncer.admin("SHOW POOLS") if p["database"] == bouncer.dbname]
    stats = [s for s in bouncer.admin("SHOW STATS") if s["database"] == bouncer.dbname]
    clients = len([c for c in bouncer.admin("SHOW CLIENTS") if c["database"] == bouncer.dbname])
    servers = len([s for s in bouncer.admin("SHOW SERVERS") if s["database"] == bouncer.dbname])
    xacts = sum(s["total_xact_count"] for s in stats)
    queries = sum(s["total_query_count"] for s in stats)
    direct = dict(
        sql(
            url,
            "SELECT application_name, count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name LIKE 'rivals-%%' GROUP BY 1 ORDER BY 1",
        )
    )
    verdict(
        "PgBouncer in transaction mode",
        bool(pools) and pools[0]["pool_mode"] == "transaction" and servers <= args.pool_size and xacts > 0,
        f"{xacts} transactions ({queries} statements) on {servers} server connections (pool {args.pool_size}) for "
        f"{clients} client connections now; direct sessions: {direct}",
    )

    # the beats: the standby first (its count is final), then the leader
    for node in reversed(nodes):
        stop(node.beat)
        node.beat = None
    (leader_sent, leader_role), (standby_sent, standby_role) = (beat_sends(n.folder / "beat.log") for n in nodes)
    verdict(
        "one active beat",
        leader_role == "leader" and (leader_sent or 0) > 0 and standby_role == "standby" and standby_sent == 0,
        f"beat 1 ({leader_role}) sent {leader_sent} tasks, beat 2 (started by mistake: {standby_role}) sent {standby_sent}",
    )

    env = nodes[1].env  # through the pooler, as an operator's shell on a web host would
    verify = subprocess.run(
        [sys.executable, "manage.py", "rebuild_projections", "--verify", "--no-progress"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    out = (verify.stdout + verify.stderr).strip().splitlines()
    verdict("rebuild_projections --verify", verify.returncode == 0, out[-1] if out else f"exit {verify.returncode}")
    failed = [n for n, ok, _ in RESULTS if not ok]
    print(f"{len(RESULTS) - len(failed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
