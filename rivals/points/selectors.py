"""Points reads: whether a competition still unresolved may award points into a past period (R-34).

R-34's decision: a point earned by a round belongs to the instant the round ended — its deadline
when time ended it — even when the ending is written later (a late task, the sweeper); tournament
and pot prizes belong to their end time, paid at finalization. So a past board is final only once
nothing that can still pay into its period is unresolved. The rooms that award such points say
so through ``register_pending_awards`` (the ledger knows no room); each answer is one indexed
query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


# --- the ledger as other rooms read it ---------------------------------------------------------


_KEYS_SQL = "SELECT award_key FROM rivals_points_ledger WHERE award_key = ANY(%s::text[])"


def award_keys_present(keys: Iterable[str]) -> set[str]:
    """Which of these award keys the ledger holds (an award is paid once per key): one prepared
    statement (a solo level's every win asks it)."""
    from django.db import connection

    from rivals.rawsql import execute_prepared

    with connection.cursor() as cur:
        return {row[0] for row in execute_prepared(cur, _KEYS_SQL, [list(keys)]).fetchall()}


def points_sum(*, account_id: int, source: str, start: datetime, end: datetime, upto: datetime) -> int:
    """The account's points of ``source`` awarded in ``[start, end)`` up to ``upto``."""
    from django.db.models import Sum

    from rivals.points.models import PointsLedgerEntry

    total = PointsLedgerEntry.objects.filter(
        account_id=account_id, source=source, awarded_at__gte=start, awarded_at__lt=end, awarded_at__lte=upto
    ).aggregate(s=Sum("amount"))["s"]
    return int(total or 0)


def counted_awards():
    """``(account_id, amount, awarded_at)`` of every non-zero award that counts for the rankings (R-33)."""
    from rivals.points.models import PointsLedgerEntry

    return (
        PointsLedgerEntry.objects.filter(counts=True)
        .exclude(amount=0)
        .values_list("account_id", "amount", "awarded_at")
    )
