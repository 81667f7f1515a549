"""What anchoring the event log costs (issue 31): a log of 1,000,000 events in 100,000 streams,
appended through the real store (``event_append_new_streams``: the chains computed as every
append computes them), then the ``log-anchor`` job timed — the first anchor (it verifies the whole
log, then writes every head), a delta after ten minutes' worth of appends, a full anchor — with
each file's size, and ``verify_log`` against the latest anchor.

Usage: ``python tests/perf/bench_anchor.py [--events 1000000] [--streams 100000] [--quick]`` (a
database of its own on the server of ``DATABASE_URL``, else the embedded one; dropped at the end).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tests.perf.benchdb import bench_database

DATA = {"tiles": [12, 57], "score": 1234, "pairs_left": 61, "interval_ms": 840, "elapsed_ms": 93_120}
BATCH_STREAMS = 500


def _fill(streams: int, per_stream: int) -> float:
    from django.db import transaction

    from rivals.eventstore import NewEvent, event_append_new_streams

    t0 = time.perf_counter()
    for first in range(0, streams, BATCH_STREAMS):
        batch = [
            (f"bench-{i:07d}", "bench", [NewEvent("BenchMoved", {**DATA, "n": n}) for n in range(per_stream)])
            for i in range(first, min(first + BATCH_STREAMS, streams))
        ]
        with transaction.atomic():
            event_append_new_streams(streams=batch)
        if (first // BATCH_STREAMS) % 40 == 0:
            done = (first + len(batch)) * per_stream
            print(f"  {done:,} events appended ({done / (time.perf_counter() - t0):,.0f}/s)", flush=True)
    return time.perf_counter() - t0


def _traffic(streams: int, appends: int) -> None:
    """Ten minutes' worth of play between two anchors: ``appends`` single-event appends, on one
    stream in ten (as intents come, one per transaction)."""
    from django.db import transaction

    from rivals.eventstore import NewEvent, event_append

    for k in range(appends):
        with transaction.atomic():
            stream = f"bench-{(k * 10) % streams:07d}"
            event_append(
                stream_id=stream, stream_type="bench", events=[NewEvent("BenchMoved", DATA)], expected_version=None
            )


def _anchor(folder: str) -> tuple[float, str, int]:
    from rivals.eventanchor import log_anchor_write

    t0 = time.perf_counter()
    said = log_anchor_write(directory=folder)
    seconds = time.perf_counter() - t0
    newest = max(Path(folder).glob("*.json"))
    return seconds, said, newest.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--streams", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=6000, help="appends between two anchors")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    events, streams, appends = (100_000, 10_000, 1000) if args.quick else (args.events, args.streams, args.appends)
    folder = tempfile.mkdtemp(prefix="rivals-bench-anchors-")
    try:
        with bench_database("bench_anchor", os.environ.get("DATABASE_URL")):
            import django

            django.setup()
            from django.conf import settings
            from django.core.management import call_command
            from django.db import connection

            from rivals.eventanchor import log_verify_anchored

            call_command("migrate", verbosity=0)
            seconds = _fill(streams, events // streams)
            with connection.cursor() as cur:
                cur.execute("VACUUM ANALYZE rivals_event")
                cur.execute("VACUUM ANALYZE rivals_stream")
                cur.execute(
                    "SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) FROM pg_inherits "
                    "WHERE inhparent = 'rivals_event'::regclass"
                )
                size = cur.fetchone()[0]
            print(f"filled: {events:,} events in {streams:,} streams in {seconds:.1f}s; the log takes {size}")
            ok = True
            for label in ("first anchor (verifies the whole log)", f"delta after {appends:,} appends", "full"):
                if label.startswith("delta"):
                    t0 = time.perf_counter()
                    _traffic(streams, appends)
                    print(f"  ({appends:,} appends in {time.perf_counter() - t0:.1f}s)")
                if label == "full":
                    settings.RIVALS["ANCHOR_FULL_EVERY"] = 1
                seconds, said, size = _anchor(folder)
                print(f"log-anchor, {label}: {seconds:.2f}s, {size / 1e6:.2f} MB — {said}")
            t0 = time.perf_counter()
            report, anchored, problem = log_verify_anchored(folder)
            seconds = time.perf_counter() - t0
            print(
                f"verify_log against {anchored.latest}: {report.events:,} events in {seconds:.2f}s "
                f"({report.events / seconds:,.0f} events/s)"
            )
            ok = not report.breaks and not problem
            print("PASS: the log holds against its anchors" if ok else f"FAIL: {report.first or problem}")
            return 0 if ok else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
