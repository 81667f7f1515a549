"""The shared cache when no ``CACHE_URL`` is set (``make run``, a single host): Django's database
cache on the service's own PostgreSQL, in the table ``rivals_cache`` (migration 0016), so that
every process — ``make run``'s two web workers, a second server on the same database — counts the
same rate limits and mail budgets (issue 31: with a per-process cache, 2 workers let 20 wrong
logins through where docs/security.md promises 10). Production sets ``CACHE_URL`` to Redis.

Chosen over a file-based cache (one file per key: ``incr`` is a read and a write that two
processes interleave, and every write lists the whole folder to cull it) because a hit here is
**one statement, atomic**: ``window_hit`` counts a fixed window with ``INSERT … ON CONFLICT DO
UPDATE … RETURNING`` — no lost update between processes, one round trip, as Redis's script does
(``rivals.api.throttling``). The table is UNLOGGED: a counter write costs no WAL and no flush at
commit (counters and budgets are lost if PostgreSQL crashes — a fresh window, nothing more), and
the update of a window's count changes no indexed column (HOT). Figures: ``tests/perf/bench_throttle.py``.

A window's count is stored as its decimal text, not pickled: read it with ``window_hit`` only.
Expired rows are deleted by ``window_hit`` at most once a minute per process; Django's own cull
(on ``set`` past ``MAX_ENTRIES``, which would also delete live keys) is kept out of reach by a
high ``MAX_ENTRIES`` (settings).
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router
from django.utils import timezone

from rivals.rawsql import execute_prepared

PRUNE_EVERY_S = 60.0

_HIT = """
INSERT INTO {table} AS c (cache_key, value, expires) VALUES (%s, '1', %s)
ON CONFLICT (cache_key) DO UPDATE SET
    value = CASE WHEN c.expires < %s THEN '1' ELSE (c.value::bigint + 1)::text END,
    expires = CASE WHEN c.expires < %s THEN excluded.expires ELSE c.expires END
RETURNING value::bigint
"""


class PostgresCache(DatabaseCache):
    _next_prune = 0.0  # per process: when window_hit next deletes the expired rows

    def window_hit(self, bucket: str, ttl: int) -> int:
        """Count one hit in ``bucket``, which expires ``ttl`` s after its first hit; the new count."""
        key = self.make_and_validate_key(bucket)
        now = timezone.now()
        connection = connections[router.db_for_write(self.cache_model_class)]
        table = connection.ops.quote_name(self._table)
        with connection.cursor() as cursor:
            count = execute_prepared(cursor, _HIT.format(table=table), [key, now + timedelta(seconds=ttl), now, now])
            count = count.fetchone()[0]
            if time.monotonic() >= PostgresCache._next_prune:
                PostgresCache._next_prune = time.monotonic() + PRUNE_EVERY_S
                cursor.execute(f"DELETE FROM {table} WHERE expires < %s", [now])
        return count
