"""The tournament projection's one implementation of each event's effect: ``step(rows, event)``, pure
(no database), over one tournament's rows (``TournamentRows``, keyed by what the events name:
account ids, wave and table numbers). ``tournaments.projections`` drives it live (load the rows an
event touches, step, write what changed) and in the rebuild (fold each stream in memory, COPY)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.dateparse import parse_datetime

from rivals.matches.services.round_open import pairs_removed
from rivals.romanian_time import instant
from tournaments import events as ev
from tournaments.events import (
    PLAYER_REGISTERED,
    PLAYER_UNREGISTERED,
    SETTINGS,
    TABLE_SCORED,
    TABLES_OPENED,
    TOURNAMENT_CANCELLED,
    TOURNAMENT_CREATED,
    TOURNAMENT_EDITED,
    TOURNAMENT_FINALIZED,
    TOURNAMENT_STARTED,
    WAVE_SEATED,
)
from tournaments.models import Registration, Table, TableSeat, Tournament, Trophy, Wave

_TIME_FIELDS = ("registration_opens_at", "starts_at", "ends_at")
_CREATED_FIELDS = (*SETTINGS, "created_at")


def settings_of(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: parse_datetime(v) if k in _TIME_FIELDS or k.endswith("_at") else v for k, v in data.items()}


@dataclass
class TournamentRows:
    """One tournament's rows — all of them (the rebuild), or those one event touches (live)."""

    tournament: Tournament | None = None
    registrations: dict[int, Registration] = field(default_factory=dict)  # by account
    waves: dict[int, Wave] = field(default_factory=dict)  # by number
    tables: dict[tuple[int, int], Table] = field(default_factory=dict)  # by (wave, table)
    seats: dict[tuple[int, int, int], TableSeat] = field(default_factory=dict)  # by (wave, table, account)
    trophy: Trophy | None = None


# --- the one step per event ----------------------------------------------------------------------


def step(rows: TournamentRows, event: Any, *, schedule_exists: Callable[[int], bool]) -> None:
    """Apply one event of a tournament's stream to its rows (pure: no database)."""
    d = event.data
    tid = uuid.UUID(event.stream_id.removeprefix("tournament-"))
    if event.type == TOURNAMENT_CREATED:
        schedule_id = d.get("schedule_id")
        rows.tournament = Tournament(
            id=tid,
            seed=d["seed"],
            version=event.version,
            occurrence=d.get("occurrence"),
            # the operator may have deleted the schedule since: the instance stays, unlinked
            schedule_id=schedule_id if schedule_id and schedule_exists(schedule_id) else None,
            **settings_of({k: d[k] for k in _CREATED_FIELDS}),
        )
        return
    t = rows.tournament
    if t is None or t.pk != tid:
        raise ValueError(f"{event!r}: a tournament stream without TournamentCreated")
    t.version = event.version
    _STEPS[event.type](rows, t, d)


def _edited(rows: TournamentRows, t: Tournament, d: ev.TournamentEditedData) -> None:
    for name, value in settings_of(d["changes"]).items():
        setattr(t, name, value)


def _cancelled(rows: TournamentRows, t: Tournament, d: ev.TournamentCancelledData) -> None:
    t.status, t.cancel_reason, t.cancelled_at = "cancelled", d["reason"], instant(d["cancelled_at"])
    t.cancel_note = d.get("note", "")  # version 2: an operator's reason in words


def _registered(rows: TournamentRows, t: Tournament, d: ev.PlayerRegisteredData) -> None:
    rows.registrations[d["account_id"]] = Registration(
        tournament_id=t.pk, account_id=d["account_id"], registered_at=instant(d["registered_at"])
    )
    t.registered += 1


def _unregistered(rows: TournamentRows, t: Tournament, d: ev.PlayerUnregisteredData) -> None:
    if rows.registrations.pop(d["account_id"], None) is not None:
        t.registered -= 1


def _started(rows: TournamentRows, t: Tournament, d: ev.TournamentStartedData) -> None:
    t.status, t.started_at = "running", instant(d["started_at"])


def _wave_seated(rows: TournamentRows, t: Tournament, d: ev.WaveSeatedData) -> None:
    at = instant(d["seated_at"])
    wave = Wave(
        tournament_id=t.pk,
        number=d["wave"],
        multiplier=d["multiplier"],
        seated_at=at,
        tables_open=len(d["tables"]),
        waiting=d["waiting"],
        ended_at=None if d["tables"] else at,
        code=d.get("code") or "",
        salt=d.get("salt") or "",
    )
    rows.waves[d["wave"]] = wave
    for x in d["tables"]:
        rows.tables[(d["wave"], x["table"])] = Table(tournament_id=t.pk, wave=wave, number=x["table"], seated_at=at)
        for seat, account_id in enumerate(x["account_ids"]):
            rows.seats[(d["wave"], x["table"], account_id)] = TableSeat(
                tournament_id=t.pk, account_id=account_id, seat=seat
            )
    t.current_wave = d["wave"]


def _tables_opened(rows: TournamentRows, t: Tournament, d: ev.TablesOpenedData) -> None:
    for x in d["tables"]:
        table = rows.tables.get((d["wave"], x["table"]))
        if table is not None:
            table.match_id, table.round_id = uuid.UUID(x["match_id"]), uuid.UUID(x["round_id"])


def _table_scored(rows: TournamentRows, t: Tournament, d: ev.TableScoredData) -> None:
    at = instant(d["ended_at"])
    table = rows.tables[(d["wave"], d["table"])]
    table.status, table.ended_at, table.end_reason = "ended", at, d["reason"]
    for r in d["results"]:
        seat = rows.seats.get((d["wave"], d["table"], r["account_id"]))
        if seat is not None:
            seat.place, seat.score, seat.completed, seat.tp = r["place"], r["score"], r["completed"], r["tp"]
        registration = rows.registrations.get(r["account_id"])
        if registration is not None:
            registration.tp += r["tp"]
            # a table counts as played once the player removed a pair at it; a table closed
            # unplayed (no round) counts nothing
            if d.get("round_id") is not None and pairs_removed(r) > 0:
                registration.tables_played += 1
    wave = rows.waves[d["wave"]]
    if wave.tables_open == 1:
        wave.ended_at = at
    wave.tables_open -= 1


def _finalized(rows: TournamentRows, t: Tournament, d: ev.TournamentFinalizedData) -> None:
    at = instant(d["finalized_at"])
    for account_id, place, _tp, prize in d["places"]:
        registration = rows.registrations.get(account_id)
        if registration is not None:
            registration.place, registration.prize = place, prize
    trophy = d.get("trophy")
    if trophy:
        rows.trophy = Trophy(
            tournament_id=t.pk,
            account_id=trophy["account_id"],
            kind=trophy["kind"],
            title=trophy["title"],
            awarded_at=at,
        )
    t.status, t.finalized_at = "finished", at


_STEPS: dict[str, Callable[[TournamentRows, Tournament, Any], None]] = {
    TOURNAMENT_EDITED: _edited,
    TOURNAMENT_CANCELLED: _cancelled,
    PLAYER_REGISTERED: _registered,
    PLAYER_UNREGISTERED: _unregistered,
    TOURNAMENT_STARTED: _started,
    WAVE_SEATED: _wave_seated,
    TABLES_OPENED: _tables_opened,
    TABLE_SCORED: _table_scored,
    TOURNAMENT_FINALIZED: _finalized,
}
