"""Recurring schedules (R-21): "every day at 20:00 Europe/Bucharest", correct across DST changes.

The start of each instance is the Romanian wall-clock time on its Romanian date, converted to UTC
with that date's offset (+02:00 in winter, +03:00 in summer). Decision: a wall-clock time that does
not exist (03:00–03:59 on the last Sunday of March) moves forward by the hour the clocks skip; one
that exists twice (03:00–03:59 on the last Sunday of October) is its first occurrence (summer time).
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from rivals.errors import DomainError
from rivals.romanian_time import ROMANIA, romanian_day
from tournaments.models import RecurringSchedule, Tournament
from tournaments.services.lifecycle import tournament_create

log = logging.getLogger(__name__)


def romanian_instant(day: date, wall: time) -> datetime:
    """The UTC instant of ``wall`` o'clock Romanian time on ``day`` (fold 0: see the decision)."""
    return datetime.combine(day, wall, tzinfo=ROMANIA).astimezone(UTC)


def occurrences(*, wall: time, weekdays: str, first: date, days: int) -> list[tuple[date, datetime]]:
    """``(Romanian date, UTC start)`` of each chosen weekday in ``first … first + days``."""
    out = []
    for i in range(days + 1):
        day = first + timedelta(days=i)
        if str(day.weekday()) in weekdays:
            out.append((day, romanian_instant(day, wall)))
    return out


def schedule_materialize(*, schedule: RecurringSchedule, now: datetime | None = None) -> int:
    """Create the schedule's instances starting in the next ``days_ahead`` days (not yet created)."""
    now = now or timezone.now()
    created = 0
    done = set(Tournament.objects.filter(schedule=schedule).values_list("occurrence", flat=True))
    for day, starts_at in occurrences(
        wall=schedule.local_time, weekdays=schedule.weekdays, first=romanian_day(now), days=schedule.days_ahead
    ):
        if day in done or starts_at <= now:
            continue
        try:
            with transaction.atomic():
                tournament_create(
                    actor=f"schedule:{schedule.pk}",
                    now=now,
                    schedule_id=schedule.pk,
                    occurrence=day.isoformat(),
                    kind=schedule.kind,
                    title=f"{schedule.title} {day:%d.%m.%Y}",
                    registration_opens_at=min(
                        starts_at, max(now, starts_at - timedelta(hours=schedule.registration_hours_before))
                    ),
                    starts_at=starts_at,
                    ends_at=starts_at + timedelta(minutes=schedule.duration_minutes),
                    min_players=schedule.min_players,
                    prize_table=schedule.prize_table,
                    multipliers=schedule.multipliers,
                )
            created += 1
        except IntegrityError:  # another run created this (schedule, date) at the same moment
            continue
        except DomainError:
            log.exception("schedule %s: invalid settings for %s", schedule.pk, day)
            break
    return created


def schedules_materialize(*, now: datetime | None = None) -> int:
    """Hourly job: every active schedule, idempotent (one instance per schedule and Romanian date)."""
    return sum(
        schedule_materialize(schedule=s, now=now) for s in RecurringSchedule.objects.filter(active=True).order_by("pk")
    )
