"""Pot competitions (P-5): entrants play a Pool game (P-1…P-4) on one deal, ranked by score.

An operator creates the pot (deal code, time limit, entry list or open entry, prize split,
whether winnings count for rankings). An entrant's game is an ordinary Pool game of rivals (mode
``pool_pot``, no restart) whose server-time limit is the pot's, cut to the pot's end time: the game's
own clock (P-4: on access and by rivals' beat job) ends it at the latest when the pot ends. At the
end time the pot is ranked by score, ties share as in R-20, and the split is awarded under source
``pool_pot`` exactly once (the pot row's lock + status, and a unique award key per entrant).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from rivals import engine
from rivals.deals.services import deal_fresh_code, deal_new
from rivals.errors import Conflict, Invalid, NotAllowed
from rivals.eventstore import event_append
from rivals.games.services import game_create, game_expire_if_due, games_locked
from rivals.models import Account
from rivals.points.services import points_award
from rivals.romanian_time import iso_z
from tournaments import events as ev
from tournaments.models import Pot, PotEntrant
from tournaments.scoring import shared_split
from tournaments.services.common import row_or_404, task_on_commit
from tournaments.services.lifecycle import int_list

if TYPE_CHECKING:  # a type only: the games room's boards are made by its services
    from rivals.games.models import Game

STREAM_TYPE = "pot"


def pot_locked(pot_id) -> Pot:
    return row_or_404(Pot.objects.select_for_update(), pot_id, "pot competition")


def _append(pot: Pot, events, *, actor: str, now: datetime) -> None:
    event_append(
        stream_id=pot.stream_id,
        stream_type=STREAM_TYPE,
        expected_version=pot.version,
        actor=actor,
        now=now,
        events=list(events),
    )
    pot.refresh_from_db()


def pot_settings_clean(raw: dict[str, Any]) -> dict[str, Any]:
    s = dict(raw)
    if not s.get("code"):  # no deal named, a fresh one no one can have practised
        s["code"] = deal_fresh_code()
    try:
        layout_id, number = engine.parse_code(str(s.get("code") or ""))
    except (engine.CodeError, KeyError, ValueError) as exc:
        raise Invalid(f"bad game code: {exc}", details={"code": [str(exc)]}) from exc
    s["code"] = engine.format_code(layout_id, number)
    title = " ".join(str(s.get("title") or "").split())
    if not title or len(title) > 120:
        raise Invalid("title must be 1–120 characters", details={"title": ["1–120 characters"]})
    s["title"] = title
    limit = s.get("time_limit_s", 600)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 30 <= limit <= 86_400:
        raise Invalid("time_limit_s is 30…86400 seconds", details={"time_limit_s": ["30…86400"]})
    s["time_limit_s"] = limit
    for name in ("starts_at", "ends_at"):
        if not isinstance(s.get(name), datetime) or timezone.is_naive(s[name]):
            raise Invalid(f"{name} must be a date-time with a UTC offset", details={name: ["aware ISO 8601"]})
    if s["ends_at"] <= s["starts_at"]:
        raise Invalid("the end must be after the start", details={"ends_at": ["after starts_at"]})
    s["prize_split"] = int_list(s.get("prize_split", []), "prize_split", lo=0, hi=None, max_len=1000)
    s["open_entry"] = bool(s.get("open_entry", True))
    s["counts"] = bool(s.get("counts", False))
    return {
        k: s[k]
        for k in ("title", "code", "time_limit_s", "open_entry", "prize_split", "counts", "starts_at", "ends_at")
    }


@transaction.atomic
def pot_create(*, actor: str, entrants: list[int] | None = None, now: datetime | None = None, **settings) -> Pot:
    now = now or timezone.now()
    clean = pot_settings_clean(settings)
    listed = sorted(set(entrants or []))
    if not clean["open_entry"] and not listed:
        raise Invalid("a pot without open entry needs an entry list", details={"entrants": ["required"]})
    if listed and Account.objects.filter(pk__in=listed).count() != len(listed):
        raise Invalid("the entry list names unknown accounts", details={"entrants": ["unknown account ids"]})
    pid = uuid.uuid4()
    secret = deal_new(code=clean["code"])  # the commitment is fixed now, shown from now on
    events = [
        ev.pot_created(pot_id=pid, settings=clean, created_at=now, salt=secret.salt, commitment=secret.commitment)
    ]
    if listed:
        events.append(ev.pot_entrant_listed(account_ids=listed))
    event_append(
        stream_id=f"pot-{pid}", stream_type=STREAM_TYPE, expected_version=0, actor=actor, now=now, events=events
    )
    task_on_commit("tournaments.pot_tick", eta=clean["ends_at"], pot_id=str(pid))
    return Pot.objects.get(pk=pid)


@transaction.atomic
def pot_enter(*, pot_id, account: Account, now: datetime | None = None) -> Game:
    """Start the entrant's Pool game on the pot's deal (once per entrant), while the pot is open."""
    now = now or timezone.now()
    pot = pot_locked(pot_id)
    if pot.status != "open" or now >= pot.ends_at:
        raise NotAllowed("the pot competition is over", details={"ends_at": iso_z(pot.ends_at)})
    if now < pot.starts_at:
        raise NotAllowed("the pot competition has not started", details={"starts_at": iso_z(pot.starts_at)})
    entrant = PotEntrant.objects.filter(pot=pot, account=account).first()
    if not pot.open_entry and entrant is None:
        raise NotAllowed("you are not on this pot's entry list")
    if entrant is not None and entrant.game_id:
        raise Conflict("already entered", details={"game_id": str(entrant.game_id)})
    left_s = int((pot.ends_at - now).total_seconds())
    game = game_create(
        account=account,
        mode="pool_pot",
        code=pot.code,
        salt=pot.salt or None,
        now=now,
        time_limit_s=max(1, min(pot.time_limit_s, left_s)),
    )
    _append(
        pot, [ev.pot_entered(account_id=account.pk, game_id=game.pk, at=now)], actor=f"account:{account.pk}", now=now
    )
    return game


def pot_key(pot_id, account_id: int) -> str:
    return f"pool_pot:{pot_id}:{account_id}"


@transaction.atomic
def pot_finalize(*, pot_id, now: datetime | None = None) -> bool:
    """At the end time: end the games still running, rank by score (ties share as R-20), pay once."""
    now = now or timezone.now()
    pot = pot_locked(pot_id)
    if pot.status != "open" or now < pot.ends_at:
        return False
    entrants = list(PotEntrant.objects.filter(pot=pot).order_by("account_id"))
    games = games_locked([e.game_id for e in entrants if e.game_id])
    for game in games.values():
        game_expire_if_due(game=game, now=now)
    scores = {pk: game.score for pk, game in games.items()}  # as locked (an end changes no score)
    played = [(e.account_id, (scores[e.game_id],)) for e in entrants if e.game_id]
    placed = {p.account_id: p for p in shared_split(played, pot.prize_split)}
    restricted = Account.objects.restricted_ids(placed)  # placed, not paid (nor passed on)
    results = [
        {
            "account_id": e.account_id,
            "score": scores.get(e.game_id),
            "place": placed[e.account_id].place if e.account_id in placed else None,
            "prize": (0 if e.account_id in restricted else placed[e.account_id].points)
            if e.account_id in placed
            else None,
        }
        for e in entrants
    ]
    _append(pot, [ev.pot_finalized(results=results, at=now)], actor="system", now=now)
    for r in results:
        if r["prize"]:
            points_award(
                account=r["account_id"],
                amount=r["prize"],
                source="pool_pot",
                counts=pot.counts,
                key=pot_key(pot.pk, r["account_id"]),
                at=pot.ends_at,
                ref={"pot_id": str(pot.pk), "title": pot.title, "place": r["place"], "score": r["score"]},
            )
    return True


def pots_sweep(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    due = Pot.objects.filter(status="open", ends_at__lte=now).order_by("ends_at").values_list("pk", flat=True)
    return sum(pot_finalize(pot_id=pid, now=now) for pid in list(due))


def pot_tick_on_read(pot: Pot, now: datetime | None = None) -> Pot:
    """On read: a pot whose end passed is finalized before it is shown."""
    now = now or timezone.now()
    if pot.status == "open" and now >= pot.ends_at and pot_finalize(pot_id=pot.pk, now=now):
        pot.refresh_from_db()
    return pot
