"""The events of tournaments and pot competitions: one typed constructor each (schema version 1
unless ``SCHEMA_VERSIONS`` says otherwise).

Streams: ``tournament-<id>`` (stream type ``tournament``), ``pot-<id>`` (``pot``) and
``schedule-<id>`` (``schedule``: an operator's recurring schedule — configuration, so its row is
not rebuilt from these; they are its history). Times in the data are ISO 8601 UTC strings; the
projection (``tournaments.projections``) reads only these.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any, NotRequired, TypedDict

from rivals.eventstore import NewEvent
from rivals.romanian_time import iso

# the event types, one name each: code that reads events imports these, never retypes them
PLAYER_REGISTERED = "PlayerRegistered"
PLAYER_UNREGISTERED = "PlayerUnregistered"
POT_CREATED = "PotCreated"
POT_ENTERED = "PotEntered"
POT_ENTRANT_LISTED = "PotEntrantListed"
POT_FINALIZED = "PotFinalized"
SCHEDULE_CREATED = "ScheduleCreated"
SCHEDULE_DEACTIVATED = "ScheduleDeactivated"
SCHEDULE_EDITED = "ScheduleEdited"
SCHEDULE_REACTIVATED = "ScheduleReactivated"
SCHEDULE_RETIRED = "ScheduleRetired"
TABLE_SCORED = "TableScored"
TABLES_OPENED = "TablesOpened"
TOURNAMENT_CANCELLED = "TournamentCancelled"
TOURNAMENT_CREATED = "TournamentCreated"
TOURNAMENT_EDITED = "TournamentEdited"
TOURNAMENT_FINALIZED = "TournamentFinalized"
TOURNAMENT_STARTED = "TournamentStarted"
WAVE_SEATED = "WaveSeated"

TOURNAMENT_EVENTS = frozenset(
    {
        "TournamentCreated",
        "TournamentEdited",
        "TournamentCancelled",
        "PlayerRegistered",
        "PlayerUnregistered",
        "TournamentStarted",
        "WaveSeated",
        "TablesOpened",
        "TableScored",
        "TournamentFinalized",
    }
)
POT_EVENTS = frozenset({"PotCreated", "PotEntrantListed", "PotEntered", "PotFinalized"})
# stream schedule-<id> (stream type schedule): an operator's recurring schedule, its life (issue 22)
SCHEDULE_EVENTS = frozenset(
    {"ScheduleCreated", "ScheduleEdited", "ScheduleDeactivated", "ScheduleReactivated", "ScheduleRetired"}
)
# version 2 of TournamentCancelled: the operator's own words (``note``; version 1 had none);
# version 2 of WaveSeated and PotCreated: the deal's code, salt and commitment;
# version 2 of TableScored: each row's ``pairs_removed`` (R-37; version 1 rows had none)
SCHEMA_VERSIONS = {"TournamentCancelled": 2, "WaveSeated": 2, "PotCreated": 2, "TableScored": 2}

# the settings an operator sets, in the order of TournamentCreated's data
SETTINGS = (
    "kind",
    "title",
    "registration_opens_at",
    "starts_at",
    "ends_at",
    "min_players",
    "prize_table",
    "multipliers",
)


class TournamentSettings(TypedDict, total=False):
    """What an operator sets (R-21): all of them when created, the changed ones when edited."""

    kind: str
    title: str
    registration_opens_at: datetime
    starts_at: datetime
    ends_at: datetime
    min_players: int
    prize_table: list[int]
    multipliers: list[int]


class SeatedTable(TypedDict):
    """R-23: a table of a wave and its players in seat order."""

    table: int
    account_ids: list[int]


class OpenedTable(TypedDict):
    """A table whose round was created: its match and round."""

    table: int
    match_id: str
    round_id: str


class TableResultRow(TypedDict):
    """R-24/R-25: a player's place, score and table points at a table."""

    account_id: int
    place: int
    score: int
    completed: bool
    tp: int
    pairs_removed: NotRequired[int]  # R-37 (version 2 rows)


class Trophy(TypedDict):
    """R-27/R-29: the winner's cup (``cup``) or Champions trophy (``champions``)."""

    account_id: int
    kind: str
    title: str


class PotSettings(TypedDict, total=False):
    """P-5: what an operator set for a pot (its ``code`` is the deal: secret until it closes, R-40)."""

    title: str
    code: str | None
    time_limit_s: int
    open_entry: bool
    prize_split: list[int]
    counts: bool
    starts_at: datetime
    ends_at: datetime


class PotResultRow(TypedDict):
    """P-5: an entrant's score, place and prize (``null``: never played)."""

    account_id: int
    score: int | None
    place: int | None
    prize: int | None


class ScheduleSettings(TypedDict, total=False):
    """R-21: a recurring schedule's settings (``local_time``: ``HH:MM`` Romanian wall-clock time)."""

    title: str
    kind: str
    local_time: str
    weekdays: str
    duration_minutes: int
    registration_hours_before: int
    min_players: int
    prize_table: list[int]
    multipliers: list[int]
    days_ahead: int


def _jsonable(settings: Mapping[str, object]) -> dict[str, Any]:
    return {k: iso(v) if isinstance(v, datetime) else v for k, v in settings.items()}


def tournament_created(
    *,
    tournament_id: uuid.UUID | str,
    settings: TournamentSettings,
    seed: int,
    created_at: datetime,
    schedule_id: int | None = None,
    occurrence: str | None = None,
) -> NewEvent:
    return NewEvent(
        "TournamentCreated",
        {
            "tournament_id": str(tournament_id),
            **_jsonable(settings),
            "seed": seed,
            "created_at": iso(created_at),
            "schedule_id": schedule_id,
            "occurrence": occurrence,
        },
    )


def tournament_edited(*, changes: TournamentSettings) -> NewEvent:
    return NewEvent("TournamentEdited", {"changes": _jsonable(changes)})


def tournament_cancelled(*, reason: str, registered: int, minimum: int, at: datetime, note: str = "") -> NewEvent:
    """``reason``: the API's code (``operator``, ``too_few_players`` …); ``note``: an operator's
    reason in words (issue 22: a cancellation asks for one), empty when the rules cancelled it."""
    return NewEvent(
        "TournamentCancelled",
        {"reason": reason, "registered": registered, "minimum": minimum, "cancelled_at": iso(at), "note": note},
        SCHEMA_VERSIONS["TournamentCancelled"],
    )


def player_registered(*, account_id: int, at: datetime) -> NewEvent:
    return NewEvent("PlayerRegistered", {"account_id": account_id, "registered_at": iso(at)})


def player_unregistered(*, account_id: int, reason: str | None = None, starts_at: datetime | None = None) -> NewEvent:
    """The player withdrew, or (``reason``) the registration was ended for them: ``rescheduled``
    when an operator moved a Champions Tournament's start into another Romanian week (R-28;
    ``starts_at``: the new start)."""
    data: dict[str, Any] = {"account_id": account_id}
    if reason is not None:
        data["reason"] = reason
    if starts_at is not None:
        data["starts_at"] = iso(starts_at)
    return NewEvent("PlayerUnregistered", data)


def tournament_started(*, registered: int, at: datetime) -> NewEvent:
    return NewEvent("TournamentStarted", {"registered": registered, "started_at": iso(at)})


def wave_seated(
    *,
    wave: int,
    multiplier: int,
    tables: list[SeatedTable],
    waiting: list[int],
    at: datetime,
    code: str | None,
    salt: str | None,
    commitment: str | None,
) -> NewEvent:
    """R-23: ``tables``: ``[{"table": k, "account_ids": [...]}]`` in seat order. R-40: the deal
    every table of the wave plays (``code``, secret until the wave's last table ends), fixed now
    with its ``salt`` and ``commitment`` (``None`` when no table is seated)."""
    return NewEvent(
        "WaveSeated",
        {
            "wave": wave,
            "multiplier": multiplier,
            "tables": tables,
            "waiting": waiting,
            "seated_at": iso(at),
            "code": code,
            "salt": salt,
            "commitment": commitment,
        },
        SCHEMA_VERSIONS["WaveSeated"],
    )


def tables_opened(*, wave: int, tables: list[OpenedTable], at: datetime) -> NewEvent:
    """The rounds of some tables of a wave: ``[{"table": k, "match_id", "round_id"}]``."""
    return NewEvent("TablesOpened", {"wave": wave, "tables": tables, "opened_at": iso(at)})


def table_scored(
    *,
    wave: int,
    table: int,
    round_id: uuid.UUID | str | None,
    reason: str,
    multiplier: int,
    results: list[TableResultRow],
    at: datetime,
) -> NewEvent:
    """R-24/R-25: ``results``: ``[{"account_id", "place", "score", "completed", "tp",
    "pairs_removed"}]`` (``pairs_removed`` since R-37's statistics; a table closed unplayed has no
    ``round_id`` and 0 for everyone)."""
    return NewEvent(
        "TableScored",
        {
            "wave": wave,
            "table": table,
            "round_id": str(round_id) if round_id else None,
            "reason": reason,
            "multiplier": multiplier,
            "results": results,
            "ended_at": iso(at),
        },
        SCHEMA_VERSIONS["TableScored"],
    )


def tournament_finalized(*, places: list[list[int]], trophy: Trophy | None, at: datetime) -> NewEvent:
    """R-26/R-27/R-29: ``places``: ``[[account_id, place, tp, prize], …]`` (compact: 10,000 players)."""
    return NewEvent("TournamentFinalized", {"places": places, "trophy": trophy, "finalized_at": iso(at)})


def pot_created(
    *, pot_id: uuid.UUID | str, settings: PotSettings, created_at: datetime, salt: str, commitment: str
) -> NewEvent:
    """P-5: the operator's settings (the deal's ``code`` among them: secret until the pot closes,
    R-40, its ``salt`` and ``commitment`` fixed now)."""
    return NewEvent(
        "PotCreated",
        {
            "pot_id": str(pot_id),
            **_jsonable(settings),
            "created_at": iso(created_at),
            "salt": salt,
            "commitment": commitment,
        },
        SCHEMA_VERSIONS["PotCreated"],
    )


def pot_entrant_listed(*, account_ids: list[int]) -> NewEvent:
    return NewEvent("PotEntrantListed", {"account_ids": account_ids})


def pot_entered(*, account_id: int, game_id: uuid.UUID | str, at: datetime) -> NewEvent:
    return NewEvent("PotEntered", {"account_id": account_id, "game_id": str(game_id), "entered_at": iso(at)})


def pot_finalized(*, results: list[PotResultRow], at: datetime) -> NewEvent:
    """P-5: ``results``: ``[{"account_id", "score", "place", "prize"}]`` (place/prize null: never played)."""
    return NewEvent("PotFinalized", {"results": results, "finalized_at": iso(at)})


def schedule_created(*, schedule_id: int, settings: ScheduleSettings) -> NewEvent:
    """R-21: a recurring schedule (``settings``: title, kind, local_time ``HH:MM``, weekdays …)."""
    return NewEvent("ScheduleCreated", {"schedule_id": schedule_id, **settings})


def schedule_edited(*, schedule_id: int, changes: ScheduleSettings) -> NewEvent:
    """Settings changed: instances created from now on follow them; existing ones keep theirs."""
    return NewEvent("ScheduleEdited", {"schedule_id": schedule_id, "changes": changes})


def schedule_deactivated(*, schedule_id: int, reason: str, cancelled: list[str]) -> NewEvent:
    """No more instances until reactivated; ``cancelled``: the upcoming instances the operator
    chose to cancel with it (each with its own ``TournamentCancelled``)."""
    return NewEvent("ScheduleDeactivated", {"schedule_id": schedule_id, "reason": reason, "cancelled": cancelled})


def schedule_reactivated(*, schedule_id: int, reason: str) -> NewEvent:
    return NewEvent("ScheduleReactivated", {"schedule_id": schedule_id, "reason": reason})


def schedule_retired(*, schedule_id: int, reason: str, cancelled: list[str]) -> NewEvent:
    """For good (never deleted: its instances keep pointing at it); ``cancelled`` as above."""
    return NewEvent("ScheduleRetired", {"schedule_id": schedule_id, "reason": reason, "cancelled": cancelled})
