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
from typing import Any, NotRequired, TypedDict, cast

from rivals.event_types import Instant
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
        TOURNAMENT_CREATED,
        TOURNAMENT_EDITED,
        TOURNAMENT_CANCELLED,
        PLAYER_REGISTERED,
        PLAYER_UNREGISTERED,
        TOURNAMENT_STARTED,
        WAVE_SEATED,
        TABLES_OPENED,
        TABLE_SCORED,
        TOURNAMENT_FINALIZED,
    }
)
POT_EVENTS = frozenset({POT_CREATED, POT_ENTRANT_LISTED, POT_ENTERED, POT_FINALIZED})
# stream reminder-tournament-<id> (stream type reminder): that a tournament starts within 5 minutes
# (its notification tournament_starting; one per tournament: the stream's first event)
TOURNAMENT_STARTING_SOON = "TournamentStartingSoon"
REMINDER_EVENTS = frozenset({TOURNAMENT_STARTING_SOON})
# stream schedule-<id> (stream type schedule): an operator's recurring schedule, its life (issue 22)
SCHEDULE_EVENTS = frozenset(
    {SCHEDULE_CREATED, SCHEDULE_EDITED, SCHEDULE_DEACTIVATED, SCHEDULE_REACTIVATED, SCHEDULE_RETIRED}
)
# version 2 of TournamentCancelled: the operator's own words (``note``; version 1 had none);
# version 2 of WaveSeated and PotCreated: the deal's code, salt and commitment;
# version 2 of TableScored: each row's ``pairs_removed`` (R-37; version 1 rows had none)
SCHEMA_VERSIONS = {TOURNAMENT_CANCELLED: 2, WAVE_SEATED: 2, POT_CREATED: 2, TABLE_SCORED: 2}

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


class TournamentSettingsData(TypedDict, total=False):
    """What an operator sets (R-21) as events store it (instants as ISO 8601 strings): all of it
    when created, the changed settings when edited."""

    kind: str
    title: str
    registration_opens_at: Instant
    starts_at: Instant
    ends_at: Instant
    min_players: int
    prize_table: list[int]
    multipliers: list[int]


class PotSettingsData(TypedDict, total=False):
    """``PotSettings`` as events store them (instants as ISO 8601 strings)."""

    title: str
    code: str | None
    time_limit_s: int
    open_entry: bool
    prize_split: list[int]
    counts: bool
    starts_at: Instant
    ends_at: Instant


def _jsonable(settings: Mapping[str, object]) -> dict[str, Any]:
    """Settings as events store them: their instants as ISO 8601 strings."""
    return {k: iso(v) if isinstance(v, datetime) else v for k, v in settings.items()}


class TournamentCreatedData(TypedDict):
    """``tournament_id``, the operator's settings (R-21: all of them), the seed and where it came from."""

    tournament_id: str
    kind: NotRequired[str]
    title: NotRequired[str]
    registration_opens_at: NotRequired[Instant]
    starts_at: NotRequired[Instant]
    ends_at: NotRequired[Instant]
    min_players: NotRequired[int]
    prize_table: NotRequired[list[int]]
    multipliers: NotRequired[list[int]]
    seed: int
    created_at: Instant
    schedule_id: int | None
    occurrence: str | None


def tournament_created(
    *,
    tournament_id: uuid.UUID | str,
    settings: TournamentSettings,
    seed: int,
    created_at: datetime,
    schedule_id: int | None = None,
    occurrence: str | None = None,
) -> NewEvent:
    data: TournamentCreatedData = {
        "tournament_id": str(tournament_id),
        **cast(TournamentSettingsData, _jsonable(settings)),
        "seed": seed,
        "created_at": iso(created_at),
        "schedule_id": schedule_id,
        "occurrence": occurrence,
    }
    return NewEvent(TOURNAMENT_CREATED, data)


class TournamentEditedData(TypedDict):
    changes: TournamentSettingsData


def tournament_edited(*, changes: TournamentSettings) -> NewEvent:
    data: TournamentEditedData = {"changes": cast(TournamentSettingsData, _jsonable(changes))}
    return NewEvent(TOURNAMENT_EDITED, data)


class TournamentCancelledData(TypedDict):
    """Version 2: ``note`` (version 1 had none)."""

    reason: str
    registered: int
    minimum: int
    cancelled_at: Instant
    note: str


def tournament_cancelled(*, reason: str, registered: int, minimum: int, at: datetime, note: str = "") -> NewEvent:
    """``reason``: the API's code (``operator``, ``too_few_players`` …); ``note``: an operator's
    reason in words (issue 22: a cancellation asks for one), empty when the rules cancelled it."""
    data: TournamentCancelledData = {
        "reason": reason,
        "registered": registered,
        "minimum": minimum,
        "cancelled_at": iso(at),
        "note": note,
    }
    return NewEvent(TOURNAMENT_CANCELLED, data, SCHEMA_VERSIONS[TOURNAMENT_CANCELLED])


class PlayerRegisteredData(TypedDict):
    account_id: int
    registered_at: Instant


def player_registered(*, account_id: int, at: datetime) -> NewEvent:
    data: PlayerRegisteredData = {"account_id": account_id, "registered_at": iso(at)}
    return NewEvent(PLAYER_REGISTERED, data)


class PlayerUnregisteredData(TypedDict):
    account_id: int
    reason: NotRequired[str]
    starts_at: NotRequired[Instant]


def player_unregistered(*, account_id: int, reason: str | None = None, starts_at: datetime | None = None) -> NewEvent:
    """The player withdrew, or (``reason``) the registration was ended for them: ``rescheduled``
    when an operator moved a Champions Tournament's start into another Romanian week (R-28;
    ``starts_at``: the new start)."""
    data: PlayerUnregisteredData = {"account_id": account_id}
    if reason is not None:
        data["reason"] = reason
    if starts_at is not None:
        data["starts_at"] = iso(starts_at)
    return NewEvent(PLAYER_UNREGISTERED, data)


class TournamentStartedData(TypedDict):
    registered: int
    started_at: Instant


def tournament_started(*, registered: int, at: datetime) -> NewEvent:
    data: TournamentStartedData = {"registered": registered, "started_at": iso(at)}
    return NewEvent(TOURNAMENT_STARTED, data)


class WaveSeatedData(TypedDict):
    """Version 2: the deal's ``code``, ``salt`` and ``commitment`` (R-40; version 1 had none of them)."""

    wave: int
    multiplier: int
    tables: list[SeatedTable]
    waiting: list[int]
    seated_at: Instant
    code: str | None
    salt: str | None
    commitment: str | None


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
    data: WaveSeatedData = {
        "wave": wave,
        "multiplier": multiplier,
        "tables": tables,
        "waiting": waiting,
        "seated_at": iso(at),
        "code": code,
        "salt": salt,
        "commitment": commitment,
    }
    return NewEvent(WAVE_SEATED, data, SCHEMA_VERSIONS[WAVE_SEATED])


class TablesOpenedData(TypedDict):
    wave: int
    tables: list[OpenedTable]
    opened_at: Instant


def tables_opened(*, wave: int, tables: list[OpenedTable], at: datetime) -> NewEvent:
    """The rounds of some tables of a wave: ``[{"table": k, "match_id", "round_id"}]``."""
    data: TablesOpenedData = {"wave": wave, "tables": tables, "opened_at": iso(at)}
    return NewEvent(TABLES_OPENED, data)


class TableScoredData(TypedDict):
    """Version 2: each row's ``pairs_removed`` (R-37; version 1 rows have none)."""

    wave: int
    table: int
    round_id: str | None
    reason: str
    multiplier: int
    results: list[TableResultRow]
    ended_at: Instant


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
    data: TableScoredData = {
        "wave": wave,
        "table": table,
        "round_id": str(round_id) if round_id else None,
        "reason": reason,
        "multiplier": multiplier,
        "results": results,
        "ended_at": iso(at),
    }
    return NewEvent(TABLE_SCORED, data, SCHEMA_VERSIONS[TABLE_SCORED])


class TournamentFinalizedData(TypedDict):
    places: list[list[int]]
    trophy: Trophy | None
    finalized_at: Instant


def tournament_finalized(*, places: list[list[int]], trophy: Trophy | None, at: datetime) -> NewEvent:
    """R-26/R-27/R-29: ``places``: ``[[account_id, place, tp, prize], …]`` (compact: 10,000 players)."""
    data: TournamentFinalizedData = {"places": places, "trophy": trophy, "finalized_at": iso(at)}
    return NewEvent(TOURNAMENT_FINALIZED, data)


class PotCreatedData(TypedDict):
    """P-5: ``pot_id`` and the operator's settings; version 2: the deal's ``code``, ``salt`` and ``commitment`` (R-40;
    version 1 had none of them)."""

    pot_id: str
    title: NotRequired[str]
    code: NotRequired[str | None]
    time_limit_s: NotRequired[int]
    open_entry: NotRequired[bool]
    prize_split: NotRequired[list[int]]
    counts: NotRequired[bool]
    starts_at: NotRequired[Instant]
    ends_at: NotRequired[Instant]
    created_at: Instant
    salt: str
    commitment: str


def pot_created(
    *, pot_id: uuid.UUID | str, settings: PotSettings, created_at: datetime, salt: str, commitment: str
) -> NewEvent:
    """P-5: the operator's settings (the deal's ``code`` among them: secret until the pot closes,
    R-40, its ``salt`` and ``commitment`` fixed now)."""
    data: PotCreatedData = {
        "pot_id": str(pot_id),
        **cast(PotSettingsData, _jsonable(settings)),
        "created_at": iso(created_at),
        "salt": salt,
        "commitment": commitment,
    }
    return NewEvent(POT_CREATED, data, SCHEMA_VERSIONS[POT_CREATED])


class PotEntrantListedData(TypedDict):
    account_ids: list[int]


def pot_entrant_listed(*, account_ids: list[int]) -> NewEvent:
    data: PotEntrantListedData = {"account_ids": account_ids}
    return NewEvent(POT_ENTRANT_LISTED, data)


class PotEnteredData(TypedDict):
    account_id: int
    game_id: str
    entered_at: Instant


def pot_entered(*, account_id: int, game_id: uuid.UUID | str, at: datetime) -> NewEvent:
    data: PotEnteredData = {"account_id": account_id, "game_id": str(game_id), "entered_at": iso(at)}
    return NewEvent(POT_ENTERED, data)


class PotFinalizedData(TypedDict):
    results: list[PotResultRow]
    finalized_at: Instant


def pot_finalized(*, results: list[PotResultRow], at: datetime) -> NewEvent:
    """P-5: ``results``: ``[{"account_id", "score", "place", "prize"}]`` (place/prize null: never played)."""
    data: PotFinalizedData = {"results": results, "finalized_at": iso(at)}
    return NewEvent(POT_FINALIZED, data)


class ScheduleCreatedData(TypedDict):
    schedule_id: int
    title: NotRequired[str]
    kind: NotRequired[str]
    local_time: NotRequired[str]
    weekdays: NotRequired[str]
    duration_minutes: NotRequired[int]
    registration_hours_before: NotRequired[int]
    min_players: NotRequired[int]
    prize_table: NotRequired[list[int]]
    multipliers: NotRequired[list[int]]
    days_ahead: NotRequired[int]


def schedule_created(*, schedule_id: int, settings: ScheduleSettings) -> NewEvent:
    """R-21: a recurring schedule (``settings``: title, kind, local_time ``HH:MM``, weekdays …)."""
    data: ScheduleCreatedData = {"schedule_id": schedule_id, **settings}
    return NewEvent(SCHEDULE_CREATED, data)


class ScheduleEditedData(TypedDict):
    schedule_id: int
    changes: ScheduleSettings


def schedule_edited(*, schedule_id: int, changes: ScheduleSettings) -> NewEvent:
    """Settings changed: instances created from now on follow them; existing ones keep theirs."""
    data: ScheduleEditedData = {"schedule_id": schedule_id, "changes": changes}
    return NewEvent(SCHEDULE_EDITED, data)


class ScheduleDeactivatedData(TypedDict):
    schedule_id: int
    reason: str
    cancelled: list[str]


def schedule_deactivated(*, schedule_id: int, reason: str, cancelled: list[str]) -> NewEvent:
    """No more instances until reactivated; ``cancelled``: the upcoming instances the operator
    chose to cancel with it (each with its own ``TournamentCancelled``)."""
    data: ScheduleDeactivatedData = {"schedule_id": schedule_id, "reason": reason, "cancelled": cancelled}
    return NewEvent(SCHEDULE_DEACTIVATED, data)


class ScheduleReactivatedData(TypedDict):
    schedule_id: int
    reason: str


def schedule_reactivated(*, schedule_id: int, reason: str) -> NewEvent:
    data: ScheduleReactivatedData = {"schedule_id": schedule_id, "reason": reason}
    return NewEvent(SCHEDULE_REACTIVATED, data)


class ScheduleRetiredData(TypedDict):
    schedule_id: int
    reason: str
    cancelled: list[str]


def schedule_retired(*, schedule_id: int, reason: str, cancelled: list[str]) -> NewEvent:
    """For good (never deleted: its instances keep pointing at it); ``cancelled`` as above."""
    data: ScheduleRetiredData = {"schedule_id": schedule_id, "reason": reason, "cancelled": cancelled}
    return NewEvent(SCHEDULE_RETIRED, data)


# --- reminders ------------------------------------------------------------------------------------


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
