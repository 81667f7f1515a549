"""Tables (R-17, R-24, R-25): each table of a wave is one tournament round of rivals.

Seating (``play``) records the wave's tables at once (``WaveSeated``); their rounds are then
opened in chunks of ``OPEN_CHUNK`` tables, each chunk its own short transaction
(``TablesOpened`` with the match and round ids). Decision: a round starts when its table is
opened, not when the wave was seated — opening 2,500 tables takes a while, and a round whose clock
ran during a long seating transaction would already have lost its 20-second idle window (R-17).
Opening is idempotent (a table with a round is skipped under the tournament lock), so the task,
the sweeper and a player's read may all do it. A table that could not be opened before the end
time is closed unplayed (no TP).

A round's end reaches the table through ``rivals.matches.signals.round_ended``, inside the
``RoundEnded`` transaction: the table's TP (``TableScored``) are atomic with the result.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rivals import engine
from rivals.deals.services import SecretDeal, deal_salt
from rivals.matches.selectors import rounds_due
from rivals.matches.services import matches_create, pairs_removed, round_end_if_due
from tournaments import events as ev
from tournaments import scoring
from tournaments.models import Table, TableSeat, Tournament, Wave
from tournaments.services.common import task_on_commit, tournament_append, tournament_locked

OPEN_CHUNK = 250  # tables per opening transaction (a few hundred ms with rivals' matches_create)
SYSTEM = "system"


def _legacy_wave_code(t: Tournament, wave: int) -> str:
    """The deal of a wave seated before R-40 (its ``WaveSeated`` names none): derived from the
    tournament and the wave as it was then, so that its tables opened later play the same deal."""
    seed = int.from_bytes(hashlib.sha256(f"tournament:{t.pk}:wave:{wave}".encode()).digest()[:8], "big")
    layouts = settings.RIVALS["ROUND_LAYOUTS"] or [lay.id for lay in engine.all_layouts()]
    return engine.random_code(rng_seed=seed, layout_id=layouts[seed % len(layouts)])


def wave_deal(t: Tournament, wave: int) -> SecretDeal:
    """The deal every table of the wave plays, fixed when it was seated (R-40, ``WaveSeated``)."""
    row = Wave.objects.filter(tournament=t, number=wave).values_list("code", "salt").first()
    code, salt = row or ("", "")
    return SecretDeal(code=code or _legacy_wave_code(t, wave), salt=salt or deal_salt())


def table_rounds_create(
    t: Tournament, wave: int, tables: list[tuple[int, list[int]]], now: datetime
) -> list[tuple[Any, Any]]:
    """One tournament match (one round, R-17) per ``(table number, account ids)``, created in
    bulk: ``[(match_id, round_id)]``. Every round is cut at the tournament's end by its own clock.

    Decision: every table of a wave plays the same fresh deal, drawn and committed when the wave
    was seated (R-40), so that table scores of one wave are comparable across the tournament."""
    return matches_create(
        mode="tournament",
        cutoff_at=t.ends_at,
        now=now,
        secret=wave_deal(t, wave),
        tables=[
            (account_ids, {"tournament_id": str(t.pk), "wave": wave, "table": number}) for number, account_ids in tables
        ],
    )


def _pending(t: Tournament, account_id: int | None):
    qs = Table.objects.filter(tournament=t, wave__number=t.current_wave, status="playing", round_id__isnull=True)
    if account_id is not None:
        qs = qs.filter(seats__account_id=account_id)
    return qs.order_by("number")


@transaction.atomic
def _open_chunk(*, tournament_id, now: datetime, account_id: int | None) -> int:
    t = tournament_locked(tournament_id)
    if t.status != "running":
        return 0
    pending = list(_pending(t, account_id)[:OPEN_CHUNK])
    if not pending:
        return 0
    if now >= t.ends_at:  # too late to play: closed unplayed, nobody gets TP
        for table in pending:
            table_score(table_id=table.pk, results=[], reason="cutoff", now=now)
        return len(pending)
    seats: dict[int, list[int]] = {}
    for table_id, account in (
        TableSeat.objects.filter(table__in=pending).order_by("table_id", "seat").values_list("table_id", "account_id")
    ):
        seats.setdefault(table_id, []).append(account)
    rounds = table_rounds_create(t, t.current_wave, [(x.number, seats[x.pk]) for x in pending], now)
    opened = [
        {"table": x.number, "match_id": str(m), "round_id": str(r)} for x, (m, r) in zip(pending, rounds, strict=True)
    ]
    tournament_append(t, [ev.tables_opened(wave=t.current_wave, tables=opened, at=now)], actor=SYSTEM, now=now)
    return len(pending)


def tables_open(*, tournament_id, now: datetime | None = None, account_id: int | None = None) -> int:
    """Open the current wave's seated tables (all, or only ``account_id``'s), chunk by chunk."""
    t = Tournament.objects.filter(pk=tournament_id).only("current_wave").first()
    if t is None or not _pending(t, account_id).exists():  # nothing to open: no lock taken
        return 0
    total = 0
    while True:
        done = _open_chunk(tournament_id=tournament_id, now=now or timezone.now(), account_id=account_id)
        if not done:
            return total
        total += done


def _results_of(seats: list[int], results: list[dict]) -> list[tuple[int, bool, int]]:
    """The seated players' (account, completed, score); a player who never played has 0, not completed."""
    by_account = {int(r["account_id"]): r for r in results}
    return [
        (a, bool(by_account.get(a, {}).get("completed", False)), int(by_account.get(a, {}).get("score", 0)))
        for a in seats
    ]


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
    played = _results_of(seats, results)
    by_account = {int(r["account_id"]): r for r in results}
    # R-18a: a player who removed no pair at this table (or never played it) earns no TP
    idle = {a for a in seats if a not in by_account or pairs_removed(by_account[a]) == 0}
    placed = scoring.table_points(played, table.wave.multiplier, idle=idle)
    raw = {a: (c, s) for a, c, s in played}
    rows = [
        {
            "account_id": p.account_id,
            "place": p.place,
            "score": raw[p.account_id][1],
            "completed": raw[p.account_id][0],
            "tp": p.points,
            # the table counts as played (statistics, tables_played) for who removed a pair
            "pairs_removed": pairs_removed(by_account[p.account_id]) if p.account_id in by_account else 0,
        }
        for p in placed
    ]
    tournament_append(
        t,
        [
            ev.table_scored(
                wave=table.wave.number,
                table=table.number,
                round_id=table.round_id,
                reason=reason,
                multiplier=table.wave.multiplier,
                results=rows,
                at=now,
            )
        ],
        actor=SYSTEM,
        now=now,
    )
    task_on_commit("tournaments.tick", tournament_id=str(t.pk))  # seat the next wave at once
    return True


def on_round_ended(sender, *, round, match, result, **kwargs) -> None:  # the signal's name
    """``rivals.matches.signals.round_ended``, inside the ``RoundEnded`` transaction: the table's TP."""
    if match.mode != "tournament":
        return
    table_id = Table.objects.filter(round_id=round.pk).values_list("pk", flat=True).first()
    if table_id is not None:
        table_score(
            table_id=table_id,
            results=result["results"],
            reason=result["reason"],
            now=parse_datetime(result["ended_at"]),
        )


def rounds_end_overdue(t: Tournament, now: datetime) -> int:
    """Ask rivals to end this tournament's rounds whose deadline passed (each in its own
    transaction, before the tournament lock is taken: a round's end takes the round lock first)."""
    playing = Table.objects.filter(tournament=t, status="playing", round_id__isnull=False).values("round_id")
    return sum(round_end_if_due(round_id=pk, now=now) for pk in rounds_due(round_ids=playing, now=now))
