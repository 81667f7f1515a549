"""R-30…R-32 daily bonus in Romanian days (EXAMPLES.md "R-30 / R-31")."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command

from rankings.days import day_start_utc
from rankings.selectors import account_points
from rivals.daily_bonus.models import DailyBonusClaim
from rivals.daily_bonus.services import daily_bonus_claim, daily_bonus_double, daily_bonus_status
from rivals.errors import Conflict, NotAllowed
from rivals.points.models import PointsLedgerEntry
from tests.rankings.helpers import d, make_accounts, utc


def noon(day):
    return day_start_utc(day) + timedelta(hours=12)


@pytest.mark.django_db
def test_r30_streak_1_to_12_then_a_gap_restarts_at_day_1():
    (a,) = make_accounts(1)
    start = d("2026-03-20")  # crosses the spring DST change (2026-03-29)
    results = [daily_bonus_claim(account=a, now=noon(start + timedelta(days=i))) for i in range(12)]
    assert [r.day for r in results] == list(range(1, 13))
    assert [r.points for r in results] == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 100, 100]
    assert [r.jokers for r in results] == [0] * 9 + [1, 0, 0]
    # day 13 is missed: the next claim is day 1 again and pays 10
    gap = daily_bonus_claim(account=a, now=noon(start + timedelta(days=13)))
    assert (gap.day, gap.points, gap.jokers) == (1, 10, 0)
    nxt = daily_bonus_claim(account=a, now=noon(start + timedelta(days=14)))
    assert (nxt.day, nxt.points) == (2, 20)
    entries = PointsLedgerEntry.objects.filter(account=a, source="daily_bonus")
    assert sum(e.amount for e in entries) == 10 * 55 + 200 + 10 + 20
    assert all(e.counts for e in entries)  # the daily bonus counts


@pytest.mark.django_db
def test_r31_jokers_on_days_10_and_20():
    (a,) = make_accounts(1)
    start = d("2026-10-15")  # crosses the autumn DST change (2026-10-25)
    jokers_by_day = {}
    for i in range(21):
        r = daily_bonus_claim(account=a, now=noon(start + timedelta(days=i)))
        jokers_by_day[r.day] = r.jokers
    assert [day for day, j in jokers_by_day.items() if j] == [10, 20]
    a.refresh_from_db()
    assert a.jokers == 2
    assert daily_bonus_status(account=a, now=noon(start + timedelta(days=20))) == {
        "streak": 21,
        "claimed_today": True,
        "doubled_today": False,
    }


@pytest.mark.django_db
def test_r30_one_claim_per_romanian_day_and_midnight_starts_the_next_day():
    (a,) = make_accounts(1)
    first = daily_bonus_claim(account=a, now=utc("2026-03-28T21:59:59Z"))  # 2026-03-28 23:59:59 Romanian
    with pytest.raises(Conflict):
        daily_bonus_claim(account=a, now=utc("2026-03-28T12:00:00Z"))  # same Romanian day
    second = daily_bonus_claim(account=a, now=utc("2026-03-28T22:00:00Z"))  # 2026-03-29 00:00:00
    assert (first.date, first.day) == (d("2026-03-28"), 1)
    assert (second.date, second.day, second.points) == (d("2026-03-29"), 2, 20)
    with pytest.raises(Conflict):
        daily_bonus_claim(account=a, now=utc("2026-03-29T20:59:59Z"))  # still 2026-03-29 (23-hour day)
    third = daily_bonus_claim(account=a, now=utc("2026-03-29T21:00:00Z"))
    assert (third.date, third.day) == (d("2026-03-30"), 3)


@pytest.mark.django_db
def test_r32_doubling_day_3_adds_another_30_once_and_counts_in_rankings():
    (a,) = make_accounts(1)
    start = d("2026-05-01")
    for i in range(3):
        daily_bonus_claim(account=a, now=noon(start + timedelta(days=i)))
    day3 = noon(start + timedelta(days=2))
    a.refresh_from_db()
    jokers_before = a.jokers
    assert daily_bonus_double(account=a, now=day3) == 30
    with pytest.raises(Conflict):
        daily_bonus_double(account=a, now=day3 + timedelta(hours=1))
    a.refresh_from_db()
    assert a.jokers == jokers_before  # no joker for doubling
    double = PointsLedgerEntry.objects.get(account=a, source="daily_bonus_double")
    assert (double.amount, double.counts, double.award_key) == (30, True, f"daily_bonus_double:{a.pk}:2026-05-03")
    assert account_points(account_id=a.pk, day=d("2026-05-03")) == {"amr": 90, "weekly": 90, "daily": 60}
    assert DailyBonusClaim.objects.get(account=a, day=d("2026-05-03")).doubled is True
    # the next day is not claimed yet: doubling is not allowed
    with pytest.raises(NotAllowed):
        daily_bonus_double(account=a, now=noon(start + timedelta(days=3)))


@pytest.mark.django_db
def test_r30_r32_rebuild_reproduces_daily_bonus_claims():
    (a,) = make_accounts(1)
    for i in range(11):
        daily_bonus_claim(account=a, now=noon(d("2026-01-01") + timedelta(days=i)))
    daily_bonus_double(account=a, now=noon(d("2026-01-11")))
    fields = ("day", "streak", "points", "jokers", "doubled", "claimed_at")
    before = list(DailyBonusClaim.objects.order_by("day").values_list(*fields))
    call_command("rebuild_projections", stdout=io.StringIO())
    assert list(DailyBonusClaim.objects.order_by("day").values_list(*fields)) == before
    a.refresh_from_db()
    assert a.jokers == 1


@pytest.mark.django_db
def test_r30_r32_api_claim_double_and_profile(guest):
    client, me = guest("dev-bonus-1")
    res = client.post("/api/v1/daily-bonus/double", format="json")
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    res = client.post("/api/v1/daily-bonus/claim", format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert res.status_code == 200
    body = res.json()
    assert (body["day"], body["points"], body["jokers"]) == (1, 10, 0)
    replay = client.post("/api/v1/daily-bonus/claim", format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert replay.status_code == 200 and replay.json() == body
    res = client.post("/api/v1/daily-bonus/claim", format="json")
    assert res.status_code == 409 and res.json()["error"]["code"] == "conflict"
    res = client.post("/api/v1/daily-bonus/double", format="json")
    assert res.status_code == 200 and res.json() == {"points": 10}
    res = client.post("/api/v1/daily-bonus/double", format="json")
    assert res.status_code == 409 and res.json()["error"]["code"] == "conflict"
    profile = client.get("/api/v1/account").json()
    assert profile["points"] == {"amr": 20, "weekly": 20, "daily": 20}
    assert profile["daily_bonus"] == {"streak": 1, "claimed_today": True, "doubled_today": True}
    assert client.get("/api/v1/rankings/daily/me").json() == {"place": 1, "points": 20, "total_players": 1}
    from rest_framework.test import APIClient

    assert APIClient().post("/api/v1/daily-bonus/claim", format="json").status_code == 401


@pytest.mark.django_db(transaction=True)
def test_r30_concurrent_claims_of_one_account_give_one_bonus():
    import threading

    from django.db import connection

    (a,) = make_accounts(1, prefix="c")
    now = utc("2026-06-01T09:00:00Z")
    barrier = threading.Barrier(4)
    outcomes = []

    def claim():
        try:
            barrier.wait()
            daily_bonus_claim(account=a, now=now)
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "conflict", "conflict", "ok"]
    assert PointsLedgerEntry.objects.filter(account=a, source="daily_bonus").count() == 1
    assert account_points(account_id=a.pk, day=d("2026-06-01"))["daily"] == 10


@pytest.mark.django_db
def test_r30_profile_streak_is_alive_until_a_day_is_missed():
    (a,) = make_accounts(1)
    for i in range(3):
        daily_bonus_claim(account=a, now=noon(d("2026-10-23") + timedelta(days=i)))  # 23, 24, 25 (25-h day)
    assert daily_bonus_status(account=a, now=utc("2026-10-25T21:59:59Z")) == {
        "streak": 3,
        "claimed_today": True,
        "doubled_today": False,
    }
    assert daily_bonus_status(account=a, now=utc("2026-10-25T22:00:00Z")) == {  # 2026-10-26 00:00 Romanian
        "streak": 3,
        "claimed_today": False,
        "doubled_today": False,
    }
    assert daily_bonus_status(account=a, now=utc("2026-10-26T22:00:00Z")) == {  # 2026-10-27: day 26 missed
        "streak": 0,
        "claimed_today": False,
        "doubled_today": False,
    }
