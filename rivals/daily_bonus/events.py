"""The events of the daily bonus (R-30…R-32): one typed constructor each (schema version 1).

Stream ``daily-bonus-<account id>`` (stream type ``daily_bonus``). ``day`` is the Romanian
calendar day (R-34) as an ISO date.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from rivals.event_types import Day, Instant
from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
DAILY_BONUS_CLAIMED = "DailyBonusClaimed"
DAILY_BONUS_DOUBLED = "DailyBonusDoubled"

DAILY_BONUS_EVENTS = frozenset({DAILY_BONUS_CLAIMED, DAILY_BONUS_DOUBLED})


class DailyBonusClaimedData(TypedDict):
    account_id: int
    day: Day
    streak: int
    points: int
    jokers: int
    claimed_at: Instant


def daily_bonus_claimed(
    *, account_id: int, day: date, streak: int, points: int, jokers: int, claimed_at: datetime
) -> NewEvent:
    """R-30/R-31: the streak day, its points and the jokers it gives (0 or 1)."""
    data: DailyBonusClaimedData = {
        "account_id": account_id,
        "day": day.isoformat(),
        "streak": streak,
        "points": points,
        "jokers": jokers,
        "claimed_at": claimed_at.isoformat(),
    }
    return NewEvent(DAILY_BONUS_CLAIMED, data)


class DailyBonusDoubledData(TypedDict):
    account_id: int
    day: Day
    points: int
    doubled_at: Instant


def daily_bonus_doubled(*, account_id: int, day: date, points: int, doubled_at: datetime) -> NewEvent:
    """R-32: the day's bonus points once more."""
    data: DailyBonusDoubledData = {
        "account_id": account_id,
        "day": day.isoformat(),
        "points": points,
        "doubled_at": doubled_at.isoformat(),
    }
    return NewEvent(DAILY_BONUS_DOUBLED, data)
