"""R-34: a point belongs to the Romanian (Europe/Bucharest) day of its award instant."""

from __future__ import annotations

import pytest

from rankings.days import day_start_utc, romanian_day, week_start
from rankings.models import DailyPoints, WeeklyPoints
from rankings.selectors import account_points, ranking_me
from tests.rankings.helpers import award, d, make_accounts, utc

# EXAMPLES.md "R-34": UTC instant → Romanian day
EXAMPLES_R34 = [
    ("2026-03-28T21:59:59Z", "2026-03-28"),
    ("2026-03-28T22:00:00Z", "2026-03-29"),
    ("2026-10-24T20:59:59Z", "2026-10-24"),
    ("2026-10-24T21:00:00Z", "2026-10-25"),
    ("2026-10-25T21:30:00Z", "2026-10-25"),
    # the same changes in 2027 (last Sundays of March and October: 2027-03-28, 2027-10-31)
    ("2027-03-27T21:59:59Z", "2027-03-27"),
    ("2027-03-27T22:00:00Z", "2027-03-28"),
    ("2027-03-28T20:59:59Z", "2027-03-28"),
    ("2027-03-28T21:00:00Z", "2027-03-29"),
    ("2027-10-30T20:59:59Z", "2027-10-30"),
    ("2027-10-30T21:00:00Z", "2027-10-31"),
    ("2027-10-31T21:59:59Z", "2027-10-31"),
    ("2027-10-31T22:00:00Z", "2027-11-01"),
]


@pytest.mark.parametrize(("instant", "day"), EXAMPLES_R34)
def test_r34_examples_utc_instant_to_romanian_day(instant, day):
    assert romanian_day(utc(instant)) == d(day)


def test_r34_dst_days_have_23_and_25_hours():
    assert day_start_utc(d("2026-03-29")) == utc("2026-03-28T22:00:00Z")
    assert day_start_utc(d("2026-03-30")) == utc("2026-03-29T21:00:00Z")  # 23-hour day
    assert day_start_utc(d("2026-10-25")) == utc("2026-10-24T21:00:00Z")
    assert day_start_utc(d("2026-10-26")) == utc("2026-10-25T22:00:00Z")  # 25-hour day
    assert (day_start_utc(d("2027-03-29")) - day_start_utc(d("2027-03-28"))).total_seconds() == 23 * 3600
    assert (day_start_utc(d("2027-11-01")) - day_start_utc(d("2027-10-31"))).total_seconds() == 25 * 3600


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("before", "after", "day_before", "day_after"),
    [
        ("2026-03-28T21:59:59Z", "2026-03-28T22:00:00Z", "2026-03-28", "2026-03-29"),  # into the 23-h day
        ("2026-03-29T20:59:59Z", "2026-03-29T21:00:00Z", "2026-03-29", "2026-03-30"),  # out of it
        ("2026-10-24T20:59:59Z", "2026-10-24T21:00:00Z", "2026-10-24", "2026-10-25"),  # into the 25-h day
        ("2026-10-25T21:59:59Z", "2026-10-25T22:00:00Z", "2026-10-25", "2026-10-26"),  # out of it
        ("2027-03-27T21:59:59Z", "2027-03-27T22:00:00Z", "2027-03-27", "2027-03-28"),
        ("2027-10-31T21:59:59Z", "2027-10-31T22:00:00Z", "2027-10-31", "2027-11-01"),
        ("2026-06-30T20:59:59Z", "2026-06-30T21:00:00Z", "2026-06-30", "2026-07-01"),  # summer time
        ("2026-12-31T21:59:59Z", "2026-12-31T22:00:00Z", "2026-12-31", "2027-01-01"),  # winter time
    ],
)
def test_r34_point_at_235959_and_000000_fall_in_different_days(before, after, day_before, day_after):
    (a,) = make_accounts(1)
    award(a, 7, utc(before))
    award(a, 11, utc(after))
    buckets = dict(DailyPoints.objects.filter(account=a).values_list("day", "points"))
    assert buckets == {d(day_before): 7, d(day_after): 11}
    assert account_points(account_id=a.pk, day=d(day_before))["daily"] == 7
    assert account_points(account_id=a.pk, day=d(day_after))["daily"] == 11
    assert ranking_me(board="daily", account_id=a.pk, day=d(day_after)) == {
        "place": 1,
        "points": 11,
        "total_players": 1,
    }


@pytest.mark.django_db
def test_r34_weekly_resets_monday_0000_romanian_time():
    (a,) = make_accounts(1)
    # 2026-03-29 is a Sunday (and the 23-hour spring day); Monday 00:00 Romanian is 21:00Z.
    award(a, 5, utc("2026-03-23T00:30:00Z"))  # Monday 2026-03-23, 02:30 Romanian time
    award(a, 3, utc("2026-03-29T20:59:59Z"))  # Sunday 23:59:59 +03:00
    award(a, 4, utc("2026-03-29T21:00:00Z"))  # Monday 2026-03-30 00:00:00 +03:00
    assert week_start(d("2026-03-29")) == d("2026-03-23")
    weeks = dict(WeeklyPoints.objects.filter(account=a).values_list("week", "points"))
    assert weeks == {d("2026-03-23"): 8, d("2026-03-30"): 4}
    assert account_points(account_id=a.pk, day=d("2026-03-29"))["weekly"] == 8
    assert account_points(account_id=a.pk, day=d("2026-03-30"))["weekly"] == 4
    # autumn: Sunday 2026-10-25 has 25 hours and ends 2026-10-25T22:00Z
    award(a, 6, utc("2026-10-25T21:59:59Z"))
    award(a, 9, utc("2026-10-25T22:00:00Z"))
    assert account_points(account_id=a.pk, day=d("2026-10-25"))["weekly"] == 6
    assert account_points(account_id=a.pk, day=d("2026-10-26"))["weekly"] == 9
    assert account_points(account_id=a.pk, day=d("2026-10-26"))["amr"] == 5 + 3 + 4 + 6 + 9


@pytest.mark.django_db
def test_r33_only_counting_entries_rank():
    (a,) = make_accounts(1)
    award(a, 50, utc("2026-05-05T10:00:00Z"), source="pool_pot", counts=False)
    award(a, 20, utc("2026-05-05T10:00:01Z"), source="pool_pot", counts=True)  # operator marked it counting
    award(a, 30, utc("2026-05-05T10:00:02Z"), source="daily_bonus")
    assert account_points(account_id=a.pk, day=d("2026-05-05")) == {"amr": 50, "weekly": 50, "daily": 50}
