"""The tournament and pot projections: rows of ``tournaments.models`` from their streams' events.

Applied live inside every append's transaction (``rivals.projections``) and replayed by
``manage.py rebuild_projections``. Bulk SQL where a single event carries many rows (a wave of
2,500 tables, the final places of 10,000 players).
"""

from __future__ import annotations

import uuid

from django.db import connection
from django.utils.dateparse import parse_datetime

from rivals.models import Event
from rivals.projections import Projection, register
from rivals.rebuild import Table as Copied
from tournaments.events import POT_EVENTS, TOURNAMENT_EVENTS
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

_TIME_FIELDS = ("registration_opens_at", "starts_at", "ends_at")


def _settings(data: dict) -> dict:
    return {k: parse_datetime(v) if k in _TIME_FIELDS or k.endswith("_at") else v for k, v in data.items()}


def _values_update(sql: str, rows: list[tuple], width: int, params: list) -> None:
    """Run an ``UPDATE … FROM (VALUES …) AS v(…)`` with ``rows`` (``{values}`` in ``sql``), then
    ``params`` for the placeholders after it."""
    if not rows:
        return
    values = ", ".join(["(" + ", ".join(["%s"] * width) + ")"] * len(rows))
    with connection.cursor() as cur:
        cur.execute(sql.format(values=values), [x for row in rows for x in row] + params)


class TournamentProjection(Projection):
    name = "tournaments"
    event_types = TOURNAMENT_EVENTS

    tables = tuple(Copied(m._meta.db_table) for m in (Tournament, Registration, Wave, Table, TableSeat, Trophy))

    def rebuild(self, log) -> None:
        from tournaments.rebuild import rebuild_tournaments

        rebuild_tournaments(self, log)

    def reset(self) -> None:
        Trophy.objects.all().delete()
        TableSeat.objects.all().delete()
        Table.objects.all().delete()
        Wave.objects.all().delete()
        Registration.objects.all().delete()
        Tournament.objects.all().delete()

    def apply(self, event: Event) -> None:
        getattr(self, f"_on_{event.type}")(event, event.data, uuid.UUID(event.stream_id.removeprefix("tournament-")))
        if event.type != "TournamentCreated":
            Tournament.objects.filter(pk=self._tid(event)).update(version=event.version)

    @staticmethod
    def _tid(event: Event) -> str:
        return event.stream_id.removeprefix("tournament-")

    def _on_TournamentCreated(self, event, d, tid):
        schedule_id = d.get("schedule_id")
        if schedule_id and not RecurringSchedule.objects.filter(pk=schedule_id).exists():
            schedule_id = None  # the operator deleted the schedule since; the instance stays
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
        Tournament.objects.create(
            id=tid,
            seed=d["seed"],
            version=event.version,
            schedule_id=schedule_id,
            occurrence=d.get("occurrence"),
            **fields,
        )

    def _on_TournamentEdited(self, event, d, tid):
        Tournament.objects.filter(pk=tid).update(**_settings(d["changes"]))

    def _on_TournamentCancelled(self, event, d, tid):
        Tournament.objects.filter(pk=tid).update(
            status="cancelled", cancel_reason=d["reason"], cancelled_at=parse_datetime(d["cancelled_at"])
        )

    def _on_PlayerRegistered(self, event, d, tid):
        Registration.objects.create(
            tournament_id=tid, account_id=d["account_id"], registered_at=parse_datetime(d["registered_at"])
        )
        self._count(tid)

    def _on_PlayerUnregistered(self, event, d, tid):
        Registration.objects.filter(tournament_id=tid, account_id=d["account_id"]).delete()
        self._count(tid)

    @staticmethod
    def _count(tid) -> None:
        Tournament.objects.filter(pk=tid).update(registered=Registration.objects.filter(tournament_id=tid).count())

    def _on_TournamentStarted(self, event, d, tid):
        Tournament.objects.filter(pk=tid).update(status="running", started_at=parse_datetime(d["started_at"]))

    def _on_WaveSeated(self, event, d, tid):
        at = parse_datetime(d["seated_at"])
        wave = Wave.objects.create(
            tournament_id=tid,
            number=d["wave"],
            multiplier=d["multiplier"],
            seated_at=at,
            tables_open=len(d["tables"]),
            waiting=d["waiting"],
            ended_at=None if d["tables"] else at,
        )
        tables = Table.objects.bulk_create(
            [Table(tournament_id=tid, wave=wave, number=t["table"], seated_at=at) for t in d["tables"]], batch_size=2000
        )
        TableSeat.objects.bulk_create(
            [
                TableSeat(table_id=table.pk, tournament_id=tid, account_id=account_id, seat=seat)
                for table, t in zip(tables, d["tables"], strict=True)
                for seat, account_id in enumerate(t["account_ids"])
            ],
            batch_size=5000,
        )
        Tournament.objects.filter(pk=tid).update(current_wave=d["wave"])

    def _on_TablesOpened(self, event, d, tid):
        _values_update(
            "UPDATE tournaments_table t SET match_id = v.match_id::uuid, round_id = v.round_id::uuid "
            "FROM (VALUES {values}) AS v(number, match_id, round_id) "
            "WHERE t.wave_id = (SELECT id FROM tournaments_wave WHERE tournament_id = %s AND number = %s) "
            "AND t.number = v.number",
            [(x["table"], x["match_id"], x["round_id"]) for x in d["tables"]],
            3,
            [tid, d["wave"]],
        )

    def _on_TableScored(self, event, d, tid):
        at = parse_datetime(d["ended_at"])
        table = Table.objects.get(tournament_id=tid, wave__number=d["wave"], number=d["table"])
        Table.objects.filter(pk=table.pk).update(status="ended", ended_at=at, end_reason=d["reason"])
        rows = [(r["account_id"], r["place"], r["score"], r["completed"], r["tp"]) for r in d["results"]]
        _values_update(
            "UPDATE tournaments_tableseat s SET place = v.place, score = v.score, completed = v.completed, "
            "tp = v.tp FROM (VALUES {values}) AS v(account_id, place, score, completed, tp) "
            "WHERE s.table_id = %s AND s.account_id = v.account_id",
            rows,
            5,
            [table.pk],
        )
        _values_update(
            "UPDATE tournaments_registration r SET tp = r.tp + v.tp, tables_played = r.tables_played + 1 "
            "FROM (VALUES {values}) AS v(account_id, tp) "
            "WHERE r.tournament_id = %s AND r.account_id = v.account_id",
            [(r[0], r[4]) for r in rows],
            2,
            [tid],
        )
        with connection.cursor() as cur:
            cur.execute(
                "UPDATE tournaments_wave SET tables_open = tables_open - 1, "
                "ended_at = CASE WHEN tables_open = 1 THEN %s ELSE ended_at END WHERE id = %s",
                [at, table.wave_id],
            )

    def _on_TournamentFinalized(self, event, d, tid):
        at = parse_datetime(d["finalized_at"])
        with connection.cursor() as cur:
            cur.execute(
                "UPDATE tournaments_registration r SET place = v.place, prize = v.prize "
                "FROM unnest(%s::bigint[], %s::int[], %s::int[]) AS v(account_id, place, prize) "
                "WHERE r.tournament_id = %s AND r.account_id = v.account_id",
                [[p[0] for p in d["places"]], [p[1] for p in d["places"]], [p[3] for p in d["places"]], tid],
            )
        trophy = d.get("trophy")
        if trophy:
            Trophy.objects.create(
                tournament_id=tid,
                account_id=trophy["account_id"],
                kind=trophy["kind"],
                title=trophy["title"],
                awarded_at=at,
            )
        Tournament.objects.filter(pk=tid).update(status="finished", finalized_at=at)


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
        if event.type == "PotCreated":
            fields = _settings(
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
            Pot.objects.create(id=pid, version=event.version, **fields)
            return
        if event.type == "PotEntrantListed":
            PotEntrant.objects.bulk_create(
                [PotEntrant(pot_id=pid, account_id=a) for a in d["account_ids"]], ignore_conflicts=True
            )
        elif event.type == "PotEntered":
            PotEntrant.objects.update_or_create(
                pot_id=pid,
                account_id=d["account_id"],
                defaults={"game_id": d["game_id"], "entered_at": parse_datetime(d["entered_at"])},
            )
        elif event.type == "PotFinalized":
            for r in d["results"]:
                PotEntrant.objects.filter(pot_id=pid, account_id=r["account_id"]).update(
                    score=r["score"], place=r["place"], prize=r["prize"]
                )
            Pot.objects.filter(pk=pid).update(status="finished", finalized_at=parse_datetime(d["finalized_at"]))
        Pot.objects.filter(pk=pid).update(version=event.version)


register(TournamentProjection())
register(PotProjection())
