"""Is the replica usable, and how far has it come: sampled at most every
``DATABASE_REPLICA_CHECK_S`` per process, by the eligible read that finds a sample due (the others
use the last verdict; none waits for it).

A sample is the wall-clock time ``t`` taken just before the primary is asked for its WAL write
position ``P`` (``pg_current_wal_lsn()``), and the replica's replay position ``R``
(``pg_last_wal_replay_lsn()``). Every transaction committed before ``t`` ends at or below ``P``
(its commit record was flushed, so written, before the commit returned), so once ``R >= P`` the
replica holds all of them: the replica's *horizon* becomes ``t``. Samples wait in a queue until the
replica passes them; their positions only grow, as replay does.

The replica is used while its horizon is at most ``DATABASE_REPLICA_MAX_LAG_S`` old: a replica
that stopped replaying (or fell behind) is bypassed once its horizon is that old, and used again
when it has caught up with a sample taken since. A replica that refuses the connection or fails a
query is out for ``DATABASE_REPLICA_RETRY_S``, then sampled again before any read goes there.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections import deque

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from rivals.replica.routing import REPLICA

log = logging.getLogger("rivals.replica")

MAX_SAMPLES = 512  # a replica that far behind is bypassed anyway; it resumes from the ones kept


def lsn(text: str) -> int:
    """``'16/B374D848'`` → a byte position."""
    high, _, low = text.partition("/")
    return (int(high, 16) << 32) | int(low, 16)


class Horizon:
    """The samples' arithmetic (no database): ``observe`` one sample, get the horizon back."""

    def __init__(self) -> None:
        self.samples: deque[tuple[float, int]] = deque(maxlen=MAX_SAMPLES)
        self.at: float | None = None  # every transaction committed before it is on the replica

    def observe(self, t: float, primary: int, replayed: int) -> float | None:
        self.samples.append((t, primary))
        while self.samples and self.samples[0][1] <= replayed:
            self.at = self.samples.popleft()[0]
        return self.at


class ReplicaHealth:
    def __init__(self, *, max_lag_s: float, check_s: float, retry_s: float):
        self.max_lag_s, self.check_s, self.retry_s = max_lag_s, check_s, retry_s
        self.horizon_ = Horizon()
        self.up = False  # the last sample (or query) succeeded
        self.next_sample = 0.0
        self.state = "unknown"  # logged on every change: unknown, usable, lagging, down
        self._lock = threading.Lock()

    def horizon(self) -> float | None:
        """The replica's horizon if it may serve a read now, else None."""
        now = time.time()
        if now >= self.next_sample and self._lock.acquire(blocking=False):
            try:
                if now >= self.next_sample:
                    self._sample()
            finally:
                self._lock.release()
        at = self.horizon_.at
        usable = self.up and at is not None and now - at <= self.max_lag_s
        if usable:
            self._report("usable", f"the replica serves public reads (at most {self.max_lag_s} s behind)")
        elif self.up:
            lag = "no sample replayed yet" if at is None else f"{now - at:.1f} s behind"
            self._report("lagging", f"the replica is {lag} (bound {self.max_lag_s} s): reads go to the primary")
        return at if usable else None

    def _sample(self) -> None:
        self.next_sample = time.time() + self.check_s
        t = time.time()
        with connections[DEFAULT_DB_ALIAS].cursor() as cur:  # the primary's errors are the request's
            cur.execute("SELECT pg_current_wal_lsn()::text")
            primary = lsn(cur.fetchone()[0])
        try:
            with connections[REPLICA].cursor() as cur:
                cur.execute("SELECT pg_last_wal_replay_lsn()::text")
                replayed = cur.fetchone()[0]
        except DatabaseError as exc:
            self.failed(exc)
            return
        if replayed is None:  # a server started without recovery is no replica (a promoted one
            # keeps its last replayed position: its horizon stops, and it is bypassed as lagging)
            self.failed("it is not in recovery (pg_last_wal_replay_lsn() is NULL)")
            return
        self.up = True
        self.horizon_.observe(t, primary, lsn(replayed))

    def failed(self, why) -> None:
        """The replica refused or failed: out for ``retry_s``; this thread's connection to it is
        dropped (the others find theirs broken by themselves)."""
        self.up = False
        self.next_sample = time.time() + self.retry_s
        with contextlib.suppress(Exception):
            connections[REPLICA].close()
        self._report(
            "down",
            f"the replica failed ({' '.join(str(why).split())}): reads go to the primary, retried in {self.retry_s} s",
        )

    def _report(self, state: str, message: str) -> None:
        if state != self.state:
            self.state = state
            (log.info if state == "usable" else log.warning)(message)


@functools.cache
def health() -> ReplicaHealth:
    """This process's (made on first use: after a pre-forking server's fork)."""
    return ReplicaHealth(
        max_lag_s=settings.DATABASE_REPLICA_MAX_LAG_S,
        check_s=settings.DATABASE_REPLICA_CHECK_S,
        retry_s=settings.DATABASE_REPLICA_RETRY_S,
    )
