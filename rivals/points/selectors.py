"""Points reads: whether a competition still unresolved may award points into a past period (R-34).

R-34's decision: a point earned by a round belongs to the instant the round ended — its deadline
when time ended it — even when the ending is written later (a late task, the sweeper); tournament
and pot prizes belong to their end time, paid at finalization. So a past board is final only once
nothing that can still pay into its period is unresolved. The rooms that award such points say
so through ``register_pending_awards`` (the ledger knows no room); each answer is one indexed
query.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

PendingAwards = Callable[[datetime, datetime], bool]
_PENDING: list[PendingAwards] = []


def register_pending_awards(fn: PendingAwards) -> None:
    """``fn(start, end)``: whether one of the room's unresolved competitions may still award
    counting points dated in ``[start, end)``."""
    if fn not in _PENDING:
        _PENDING.append(fn)


def awards_pending(*, start: datetime, end: datetime) -> bool:
    """R-34: may points dated in ``[start, end)`` still be awarded (by a competition not yet
    resolved)?"""
    return any(fn(start, end) for fn in _PENDING)
