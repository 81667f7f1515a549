"""The event log at scale (issue 26): append and stream-read latency as the partitioned log grows.

    DATABASE_URL=postgres://… .venv/bin/python tests/perf/bench_event_log.py [--events 100000000]
        [--months 25] [--checkpoints 1,3,10,30,100] [--quick]

Creates its own database (``bench_event_log_<pid>`` on the server of ``DATABASE_URL``, else the
embedded one; synthesising needs a superuser: the claim trigger is switched off for the synthetic
rows only, by ``session_replication_role``), migrates it, then fills the log month by month —
``--events`` spread over ``--months`` monthly partitions from this month on, each month's rows in
games' streams of 80 events with the sizes of real ``PairRemoved`` events (data, metadata, a
32-byte chain) and their stream heads — and at each checkpoint (millions of events) measures,
through the service's own code on one connection:

* **append**: ``event_append`` of one event per transaction (commit included), as an intent does:
  to a new stream and to an existing stream of the log; recorded in the newest month;
* **the claim check**: the same appends with the insert trigger ``rivals_event_claimed`` switched
  off, interleaved (what keeping (stream, version) unique across partitions costs);
* **stream read**: ``stream_events`` of a random game of the newest month (pruned to the partitions
  from its first event on, ``stream_filter``), the same read unpruned (every partition planned),
  and ``stream_events`` of a game of any month;
* **relay read**: the live relay's range read of the latest 100 positions (``position > … AND
  position <= …``), prepared as the relay runs it.

Prints p50/p99 per measure at each checkpoint, the log's size on disk, and the ratio of the last
checkpoint's p50 to the first's (flat ≈ 1). The disk must hold about 560 bytes per event (heap and
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
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tests.perf.benchdb import bench_database  # noqa: E402

STREAM_EVENTS = 80  # a game's stream
BYTES_PER_EVENT = 560  # heap + indexes, as measured (printed at each checkpoint)
BATCH = 500_000  # rows per INSERT … SELECT (one transaction)
SAMPLES = 300

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


def measure(*, now: datetime, first: int, last: int, samples: int) -> dict[str, list[float]]:
    """``first`` … ``last``: the newest month's events."""
    from django.db import connection, transaction

    from rivals.eventstore import NewEvent, event_append, stream_events
    from rivals.models import Event

    data = {"tiles": [12, 57], "score": 1234, "pairs_left": 61, "interval_ms": 840, "elapsed_ms": 93_120}
    out: dict[str, list[float]] = {k: [] for k in ("append new", "append existing", "append unchecked")}
    out |= {"stream read (pruned)": [], "stream read (unpruned)": [], "stream read (any month)": [], "relay read": []}
    rng = random.Random(last)
    streams, recent = last // STREAM_EVENTS, first // STREAM_EVENTS + 1

    def timed(key, fn):
        t0 = time.perf_counter()
        fn()
        out[key].append((time.perf_counter() - t0) * 1e3)

    def append(stream_id, expected):
        with transaction.atomic():
            event_append(
                stream_id=stream_id, stream_type="bench", expected_version=expected, actor="account:1",
                now=now, events=[NewEvent("BenchPairRemoved", data)],
            )  # fmt: skip

    run = time.monotonic_ns()
    # the claim check's cost: blocks of appends with the trigger on and off, alternating (switching
    # it invalidates the cached plans: each block's first append is not counted)
    for block in range(max(2, samples // 10)):
        checked = block % 2 == 0
        with connection.cursor() as cur:
            cur.execute(f"ALTER TABLE rivals_event {'ENABLE' if checked else 'DISABLE'} TRIGGER rivals_event_claimed")
        for i in range(11):
            t0 = time.perf_counter()
            append(f"bench-new-{run}-{block}-{i}", 0)
            if i:
                out["append new" if checked else "append unchecked"].append((time.perf_counter() - t0) * 1e3)
    with connection.cursor() as cur:
        cur.execute("ALTER TABLE rivals_event ENABLE TRIGGER rivals_event_claimed")
    for _ in range(samples):
        sid = f"bench-game-{rng.randrange(streams)}"
        with connection.cursor() as cur:
            cur.execute("SELECT version FROM rivals_stream WHERE id = %s", [sid])
            current = cur.fetchone()[0]
        timed("append existing", lambda sid=sid, current=current: append(sid, current))
        sid = f"bench-game-{rng.randrange(recent, streams)}"  # a game of this month: the reads of play
        timed("stream read (pruned)", lambda sid=sid: stream_events(sid))
        timed("stream read (unpruned)", lambda sid=sid: list(Event.objects.filter(stream_id=sid).order_by("version")))
        sid = f"bench-game-{rng.randrange(streams)}"  # a game of any month (an operator's, a replay)
        timed("stream read (any month)", lambda sid=sid: stream_events(sid))
    raw = connection.cursor().connection  # psycopg: prepared as the relay's statements are
    for _ in range(samples):
        t0 = time.perf_counter()
        raw.execute(RELAY, [last - 100, last], prepare=True).fetchall()
        out["relay read"].append((time.perf_counter() - t0) * 1e3)
    for key in (
        "append existing",
        "stream read (pruned)",
        "stream read (unpruned)",
        "stream read (any month)",
        "relay read",
    ):
        out[key] = out[key][max(1, len(out[key]) // 10) :]  # past the first statements' preparation
    return out


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
    fits = int((free - 10e9) / BYTES_PER_EVENT)
    if args.events > fits:
        print(f"the disk has {free / 1e9:.0f} GB free: about {fits:,} events fit (leaving 10 GB); use --events")
        sys.exit(2)
    checkpoints = sorted(int(float(c) * 1e6) for c in args.checkpoints.split(",") if float(c) * 1e6 <= args.events)
    per_month = args.events // args.months
    t_start = time.perf_counter()
    with bench_database("bench_event_log", os.environ.get("DATABASE_URL")):
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from rivals.system import event_partitions_ensure

        call_command("migrate", verbosity=0)
        month0 = datetime.now(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        months = [(month0 + timedelta(days=32 * m)).replace(day=1) for m in range(args.months + 1)]
        made = event_partitions_ensure(now=months[-1])
        print(f"  partitions: {made} months made ahead of the migration's; {per_month:,} events per month", flush=True)
        results: list[tuple[int, int, int, dict[str, list[float]]]] = []
        written = 0
        cur = connection.cursor()
        for m in range(args.months):
            if not checkpoints:
                break
            lo, hi = written + 1, min(args.events, written + per_month) + 1
            t0 = time.perf_counter()
            fill_month(cur, lo=lo, hi=hi, start=months[m])
            written = hi - 1
            cur.execute("SELECT setval(pg_get_serial_sequence('rivals_event', 'position'), %s)", [written])
            print(f"  [{time.perf_counter() - t_start:7.0f}s] month {m + 1}: {written:,} events "
                  f"({(hi - lo) / (time.perf_counter() - t0):,.0f}/s)", flush=True)  # fmt: skip
            while checkpoints and written >= checkpoints[0]:
                checkpoints.pop(0)
                cur.execute("ANALYZE rivals_event")
                cur.execute("ANALYZE rivals_stream")
                cur.execute(
                    "SELECT pg_total_relation_size(inhrelid) FROM pg_inherits WHERE inhparent = 'rivals_event'::regclass"
                )
                size = sum(r[0] for r in cur.fetchall())
                cur.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = 'rivals_event'::regclass")
                partitions = cur.fetchone()[0]
                now = months[m] + timedelta(days=27)
                measured = measure(now=now, first=lo, last=written, samples=args.samples)
                results.append((written, partitions, size, measured))
                print(f"  checkpoint {written:>13,} events, {partitions} partitions, {size / 1e9:6.2f} GB "
                      f"({size / written:.0f} B/event):", flush=True)  # fmt: skip
                for key, xs in measured.items():
                    print(
                        f"      {key:24} p50 {statistics.median(xs):7.3f} ms   p99 {pct(xs, 0.99):7.3f} ms", flush=True
                    )
        print()
        print("summary (p50 ms at each checkpoint; last / first):")
        keys = list(results[0][3])
        print("  " + f"{'events':>13} {'parts':>5} " + " ".join(f"{k[:18]:>18}" for k in keys))
        for written, partitions, _, measured in results:
            cells = " ".join(f"{statistics.median(measured[k]):18.3f}" for k in keys)
            print(f"  {written:>13,} {partitions:>5} {cells}")
        first, last = results[0][3], results[-1][3]
        ratios = {k: statistics.median(last[k]) / statistics.median(first[k]) for k in keys}
        print("  ratio last/first:  " + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()))
        flat = all(ratios[k] <= 1.5 for k in ("append new", "append existing", "stream read (pruned)"))
        print(
            ("PASS" if flat else "FAIL") + ": append and pruned stream read within 1.5x of the first checkpoint's p50"
        )
        print(f"total {time.perf_counter() - t_start:.0f}s")


if __name__ == "__main__":
    main()
