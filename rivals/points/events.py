"""The event of the points ledger: one typed constructor (schema version 1).

Stream ``points-<account id>`` (stream type ``points``); rankings read it too (R-33).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rivals.eventstore import NewEvent

POINTS_EVENTS = frozenset({"PointsAwarded"})


def points_awarded(
    *, account_id: int, amount: int, source: str, counts: bool, key: str, awarded_at: datetime, ref: dict[str, Any]
) -> NewEvent:
    """One award, exactly once per ``key``; ``counts``: whether rankings count it (R-33);
    ``ref``: what it was for (``{"match_id": …}``, ``{"day": …, "streak": …}`` …)."""
    return NewEvent(
        "PointsAwarded",
        {
            "account_id": account_id,
            "amount": amount,
            "source": source,
            "counts": counts,
            "key": key,
            "awarded_at": awarded_at.isoformat(),
            "ref": ref,
        },
    )
