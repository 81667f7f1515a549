"""Callers' marks in the shared cache: "this account's writes all finished before ``until``".

A request that may have written marks its caller when it ends — after its transactions committed,
before the answer leaves — with ``until = now + MARK_S``. The same process does not mark that
account again until ``now + MARK_S / 2``: a write finishing in between is still before the
``until`` in the cache (by ``MARK_S / 2``, which also absorbs the difference between two web
nodes' clocks and a concurrent mark from another process landing last). On the hot path of
intents that is a dictionary look-up per request and one cache write per account and process at
most every half second — no database statement.

The mark lives ``MARK_S + DATABASE_REPLICA_MAX_LAG_S`` (+1 s): by then any replica that may serve
a read has a horizon past it anyway. The cache must keep marks that long: a shared cache
(``CACHE_URL``, Redis) that does not evict keys early (``maxmemory-policy noeviction``, or memory
enough). A cache that fails sends the caller's reads to the primary.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger("rivals.replica")

MARK_S = 1.0
PRUNE_AT = 10_000  # accounts remembered by one process before the expired are forgotten

_marked: dict[int, float] = {}  # account → until when this process's last mark covers its writes


def _key(account_id: int) -> str:
    return f"rivals:replica:wrote:{account_id}"


def mark(account_id: int) -> None:
    """The account's writes up to now are done: its eligible reads stay on the primary until the
    replica has them."""
    now = time.time()
    if _marked.get(account_id, 0.0) > now:
        return
    try:
        cache.set(_key(account_id), now + MARK_S, timeout=math.ceil(MARK_S + settings.DATABASE_REPLICA_MAX_LAG_S) + 1)
    except Exception:  # the answer is ready; the caller's reads on other nodes may be stale
        log.exception("replica: could not mark account %s as a recent writer", account_id)
        return
    if len(_marked) >= PRUNE_AT:
        for stale in [a for a, covered in list(_marked.items()) if covered <= now]:
            _marked.pop(stale, None)
    _marked[account_id] = now + MARK_S / 2


def replica_has_writes_of(account_id: int, horizon: float) -> bool:
    """Does a replica at ``horizon`` hold every write of the account? (No mark: nothing recent.)"""
    try:
        until = cache.get(_key(account_id))
    except Exception:  # unknown: the primary answers
        return False
    return until is None or horizon >= until
