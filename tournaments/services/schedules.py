"""Recurring schedules (R-21): "every day at 20:00 Europe/Bucharest", correct across DST changes,
and their life as an operator runs them (issue 22): created, edited, deactivated, reactivated or
retired — each an event on ``schedule-<id>`` with the operator as actor; never deleted; stopping
one asks whether to cancel its upcoming instances (each a ``TournamentCancelled``).

The start of each instance is the Romanian wall-clock time on its Romanian date, converted to UTC
with that date's offset (+02:00 in winter, +03:00 in summer). Decision: a wall-clock time that does
not exist (03:00–03:59 on the last Sunday of March) moves forward by the hour the clocks skip; one
that exists twice (03:00–03:59 on the last Sunday of October) is its first occurrence (summer time).
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from rivals.errors import DomainError, NotAllowed
from rivals.eventstore import ANY_VERSION, NewEvent, event_append
from rivals.locks import advisory_lock
from rivals.romanian_time import ROMANIA, romanian_day
from rivals.text import clean_text
from tournaments import events as ev
from tournaments.models import RecurringSchedule, Tournament
from tournaments.services.lifecycle import tournament_cancel, tournament_create

SCHEDULE_SETTINGS = (
    "title",
    "kind",
    "local_time",
    "weekdays",
    "duration_minutes",
    "registration_hours_before",
    "min_players",
    "prize_table",
    "multipliers",
    "days_ahead",
)

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


def _occupied(kind: str, starts_at: datetime) -> bool:
    """Decision (issue 22: a re-created schedule must not double its occurrences): an occurrence is
    a kind of tournament at a start instant — none is created where a tournament of the same kind,
    not cancelled, already starts then, whichever schedule (or operator) made it."""
    return Tournament.objects.filter(kind=kind, starts_at=starts_at).exclude(status="cancelled").exists()


def schedule_materialize(*, schedule: RecurringSchedule, now: datetime | None = None) -> int:
    """Create the schedule's instances starting in the next ``days_ahead`` days (not yet created,
    and not already held by another tournament of the kind at that instant: ``_occupied``)."""
    now = now or timezone.now()
    if not schedule.active or schedule.retired_at is not None:
        return 0
    created = 0
    done = set(Tournament.objects.filter(schedule=schedule).values_list("occurrence", flat=True))
    for day, starts_at in occurrences(
        wall=schedule.local_time, weekdays=schedule.weekdays, first=romanian_day(now), days=schedule.days_ahead
    ):
        if day in done or starts_at <= now:
            continue
        try:
            with transaction.atomic():
                advisory_lock(f"tournament-occurrence:{schedule.kind}:{starts_at.isoformat()}")
                if _occupied(schedule.kind, starts_at):
                    continue
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
        schedule_materialize(schedule=s, now=now)
        for s in RecurringSchedule.objects.filter(active=True, retired_at__isnull=True).order_by("pk")
    )


# --- the operator's side: each step an event on schedule-<id> ------------------------------------


def _jsonable(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v.strftime("%H:%M") if isinstance(v, time) else v for k, v in settings.items()}


def _append(schedule: RecurringSchedule, event: NewEvent, actor: str, now: datetime | None) -> None:
    event_append(
        stream_id=schedule.stream_id,
        stream_type="schedule",
        expected_version=ANY_VERSION,
        actor=actor,
        now=now,
        events=[event],
    )


def _locked(schedule_id) -> RecurringSchedule:
    return RecurringSchedule.objects.select_for_update().get(pk=schedule_id)


def schedule_upcoming(schedule: RecurringSchedule, now: datetime | None = None):
    """Its instances that have not started: what stopping it may cancel."""
    now = now or timezone.now()
    return Tournament.objects.filter(schedule=schedule, status="scheduled", starts_at__gt=now).order_by("starts_at")


@transaction.atomic
def schedule_create(*, actor: str, now: datetime | None = None, **settings: Any) -> tuple[RecurringSchedule, int]:
    """A new schedule (``ScheduleCreated``) and its first instances; returns both."""
    settings = {k: settings[k] for k in SCHEDULE_SETTINGS}
    schedule = RecurringSchedule.objects.create(**settings)
    _append(schedule, ev.schedule_created(schedule_id=schedule.pk, settings=_jsonable(settings)), actor, now)
    return schedule, schedule_materialize(schedule=schedule, now=now)


@transaction.atomic
def schedule_edit(
    *, schedule_id: int, actor: str, now: datetime | None = None, **changes: Any
) -> tuple[RecurringSchedule, int]:
    """Changed settings (``ScheduleEdited``, the changed ones only): instances created from now
    on follow them; the existing ones keep theirs (edit those tournaments themselves)."""
    schedule = _locked(schedule_id)
    if schedule.retired_at is not None:
        raise NotAllowed("a retired schedule is not edited")
    diff = {k: v for k, v in changes.items() if k in SCHEDULE_SETTINGS and getattr(schedule, k) != v}
    if not diff:
        return schedule, 0
    for k, v in diff.items():
        setattr(schedule, k, v)
    schedule.save(update_fields=list(diff))
    _append(schedule, ev.schedule_edited(schedule_id=schedule.pk, changes=_jsonable(diff)), actor, now)
    return schedule, schedule_materialize(schedule=schedule, now=now)


@transaction.atomic
def schedule_stop(
    *, schedule_id: int, actor: str, reason: str, retire: bool, cancel_upcoming: bool, now: datetime | None = None
) -> tuple[RecurringSchedule, list[str]]:
    """Deactivate (``ScheduleDeactivated``: no more instances until reactivated) or retire for good
    (``ScheduleRetired``); with ``cancel_upcoming`` its upcoming instances are cancelled too, each
    with a ``TournamentCancelled`` naming the reason. Never deletes. Returns the cancelled ids."""
    now = now or timezone.now()
    schedule = _locked(schedule_id)
    if schedule.retired_at is not None:
        raise NotAllowed("the schedule is already retired")
    if not retire and not schedule.active:
        raise NotAllowed("the schedule is already inactive")
    reason = clean_text(reason, field="reason", max_length=300)
    cancelled = []
    if cancel_upcoming:
        what = "retired" if retire else "deactivated"
        for t in schedule_upcoming(schedule, now):
            tournament_cancel(
                tournament_id=t.pk, actor=actor, note=f"its recurring schedule was {what}: {reason}"[:300], now=now
            )
            cancelled.append(str(t.pk))
    schedule.active = False
    fields = ["active"]
    if retire:
        schedule.retired_at = now
        fields.append("retired_at")
    schedule.save(update_fields=fields)
    stopped = ev.schedule_retired if retire else ev.schedule_deactivated
    _append(schedule, stopped(schedule_id=schedule.pk, reason=reason, cancelled=cancelled), actor, now)
    return schedule, cancelled


@transaction.atomic
def schedule_reactivate(
    *, schedule_id: int, actor: str, reason: str, now: datetime | None = None
) -> tuple[RecurringSchedule, int]:
    """Instances again (``ScheduleReactivated``), from the next ones on; a date whose instance was
    cancelled stays cancelled (one instance per schedule and date)."""
    schedule = _locked(schedule_id)
    if schedule.retired_at is not None:
        raise NotAllowed("a retired schedule is not reactivated: create a new one")
    if schedule.active:
        raise NotAllowed("the schedule is active")
    reason = clean_text(reason, field="reason", max_length=300)
    schedule.active = True
    schedule.save(update_fields=["active"])
    _append(schedule, ev.schedule_reactivated(schedule_id=schedule.pk, reason=reason), actor, now)
    return schedule, schedule_materialize(schedule=schedule, now=now)
