"""Benchmark of a player's export (``GET /api/v1/account/export``, issue 39) on the demo world.

    make demo                                   # 200 players × 14 days (manage.py simulate)
    .venv/bin/python tests/perf/bench_export.py [--players 3] [--repeat 3]

Reads the database the service uses (``DATABASE_URL``, else the embedded one). Picks the demo
players with the most boards and rounds (the largest exports) and, for each, answers the export
through the API in process (Django's test client: the view, the service's event, the streamed
document) inside a transaction that is rolled back (the demo world keeps no trace of it), reading
the stream to its end. Reports per player: its games, rounds and events; the document's size; the
time to the first byte and to the last; the peak of Python's allocations while streaming
(``tracemalloc``) and the process's resident memory before and at its highest during the stream.
Times are the best of ``--repeat`` passes (the slowest is checked against the target), memory
is a pass of its own (``tracemalloc`` slows Python down). The target (issue 39): within 2 s,
memory flat (the peak does not grow with the document).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)


def rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def _export(account, transaction, client_class, *, memory: bool):
    """One export read to its end (rolled back): ``(bytes, first byte s, last byte s)``, and with
    ``memory`` (a separate pass: tracemalloc slows Python down) ``peak, RSS before, RSS max``."""
    client = client_class()
    client.force_authenticate(account)
    with transaction.atomic():
        before = high = rss_kib()
        if memory:
            tracemalloc.start()
        started = time.perf_counter()
        res = client.get("/api/v1/account/export")
        assert res.status_code == 200, res.content
        size, first = 0, None
        for piece in res.streaming_content:
            first = first or time.perf_counter() - started
            size += len(piece)
            if memory:
                high = max(high, rss_kib())
        total = time.perf_counter() - started
        transaction.set_rollback(True)
    if not memory:
        return size, first, total
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return size, first, total, peak, before, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import transaction
    from django.db.models import Count
    from rest_framework.test import APIClient

    from rivals.games.models import Game
    from rivals.models import Account, Event

    players = list(
        Account.objects.filter(is_staff=False, closed_at__isnull=True)
        .annotate(boards=Count("games"))
        .order_by("-boards", "pk")[: args.players]
    )
    if not players or players[0].boards == 0:
        print("no demo world here: run `make demo` first")
        return 1
    print("account  games  rounds  events   bytes      first byte  last byte  py peak   RSS before → max")
    worst = 0.0
    for account in players:
        games = Game.objects.filter(account=account)
        rounds = games.filter(round_id__isnull=False).count()
        streams = [account.stream_id, *(f"game-{pk}" for pk in games.values_list("pk", flat=True))]
        events = Event.objects.filter(stream_id__in=streams).count()
        times = [_export(account, transaction, APIClient, memory=False) for _ in range(args.repeat)]
        size, first, total = min(times, key=lambda t: t[2])
        worst = max(worst, max(t[2] for t in times))
        _, _, _, peak, before, high = _export(account, transaction, APIClient, memory=True)
        print(
            f"{account.pk:>7}  {account.boards:>5}  {rounds:>6}  {events:>6}  {size:>9,}  "
            f"{first * 1000:>8.0f} ms  {total * 1000:>6.0f} ms  {peak / 1024:>6.0f} KiB  {before:,} → {high:,} KiB"
        )
    print(f"slowest export: {worst * 1000:.0f} ms (target ≤ 2,000 ms)")
    return 0 if worst <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
