"""R-34 roll job: idempotent, catches up, equals a recompute from the ledger; rebuild == live."""

from __future__ import annotations

import io
import random
from datetime import timedelta

import pytest
from django.core.management import call_command

from config.periodic import PERIODIC_TASKS
from rankings import tasks
from rankings.days import amr_window_start, day_start_utc
from rankings.selectors import account_points, ranking_me, ranking_page, rankings_recomputed, rankings_state
from rankings.services import rankings_roll
from tests.rankings.helpers import award, d, make_accounts, utc


def assert_state_equals_recompute():
    live = rankings_state()
    expected = rankings_recomputed(window_start=live.window_start)
    assert live.amr == expected.amr
    assert live.weekly == expected.weekly
    assert live.daily == expected.daily
    assert live.histogram == expected.histogram


def assert_places_are_brute_force(day):
    state = rankings_state()
    for board in ("amr", "weekly", "daily"):
        if board == "amr":
            totals = {a: p for a, (p, _) in state.amr.items()}
        elif board == "weekly":
            monday = day - timedelta(days=day.weekday())
            totals = {a: p for (w, a), (p, _) in state.weekly.items() if w == monday}
        else:
            totals = {a: p for (dd, a), (p, _) in state.daily.items() if dd == day}
        ranked = sorted(p for p in totals.values() if p > 0)
        page = ranking_page(board=board, limit=100, offset=0, day=day)
        assert page["count"] == len(ranked)
        for row in page["results"]:
            assert row["place"] == 1 + sum(1 for p in ranked if p > row["points"])
        for account, points in totals.items():
            me = ranking_me(board=board, account_id=account, day=day)
            assert me["points"] == points
            if points > 0:
                assert me["place"] == 1 + sum(1 for p in ranked if p > points)


@pytest.mark.django_db
def test_r34_roll_is_idempotent_and_catches_up_missed_days():
    a, b = make_accounts(2)
    award(a, 10, utc("2025-03-01T10:00:00Z"))
    award(a, 20, utc("2025-03-05T10:00:00Z"))
    award(b, 7, utc("2025-03-03T10:00:00Z"))
    award(a, 1, utc("2026-03-01T10:00:00Z"))
    first = rankings_roll(today=d("2026-03-01"))
    assert first.rolled and first.window_start == d("2025-03-02")
    assert account_points(account_id=a.pk, day=d("2026-03-01"))["amr"] == 21
    again = rankings_roll(today=d("2026-03-01"))
    assert not again.rolled
    assert account_points(account_id=a.pk, day=d("2026-03-01"))["amr"] == 21
    # beat was down for 5 days: one late run subtracts every missed day at once
    late = rankings_roll(now=utc("2026-03-06T09:00:00Z"))
    assert late.window_start == d("2025-03-07") and late.accounts_changed == 2
    assert account_points(account_id=a.pk, day=d("2026-03-06"))["amr"] == 1
    assert account_points(account_id=b.pk, day=d("2026-03-06"))["amr"] == 0
    assert rankings_roll(now=utc("2026-03-06T10:17:00Z")).rolled is False  # the hourly catch-up: no-op
    assert rankings_roll(today=d("2026-03-02")).rolled is False  # never backwards
    assert_state_equals_recompute()


@pytest.mark.django_db
def test_r34_roll_around_dst_changes_2026_and_2027():
    (a,) = make_accounts(1)
    # awards at the first and last second of the DST days of 2026
    award(a, 1, utc("2026-03-28T22:00:00Z"))  # 2026-03-29 00:00:00 +02:00
    award(a, 2, utc("2026-03-29T20:59:59Z"))  # 2026-03-29 23:59:59 +03:00
    award(a, 4, utc("2026-10-24T21:00:00Z"))  # 2026-10-25 00:00:00 +03:00
    award(a, 8, utc("2026-10-25T21:59:59Z"))  # 2026-10-25 23:59:59 +02:00
    # the roll runs at 00:01 Romanian time, whatever the UTC offset
    rankings_roll(now=utc("2027-03-27T22:01:00Z"))  # 2027-03-28 00:01 +02:00: window 2026-03-29 …
    assert account_points(account_id=a.pk, day=d("2027-03-28"))["amr"] == 15
    rankings_roll(now=utc("2027-03-28T21:01:00Z"))  # 2027-03-29 00:01 +03:00: 2026-03-29 leaves
    assert account_points(account_id=a.pk, day=d("2027-03-29"))["amr"] == 12
    rankings_roll(now=utc("2027-10-23T21:01:00Z"))  # 2027-10-24 00:01 +03:00
    assert account_points(account_id=a.pk, day=d("2027-10-24"))["amr"] == 12
    rankings_roll(now=utc("2027-10-24T21:01:00Z"))  # 2027-10-25 00:01: 2026-10-25 leaves
    assert account_points(account_id=a.pk, day=d("2027-10-25"))["amr"] == 0
    assert_state_equals_recompute()


@pytest.mark.django_db
def test_r34_roll_equals_recompute_after_random_awards_over_800_days():
    rng = random.Random(20260329)
    accounts = make_accounts(7)
    start = d("2026-01-01")  # 800 days: through 2028-03-10, all four DST changes of 2026–2027
    for i in range(800):
        day = start + timedelta(days=i)
        roll = rng.random()
        if roll < 0.75:
            rankings_roll(today=day)  # midnight job (sometimes missed: catch-up later)
            if rng.random() < 0.1:
                rankings_roll(today=day)  # and sometimes twice
        begin, end = day_start_utc(day), day_start_utc(day + timedelta(days=1))
        seconds = int((end - begin).total_seconds())  # 23, 24 or 25 hours
        for _ in range(rng.choice((0, 1, 2, 3, 4))):
            at = begin + timedelta(seconds=rng.choice((0, seconds - 1, rng.randrange(seconds))))
            account = rng.choice(accounts)
            kind = rng.random()
            if kind < 0.08:
                award(account, -rng.randint(1, 30), at, source="operator_adjustment")
            elif kind < 0.14:
                award(account, rng.randint(1, 500), at, source="pool_pot", counts=False)
            elif kind < 0.2:  # a job awarding a past instant
                award(account, rng.randint(1, 50), at - timedelta(days=rng.randint(1, 400)))
            else:
                award(account, rng.choice((10, 20, 100, rng.randint(1, 1500))), at)
        if i % 97 == 0:
            assert_state_equals_recompute()
    last = start + timedelta(days=799)
    rankings_roll(today=last)
    state = rankings_state()
    assert state.window_start == amr_window_start(last)
    assert_state_equals_recompute()
    assert_places_are_brute_force(last)


@pytest.mark.django_db
def test_rebuild_projections_reproduces_the_rankings_state():
    rng = random.Random(7)
    accounts = make_accounts(4)
    start = d("2026-09-01")
    for i in range(420):
        day = start + timedelta(days=i)
        if i % 3:
            rankings_roll(today=day)
        for _ in range(rng.randint(0, 2)):
            award(
                rng.choice(accounts),
                rng.randint(-5, 200) or 1,
                day_start_utc(day) + timedelta(hours=rng.randint(0, 22)),
            )
    before = rankings_state()
    assert before.amr
    call_command("rebuild_projections", stdout=io.StringIO())
    after = rankings_state()
    assert after == before
    assert_state_equals_recompute()


def test_r34_roll_jobs_are_declared_at_romanian_midnight_with_hourly_catch_up():
    specs = {s["name"]: s for s in PERIODIC_TASKS if s["task"] == "rankings.roll"}
    assert specs["rankings-roll"]["crontab"] == {"minute": "1", "hour": "0", "timezone": "Europe/Bucharest"}
    assert specs["rankings-roll-catchup"]["crontab"]["hour"] == "*"
    assert specs["rankings-roll-catchup"]["crontab"]["timezone"] == "Europe/Bucharest"


@pytest.mark.django_db
def test_r34_roll_task_runs_the_service():
    out = tasks.roll.apply().get()
    assert out["rolled"] is True
    assert tasks.roll.apply().get()["rolled"] is False
