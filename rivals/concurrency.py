"""Lock conflicts between transactions: retried inside the service, never taken for an outage.

A deadlock (SQLSTATE 40P01), a serialization failure (40001) or a lock wait that timed out
(55P03) means that another transaction got there first, not that the database is down: the
service is run again, a bounded number of times, from a fresh transaction (``retry_on_conflict``,
only at the outermost transaction — inside a caller's transaction the caller's own retry, or its
client, runs it again). If every attempt lost, the API answers 409 ``conflict`` with
``Retry-After`` (``rivals.api.errors``), never 503 ``unavailable``. Services avoid deadlocks in
the first place by locking in one order (e.g. clubs: the accounts, by id, then the club) and by
taking ``FOR NO KEY UPDATE`` on rows that other rows reference, so that a foreign-key check of
another transaction never waits on them.
"""

from __future__ import annotations

import functools
import logging
import random
import time

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)

TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
ATTEMPTS = 4


def lock_conflict(exc: BaseException) -> bool:
    """True for a database error that a retry of the whole transaction can cure."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if getattr(exc, "sqlstate", None) in TRANSIENT_SQLSTATES:
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def retry_on_conflict(func=None, *, attempts: int = ATTEMPTS):
    """Run ``func`` (an ``@transaction.atomic`` service) again when its transaction lost a lock
    conflict; outside any transaction only (see the module docstring)."""
    if func is None:
        return functools.partial(retry_on_conflict, attempts=attempts)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if connection.in_atomic_block:
            return func(*args, **kwargs)
        for attempt in range(1, attempts + 1):
            try:
                return func(*args, **kwargs)
            except DatabaseError as exc:
                if attempt == attempts or not lock_conflict(exc):
                    raise
                log.info("%s: lock conflict (attempt %s), retrying: %s", func.__qualname__, attempt, exc)
                time.sleep(random.uniform(0.005, 0.02) * attempt)
        raise AssertionError("unreachable")

    return wrapper
