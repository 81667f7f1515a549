"""The points ledger: every award is a ``PointsAwarded`` event, exactly once per award key."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from django.db import connection, transaction
from django.utils import timezone

from rivals.eventstore import ANY_VERSION, event_append
from rivals.locks import NAMED_LOCK_SQL, read_after_lock
from rivals.models import Account
from rivals.points.events import AwardRef, points_awarded
from rivals.points.models import SOURCES, PointsLedgerEntry
from rivals.points.projections import ledger_entry


def ledger_stream(account_id: int) -> str:
    return f"points-{account_id}"


# savepoint=False: inside a caller's transaction (a round's end, a tournament's prizes) an award
# is part of it — nothing here is caught and retried, so a savepoint would be two round trips
# for nothing; called alone, it is its own transaction
@transaction.atomic(savepoint=False)
def points_award(
    *,
    account: Account | int,
    amount: int,
    source: str,
    key: str,
    counts: bool = True,
    at: datetime | None = None,
    actor: str = "system",
    ref: dict[str, Any] | None = None,
) -> PointsLedgerEntry | None:
    """Award points once per ``key`` (e.g. ``single_player:first:<account>:<level>``).

    Returns the ledger entry (as written; its row's id is not read back), or ``None`` when that
    key was already awarded (a retry, a second
    beat run, a concurrent request): exactly-once comes from the database, not from callers.
    The award instant is the server's clock (``at`` only for jobs that award a past instant).
    """
    if source not in SOURCES:
        raise ValueError(f"unknown points source {source!r}")
    account_id = account if isinstance(account, int) else account.pk
    at = at or timezone.now()
    # Serialise awards of one key on its advisory lock, then check the key: a second award with
    # the same key (even a concurrent one) finds the first and does nothing.
    stream = ledger_stream(account_id)
    with connection.cursor() as cur:  # the lock and the key's read: one round trip
        read_after_lock(
            cur, NAMED_LOCK_SQL, [key], "SELECT EXISTS (SELECT 1 FROM rivals_points_ledger WHERE award_key = %s)", [key]
        )
        if cur.fetchone()[0]:
            return None
    (event,) = event_append(
        stream_id=stream,
        stream_type="points",
        expected_version=ANY_VERSION,
        actor=actor,
        now=at,
        events=[
            points_awarded(
                account_id=account_id,
                amount=amount,
                source=source,
                counts=counts,
                key=key,
                awarded_at=at,
                ref=cast(AwardRef, ref or {}),
            )
        ],
    )
    return ledger_entry(event)  # the row as the projection wrote it (its id is not read back)
