"""The hash chain's cost per append (issue 19): ``event_append`` as it is (chained) against the
same append with its chain expressions replaced by NULL (same Python path, same one statement,
no digest and no links evaluated), interleaved on one connection, one single-event append per
transaction — the shape of an intent. Also ``verify_log``'s speed on what was written.

Usage: ``python tests/perf/bench_chain.py [--appends 3000] [--quick]`` (a database of its own on the
server of ``DATABASE_URL``, else the embedded one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tests.perf.benchdb import bench_database

DATA = {"tiles": [12, 57], "score": 1234, "pairs_left": 61, "interval_ms": 840, "elapsed_ms": 93_120}


@contextmanager
def _unchained():
    """``event_append`` with its chain expressions replaced by NULL: the same Python path and the
    same one statement, whose digest and link CTEs are then never evaluated."""
    from rivals import eventstore

    chain_sql, events_chain_sql = eventstore._chain_sql, eventstore._events_chain_sql
    eventstore._chain_sql = lambda base, version0, count: "NULL::bytea"
    eventstore._events_chain_sql = lambda count: ("", "", "NULL::bytea")
    try:
        yield
    finally:
        eventstore._chain_sql, eventstore._events_chain_sql = chain_sql, events_chain_sql


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    appends = 600 if args.quick else args.appends
    with bench_database("bench_chain"):
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import transaction
        from django.utils import timezone

        from rivals.eventchain import log_verify
        from rivals.eventstore import NewEvent, event_append

        call_command("migrate", verbosity=0)
        for sid in ("bench-chained", "bench-plain"):
            event_append(stream_id=sid, stream_type="bench", events=[NewEvent("BenchOpened")], expected_version=0)
        timings: dict[str, list[float]] = {"chained": [], "plain": []}
        versions = {"chained": 1, "plain": 1}
        for i in range(appends * 2):
            which = "chained" if i % 2 == 0 else "plain"
            data = {**DATA, "n": i}
            t0 = time.perf_counter()
            with _unchained() if which == "plain" else nullcontext(), transaction.atomic():
                event_append(
                    stream_id=f"bench-{which}",
                    stream_type="bench",
                    events=[NewEvent("BenchPairRemoved", data)],
                    expected_version=versions[which],
                    actor="account:1",
                    now=timezone.now(),
                )
            timings[which].append(time.perf_counter() - t0)
            versions[which] += 1
        warm = {k: v[len(v) // 10 :] for k, v in timings.items()}  # past the statement's preparation
        med = {k: statistics.median(v) * 1e6 for k, v in warm.items()}
        mean = {k: statistics.fmean(v) * 1e6 for k, v in warm.items()}
        print(f"{appends} appends each, one per transaction (commit included), interleaved:")
        for k in ("plain", "chained"):
            print(f"  {k:8} median {med[k]:7.1f} µs   mean {mean[k]:7.1f} µs")
        print(
            f"  the chain costs {med['chained'] - med['plain']:+.1f} µs per append (median), "
            f"{mean['chained'] - mean['plain']:+.1f} µs (mean)"
        )
        t0 = time.perf_counter()
        report = log_verify()
        seconds = time.perf_counter() - t0
        print(f"verify_log: {report.events} events in {seconds:.2f}s ({report.events / seconds:,.0f} events/s)")
        breaks = [b for b in report.breaks if b.stream_id != "bench-plain"]  # unchained on purpose
        print("PASS: the chained stream verifies" if not breaks else f"FAIL: {breaks[0]}")


if __name__ == "__main__":
    main()
