"""The events of skill ratings (R-41): one typed constructor each (schema version 1).

Each rated result is the stream ``rating-<result key>`` (``rating-match:<match id>``) holding one
``RatingsUpdated``: a result is rated once — a second write finds the stream and does nothing.
The event carries its inputs and the before and after of every player, so the ratings are a
projection of these events and a reader can redo the mathematics with the package it names.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from rivals.event_types import Instant
from rivals.eventstore import NewEvent
from rivals.romanian_time import iso

# the event types, one name each: code that reads events imports these, never retypes them
RATINGS_UPDATED = "RatingsUpdated"

RATING_EVENTS = frozenset({RATINGS_UPDATED})


class RatedPlayer(TypedDict):
    """One player of a rated result, in seat order (R-41)."""

    account_id: int
    place: int  # the result's place
    idle: bool  # removed no pair (R-18a)
    rated_place: int  # the place it was rated by: idle players last
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


class RatingsUpdatedData(TypedDict):
    result: str
    mode: str
    kind: str
    model: str
    players: list[RatedPlayer]
    rated_at: Instant


def ratings_updated(
    *, result: str, mode: str, kind: str, model: str, players: list[RatedPlayer], rated_at: datetime
) -> NewEvent:
    """``result``: the result's key (``match:<id>``); ``mode``: the match's (``quick``, ``duel``,
    ``arena``, ``tournament``); ``kind``: ``one_to_one`` or ``multi``; ``model``: the package and
    model that computed it; ``players`` in seat order: ``{"account_id", "place"`` (the result's
    place), ``"idle"`` (R-18a), ``"rated_place"`` (the place it was rated by: idle players last),
    ``"mu_before", "sigma_before", "mu_after", "sigma_after"}``; ``rated_at``: the result's instant."""
    data: RatingsUpdatedData = {
        "result": result,
        "mode": mode,
        "kind": kind,
        "model": model,
        "players": players,
        "rated_at": iso(rated_at),
    }
    return NewEvent(RATINGS_UPDATED, data)
