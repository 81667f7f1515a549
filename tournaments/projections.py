"""The tournament and pot projections: rows of ``tournaments.models`` from their streams' events.

One implementation of the tournament projection: ``tournaments.steps.step(rows, event)`` is the pure
effect of one event on one tournament's rows. The live path (inside every append's transaction, ``rivals.projections``)
loads the rows an event touches and hands them to the platform's driver (``rivals.projection_rows``:
snapshot, step, write what changed — inserts, updates by primary key, deletions); the rebuild
(``manage.py rebuild_projections``) folds each stream into fresh ``TournamentRows`` in memory and
the driver writes them with COPY. Both write only through ``step``.
"""

from __future__ import annotations

from django.db import connection
from django.utils.dateparse import parse_datetime

from rivals.models import Event
from rivals.projection_rows import Rows, RowsDriver
from rivals.projections import Projection, register
from rivals.rebuild import Table as Copied
from tournaments.events import (
    PLAYER_UNREGISTERED,
    POT_CREATED,
    POT_ENTERED,
    POT_ENTRANT_LISTED,
    POT_EVENTS,
    POT_FINALIZED,
    TABLE_SCORED,
    TABLES_OPENED,
    TOURNAMENT_CREATED,
    TOURNAMENT_EVENTS,
    TOURNAMENT_FINALIZED,
)
from tournaments.models import (
    Pot,
    PotEntrant,
    RecurringSchedule,
    Registration,
    Table,
    TableSeat,
    Tournament,
    Trophy,
    Wave,
)
from tournaments.steps import TournamentRows, settings_of, step

# --- live: load the rows an event touches, step, write what changed ------------------------------


def _load(event: Event) -> TournamentRows:
    d, kind = event.data, event.type
    rows = TournamentRows()
    if kind == TOURNAMENT_CREATED:
        return rows
    tid = event.stream_id.removeprefix("tournament-")
    rows.tournament = Tournament.objects.get(pk=tid)
    accounts: list[int] = []
    if kind == PLAYER_UNREGISTERED:
        accounts = [d["account_id"]]
    elif kind == TABLES_OPENED:
        numbers = [x["table"] for x in d["tables"]]
        for table in Table.objects.filter(tournament_id=tid, wave__number=d["wave"], number__in=numbers):
            rows.tables[(d["wave"], table.number)] = table
    elif kind == TABLE_SCORED:
        wave = Wave.objects.get(tournament_id=tid, number=d["wave"])
        table = Table.objects.get(wave=wave, number=d["table"])
        rows.waves[wave.number], rows.tables[(wave.number, table.number)] = wave, table
        for seat in TableSeat.objects.filter(table=table):
            rows.seats[(wave.number, table.number, seat.account_id)] = seat
        accounts = [r["account_id"] for r in d["results"]]
    elif kind == TOURNAMENT_FINALIZED:
        accounts = [p[0] for p in d["places"]]
    if accounts:
        for registration in Registration.objects.filter(tournament_id=tid, account_id__in=accounts):
            rows.registrations[registration.account_id] = registration
    return rows


def _wave_of(rows: TournamentRows, key, table: Table) -> None:
    table.wave_id = table.wave.pk


def _table_of(rows: TournamentRows, key, seat: TableSeat) -> None:
    seat.table_id = rows.tables[key[:2]].pk


# what a tournament's rows hold, parents first (rivals.projection_rows: the one driver)
DRIVER = RowsDriver(
    (
        Rows("tournament", Tournament, one=True),
        Rows("registrations", Registration),
        Rows("waves", Wave),
        Rows("tables", Table, link=_wave_of),
        Rows("seats", TableSeat, link=_table_of),
        Rows("trophy", Trophy, one=True),
    )
)


def _schedule_exists(schedule_id: int) -> bool:
    return RecurringSchedule.objects.filter(pk=schedule_id).exists()


# --- the rebuild: each stream folded in memory, written with COPY ---------------------------------


def _ids(model, n: int) -> list[int]:
    if not n:
        return []
    with connection.cursor() as cur:
        cur.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [model._meta.db_table, n]
        )
        return [row[0] for row in cur.fetchall()]


def _copy(done: list[TournamentRows]) -> None:
    """COPY folded tournaments; waves and tables get their ids from the tables' own sequences
    first (their tables and seats hold them)."""
    waves = [w for rows in done for w in rows.waves.values()]
    tables = [t for rows in done for t in rows.tables.values()]
    for wave, pk in zip(waves, _ids(Wave, len(waves)), strict=True):
        wave.id = pk
    for table, pk in zip(tables, _ids(Table, len(tables)), strict=True):
        table.id = pk
    DRIVER.copy(done)


class TournamentProjection(Projection):
    name = "tournaments"
    event_types = TOURNAMENT_EVENTS

    tables = tuple(Copied(m._meta.db_table) for m in (Tournament, Registration, Wave, Table, TableSeat, Trophy))

    def reset(self) -> None:
        Trophy.objects.all().delete()
        TableSeat.objects.all().delete()
        Table.objects.all().delete()
        Wave.objects.all().delete()
        Registration.objects.all().delete()
        Tournament.objects.all().delete()

    def apply(self, event: Event) -> None:
        DRIVER.apply(_load(event), lambda rows: step(rows, event, schedule_exists=_schedule_exists))

    def rebuild(self, log) -> None:
        schedules = set(RecurringSchedule.objects.values_list("pk", flat=True))
        done: list[TournamentRows] = []
        rows: TournamentRows | None = None
        for page in log.pages(self.event_types, by_stream=True):
            for event in page:
                if event.type == TOURNAMENT_CREATED:
                    if rows is not None:
                        done.append(rows)
                    rows = TournamentRows()
                elif rows is None:
                    raise ValueError(f"{event!r}: a tournament stream without TournamentCreated")
                step(rows, event, schedule_exists=schedules.__contains__)
            if len(done) >= 200:
                _copy(done)
                done = []
        _copy(done + ([rows] if rows is not None else []))


class PotProjection(Projection):
    name = "pots"
    event_types = POT_EVENTS

    tables = (Copied(Pot._meta.db_table), Copied(PotEntrant._meta.db_table))

    def reset(self) -> None:
        PotEntrant.objects.all().delete()
        Pot.objects.all().delete()

    def apply(self, event: Event) -> None:
        d = event.data
        pid = event.stream_id.removeprefix("pot-")
        if event.type == POT_CREATED:
            fields = settings_of(
                {
                    k: d[k]
                    for k in (
                        "title",
                        "code",
                        "time_limit_s",
                        "open_entry",
                        "prize_split",
                        "counts",
                        "starts_at",
                        "ends_at",
                        "created_at",
                    )
                }
            )
            Pot.objects.create(id=pid, version=event.version, salt=d.get("salt") or "", **fields)
            return
        if event.type == POT_ENTRANT_LISTED:
            PotEntrant.objects.bulk_create(
                [PotEntrant(pot_id=pid, account_id=a) for a in d["account_ids"]], ignore_conflicts=True
            )
        elif event.type == POT_ENTERED:
            PotEntrant.objects.update_or_create(
                pot_id=pid,
                account_id=d["account_id"],
                defaults={"game_id": d["game_id"], "entered_at": parse_datetime(d["entered_at"])},
            )
        elif event.type == POT_FINALIZED:
            for r in d["results"]:
                PotEntrant.objects.filter(pot_id=pid, account_id=r["account_id"]).update(
                    score=r["score"], place=r["place"], prize=r["prize"]
                )
            Pot.objects.filter(pk=pid).update(status="finished", finalized_at=parse_datetime(d["finalized_at"]))
        Pot.objects.filter(pk=pid).update(version=event.version)


register(TournamentProjection())
register(PotProjection())
