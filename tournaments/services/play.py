"""What time decides in a tournament, applied three ways (on read/act, a task scheduled for the
moment, the beat sweeper) and exactly once: every step locks the tournament row and checks its
status, so a second, concurrent or late run finds nothing to do.

* start (R-22, R-29): cancel when too few registered, else seat the first wave;
* seating (R-23): the next wave as soon as every table of the current one has ended, until the end;
* scoring (R-24, R-25): a table's TP when its round ends (``TableScored``);
* after the end time, once every table has ended (rounds are cut at the end, R-17): finalization.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rivals.matches.models import Round
from rivals.matches.services import match_create, round_end_if_due

from tournaments import events as ev
from tournaments import scoring, seating
from tournaments.models import CHAMPIONS_MIN_PLAYERS, Registration, Table, TableSeat, Tournament, Wave
from tournaments.services.common import task_on_commit, tournament_append, tournament_locked
from tournaments.services.finalize import tournament_finalize

log = logging.getLogger(__name__)
SYSTEM = "system"


def table_rounds_create(t: Tournament, wave: int, tables: list[list[int]], now: datetime) -> list[tuple[Any, Any]]:
    """One tournament match (one round, R-17) per table: ``[(match_id, round_id)]``. Every round is
    cut at the tournament's end time by its own clock (``cutoff_at``)."""
    out = []
    for number, account_ids in enumerate(tables, start=1):
        match = match_create(mode="tournament", account_ids=account_ids, cutoff_at=t.ends_at, now=now,
                             context={"tournament_id": str(t.pk), "wave": wave, "table": number})
        out.append((match.pk, match.rounds.get().pk))
    return out


def _seat_next_wave(t: Tournament, now: datetime) -> bool:
    """R-23: seat every registered player by current TP standings; False when fewer than two."""
    number = t.current_wave + 1
    players = list(Registration.objects.filter(tournament=t).values_list("account_id", "tp"))
    plan = seating.seat(players, seed=t.seed, wave=number)
    if not plan.tables:
        return False
    rounds = table_rounds_create(t, number, plan.tables, now)
    tables = [{"table": k, "account_ids": ids, "match_id": str(m) if m else None, "round_id": str(r) if r else None}
              for k, (ids, (m, r)) in enumerate(zip(plan.tables, rounds, strict=True), start=1)]
    tournament_append(t, [ev.wave_seated(wave=number, multiplier=t.multiplier(number), tables=tables,
                                         waiting=plan.waiting, at=now)], actor=SYSTEM, now=now)
    return True


@transaction.atomic
def tournament_start(*, tournament_id, now: datetime | None = None) -> str:
    """At the start time: cancel (R-22; R-29 for Champions below 16) or start and seat wave 1.

    Decision: a start that runs only after the end time (an outage) cancels the tournament
    (reason ``not_started_before_end``): it is never seated, nobody gets a prize.
    """
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    if t.status != "scheduled" or now < t.starts_at:
        return "nothing"
    n = t.registered
    reason = None
    if n < t.minimum:
        reason = "champions_too_few" if t.kind == "champions" and n < CHAMPIONS_MIN_PLAYERS else "too_few_players"
    elif now >= t.ends_at:
        reason = "not_started_before_end"
    if reason:
        tournament_append(t, [ev.tournament_cancelled(reason=reason, registered=n, minimum=t.minimum, at=now)],
                          actor=SYSTEM, now=now)
        return "cancelled"
    tournament_append(t, [ev.tournament_started(registered=n, at=now)], actor=SYSTEM, now=now)
    _seat_next_wave(t, now)
    task_on_commit("tournaments.tick", eta=t.ends_at, tournament_id=str(t.pk))
    return "started"


@transaction.atomic
def tournament_advance(*, tournament_id, now: datetime | None = None) -> str:
    """Once every table of the current wave has ended: the next wave before the end, else finalize."""
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    if t.status != "running":
        return "nothing"
    if Table.objects.filter(tournament=t, status="playing").exists():
        return "playing"
    if now < t.ends_at:
        return "seated" if _seat_next_wave(t, now) else "waiting"
    return "finalized" if tournament_finalize(tournament_id=t.pk, now=now) else "nothing"


def _results_of(seats: list[int], results: list[dict]) -> list[tuple[int, bool, int]]:
    """The seated players' (account, completed, score); a player who never played has 0, not completed."""
    by_account = {int(r["account_id"]): r for r in results}
    return [(a, bool(by_account.get(a, {}).get("completed", False)), int(by_account.get(a, {}).get("score", 0)))
            for a in seats]


@transaction.atomic
def table_score(*, table_id: int, results: list[dict], reason: str, now: datetime | None = None) -> bool:
    """R-24/R-25: the TP of a table whose round ended (``TableScored``), once.

    ``results``: ``[{"account_id", "score", "completed"}]`` as in ``RoundEnded``. Nothing for a
    cancelled or finished tournament (a round cut after an operator's cancel gives no TP).
    """
    now = now or timezone.now()
    tournament_id = Table.objects.filter(pk=table_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return False
    t = tournament_locked(tournament_id)
    table = Table.objects.select_for_update().select_related("wave").get(pk=table_id)
    if t.status != "running" or table.status != "playing":
        return False
    seats = list(TableSeat.objects.filter(table=table).order_by("seat").values_list("account_id", flat=True))
    placed = scoring.table_points(_results_of(seats, results), table.wave.multiplier)
    raw = {a: (c, s) for a, c, s in _results_of(seats, results)}
    rows = [{"account_id": p.account_id, "place": p.place, "score": raw[p.account_id][1],
             "completed": raw[p.account_id][0], "tp": p.points} for p in placed]
    tournament_append(t, [ev.table_scored(wave=table.wave.number, table=table.number, round_id=table.round_id,
                                          reason=reason, multiplier=table.wave.multiplier, results=rows, at=now)],
                      actor=SYSTEM, now=now)
    task_on_commit("tournaments.tick", tournament_id=str(t.pk))  # seat the next wave at once
    return True


def on_round_ended(sender, *, round, match, result, **kwargs) -> None:  # noqa: A002 — the signal's name
    """``rivals.matches.signals.round_ended``, inside the ``RoundEnded`` transaction: the table's TP."""
    if match.mode != "tournament":
        return
    table_id = Table.objects.filter(round_id=round.pk).values_list("pk", flat=True).first()
    if table_id is not None:
        table_score(table_id=table_id, results=result["results"], reason=result["reason"],
                    now=parse_datetime(result["ended_at"]))


def rounds_end_overdue(t: Tournament, now: datetime) -> int:
    """Ask rivals to end this tournament's rounds whose deadline passed (each in its own
    transaction, before the tournament lock is taken: a round's end takes the round lock first)."""
    playing = Table.objects.filter(tournament=t, status="playing", round_id__isnull=False).values("round_id")
    due = Round.objects.filter(pk__in=playing, status="running", ends_at__lte=now).order_by("pk")
    return sum(round_end_if_due(round_id=pk, now=now) for pk in list(due.values_list("pk", flat=True)))


def tournament_tick(*, tournament_id, now: datetime | None = None) -> str:
    """Apply whatever is due for one tournament (idempotent; safe to run twice, concurrently, late)."""
    now = now or timezone.now()
    t = Tournament.objects.filter(pk=tournament_id).only("status", "starts_at").first()
    if t is None:
        return "missing"
    if t.status == "scheduled":
        return tournament_start(tournament_id=t.pk, now=now) if now >= t.starts_at else "nothing"
    if t.status == "running":
        rounds_end_overdue(t, now)
        return tournament_advance(tournament_id=t.pk, now=now)
    return "nothing"


def tournaments_due(now: datetime):
    """Ids of tournaments with something due: a start, or a running one whose current wave ended
    (or whose end passed)."""
    open_tables = Table.objects.filter(tournament=OuterRef("pk"), status="playing")
    return (Tournament.objects.filter(Q(status="scheduled", starts_at__lte=now)
                                      | Q(status="running") & (Q(ends_at__lte=now) | ~Exists(open_tables)))
            .order_by("starts_at").values_list("pk", flat=True))


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat job: tick every tournament with something due; one failure does not stop the others."""
    now = now or timezone.now()
    done: dict[str, int] = {}
    for tid in list(tournaments_due(now)):
        try:
            outcome = tournament_tick(tournament_id=tid, now=now)
        except Exception:  # noqa: BLE001 — logged; the next sweep retries
            log.exception("tournament %s: tick failed", tid)
            outcome = "failed"
        done[outcome] = done.get(outcome, 0) + 1
    return done


def waves_of(t: Tournament):
    return Wave.objects.filter(tournament=t).order_by("number")
