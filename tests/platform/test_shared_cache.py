"""Issue 31: without ``CACHE_URL`` the cache is the database's UNLOGGED table ``rivals_cache``
(``config/caches.py``, ``rivals/cache.py``): Django's cache API on it (mail budgets), and a fixed
window's hit in one atomic statement (rate limits) — concurrent hits from many connections lose
none; expired windows start again and are pruned."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.db import connection, connections
from django.utils import timezone

from rivals.api.throttling import window_hit
from rivals.cache import PostgresCache


@pytest.mark.django_db
def test_issue31_the_default_cache_is_an_unlogged_table_of_the_database():
    assert isinstance(caches["default"], PostgresCache)
    with connection.cursor() as cur:
        cur.execute("SELECT relpersistence FROM pg_class WHERE relname = 'rivals_cache'")
        assert cur.fetchone() == ("u",)  # UNLOGGED: no WAL, no flush at commit
    cache.set("budget", [1.0, 2.0], timeout=60)  # Django's API, as the mail budgets use it
    assert cache.get("budget") == [1.0, 2.0]


@pytest.mark.django_db
def test_issue31_a_window_counts_in_one_row_then_expires_and_is_pruned(monkeypatch):
    import rivals.cache

    assert [window_hit("throttle_login_1:7", 61) for _ in range(3)] == [1, 2, 3]
    assert window_hit("throttle_login_2:7", 61) == 1
    with connection.cursor() as cur:  # the window's row: expires 61 s after its first hit
        cur.execute("SELECT value, expires FROM rivals_cache WHERE cache_key LIKE %s", ["%throttle_login_1:7"])
        value, expires = cur.fetchone()
    assert value == "3" and timedelta(seconds=59) < expires - timezone.now() <= timedelta(seconds=61)

    later = timezone.now() + timedelta(seconds=62)
    monkeypatch.setattr(rivals.cache.timezone, "now", lambda: later)
    monkeypatch.setattr(PostgresCache, "_next_prune", 0.0)
    assert window_hit("throttle_login_1:7", 61) == 1  # its row had expired: a fresh count
    with connection.cursor() as cur:  # the other expired window was pruned by that hit
        cur.execute("SELECT count(*) FROM rivals_cache WHERE cache_key LIKE %s", ["%throttle_login_2:7"])
        assert cur.fetchone() == (0,)


@pytest.mark.django_db(transaction=True)
def test_issue31_concurrent_hits_from_many_connections_are_all_counted():
    threads, hits = 8, 50
    counts: list[int] = []
    barrier = threading.Barrier(threads)

    def hit():
        try:
            barrier.wait()
            counts.extend(window_hit("throttle_race:1", 61) for _ in range(hits))
        finally:
            connections.close_all()

    workers = [threading.Thread(target=hit) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(counts) == list(range(1, threads * hits + 1))  # every count given once: none lost
