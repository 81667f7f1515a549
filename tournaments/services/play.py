"""What time decides in a tournament, applied three ways (on read/act, a task scheduled for the
moment, the beat sweeper) and exactly once: every step locks the tournament row and checks its
status, so a second, concurrent or late run finds nothing to do.

* start (R-22, R-29): cancel when too few registered, else seat the first wave;
* seating (R-23): the next wave as soon as every table of the current one has ended, until the end;
  the tables' rounds are opened right after (``tables``);
* after the end time, once every table has ended (rounds are cut at the end, R-17): finalization.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from rivals.deals.services import deal_new
from tournaments import events as ev
from tournaments import seating
from tournaments.models import CHAMPIONS_MIN_PLAYERS, Registration, Table, Tournament
from tournaments.services.common import task_on_commit, tournament_append, tournament_locked
from tournaments.services.finalize import tournament_finalize
from tournaments.services.tables import rounds_end_overdue, tables_open

log = logging.getLogger(__name__)
SYSTEM = "system"


def _seat_next_wave(t: Tournament, now: datetime) -> bool:
    """R-23: seat every registered player by current TP standings; False when fewer than two.
    The tables' rounds are opened after this commits (``tables_open``). R-38: a suspended or
    closed account is not seated (it keeps its registration and its TP so far)."""
    number = t.current_wave + 1
    players = list(
        Registration.objects.filter(tournament=t, account__suspended_at__isnull=True, account__closed_at__isnull=True)
        .order_by("account_id")
        .values_list("account_id", "tp")
    )
    plan = seating.seat(players, seed=t.seed, wave=number)
    if not plan.tables:
        return False
    tables = [{"table": k, "account_ids": ids} for k, ids in enumerate(plan.tables, start=1)]
    # R-40: the wave's one deal (every table plays it, R-23's decision), fixed and committed now
    secret = deal_new()
    tournament_append(
        t,
        [
            ev.wave_seated(
                wave=number,
                multiplier=t.multiplier(number),
                tables=tables,
                waiting=plan.waiting,
                at=now,
                **secret.event_fields(),
            )
        ],
        actor=SYSTEM,
        now=now,
    )
    task_on_commit("tournaments.tick", tournament_id=str(t.pk))  # open the tables' rounds at once
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
        tournament_append(
            t, [ev.tournament_cancelled(reason=reason, registered=n, minimum=t.minimum, at=now)], actor=SYSTEM, now=now
        )
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


def tournament_tick(*, tournament_id, now: datetime | None = None, open_tables: bool = True) -> str:
    """Apply whatever is due for one tournament (idempotent; safe to run twice, concurrently, late).

    ``open_tables=False`` (a client's read): start and seat, but leave opening a big wave's rounds
    to the worker; the reader's own table is opened by the read itself."""
    now = now or timezone.now()
    t = Tournament.objects.filter(pk=tournament_id).only("status", "starts_at", "ends_at").first()
    if t is None:
        return "missing"
    outcome = "nothing"
    if t.status == "scheduled" and now >= t.starts_at:
        outcome = tournament_start(tournament_id=t.pk, now=now)
    elif t.status == "running":
        if open_tables:
            tables_open(tournament_id=t.pk, now=now)
        rounds_end_overdue(t, now)
        # the common case of a read while tables play: decided without taking the row lock
        playing = Table.objects.filter(tournament_id=t.pk, status="playing").exists()
        outcome = "playing" if playing and now < t.ends_at else tournament_advance(tournament_id=t.pk, now=now)
    if open_tables and outcome in ("started", "seated"):
        tables_open(tournament_id=t.pk, now=now)
    return outcome


def tournaments_due(now: datetime):
    """Ids of tournaments with something due: a start, or a running one whose current wave ended,
    has tables still to open, or whose end passed."""
    open_tables = Table.objects.filter(tournament=OuterRef("pk"), status="playing")
    unopened = open_tables.filter(round_id__isnull=True)
    return (
        Tournament.objects.filter(
            Q(status="scheduled", starts_at__lte=now)
            | Q(status="running") & (Q(ends_at__lte=now) | ~Exists(open_tables) | Exists(unopened))
        )
        .order_by("starts_at")
        .values_list("pk", flat=True)
    )


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat job: tick every tournament with something due; one failure does not stop the others."""
    now = now or timezone.now()
    done: dict[str, int] = {}
    for tid in list(tournaments_due(now)):
        try:
            outcome = tournament_tick(tournament_id=tid, now=now)
        except Exception:  # logged; the next sweep retries
            log.exception("tournament %s: tick failed", tid)
            outcome = "failed"
        done[outcome] = done.get(outcome, 0) + 1
    return done
