"""The event log at scale (issue 26): append and stream-read latency as the partitioned log grows.

    DATABASE_URL=postgres://… .venv/bin/python tests/perf/bench_event_log.py [--events 100000000]
        [--months 25] [--checkpoints 1,3,10,30,100] [--quick]

Creates its own database (``bench_event_log_<pid>`` on the server of ``DATABASE_URL``, else the
embedded one; synthesising needs a superuser: the claim trigger is switched off for the synthetic
rows only, by ``session_replication_role``), migrates it, then fills the log month by month —
``--events`` spread over ``--months`` monthly partitions from this month on (each made, with the
three ahead of it, by the daily job's ``event_partitions_ensure`` as the months pass), rows in
games' streams of 80 events with the sizes of real ``PairRemoved`` events (data, metadata, a
32-byte chain) and their stream heads — and at each checkpoint (millions of events) measures,
through the service's own code, each sample taken on the grown log and on a **reference log** (a
second database holding the log as it was after its first month: 6 partitions) one after the
other, so the machine's load weighs on both alike and their ratio is what the growth costs:

* **append**: ``event_append`` of one event per transaction (commit included), as an intent does:
  to a new stream and to an existing stream of the log; recorded in the newest month;
* **stream read**: ``stream_events`` of a game of the newest month (pruned to the partitions from
  its first event on, ``stream_filter``: the reads of play), and of a game of any month;
* **relay read**: the live relay's range read of the latest 100 positions (``position > … AND
  position <= …``) on a connection set as the live room's (prepared at once, planned generically):
  no partition can be pruned there;
* on the grown log only, the same newest-month read unpruned (every partition planned).

Once, on the reference log: what the claim check costs — blocks of appends with the insert trigger
``rivals_event_claimed`` on and off, alternating (what keeping (stream, version) unique across
partitions costs). Prints p50/p99 per measure at each checkpoint, the grown log's size on disk, the
ratio grown/reference of each p50 (flat ≈ 1) and PASS when appends and the newest-month read stay
within 1.3×. The disk must hold about 560 bytes per event (heap and
the four indexes): the script refuses a size that leaves less than 10 GB free and says how many
events would fit. Drops its database at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tests.perf.benchdb import bench_database

STREAM_EVENTS = 80  # a game's stream
BYTES_PER_EVENT = 560  # heap + indexes, as measured (printed at each checkpoint)
BATCH = 500_000  # rows per INSERT … SELECT (one transaction)
SAMPLES = 300
DATA = {"tiles": [12, 57], "score": 1234, "pairs_left": 61, "interval_ms": 840, "elapsed_ms": 93_120}

FILL = f"""
INSERT INTO rivals_event (position, stream_id, stream_type, version, type, schema_version, data, metadata,
                          recorded_at, chain)
SELECT g, 'bench-game-' || (g / {STREAM_EVENTS})::text, 'bench', mod(g, {STREAM_EVENTS}) + 1, 'BenchPairRemoved', 1,
       jsonb_build_object('tiles', jsonb_build_array(mod(g, 144), mod(g * 7, 144)), 'score', mod(g, 5000),
                          'pairs_left', 72 - mod(g, 72), 'interval_ms', 500 + mod(g, 3000), 'elapsed_ms', mod(g, 300000)),
       jsonb_build_object('actor', 'account:' || mod(g / {STREAM_EVENTS}, 100000)::text, 'request_id', md5(g::text)),
       %(start)s::timestamptz + (g - %(lo)s) * %(step)s * interval '1 microsecond', sha256(int8send(g))
  FROM generate_series(%(lo)s::bigint, %(hi)s::bigint - 1) AS g
"""

HEADS = f"""
INSERT INTO rivals_stream (id, type, version, created_at, updated_at, first_at, chain, chain_base, base_version)
SELECT 'bench-game-' || s::text, 'bench', {STREAM_EVENTS}, t, t, t, sha256(int8send(s)), NULL, {STREAM_EVENTS}
  FROM (SELECT s, %(start)s::timestamptz + (s * {STREAM_EVENTS} - %(lo)s) * %(step)s * interval '1 microsecond' AS t
          FROM generate_series(%(lo)s::bigint / {STREAM_EVENTS}, %(hi)s::bigint / {STREAM_EVENTS} - 1) AS s) AS heads
ON CONFLICT (id) DO NOTHING
"""

RELAY = "SELECT position, stream_id, type FROM rivals_event WHERE position > %s AND position <= %s ORDER BY position"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def fill_month(cur, *, lo: int, hi: int, start: datetime) -> None:
    """Events ``lo`` … ``hi - 1`` spread evenly over the month from ``start``."""
    step = max(1, int(28 * 86400 * 1e6 / max(1, hi - lo)))
    cur.execute("SET session_replication_role = replica")  # the synthetic rows skip the claim trigger
    for a in range(lo, hi, BATCH):
        b = min(hi, a + BATCH)
        params = {"lo": a, "hi": b, "start": start + timedelta(microseconds=(a - lo) * step), "step": step}
        cur.execute(FILL, params)
        cur.execute(HEADS, params)
    cur.execute("SET session_replication_role = DEFAULT")


def _append(*, stream_id: str, expected: int, now: datetime) -> None:
    from django.db import transaction

    from rivals.eventstore import NewEvent, event_append

    with transaction.atomic():
        event_append(
            stream_id=stream_id, stream_type="bench", expected_version=expected, actor="account:1",
            now=now, events=[NewEvent("BenchPairRemoved", DATA)],
        )  # fmt: skip


def _version(stream_id: str) -> int:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT version FROM rivals_stream WHERE id = %s", [stream_id])
        return cur.fetchone()[0]


class Log:
    """One benchmark database: its Django connection (swapped in as ``default`` while measured),
    the newest month's events (``first`` … ``last``) and the instant appends are recorded at."""

    def __init__(self, wrapper) -> None:
        self.wrapper, self.first, self.last, self.now = wrapper, 1, 0, None

    @contextmanager
    def on(self):
        from django.db import connections

        previous = getattr(connections._connections, "default", None)
        connections._connections.default = self.wrapper
        try:
            yield self.wrapper
        finally:
            connections._connections.default = previous

    def fill(self, *, lo: int, hi: int, start: datetime) -> None:
        from rivals.system import event_partitions_ensure

        with self.on() as db, db.cursor() as cur:
            event_partitions_ensure(now=start)  # as the daily job: three months ahead of "now"
            fill_month(cur, lo=lo, hi=hi, start=start)
            cur.execute("SELECT setval(pg_get_serial_sequence('rivals_event', 'position'), %s)", [hi - 1])
            cur.execute("ANALYZE rivals_event")
            cur.execute("ANALYZE rivals_stream")
        self.first, self.last, self.now = lo, hi - 1, start + timedelta(days=27)

    def size(self) -> tuple[int, int]:
        with self.on() as db, db.cursor() as cur:
            cur.execute(
                "SELECT count(*), sum(pg_total_relation_size(inhrelid)) FROM pg_inherits "
                "WHERE inhparent = 'rivals_event'::regclass"
            )
            partitions, size = cur.fetchone()
        return partitions, int(size)


def _relay_connection(log: Log):
    """A connection set as the live room sets its own (rivals.live.db.connect): statements prepared
    at once and planned generically."""
    import psycopg

    from rivals.live.db import conninfo

    with log.on():
        conn = psycopg.connect(conninfo(), autocommit=True)
    conn.prepare_threshold = 0
    conn.execute("SET plan_cache_mode = force_generic_plan")
    return conn


MEASURES = ("append new", "append existing", "stream read (newest month)", "stream read (any month)", "relay read")


def measure(logs: dict[str, Log], *, samples: int, seed: int) -> dict[str, dict[str, list[float]]]:
    """Every measure on every log, sample by sample (``logs`` in alternating order)."""
    from rivals.eventstore import stream_events
    from rivals.models import Event

    out = {name: {k: [] for k in (*MEASURES, "stream read (unpruned)")} for name in logs}
    rng, run = random.Random(seed), time.monotonic_ns()

    def timed(name, key, fn, *args, **kwargs):
        t0 = time.perf_counter()
        fn(*args, **kwargs)
        out[name][key].append((time.perf_counter() - t0) * 1e3)

    def unpruned(stream_id):
        return list(Event.objects.filter(stream_id=stream_id).order_by("version"))

    def relay(conn, log):
        return conn.execute(RELAY, [log.last - 100, log.last]).fetchall()

    relays = {name: _relay_connection(log) for name, log in logs.items()}

    for i in range(samples):
        for name, log in list(logs.items()) if i % 2 else list(logs.items())[::-1]:
            streams, recent = log.last // STREAM_EVENTS, log.first // STREAM_EVENTS + 1
            with log.on():
                timed(name, "append new", _append, stream_id=f"bench-new-{run}-{i}", expected=0, now=log.now)
                sid = f"bench-game-{rng.randrange(streams)}"
                timed(name, "append existing", _append, stream_id=sid, expected=_version(sid), now=log.now)
                sid = f"bench-game-{rng.randrange(recent, streams)}"  # a game of this month: the reads of play
                timed(name, "stream read (newest month)", stream_events, sid)
                if name == "grown":
                    timed(name, "stream read (unpruned)", unpruned, sid)
                sid = f"bench-game-{rng.randrange(streams)}"  # a game of any month (an operator's, a replay)
                timed(name, "stream read (any month)", stream_events, sid)
                timed(name, "relay read", relay, relays[name], log)
    for conn in relays.values():
        conn.close()
    for per_log in out.values():
        for key, xs in per_log.items():
            per_log[key] = xs[max(1, len(xs) // 10) :]  # past the first statements' preparation
    return out


def claim_cost(log: Log, *, samples: int) -> tuple[float, float]:
    """p50 of a new stream's append with the claim trigger on and off, in alternating blocks
    (switching it invalidates the cached plans: each block's first append is not counted)."""
    timings: dict[bool, list[float]] = {True: [], False: []}
    run = time.monotonic_ns()
    with log.on() as db:
        for block in range(max(2, samples // 10)):
            checked = block % 2 == 0
            with db.cursor() as cur:
                cur.execute(
                    f"ALTER TABLE rivals_event {'ENABLE' if checked else 'DISABLE'} TRIGGER rivals_event_claimed"
                )
            for i in range(11):
                t0 = time.perf_counter()
                _append(stream_id=f"bench-claim-{run}-{block}-{i}", expected=0, now=log.now)
                if i:
                    timings[checked].append((time.perf_counter() - t0) * 1e3)
        with db.cursor() as cur:
            cur.execute("ALTER TABLE rivals_event ENABLE TRIGGER rivals_event_claimed")
    return statistics.median(timings[True]), statistics.median(timings[False])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000_000)
    parser.add_argument("--months", type=int, default=25)
    parser.add_argument("--checkpoints", default="1,3,10,30,100", help="millions of events")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--quick", action="store_true", help="2 M events over 4 months")
    args = parser.parse_args()
    if args.quick:
        args.events, args.months, args.checkpoints, args.samples = 2_000_000, 4, "0.5,1,2", 150
    free = shutil.disk_usage(os.environ.get("PGDATA_HINT", "/")).free
    per_month = args.events // args.months
    fits = int((free - 10e9) / BYTES_PER_EVENT) - per_month  # the reference log holds one month
    if args.events > fits:
        print(f"the disk has {free / 1e9:.0f} GB free: about {fits:,} events fit (leaving 10 GB); use --events")
        sys.exit(2)
    checkpoints = sorted(int(float(c) * 1e6) for c in args.checkpoints.split(",") if float(c) * 1e6 <= args.events)
    t_start = time.perf_counter()
    base = os.environ.get("DATABASE_URL")
    with bench_database("bench_event_log_ref", base) as ref_name, bench_database("bench_event_log", base):
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        grown = Log(connections["default"])
        reference = Log(
            connections["default"].__class__({**connections["default"].settings_dict, "NAME": ref_name}, "default")
        )
        month0 = datetime.now(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        months = [(month0 + timedelta(days=32 * m)).replace(day=1) for m in range(args.months + 1)]
        for log in (reference, grown):
            with log.on():
                call_command("migrate", verbosity=0)
        reference.fill(lo=1, hi=per_month + 1, start=months[0])
        checked, unchecked = claim_cost(reference, samples=args.samples)
        print(f"  {per_month:,} events per month; the reference log: its first month", flush=True)
        print(f"  the claim check: append p50 {checked:.3f} ms with it, {unchecked:.3f} ms without "
              f"({(checked - unchecked) * 1e3:+.0f} µs)", flush=True)  # fmt: skip
        results: list[tuple[int, int, int, dict]] = []
        for m in range(args.months):
            if not checkpoints:
                break
            t0 = time.perf_counter()
            lo, hi = grown.last + 1, min(args.events, grown.last + per_month) + 1
            grown.fill(lo=lo, hi=hi, start=months[m])
            print(f"  [{time.perf_counter() - t_start:7.0f}s] month {m + 1}: {grown.last:,} events "
                  f"({(hi - lo) / (time.perf_counter() - t0):,.0f}/s)", flush=True)  # fmt: skip
            while checkpoints and grown.last >= checkpoints[0]:
                checkpoints.pop(0)
                partitions, size = grown.size()
                measured = measure({"grown": grown, "reference": reference}, samples=args.samples, seed=grown.last)
                results.append((grown.last, partitions, size, measured))
                print(f"  checkpoint {grown.last:>13,} events, {partitions} partitions, {size / 1e9:6.2f} GB "
                      f"({size / grown.last:.0f} B/event); grown vs reference (6 partitions, {per_month:,} events):",
                      flush=True)  # fmt: skip
                for key in (*MEASURES, "stream read (unpruned)"):
                    g = measured["grown"][key]
                    r = measured["reference"][key]
                    ratio = f"   ×{statistics.median(g) / statistics.median(r):.2f}" if r else ""
                    ref = f"   ref p50 {statistics.median(r):7.3f}" if r else ""
                    print(f"      {key:27} p50 {statistics.median(g):7.3f} ms   p99 {pct(g, 0.99):7.3f} ms{ref}{ratio}",
                          flush=True)  # fmt: skip
        print()
        print("summary: p50 ratio grown / reference at each checkpoint")
        print("  " + f"{'events':>13} {'parts':>5} " + " ".join(f"{k[:20]:>20}" for k in MEASURES))
        worst = dict.fromkeys(MEASURES, 0.0)
        for written, partitions, _, measured in results:
            ratios = {
                k: statistics.median(measured["grown"][k]) / statistics.median(measured["reference"][k])
                for k in MEASURES
            }
            worst = {k: max(worst[k], v) for k, v in ratios.items()}
            print(f"  {written:>13,} {partitions:>5} " + " ".join(f"{ratios[k]:20.2f}" for k in MEASURES))
        flat = all(worst[k] <= 1.3 for k in ("append new", "append existing", "stream read (newest month)"))
        print(
            ("PASS" if flat else "FAIL")
            + ": appends and the newest month's stream read within 1.3x of the reference log's p50"
        )
        print(f"total {time.perf_counter() - t_start:.0f}s")


if __name__ == "__main__":
    main()
