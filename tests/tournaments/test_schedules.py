"""R-21 recurring schedules in Romanian time, across both 2026 daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from rivals.models import Event
from tournaments.models import RecurringSchedule, Tournament
from tournaments.services.schedules import occurrences, romanian_instant, schedule_materialize, schedules_materialize


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_r21_every_day_at_2000_bucharest_across_the_march_2026_change():
    # 2026-03-29 03:00 → 04:00: 20:00 is 18:00Z before (+02:00) and 17:00Z after (+03:00)
    got = occurrences(wall=time(20), weekdays="0123456", first=date(2026, 3, 27), days=3)
    assert got == [
        (date(2026, 3, 27), utc(2026, 3, 27, 18)),
        (date(2026, 3, 28), utc(2026, 3, 28, 18)),
        (date(2026, 3, 29), utc(2026, 3, 29, 17)),
        (date(2026, 3, 30), utc(2026, 3, 30, 17)),
    ]


def test_r21_every_day_at_2000_bucharest_across_the_october_2026_change():
    # 2026-10-25 04:00 → 03:00: 20:00 is 17:00Z before (+03:00) and 18:00Z after (+02:00)
    got = occurrences(wall=time(20), weekdays="0123456", first=date(2026, 10, 24), days=2)
    assert got == [
        (date(2026, 10, 24), utc(2026, 10, 24, 17)),
        (date(2026, 10, 25), utc(2026, 10, 25, 18)),
        (date(2026, 10, 26), utc(2026, 10, 26, 18)),
    ]


def test_r21_wall_times_that_are_skipped_or_doubled_by_dst():
    # 03:30 does not exist on 2026-03-29: it moves forward by the skipped hour (04:30 +03:00)
    assert romanian_instant(date(2026, 3, 29), time(3, 30)) == utc(2026, 3, 29, 1, 30)
    # 03:30 happens twice on 2026-10-25: the first one (+03:00)
    assert romanian_instant(date(2026, 10, 25), time(3, 30)) == utc(2026, 10, 25, 0, 30)


def test_r21_weekdays_choose_the_romanian_date():
    # Mondays only at 01:00 Romanian time: still Sunday in UTC
    got = occurrences(wall=time(1), weekdays="0", first=date(2026, 6, 1), days=7)
    assert got == [(date(2026, 6, 1), utc(2026, 5, 31, 22)), (date(2026, 6, 8), utc(2026, 6, 7, 22))]


@pytest.mark.django_db
def test_r21_the_materialize_job_creates_instances_ahead_once_per_date_across_dst():
    s = RecurringSchedule.objects.create(
        title="Daily",
        local_time=time(20),
        duration_minutes=45,
        days_ahead=3,
        registration_hours_before=6,
        min_players=2,
        prize_table=[50, 20],
        multipliers=[1, 2],
    )
    now = utc(2026, 3, 27, 12)
    assert schedule_materialize(schedule=s, now=now) == 4
    assert schedules_materialize(now=now) == 0  # idempotent: one instance per schedule and date
    got = list(
        Tournament.objects.filter(schedule=s)
        .order_by("starts_at")
        .values_list("occurrence", "starts_at", "ends_at", "registration_opens_at")
    )
    assert [(o, st) for o, st, _, _ in got] == [
        (date(2026, 3, 27), utc(2026, 3, 27, 18)),
        (date(2026, 3, 28), utc(2026, 3, 28, 18)),
        (date(2026, 3, 29), utc(2026, 3, 29, 17)),
        (date(2026, 3, 30), utc(2026, 3, 30, 17)),
    ]
    assert got[2][2] == utc(2026, 3, 29, 17, 45) and got[2][3] == utc(2026, 3, 29, 11)
    assert got[0][3] == now  # registration opens now when 6 h before the start has passed
    created = Event.objects.filter(type="TournamentCreated").first()
    assert created.metadata["actor"] == f"schedule:{s.pk}"
    # later, the October change
    assert schedule_materialize(schedule=s, now=utc(2026, 10, 24, 12)) == 4
    assert list(
        Tournament.objects.filter(schedule=s, occurrence__gte=date(2026, 10, 24))
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
    ) == [utc(2026, 10, 24, 17), utc(2026, 10, 25, 18), utc(2026, 10, 26, 18), utc(2026, 10, 27, 18)]
