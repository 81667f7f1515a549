"""The competitive round's hot path against solo play and the floor (issue 35), on the service run
as in production (``tests/perf/stack.py``: gunicorn 2 × 4 gthreads, one Celery worker, beat) — every figure set against others measured in the same run, since the machine's
2 cores are shared:

1. **Interleaved closed loops**, ``--repeats`` (5) times: floor, solo ``remove_pair``, floor, Quick
   Match round ``remove_pair`` (2 players a round, the whole round's life: the queue — its match
   heard of on the live socket, as the reference client does, with a poll of the ticket after
   0.5 s of silence as a client's safety net; ``--poll``: polled every 10 ms instead
   (``QuickPlayer``) —, the round's read, its end), floor — compact answers (``Prefer:
   return=minimal``). Each kind: the **median** of its runs' ratios to the floor runs beside it,
   round / solo of each repeat (median), web and database CPU per accepted intent, the rest of the
   service's (Celery worker and beat, the live socket's process and its database connections),
   round / solo by the whole service's CPU per intent (a figure the machine's other load moves
   far less than throughput), statements per intent (``pg_stat_statements``), the load average,
   each kind's requests by endpoint per intent (the per-round requests beside the pairs).
2. **A 4-player round** (a tournament table of 4 on a 144-tile deal, ``--layout``): one player of
   the round pairing alone as fast as answers come, against all four pairing at once on the same
   round — accepted intents/s, interleaved ``--repeats`` times; the median of four / one.
3. **Open loop** of Quick Match round intents at half the round path's capacity (the median of
   1.'s round runs): latency p50 / p99 from the scheduled instant (a slot whose player had to join
   the queue first counts from the moment it had a round to play: a join is not a round intent).
4. **After the load**: every round ends once (the clock ends the idle ones: the run waits for
   them), no accepted intent lost (the clients' 200s against the log's pairs), 0 answers ≥ 500,
   ``rebuild_projections --verify``.

    .venv/bin/python tests/perf/bench_round_path.py [--quick] [--repeats 5] [--seconds 6] [--deals L08]

PostgreSQL: a server of the run's own from the machine's PostgreSQL 15 binaries with
``pg_stat_statements`` (``tests/perf/replica.py``; ``fsync`` on, as in production), else the
server of ``DATABASE_URL`` / the machine's, on a throw-away database. Redis: two empty databases of
the machine's Redis that this run claims. Everything it starts is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf import bench_games_http as solo  # noqa: E402
from tests.perf import bench_rounds as rounds  # noqa: E402
from tests.perf import load  # noqa: E402
from tests.perf.stack import MACHINE_POSTGRES, Stack, free_port, free_redis_dbs  # noqa: E402

MINIMAL = load.MINIMAL
PG15 = Path("/usr/lib/postgresql/15/bin")  # Debian's PostgreSQL 15, with its contrib modules


def loadavg() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


class Counting:
    """The clients' answers: ``load.Recorder``'s figures, and the accepted intents (200)."""

    def __init__(self, recorder):
        self.recorder, self.accepted, self.lock = recorder, 0, threading.Lock()

    def __call__(self, api, method, path, body, status, answer, seconds):
        self.recorder(api, method, path, body, status, answer, seconds)
        if method == "POST" and path.endswith("/intents") and status == 200:
            with self.lock:
                self.accepted += 1


class QuickPlayer(rounds.RoundPlayer):
    """``bench_rounds.RoundPlayer``, which (with ``--poll``) polls its waiting ticket every 10 ms
    (not 50): of the two players of a round one joins first and waits for the other, and a 50-ms
    poll left its closed loop idle for a quarter of a 36-tile round's play."""

    POLL = 0.01


def service_cpu(absolute: dict[str, list[tuple[float, float, float]]]) -> None:
    """1c. The whole service's CPU per accepted intent, each kind's median over its runs: web
    workers + database backends + the rest (worker, beat, live socket); round / solo by it —
    solo's total over the round's, as a throughput ratio would be on cores that did nothing else."""
    totals = {}
    for kind in ("floor", "solo", "round"):
        runs = absolute[kind]
        web, db, rest = (statistics.median(run[i] for run in runs) for i in range(3))
        totals[kind] = statistics.median(sum(run) for run in runs)
        print(
            f"1c. {kind}: service CPU per intent {totals[kind]:.2f} ms (web {web:.2f} + database {db:.2f} "
            f"+ the rest {rest:.2f}; medians of {len(runs)} runs)"
        )
    print(
        f"1c. round / solo by the service's CPU per intent: {totals['solo'] / totals['round']:.2f}; "
        f"solo / the floor: {totals['floor'] / totals['solo']:.2f}"
    )


def endpoints_report(recorder, counting, phases) -> None:
    """Each kind's requests by endpoint: calls per accepted intent and the clients' mean wait —
    where a round's life spends its requests beside its pairs."""
    for phase in phases:
        rows = [(ep, lat) for (ph, ep), lat in recorder.latency.items() if ph == phase]
        intents = sum(len(lat) for ep, lat in rows if ep.endswith("/intents") and ep.startswith("POST"))
        print(f"   {phase}: requests per intent request, by endpoint")
        for ep, lat in sorted(rows, key=lambda r: -len(r[1])):
            print(f"     {len(lat) / max(intents, 1):7.3f}  {load.ms(statistics.mean(lat)):>9}  {ep}")


# --- 2. a 4-player round ----------------------------------------------------------------------------


class Seat:
    """A player of a prepared round: its plan, its seq; pairs as fast as answers come."""

    def __init__(self, name: str):
        self.api = solo.Api(MINIMAL)
        self.account_id = self.api.guest(name)
        self.round_id, self.plan, self.seq = None, [], 0

    def join(self, round_id: str, plan: list | None) -> list:
        status, view = self.api.call("GET", f"/api/v1/rounds/{round_id}")
        assert status == 200, view
        from rivals import engine

        self.round_id, self.seq = round_id, view["seq"]
        self.plan = list(plan) if plan is not None else rounds.plan_from_view(engine, view)
        return self.plan

    def play(self, errors: list) -> int:
        done = 0
        while self.plan:
            status, body = self.api.call(
                "POST",
                f"/api/v1/rounds/{self.round_id}/intents",
                {"seq": self.seq, "type": "remove_pair", "tiles": self.plan[0]},
            )
            if status == 200:
                done += 1
                self.seq += 1
                self.plan = self.plan[1:]
                if body["status"] == "ended":
                    break
            elif status == 422 and body["error"]["code"] == "not_allowed":  # another completed first
                break
            else:
                errors.append(f"seat: {status} {body}"[:300])
                break
        self.plan = []
        return done


def new_table(seats: list[Seat], layout: str) -> str:
    from django.conf import settings

    from rivals.matches.services import match_create

    settings.RIVALS["ROUND_LAYOUTS"] = [layout]  # this process's deals only (the server's stay --deals')
    match = match_create(mode="tournament", account_ids=[s.account_id for s in seats])
    return str(match.rounds.get().pk)


def four_players(seats: list[Seat], layout: str, seconds: float, playing: int, errors: list, pids, url):
    """Rounds of the 4 seats, ``playing`` of them pairing at once, until ``seconds`` of play:
    accepted/s over the play only (dealing and joining are left out), web and database CPU per intent."""
    played, accepted = 0.0, 0
    web0 = load.cpu_seconds(pids)
    backends = load.cpu_by_pid(load.database_backends(url))
    while played < seconds:
        round_id = new_table(seats, layout)
        plan = seats[0].join(round_id, None)
        for s in seats[1:playing]:
            s.join(round_id, plan)  # one deal: every board of the round has the same plan
        counts = [0] * playing

        def run(k, counts=counts):
            counts[k] = seats[k].play(errors)

        threads = [threading.Thread(target=run, args=(k,)) for k in range(playing)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        played += time.perf_counter() - t0
        accepted += sum(counts)
    done = max(accepted, 1)
    db_ms = load.cpu_spent(backends) * 1000 / done
    web_ms = (load.cpu_seconds(pids) - web0) * 1000 / done
    return accepted / played, web_ms, db_ms


def four_rounds(args, errors: list, pids, url) -> list[float]:
    """2.: one player of a 4-player round against all four, interleaved ``--repeats`` times."""
    seats = [Seat(f"table-{i}") for i in range(4)]
    four_one = []
    for r in range(args.repeats):
        one, web1, db1 = four_players(seats, args.layout, args.seconds, 1, errors, pids, url)
        four, web4, db4 = four_players(seats, args.layout, args.seconds, 4, errors, pids, url)
        four_one.append(four / one)
        print(
            f"2.{r + 1} one player of a 4-player round {one:.0f}/s (web {web1:.2f} ms, database {db1:.2f} ms "
            f"per intent) | all four {four:.0f}/s (web {web4:.2f} ms, database {db4:.2f} ms) = "
            f"{four / one:.2f}×; {loadavg()}",
            flush=True,
        )
    med = statistics.median(four_one)
    print(
        f"{'PASS' if med >= 3 else 'FAIL'} 4 players {med:.2f}× one player's closed loop (target ≥ 3; runs "
        f"{', '.join(f'{v:.2f}' for v in four_one)})"
    )
    return four_one


# --- 3. open loop -----------------------------------------------------------------------------------


def round_open_loop(players, rate: float, seconds: float) -> list[float]:
    lock = threading.Lock()
    lat: list[float] = []

    def act(p, due):
        if not p.player.plan:
            try:
                p.player.next_round()  # the queue: not a round intent
            except Exception as exc:  # counted by the caller
                p.errors.append(f"join: {exc}"[:300])
                return
        ready = time.perf_counter()
        ok, service = p.step()
        if service:
            with lock:
                lat.append(time.perf_counter() - max(due, ready))

    solo.run_open_loop(players, rate, seconds, act)
    return lat


# --- 4. after the load ------------------------------------------------------------------------------


def after_load(url: str, accepted: int, wait: float = 60) -> dict:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            running = conn.execute("SELECT count(*) FROM matches_round WHERE status = 'running'").fetchone()[0]
            if not running:
                break
            time.sleep(1)
        rounds_n, ended = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE status = 'ended') FROM matches_round"
        ).fetchone()
        events = conn.execute("SELECT count(*) FROM rivals_event WHERE type = 'RoundEnded'").fetchone()[0]
        twice = conn.execute(
            "SELECT count(*) FROM (SELECT stream_id FROM rivals_event WHERE type = 'RoundEnded' "
            "GROUP BY stream_id HAVING count(*) > 1) x"
        ).fetchone()[0]
        pairs = conn.execute("SELECT count(*) FROM rivals_event WHERE type = 'PairRemoved'").fetchone()[0]
        finished = conn.execute("SELECT count(*) FROM matches_match WHERE status = 'finished'").fetchone()[0]
        matches = conn.execute("SELECT count(*) FROM matches_match").fetchone()[0]
    return {
        "rounds": rounds_n,
        "ended": ended,
        "round_ended_events": events,
        "ended_twice": twice,
        "pairs_in_log": pairs,
        "accepted_by_clients": accepted,
        "matches": matches,
        "matches_finished": finished,
    }


def own_postgres(folder: Path):
    """A server of this run's own with ``pg_stat_statements`` (Debian's PostgreSQL 15), or None."""
    if not (PG15 / "postgres").exists():
        return None
    from tests.perf import replica

    replica._bin = lambda name: str(PG15 / name)
    return replica.Postgres.primary(
        folder / "pg",
        port=free_port(),
        settings={"shared_preload_libraries": "pg_stat_statements", "fsync": "on", "max_connections": "200"},
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--layout", default="L00", help="the 4-player round's layout (a 144-tile one)")
    ap.add_argument(
        "--deals",
        default="L08",
        help="1.'s and 3.'s deals: L08 (36 tiles; solo plays level 1, the smallest deal: the most per-round "
        "work per intent), or another layout (Quick Match rounds dealt on it, solo plays classic games on it)",
    )
    ap.add_argument("--open-seconds", type=float, default=20)
    ap.add_argument(
        "--open-rate", type=float, help="3.'s rate (intents/s); by default half the round path's closed loop"
    )
    ap.add_argument("--four-only", action="store_true", help="only 2. (and 4.): more samples of the 4-player round")
    ap.add_argument("--machine-postgres", action="store_true", help="the machine's server (no statements)")
    ap.add_argument("--web-workers", type=int, default=2, help="gunicorn's worker processes")
    ap.add_argument("--threads", type=int, default=4, help="gunicorn's threads per worker")
    ap.add_argument(
        "--poll", action="store_true", help="Quick Match players poll their ticket (every 10 ms), no live socket"
    )
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.repeats, args.open_seconds = 3, 1, 8

    folder = Path(tempfile.mkdtemp(prefix="rivals-round-path-"))
    own = None if args.machine_postgres else own_postgres(folder)
    if own is not None:
        own.create_database("rivals_round_path")
        url = own.url("rivals_round_path")
        os.environ["DATABASE_URL"] = url
    redis = free_redis_dbs(2)
    broker, cache = redis
    recorder, errors = load.Recorder(), []
    counting = Counting(recorder)
    failed: list[str] = []
    print(f"{loadavg()} before (2 cores, shared)", flush=True)
    from contextlib import nullcontext

    from tests.perf.benchdb import bench_database

    with (
        nullcontext()
        if own
        else bench_database("rivals_round_path", os.environ.get("DATABASE_URL") or MACHINE_POSTGRES)
    ):
        url = os.environ["DATABASE_URL"]
        os.environ.update(
            CELERY_BROKER_URL=broker,
            CACHE_URL=cache,
            RIVALS_ROUND_LAYOUTS=args.deals,
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        stack = Stack(
            database_url=url,
            broker_url=broker,
            cache_url=cache,
            folder=folder,
            web_workers=args.web_workers,
            threads=args.threads,
            RIVALS_BENCH_FLOOR="1",
            RIVALS_ROUND_LAYOUTS=args.deals,
            DATABASE_CONN_MAX_AGE="900",
            # anyone pairs with anyone at once (R-42's window wide open): the perfect players' ratings
            # drift apart within a few rounds, and a player who leaves the queue after 3 s (its
            # PATIENCE) and joins again never waits long enough for the window to reach a partner
            RIVALS_QUEUE_WINDOW_START="1000",
        )
        solo.Api.port, solo.Api.observer = stack.port, counting
        try:
            stack.prepare()
            stack.start()
            if not args.poll:
                stack.start_live()
            time.sleep(3)
            import django

            django.setup()
            statements = load.Statements(url)
            print(
                f"service: gunicorn {args.web_workers}×{args.threads} gthread, worker, beat"
                f"{'' if args.poll else ', live socket'}; PostgreSQL "
                f"{'own 15, fsync on' if own else url.rsplit('@', 1)[-1]}; statements "
                f"{'from pg_stat_statements' if statements.available else 'n/a'}",
                flush=True,
            )
            c = args.clients
            floor = [load.Guarded(load.FloorPlayer(f"floor-{i}"), errors) for i in range(c)]
            solo_kind, solo_layout = ("single", None) if args.deals == "L08" else ("classic", args.deals)
            singles = [
                load.Guarded(solo.Player(f"single-m{i}", solo_kind, url, MINIMAL, layout=solo_layout), errors)
                for i in range(c)
            ]
            quick = [
                load.Guarded(QuickPlayer(f"quick-m{i}", prefer=MINIMAL, live=not args.poll), errors)
                for i in range(c - c % 2)
            ]
            load.parallel(lambda p: p.step(), floor + singles + quick)
            pids = stack.web_worker_pids()

            # 1. interleaved closed loops
            if args.four_only:
                four_one = four_rounds(args, errors, pids, url)
                facts = after_load(url, counting.accepted)
                print(f"4. after the load: {facts}")
                return 0 if statistics.median(four_one) >= 3 else 1
            ratios, rates, cpu, stmts, absolute = load.interleaved(
                recorder,
                floor,
                {"solo": singles, "round": quick},
                args.seconds,
                args.repeats,
                pids,
                url,
                statements,  # no tables: their figures wait 10 s after each run
                rest=stack.rest_pids,
            )
            load.statements_report(stmts, top=16)
            endpoints_report(recorder, counting, ("closed solo", "closed round"))
            per_repeat = [r / s for s, r in zip(rates["solo"], rates["round"], strict=True)]
            summary = {}
            for kind in ("solo", "round"):
                st = [x["statements"] for x in stmts[kind] if x]
                summary[kind] = (
                    statistics.median(ratios[kind]),
                    statistics.median(c[0] for c in cpu[kind]),
                    statistics.median(c[1] for c in cpu[kind]),
                    statistics.median(st) if st else float("nan"),
                )
            floor_st = [x["statements"] for x in stmts["floor"] if x]
            print(
                f"1. medians of {args.repeats}: solo {summary['solo'][0]:.2f} of the floor (runs "
                f"{', '.join(f'{v:.2f}' for v in ratios['solo'])}), round {summary['round'][0]:.2f} (runs "
                f"{', '.join(f'{v:.2f}' for v in ratios['round'])}); round / solo {statistics.median(per_repeat):.2f} "
                f"(runs {', '.join(f'{v:.2f}' for v in per_repeat)}); {loadavg()}"
            )
            for kind, (_ratio, web, db, st) in summary.items():
                print(
                    f"   {kind}: web CPU ×{web:.2f} the floor's, database CPU ×{db:.2f}; statements per intent "
                    f"{st:.2f} (the floor {statistics.median(floor_st) if floor_st else float('nan'):.2f})"
                )
            service_cpu(absolute)
            verdict = statistics.median(per_repeat) >= 0.9 and summary["solo"][0] >= 0.65
            print(f"{'PASS' if verdict else 'FAIL'} round ≥ 0.9 of solo, solo ≥ 0.65 of the floor")
            failed += [] if verdict else ["ratios"]

            # 2. the 4-player round
            four_one = four_rounds(args, errors, pids, url)
            med = statistics.median(four_one)
            failed += [] if med >= 3 else ["four"]

            # 3. open loop at half the round path's capacity
            capacity = statistics.median(rates["round"])
            rate = args.open_rate or capacity / 2
            recorder.phase = "open round"
            lat = round_open_loop(quick, rate, args.open_seconds)
            p99 = solo.pct(lat, 0.99) * 1000
            print(
                f"3. round open loop at {rate:.0f}/s ({rate / capacity:.0%} of the closed loop's {capacity:.0f}/s), "
                f"{len(lat)} intents: p50 {load.ms(statistics.median(lat))}, p99 {p99:.1f} ms; {loadavg()}"
            )
            print(f"{'PASS' if p99 <= 50 else 'FAIL'} p99 {p99:.1f} ms (target ≤ 50 ms)")
            failed += [] if p99 <= 50 else ["p99"]

            # 4. after the load
            facts = after_load(url, counting.accepted)
            print(f"4. after the load: {facts}")
            once = (
                facts["ended"] == facts["rounds"] == facts["round_ended_events"] and facts["ended_twice"] == 0
            ) and facts["matches_finished"] == facts["matches"]
            lost = facts["accepted_by_clients"] - facts["pairs_in_log"]
            print(f"{'PASS' if once else 'FAIL'} every round ended once, every match finished")
            print(f"{'PASS' if lost == 0 else 'FAIL'} lost intents: {lost}")
            import subprocess

            verify = subprocess.run(
                [sys.executable, "manage.py", "rebuild_projections", "--verify", "--no-progress"],
                cwd=ROOT,
                env=stack.env,
                capture_output=True,
                text=True,
            )
            out = (verify.stdout + verify.stderr).strip().splitlines()
            print(f"{'PASS' if verify.returncode == 0 else 'FAIL'} --verify: {out[-1] if out else '?'}")
            server_errors = recorder.server_errors()
            print(
                f"{'PASS' if not (server_errors or errors) else 'FAIL'} errors: {server_errors} answers ≥ 500, "
                f"{len(errors)} client failures" + (f" — first: {errors[:3]}" if errors else "")
            )
            failed += [
                name
                for name, bad in (
                    ("once", not once),
                    ("lost", lost),
                    ("verify", verify.returncode),
                    ("errors", server_errors or errors),
                )
                if bad
            ]
            print(f"{loadavg()} after")
        finally:
            solo.Api.observer = None
            stack.stop()
            from django.db import connections

            connections.close_all()
            import redis as redis_lib

            for u in redis:
                redis_lib.Redis.from_url(u).flushdb()
            if own is not None:
                own.remove()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
