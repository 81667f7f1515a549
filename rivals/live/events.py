"""The live room's own event: the reminder that a tournament starts soon (its notification
``tournament_starting``, API.md: 5 minutes before). One per tournament: its stream's first event."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from rivals.event_types import Instant
from rivals.eventstore import NewEvent
from rivals.romanian_time import iso

TOURNAMENT_STARTING_SOON = "TournamentStartingSoon"

LIVE_EVENTS = frozenset({TOURNAMENT_STARTING_SOON})


class TournamentStartingSoonData(TypedDict):
    tournament_id: str
    starts_at: Instant
    title: str
    account_ids: list[int]


def tournament_starting_soon(
    *, tournament_id: str, starts_at: datetime, title: str, account_ids: list[int]
) -> NewEvent:
    data: TournamentStartingSoonData = {
        "tournament_id": tournament_id,
        "starts_at": iso(starts_at),
        "title": title,
        "account_ids": account_ids,
    }
    return NewEvent(TOURNAMENT_STARTING_SOON, data)
