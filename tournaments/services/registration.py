"""Registration (R-21, R-26's registration time) and the Champions eligibility (R-28)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rivals.errors import Conflict, NotAllowed, NotEligible
from rivals.models import Account
from rivals.points.selectors import points_sum
from rivals.romanian_time import iso_z, week_bounds_utc
from tournaments import events as ev
from tournaments.models import Registration, Tournament
from tournaments.services.common import tournament_append, tournament_locked

CHAMPIONS_WEEKLY_PRIZE_POINTS = 200


def weekly_prize_points(*, account_id: int, starts_at: datetime, now: datetime | None = None) -> int:
    """R-28: points of final tournament prizes (R-26) awarded in the Romanian week that holds the
    Champions Tournament's start (``starts_at``), up to the registration instant ``now``."""
    start, end = week_bounds_utc(starts_at)
    return points_sum(
        account_id=account_id, source="tournament_prize", start=start, end=end, upto=now or timezone.now()
    )


def _refuse_closed(t: Tournament, now: datetime, action: str) -> None:
    if t.status == "cancelled":
        raise NotAllowed(f"cannot {action}: the tournament was cancelled", details={"status": t.status})
    if t.status == "finished":
        raise NotAllowed(f"cannot {action}: the tournament is finished", details={"status": t.status})
    if t.status == "running" or now >= t.starts_at:
        raise NotAllowed(
            f"cannot {action} after the start", details={"status": "running", "starts_at": iso_z(t.starts_at)}
        )


@transaction.atomic
def tournament_register(*, tournament_id, account: Account, now: datetime | None = None) -> Registration:
    """Register before the start; the registration instant breaks final-place ties (R-26)."""
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    _refuse_closed(t, now, "register")
    opens_at = t.registration_opens
    if now < opens_at:
        raise NotAllowed("registration is not open yet", details={"registration_opens_at": iso_z(opens_at)})
    existing = Registration.objects.filter(tournament=t, account=account).first()
    if existing:
        raise Conflict("already registered", details={"registered_at": iso_z(existing.registered_at)})
    if t.kind == "champions":
        points = weekly_prize_points(account_id=account.pk, starts_at=t.starts_at, now=now)
        if points < CHAMPIONS_WEEKLY_PRIZE_POINTS:
            start, _ = week_bounds_utc(t.starts_at)
            raise NotEligible(
                f"the Champions Tournament needs {CHAMPIONS_WEEKLY_PRIZE_POINTS} tournament prize points this "
                f"week; you have {points}",
                details={
                    "weekly_prize_points": points,
                    "required": CHAMPIONS_WEEKLY_PRIZE_POINTS,
                    "week_starts_at": iso_z(start),
                },
            )
    tournament_append(t, [ev.player_registered(account_id=account.pk, at=now)], actor=f"account:{account.pk}", now=now)
    return Registration.objects.get(tournament=t, account=account)


@transaction.atomic
def tournament_unregister(*, tournament_id, account: Account, now: datetime | None = None) -> Tournament:
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    _refuse_closed(t, now, "unregister")
    if not Registration.objects.filter(tournament=t, account=account).exists():
        raise NotAllowed("not registered for this tournament")
    tournament_append(t, [ev.player_unregistered(account_id=account.pk)], actor=f"account:{account.pk}", now=now)
    return t
