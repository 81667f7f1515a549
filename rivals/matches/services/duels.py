"""Duels (R-19): a challenge from one account to another; one round; no ranking points.

A duel is the stream ``duel-<id>``: ``DuelChallenged``, then ``DuelAccepted`` (naming the match),
``DuelDeclined`` (by the opponent; by the challenger it is a withdrawal, shown as ``cancelled``)
or ``DuelExpired``.

Decisions: a challenge expires after ``DUEL_TTL_S`` (default 10 minutes), applied on read and
act, by a task at that instant and by the beat sweeper; a second challenge to the same opponent
while one is pending returns the pending one; only the challenged account accepts.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from rivals.errors import Invalid, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from rivals.matches.events import duel_accepted, duel_challenged, duel_declined, duel_expired
from rivals.matches.models import Duel
from rivals.matches.services.matches import match_create
from rivals.models import Account

STREAM_TYPE = "duel"


def _append(duel: Duel | uuid.UUID, event: NewEvent, *, actor: str, now: datetime, expected: int | None = None) -> None:
    duel_id = duel.pk if isinstance(duel, Duel) else duel
    event_append(
        stream_id=f"duel-{duel_id}",
        stream_type=STREAM_TYPE,
        expected_version=duel.version if isinstance(duel, Duel) else 0,
        actor=actor,
        now=now,
        events=[event],
    )


@transaction.atomic
def duel_challenge(*, account: Account, opponent, now: datetime | None = None) -> tuple[Duel, bool]:
    if isinstance(opponent, bool) or not isinstance(opponent, int):
        raise Invalid("opponent must be an account id", details={"opponent": ["an integer account id"]})
    if opponent == account.pk:
        raise NotAllowed("you cannot challenge yourself", details={"opponent": account.pk})
    now = now or timezone.now()
    other = Account.objects.filter(pk=opponent, is_active=True, is_staff=False).first()  # operators do not play
    if other is None:
        raise NotFound("no such player")
    if other.suspended_at is not None:  # R-38
        raise NotAllowed("this player is suspended and cannot play now", details={"opponent": other.pk})
    Account.objects.select_for_update().get(pk=account.pk)  # serialise this account's challenges
    pending = Duel.objects.filter(challenger=account, opponent=other, status="pending", expires_at__gt=now).first()
    if pending is not None:
        return pending, False
    duel_id = uuid.uuid4()
    expires_at = now + timedelta(seconds=settings.RIVALS["DUEL_TTL_S"])
    _append(
        duel_id,
        duel_challenged(duel_id=duel_id, challenger_id=account.pk, opponent_id=other.pk, expires_at=expires_at),
        actor=f"account:{account.pk}",
        now=now,
    )
    from rivals.matches.tasks import schedule_duel_expiry

    schedule_duel_expiry(duel_id=duel_id, at=expires_at)
    return Duel.objects.get(pk=duel_id), True


def _duel_of(account: Account, duel_id, *, lock: bool = False) -> Duel:
    """A duel its two accounts can see; anyone else gets 404."""
    qs = Duel.objects.select_for_update() if lock else Duel.objects
    duel = qs.filter(Q(challenger=account) | Q(opponent=account), pk=duel_id).first() if is_uuid(duel_id) else None
    if duel is None:
        raise NotFound("no such duel")
    return duel


def _expire_if_due(duel: Duel, now: datetime) -> Duel:
    if duel.status == "pending" and duel.expires_at <= now:
        _append(duel, duel_expired(duel_id=duel.pk), actor="system", now=now)
        duel.refresh_from_db()
    return duel


def _pending(duel: Duel) -> None:
    if duel.status != "pending":
        raise NotAllowed(f"the duel is {duel.status}", details={"status": duel.status})


@transaction.atomic
def duel_accept(*, account: Account, duel_id, now: datetime | None = None) -> Duel:
    now = now or timezone.now()
    duel = _expire_if_due(_duel_of(account, duel_id, lock=True), now)
    _pending(duel)
    if duel.opponent_id != account.pk:
        raise NotAllowed("only the challenged player can accept", details={"opponent": duel.opponent_id})
    if Account.objects.restricted_ids([duel.challenger_id]):  # R-38 (normally already ended with the suspension)
        raise NotAllowed("the challenger can no longer play", details={"challenger": duel.challenger_id})
    # the challenger hears of the acceptance before the round starts (as a queue's match_found)
    match_id = uuid.uuid4()
    _append(
        duel,
        duel_accepted(duel_id=duel.pk, match_id=match_id),
        actor=f"account:{account.pk}",
        now=now,
    )
    match_create(
        mode="duel",
        account_ids=[duel.challenger_id, duel.opponent_id],
        now=now,
        context={"duel_id": str(duel.pk)},
        match_id=match_id,
    )
    duel.refresh_from_db()
    return duel


def duels_end(*, account_id: int, reason: str, now: datetime) -> int:
    """R-38: the account's pending duels (as challenger or opponent) end at once, as cancelled by
    the server (``DuelDeclined`` by ``system`` with the reason). In the caller's transaction."""
    duels = (
        Duel.objects.select_for_update()
        .filter(Q(challenger_id=account_id) | Q(opponent_id=account_id), status="pending")
        .order_by("pk")
    )
    for duel in duels:
        _append(
            duel,
            duel_declined(duel_id=duel.pk, by="system", reason=reason),
            actor="system",
            now=now,
        )
    return len(duels)


@transaction.atomic
def duel_decline(*, account: Account, duel_id, now: datetime | None = None) -> Duel:
    """The opponent declines; the challenger withdraws (``cancelled``)."""
    now = now or timezone.now()
    duel = _expire_if_due(_duel_of(account, duel_id, lock=True), now)
    _pending(duel)
    by = "opponent" if duel.opponent_id == account.pk else "challenger"
    _append(duel, duel_declined(duel_id=duel.pk, by=by), actor=f"account:{account.pk}", now=now)
    duel.refresh_from_db()
    return duel


@transaction.atomic
def duel_read(*, account: Account, duel_id, now: datetime | None = None) -> Duel:
    duel = _duel_of(account, duel_id)
    if duel.status == "pending" and duel.expires_at <= (now or timezone.now()):
        duel = _expire_if_due(_duel_of(account, duel_id, lock=True), now or timezone.now())
    return duel


@transaction.atomic
def duel_expire_if_due(*, duel_id, now: datetime | None = None) -> bool:
    duel = Duel.objects.select_for_update().filter(pk=duel_id).first()
    if duel is None or duel.status != "pending":
        return False
    return _expire_if_due(duel, now or timezone.now()).status == "expired"


def duels_expire_due(*, now: datetime | None = None) -> int:
    """Beat sweeper: expire unanswered challenges."""
    now = now or timezone.now()
    due = Duel.objects.filter(status="pending", expires_at__lte=now).values_list("pk", flat=True)
    return sum(duel_expire_if_due(duel_id=pk, now=now) for pk in list(due[:1000]))
