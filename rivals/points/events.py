"""The event of the points ledger: one typed constructor (schema version 1).

Stream ``points-<account id>`` (stream type ``points``); rankings read it too (R-33).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from rivals.event_types import Instant
from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
POINTS_AWARDED = "PointsAwarded"

POINTS_EVENTS = frozenset({POINTS_AWARDED})


class AwardRef(TypedDict, total=False):
    """What an award was for — by source: a level's game (``game_id``, ``level``, ``time_ms``, and the
    time bonus's ``place``: R-3, R-5), a match (``match_id``: R-12, R-20), a day's bonus (``day``,
    ``streak``: R-30, R-32), a tournament (``tournament_id``, ``title``, ``place``, ``tp``: R-26), a
    pot (``pot_id``, ``title``, ``place``, ``score``: P-5)."""

    game_id: str
    level: int
    time_ms: int
    place: int
    match_id: str
    day: str
    streak: int
    tournament_id: str
    title: str
    tp: int
    pot_id: str
    score: int


class PointsAwardedData(TypedDict):
    account_id: int
    amount: int
    source: str
    counts: bool
    key: str
    awarded_at: Instant
    ref: AwardRef


def points_awarded(
    *, account_id: int, amount: int, source: str, counts: bool, key: str, awarded_at: datetime, ref: AwardRef
) -> NewEvent:
    """One award, exactly once per ``key``; ``counts``: whether rankings count it (R-33);
    ``ref``: what it was for (``{"match_id": …}``, ``{"day": …, "streak": …}`` …)."""
    data: PointsAwardedData = {
        "account_id": account_id,
        "amount": amount,
        "source": source,
        "counts": counts,
        "key": key,
        "awarded_at": awarded_at.isoformat(),
        "ref": ref,
    }
    return NewEvent(POINTS_AWARDED, data)
