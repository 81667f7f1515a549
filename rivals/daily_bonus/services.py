"""Daily bonus (R-30…R-32), in Romanian calendar days (R-34).

* ``daily_bonus_claim``: one claim per account and Romanian day. Consecutive days pay 10, 20 … 100
  (streak days 1–10), then 100 every day; a missed day restarts the streak at day 1 (R-30). Every
  10th consecutive day also gives one joker (R-31). A second claim the same day is ``Conflict``.
* ``daily_bonus_double``: today's claimed bonus once more, same points, no joker (R-32); only for
  today's claim (``NotAllowed`` before claiming) and once (``Conflict``).

Facts are ``DailyBonusClaimed`` / ``DailyBonusDoubled`` events on the ``daily-bonus-<account>``
stream (appended with the stream version: a concurrent second claim is a conflict), projected
into ``DailyBonusClaim``. Points go through the ledger (``points_award``, sources ``daily_bonus``
and ``daily_bonus_double``, counting for rankings per R-33); the joker through
``account_jokers_change`` (reason ``daily_bonus``). ``now`` is for tests and jobs only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from rivals.daily_bonus.events import daily_bonus_claimed, daily_bonus_doubled
from rivals.daily_bonus.models import DailyBonusClaim
from rivals.errors import Conflict, NotAllowed
from rivals.models import Account
from rivals.romanian_time import romanian_day

STREAK_CAP = 10  # day 10 pays 100, and every later day too
POINTS_PER_DAY = 10
JOKER_EVERY = 10


def stream_of(account_id: int) -> str:
    return f"daily-bonus-{account_id}"


def bonus_points(streak: int) -> int:
    return min(streak, STREAK_CAP) * POINTS_PER_DAY


def bonus_jokers(streak: int) -> int:
    return 1 if streak % JOKER_EVERY == 0 else 0


@dataclass(frozen=True)
class DailyBonusClaimResult:
    day: int  # the streak day (1, 2, …)
    date: date  # the Romanian calendar day claimed
    points: int
    jokers: int  # jokers given by this claim (0 or 1)


@transaction.atomic
def daily_bonus_claim(*, account: Account, now: datetime | None = None) -> DailyBonusClaimResult:
    from rivals.accounts.services import account_jokers_change
    from rivals.eventstore import event_append, stream_version
    from rivals.points.services import points_award

    now = now or timezone.now()
    today = romanian_day(now)
    stream = stream_of(account.pk)
    version = stream_version(stream)
    if DailyBonusClaim.objects.filter(account_id=account.pk, day=today).exists():
        raise Conflict("today's daily bonus is already claimed", details={"date": today.isoformat()})
    previous = DailyBonusClaim.objects.filter(account_id=account.pk, day=today - timedelta(days=1)).first()
    streak = previous.streak + 1 if previous else 1  # a missed day restarts at day 1
    points, jokers = bonus_points(streak), bonus_jokers(streak)
    actor = f"account:{account.pk}"
    event_append(
        stream_id=stream,
        stream_type="daily_bonus",
        expected_version=version,  # a concurrent claim of the same account is a 409
        actor=actor,
        now=now,
        events=[
            daily_bonus_claimed(
                account_id=account.pk, day=today, streak=streak, points=points, jokers=jokers, claimed_at=now
            )
        ],
    )
    points_award(
        account=account.pk,
        amount=points,
        source="daily_bonus",
        key=f"daily_bonus:{account.pk}:{today.isoformat()}",
        at=now,
        actor=actor,
        ref={"day": today.isoformat(), "streak": streak},
    )
    if jokers:
        account_jokers_change(
            account=account,
            delta=jokers,
            reason="daily_bonus",
            actor=actor,
            ref={"day": today.isoformat(), "streak": streak},
            now=now,
        )
    return DailyBonusClaimResult(day=streak, date=today, points=points, jokers=jokers)


@transaction.atomic
def daily_bonus_double(*, account: Account, now: datetime | None = None) -> int:
    """R-32: grant today's bonus points once more; returns the points granted."""
    from rivals.eventstore import event_append, stream_version
    from rivals.points.services import points_award

    now = now or timezone.now()
    today = romanian_day(now)
    stream = stream_of(account.pk)
    version = stream_version(stream)
    claim = DailyBonusClaim.objects.filter(account_id=account.pk, day=today).first()
    if claim is None:
        raise NotAllowed("claim today's daily bonus before doubling it", details={"date": today.isoformat()})
    if claim.doubled:
        raise Conflict("today's daily bonus is already doubled", details={"date": today.isoformat()})
    actor = f"account:{account.pk}"
    event_append(
        stream_id=stream,
        stream_type="daily_bonus",
        expected_version=version,
        actor=actor,
        now=now,
        events=[daily_bonus_doubled(account_id=account.pk, day=today, points=claim.points, doubled_at=now)],
    )
    points_award(
        account=account.pk,
        amount=claim.points,
        source="daily_bonus_double",
        key=f"daily_bonus_double:{account.pk}:{today.isoformat()}",
        at=now,
        actor=actor,
        ref={"day": today.isoformat()},
    )
    return claim.points


def daily_bonus_status(*, account: Account, now: datetime | None = None) -> dict:
    """``{"streak", "claimed_today", "doubled_today"}`` for the profile. ``streak`` is the current
    streak: the last claim's day if it was today or yesterday (still alive), else 0."""
    today = romanian_day(now or timezone.now())
    last = DailyBonusClaim.objects.filter(account_id=account.pk, day__lte=today).order_by("-day").first()
    if last is None or last.day < today - timedelta(days=1):
        return {"streak": 0, "claimed_today": False, "doubled_today": False}
    claimed = last.day == today
    return {"streak": last.streak, "claimed_today": claimed, "doubled_today": claimed and last.doubled}
