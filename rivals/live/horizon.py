"""The commit-order horizon: the highest log position below which every position is settled —
committed and visible, or rolled back — so that a reader that delivers up to it in position order
never skips an event that commits later (ARCHITECTURE.md: a position becomes visible at COMMIT,
not in order).

Nothing is added to the append (no trigger, no column, no NOTIFY): the horizon is read from two
facts PostgreSQL already keeps.

1. The position sequence (``CACHE 1``) hands out positions in real-time order: reading its
   ``last_value`` gives ``L``, every position drawn so far.
2. A transaction that inserts into ``rivals_event`` holds ``RowExclusiveLock`` on it from before
   it draws a position (the lock is taken when the INSERT is parsed or its cached plan is
   locked, the position is drawn while it runs) until it ends; ``pg_locks`` lists the holders
   by virtual transaction id.

A *sample* is ``(L, V)``: ``L`` read first, then ``V``, the set of holders. Every transaction
that drew a position ``≤ L`` and was still running when ``V`` was read is in ``V``. So once none
of ``V`` holds the lock any more (each has committed or rolled back), every position ``≤ L`` is
settled. ``advance`` takes a sample per call and returns the newest settled ``L``. A transaction
that never inserts into the log (a rebuild's long build, a report) never holds the horizon back;
one that appends and stays open does — rightly: its positions may still commit.
"""

from __future__ import annotations

from collections import deque

HOLDERS_SQL = (
    "SELECT virtualtransaction FROM pg_locks WHERE locktype = 'relation' AND relation = 'rivals_event'::regclass "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND mode = 'RowExclusiveLock' AND pid <> pg_backend_pid()"
)
LAST_SQL = "SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence('rivals_event', 'position')), 0)"
MAX_SAMPLES = 100_000


class Horizon:
    def __init__(self) -> None:
        self.samples: deque[tuple[int, frozenset[str]]] = deque()
        self.settled = 0

    async def last_position(self, conn) -> int:
        cur = await conn.execute(LAST_SQL)
        return (await cur.fetchone())[0]

    async def advance(self, conn) -> int:
        """Take a sample and return the settled horizon (never lower than before)."""
        last = await self.last_position(conn)  # first L, then V (module docstring)
        if last <= self.settled and not self.samples:
            return self.settled  # nothing new was drawn: no need to look at the locks
        cur = await conn.execute(HOLDERS_SQL)
        holders = frozenset(row[0] for row in await cur.fetchall())
        if not self.samples or last > self.samples[-1][0]:
            self.samples.append((last, holders))
            if len(self.samples) > MAX_SAMPLES:
                self.samples.popleft()  # a transaction that stays open for hours: keep the newest
        # samples are in L order; a holder of an older sample still running blocks the newer ones too
        while self.samples and not (self.samples[0][1] & holders):
            self.settled = max(self.settled, self.samples.popleft()[0])
        return self.settled
