"""The events of competitive play: matches, their rounds, the queue and duels — one typed
constructor each (schema version 1; ``MatchCreated`` and ``RoundScheduled``: 2, R-40's salt and
commitment).

Streams: ``match-<id>``, ``round-<id>`` (each player's board of a round is a ``game-<id>`` stream
of ``rivals.games.events``), ``queue-<ticket id>`` and ``duel-<id>``. Times are ISO 8601 strings.
"""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict
from uuid import UUID

from rivals.event_types import Instant
from rivals.eventstore import NewEvent
from rivals.romanian_time import iso

MATCH_CREATED = "MatchCreated"
MATCH_FINISHED = "MatchFinished"
ROUND_SCHEDULED = "RoundScheduled"
ROUND_ENDED = "RoundEnded"
QUEUE_JOINED = "QueueJoined"
QUEUE_MATCHED = "QueueMatched"
QUEUE_LEFT = "QueueLeft"
QUEUE_EXPIRED = "QueueExpired"
DUEL_CHALLENGED = "DuelChallenged"
DUEL_ACCEPTED = "DuelAccepted"
DUEL_DECLINED = "DuelDeclined"
DUEL_EXPIRED = "DuelExpired"

MATCH_EVENTS = frozenset(
    {
        MATCH_CREATED,
        MATCH_FINISHED,
        ROUND_SCHEDULED,
        ROUND_ENDED,
        QUEUE_JOINED,
        QUEUE_MATCHED,
        QUEUE_LEFT,
        QUEUE_EXPIRED,
        DUEL_CHALLENGED,
        DUEL_ACCEPTED,
        DUEL_DECLINED,
        DUEL_EXPIRED,
    }
)


# version 2: the deal's salt and commitment beside its code
SCHEMA_VERSIONS = {MATCH_CREATED: 2, ROUND_SCHEDULED: 2, QUEUE_MATCHED: 2}

# --- matches and rounds (R-12, R-17…R-20) ---------------------------------------------------------


class MatchContext(TypedDict, total=False):
    """What a match is part of: a duel (``duel_id``) or a tournament table (its tournament, wave
    and table number); empty for a queue's match."""

    duel_id: str
    tournament_id: str
    wave: int
    table: int


class RoundResultRow(TypedDict):
    """A player's result of a round (R-18), by place."""

    account_id: int
    place: int
    score: int
    completed: bool
    pairs_left: int
    pairs_removed: NotRequired[int]  # R-18a; rows written before it have none (they count as played)


class StandingRow(TypedDict):
    """A player's place in a finished match: the round's, or by the sum of the scores (R-20)."""

    account_id: int
    place: int
    score: int
    completed: bool
    pairs_removed: NotRequired[int]


class PrizeRow(TypedDict):
    """The points a player's place earns (R-12, R-20); 0 for an idle or restricted player."""

    account_id: int
    points: int


class MatchCreatedData(TypedDict):
    """Version 2: ``salt`` and ``commitment`` beside ``code`` (R-40; version 1 had neither)."""

    match_id: str
    mode: str
    players: list[int]
    rounds_total: int
    context: MatchContext  # empty for a queue's match
    code: str | None
    salt: str | None
    commitment: str | None


def match_created(
    *,
    match_id: UUID | str,
    mode: str,
    players: list[int],
    rounds_total: int,
    context: MatchContext | None,
    code: str | None,
    salt: str | None,
    commitment: str | None,
) -> NewEvent:
    """``context``: what the match is part of (a duel, a tournament table); ``code``: the deal
    every round plays, when fixed, with its ``salt`` and ``commitment`` (R-40)."""
    data: MatchCreatedData = {
        "match_id": str(match_id),
        "mode": mode,
        "players": players,
        "rounds_total": rounds_total,
        "context": context or {},
        "code": code,
        "salt": salt,
        "commitment": commitment,
    }
    return NewEvent(MATCH_CREATED, data, SCHEMA_VERSIONS[MATCH_CREATED])


class MatchFinishedData(TypedDict):
    match_id: str
    standings: list[StandingRow]
    prizes: list[PrizeRow]
    finished_at: Instant


def match_finished(
    *, match_id: UUID | str, standings: list[StandingRow], prizes: list[PrizeRow], finished_at: Instant
) -> NewEvent:
    """``finished_at``: the last round's ``ended_at`` as recorded."""
    data: MatchFinishedData = {
        "match_id": str(match_id),
        "standings": standings,
        "prizes": prizes,
        "finished_at": finished_at,
    }
    return NewEvent(MATCH_FINISHED, data)


class RoundScheduledData(TypedDict):
    """Version 2: ``salt`` and ``commitment`` beside ``code`` (R-40; version 1 had neither)."""

    round_id: str
    match_id: str
    index: int
    mode: str
    players: list[int]
    code: str | None
    salt: str | None
    commitment: str
    layout: str
    starts_at: Instant
    hard_ends_at: Instant
    cutoff_at: Instant | None


def round_scheduled(
    *,
    round_id: UUID | str,
    match_id: UUID | str,
    index: int,
    mode: str,
    players: list[int],
    code: str | None,
    salt: str | None,
    commitment: str,
    layout: str,
    starts_at: datetime,
    hard_ends_at: datetime,
    cutoff_at: datetime | None,
) -> NewEvent:
    """``code``: the deal, secret until the round (or its wave, or its match's fixed deal) is over;
    ``salt`` and ``commitment``: R-40's proof, fixed now (what a player reads of it shows ``code``
    and ``salt`` as ``null`` while the deal is secret)."""
    data: RoundScheduledData = {
        "round_id": str(round_id),
        "match_id": str(match_id),
        "index": index,
        "mode": mode,
        "players": list(players),
        "code": code,
        "salt": salt,
        "commitment": commitment,
        "layout": layout,
        "starts_at": iso(starts_at),
        "hard_ends_at": iso(hard_ends_at),
        "cutoff_at": iso(cutoff_at),
    }
    return NewEvent(ROUND_SCHEDULED, data, SCHEMA_VERSIONS[ROUND_SCHEDULED])


class RoundEndedData(TypedDict):
    round_id: str
    match_id: str
    index: int
    ended_at: Instant
    reason: str
    results: list[RoundResultRow]


def round_ended(
    *,
    round_id: UUID | str,
    match_id: UUID | str,
    index: int,
    ended_at: datetime,
    reason: str,
    results: list[RoundResultRow],
) -> NewEvent:
    """R-18: ``results``: ``[{"account_id", "place", "score", "completed", "pairs_left",
    "pairs_removed"}]`` by place."""
    data: RoundEndedData = {
        "round_id": str(round_id),
        "match_id": str(match_id),
        "index": index,
        "ended_at": iso(ended_at),
        "reason": reason,
        "results": results,
    }
    return NewEvent(ROUND_ENDED, data)


# --- the queue (R-12, R-20) --------------------------------------------------------------------------


class QueueJoinedData(TypedDict):
    ticket_id: str
    account_id: int
    mode: str
    expires_at: Instant


def queue_joined(*, ticket_id: UUID | str, account_id: int, mode: str, expires_at: datetime) -> NewEvent:
    data: QueueJoinedData = {
        "ticket_id": str(ticket_id),
        "account_id": account_id,
        "mode": mode,
        "expires_at": iso(expires_at),
    }
    return NewEvent(QUEUE_JOINED, data)


class QueueMatchedData(TypedDict):
    """Version 2: ``account_id``, the ticket's owner (issue 35: its notification needs no earlier
    event; version 1 had none)."""

    ticket_id: str
    match_id: str
    account_id: int


def queue_matched(*, ticket_id: UUID | str, match_id: UUID | str, account_id: int) -> NewEvent:
    data: QueueMatchedData = {"ticket_id": str(ticket_id), "match_id": str(match_id), "account_id": account_id}
    return NewEvent(QUEUE_MATCHED, data, SCHEMA_VERSIONS[QUEUE_MATCHED])


class QueueLeftData(TypedDict):
    ticket_id: str
    reason: NotRequired[str]


def queue_left(*, ticket_id: UUID | str, reason: str | None = None) -> NewEvent:
    """``reason`` when the server ended the ticket (R-38: the account was suspended or closed)."""
    data: QueueLeftData = {"ticket_id": str(ticket_id)}
    if reason is not None:
        data["reason"] = reason
    return NewEvent(QUEUE_LEFT, data)


class QueueExpiredData(TypedDict):
    ticket_id: str


def queue_expired(*, ticket_id: UUID | str) -> NewEvent:
    data: QueueExpiredData = {"ticket_id": str(ticket_id)}
    return NewEvent(QUEUE_EXPIRED, data)


# --- duels (R-19) ------------------------------------------------------------------------------------


class DuelChallengedData(TypedDict):
    duel_id: str
    challenger_id: int
    opponent_id: int
    expires_at: Instant


def duel_challenged(*, duel_id: UUID | str, challenger_id: int, opponent_id: int, expires_at: datetime) -> NewEvent:
    data: DuelChallengedData = {
        "duel_id": str(duel_id),
        "challenger_id": challenger_id,
        "opponent_id": opponent_id,
        "expires_at": iso(expires_at),
    }
    return NewEvent(DUEL_CHALLENGED, data)


class DuelAcceptedData(TypedDict):
    duel_id: str
    match_id: str


def duel_accepted(*, duel_id: UUID | str, match_id: UUID | str) -> NewEvent:
    data: DuelAcceptedData = {"duel_id": str(duel_id), "match_id": str(match_id)}
    return NewEvent(DUEL_ACCEPTED, data)


class DuelDeclinedData(TypedDict):
    duel_id: str
    by: str
    reason: NotRequired[str]


def duel_declined(*, duel_id: UUID | str, by: str, reason: str | None = None) -> NewEvent:
    """``by``: ``opponent``, ``challenger`` (a withdrawal) or ``system`` (R-38, with the ``reason``)."""
    data: DuelDeclinedData = {"duel_id": str(duel_id), "by": by}
    if reason is not None:
        data["reason"] = reason
    return NewEvent(DUEL_DECLINED, data)


class DuelExpiredData(TypedDict):
    duel_id: str


def duel_expired(*, duel_id: UUID | str) -> NewEvent:
    data: DuelExpiredData = {"duel_id": str(duel_id)}
    return NewEvent(DUEL_EXPIRED, data)
