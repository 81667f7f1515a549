"""The tournaments projection rebuilt from the log: stream by stream (a tournament's rows depend
on its own events only), every row folded in memory by the same steps as the live handlers of
``tournaments.projections``, then written with COPY. Waves and tables get their ids from the
copies' own sequences before they are written (their seats and tables hold them)."""

from __future__ import annotations

import uuid

from django.db import connection
from django.utils.dateparse import parse_datetime

from rivals.rawsql import copy_insert
from tournaments.models import RecurringSchedule, Registration, Table, TableSeat, Tournament, Trophy, Wave


class _One:
    """One tournament's rows while its stream is read."""

    def __init__(self, tournament: Tournament):
        self.t = tournament
        self.registrations: dict[int, Registration] = {}
        self.waves: dict[int, Wave] = {}
        self.tables: dict[tuple[int, int], Table] = {}
        self.seats: dict[tuple[int, int, int], TableSeat] = {}
        self.trophy: Trophy | None = None


def _ids(model, n: int) -> list[int]:
    if not n:
        return []
    with connection.cursor() as cur:
        cur.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [model._meta.db_table, n]
        )
        return [row[0] for row in cur.fetchall()]


def _write(done: list[_One]) -> None:
    waves = [w for one in done for w in one.waves.values()]
    tables = [t for one in done for t in one.tables.values()]
    for wave, pk in zip(waves, _ids(Wave, len(waves)), strict=True):
        wave.id = pk
    for table, pk in zip(tables, _ids(Table, len(tables)), strict=True):
        table.id = pk
        table.wave_id = table.wave.id
    for one in done:
        for (wave, number, _), seat in one.seats.items():
            seat.table_id = one.tables[(wave, number)].id
    copy_insert(Tournament, [one.t for one in done])
    copy_insert(Registration, [r for one in done for r in one.registrations.values()])
    copy_insert(Wave, waves)
    copy_insert(Table, tables)
    copy_insert(TableSeat, [s for one in done for s in one.seats.values()])
    copy_insert(Trophy, [one.trophy for one in done if one.trophy is not None])


def rebuild_tournaments(projection, log) -> None:
    from tournaments.projections import _settings

    schedules = set(RecurringSchedule.objects.values_list("pk", flat=True))
    done: list[_One] = []
    one: _One | None = None
    for page in log.pages(projection.event_types, by_stream=True):
        for event in page:
            d, kind = event.data, event.type
            tid = uuid.UUID(event.stream_id.removeprefix("tournament-"))
            if kind == "TournamentCreated":
                if one is not None:
                    done.append(one)
                schedule_id = d.get("schedule_id")
                fields = _settings(
                    {
                        k: d[k]
                        for k in (
                            "kind",
                            "title",
                            "registration_opens_at",
                            "starts_at",
                            "ends_at",
                            "min_players",
                            "prize_table",
                            "multipliers",
                            "created_at",
                        )
                    }
                )
                one = _One(
                    Tournament(
                        id=tid,
                        seed=d["seed"],
                        version=event.version,
                        occurrence=d.get("occurrence"),
                        schedule_id=schedule_id if schedule_id in schedules else None,
                        **fields,
                    )
                )
                continue
            if one is None or one.t.pk != tid:
                raise ValueError(f"{event!r}: a tournament stream without TournamentCreated")
            t = one.t
            t.version = event.version
            if kind == "TournamentEdited":
                for name, value in _settings(d["changes"]).items():
                    setattr(t, name, value)
            elif kind == "TournamentCancelled":
                t.status, t.cancel_reason, t.cancelled_at = "cancelled", d["reason"], parse_datetime(d["cancelled_at"])
            elif kind == "PlayerRegistered":
                one.registrations[d["account_id"]] = Registration(
                    tournament_id=tid, account_id=d["account_id"], registered_at=parse_datetime(d["registered_at"])
                )
                t.registered = len(one.registrations)
            elif kind == "PlayerUnregistered":
                one.registrations.pop(d["account_id"], None)
                t.registered = len(one.registrations)
            elif kind == "TournamentStarted":
                t.status, t.started_at = "running", parse_datetime(d["started_at"])
            elif kind == "WaveSeated":
                at = parse_datetime(d["seated_at"])
                wave = Wave(
                    tournament_id=tid,
                    number=d["wave"],
                    multiplier=d["multiplier"],
                    seated_at=at,
                    tables_open=len(d["tables"]),
                    waiting=d["waiting"],
                    ended_at=None if d["tables"] else at,
                )
                one.waves[d["wave"]] = wave
                for x in d["tables"]:
                    one.tables[(d["wave"], x["table"])] = Table(
                        tournament_id=tid, wave=wave, number=x["table"], seated_at=at
                    )
                    for seat, account_id in enumerate(x["account_ids"]):
                        one.seats[(d["wave"], x["table"], account_id)] = TableSeat(
                            tournament_id=tid, account_id=account_id, seat=seat
                        )
                t.current_wave = d["wave"]
            elif kind == "TablesOpened":
                for x in d["tables"]:
                    table = one.tables.get((d["wave"], x["table"]))
                    if table is not None:
                        table.match_id, table.round_id = uuid.UUID(x["match_id"]), uuid.UUID(x["round_id"])
            elif kind == "TableScored":
                at = parse_datetime(d["ended_at"])
                table = one.tables[(d["wave"], d["table"])]
                table.status, table.ended_at, table.end_reason = "ended", at, d["reason"]
                for r in d["results"]:
                    seat = one.seats.get((d["wave"], d["table"], r["account_id"]))
                    if seat is not None:
                        seat.place, seat.score, seat.completed, seat.tp = (
                            r["place"],
                            r["score"],
                            r["completed"],
                            r["tp"],
                        )
                    reg = one.registrations.get(r["account_id"])
                    if reg is not None:
                        reg.tp += r["tp"]
                        reg.tables_played += 1
                wave = one.waves[d["wave"]]
                if wave.tables_open == 1:
                    wave.ended_at = at
                wave.tables_open -= 1
            elif kind == "TournamentFinalized":
                at = parse_datetime(d["finalized_at"])
                for p in d["places"]:
                    reg = one.registrations.get(p[0])
                    if reg is not None:
                        reg.place, reg.prize = p[1], p[3]
                trophy = d.get("trophy")
                if trophy:
                    one.trophy = Trophy(
                        tournament_id=tid,
                        account_id=trophy["account_id"],
                        kind=trophy["kind"],
                        title=trophy["title"],
                        awarded_at=at,
                    )
                t.status, t.finalized_at = "finished", at
            else:
                raise ValueError(f"{event!r}: no rebuild step for {kind}")
        if len(done) >= 200:
            _write(done)
            done = []
    _write(done + ([one] if one is not None else []))
