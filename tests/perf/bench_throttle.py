"""What a rate-limit hit costs on each cache an installation without Redis could use (issue 31):
the throttles count one hit per request (two for an anonymous one), so this is on every request.

    .venv/bin/python tests/perf/bench_throttle.py [--hits N] [--requests N] [--quick]

Creates its own database (``bench_throttle_<pid>`` on the server of ``DATABASE_URL``, else the
embedded PostgreSQL), migrates it, and times, in this process:

* ``window_hit`` (``rivals.api.throttling``) on each cache, over 500 buckets (500 clients): the
  per-process memory cache (the old default, not shared), the database's UNLOGGED table with the
  one-statement upsert (``rivals.cache.PostgresCache``, the default now), the same on a LOGGED
  table, Django's own ``DatabaseCache`` (``add`` + ``incr``: six statements and two savepoints)
  and Django's ``FileBasedCache`` (``add`` + ``incr``: files, not atomic between processes);
* a whole request — ``GET /api/v1/account`` with a token, Django's test client — on the memory
  cache and on the default, in turns: the difference is what sharing the counters adds to it.

Prints µs per hit (mean, p50, p99) and per request (p50). Drops its database at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)

from tests.perf.benchdb import bench_database  # noqa: E402


def _figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]  # noqa: E731
    return f"mean {statistics.fmean(samples):7.1f}  p50 {p(0.5):7.1f}  p99 {p(0.99):7.1f} µs"


def _hits(n: int) -> list[float]:
    from rivals.api.throttling import window_hit

    window = int(time.time() // 60)
    out = []
    for i in range(n):
        start = time.perf_counter()
        window_hit(f"throttle_user_{i % 500}:{window}", 61)
        out.append((time.perf_counter() - start) * 1e6)
    return out


def _requests(n: int, token: str) -> list[float]:
    from django.test import Client

    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    out = []
    for _ in range(n):
        start = time.perf_counter()
        assert client.get("/api/v1/account").status_code == 200
        out.append((time.perf_counter() - start) * 1e6)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hits", type=int, default=5000)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--quick", action="store_true", help="1,000 hits and 500 requests")
    args = ap.parse_args()
    if args.quick:
        args.hits, args.requests = 1000, 500
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CACHE_URL", None)
    with bench_database("bench_throttle"), tempfile.TemporaryDirectory(prefix="rivals-filecache-") as folder:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.test.utils import override_settings

        call_command("migrate", verbosity=0)
        with connection.cursor() as cur:
            cur.execute("CREATE TABLE cache_logged (LIKE rivals_cache INCLUDING ALL)")
            cur.execute("CREATE TABLE cache_django (LIKE rivals_cache INCLUDING ALL)")
            cur.execute("SHOW synchronous_commit")
            sync = cur.fetchone()[0]
            cur.execute("SHOW fsync")
            fsync = cur.fetchone()[0]
        print(f"PostgreSQL: synchronous_commit={sync}, fsync={fsync}; {args.hits} hits over 500 buckets")
        big = {"MAX_ENTRIES": 10**9}
        caches = {
            "memory (per process: the old default)": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "database, UNLOGGED, one upsert (the default)": {
                "BACKEND": "rivals.cache.PostgresCache",
                "LOCATION": "rivals_cache",
                "OPTIONS": big,
            },
            "database, LOGGED, one upsert": {
                "BACKEND": "rivals.cache.PostgresCache",
                "LOCATION": "cache_logged",
                "OPTIONS": big,
            },
            "Django DatabaseCache, add + incr": {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "cache_django",
                "OPTIONS": big,
            },
            "Django FileBasedCache, add + incr": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": folder,
                "OPTIONS": big,
            },
        }
        for name, config in caches.items():
            with override_settings(CACHES={"default": config}):
                _hits(200)  # warm: connections, prepared statements
                print(f"  hit  {name:46s} {_figures(_hits(args.hits))}")

        from django.test import Client

        device = {"device_id": "bench-throttle-device-0001"}
        token = Client().post("/api/v1/auth/guest", device, content_type="application/json").json()["token"]
        compared = ("memory (per process: the old default)", "database, UNLOGGED, one upsert (the default)")
        samples: dict[str, list[float]] = {name: [] for name in compared}
        for _ in range(5):  # rounds taken in turn: the machine's noise falls on both alike
            for name in compared:
                with override_settings(CACHES={"default": caches[name]}):
                    _requests(20, token)
                    samples[name] += _requests(args.requests // 5, token)
        for name in compared:
            print(f"  GET /api/v1/account, {name:46s} {_figures(samples[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
