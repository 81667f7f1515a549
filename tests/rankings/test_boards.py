"""R-34 windows and R-35 ranked lists: AMR (365 Romanian days), Weekly, Daily; places and pages."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rankings.days import day_start_utc, romanian_today
from rankings.selectors import account_points, ranking_me, ranking_page
from rankings.services import rankings_roll
from tests.rankings.helpers import award, d, make_accounts, utc


@pytest.mark.django_db
def test_r34_amr_includes_exactly_days_d_minus_364_to_d():
    (a,) = make_accounts(1)
    today = d("2027-03-28")  # a spring DST day, so the window crosses both changes of 2026
    # one point on each of the 400 days before and including today, at Romanian 00:00:00
    for back in range(400):
        award(a, 1, day_start_utc(today - timedelta(days=back)))
    award(a, 1000, day_start_utc(today - timedelta(days=365)) + timedelta(hours=23, minutes=59, seconds=59))
    rankings_roll(today=today)
    assert account_points(account_id=a.pk, day=today)["amr"] == 365  # days D−364 … D
    rankings_roll(today=today + timedelta(days=1))  # day D−364 leaves, D+1 (nothing yet) enters
    assert account_points(account_id=a.pk, day=today)["amr"] == 364
    award(a, 1, day_start_utc(today + timedelta(days=1)))
    assert account_points(account_id=a.pk, day=today)["amr"] == 365


@pytest.mark.django_db
def test_r34_award_after_midnight_counts_at_once_and_the_roll_moves_the_window():
    (a,) = make_accounts(1)
    award(a, 10, utc("2026-03-28T12:00:00Z"))
    rankings_roll(today=d("2026-03-28"))
    award(a, 5, utc("2026-03-28T22:00:30Z"))  # 2026-03-29 00:00:30 Romanian, before the roll
    assert account_points(account_id=a.pk, day=d("2026-03-29")) == {"amr": 15, "weekly": 15, "daily": 5}
    # the day that was 365 days earlier leaves the AMR at the roll of 2027-03-28
    rankings_roll(today=d("2027-03-27"))
    assert account_points(account_id=a.pk, day=d("2027-03-27"))["amr"] == 15
    rankings_roll(today=d("2027-03-28"))
    assert account_points(account_id=a.pk, day=d("2027-03-28"))["amr"] == 5
    rankings_roll(today=d("2027-03-29"))
    assert account_points(account_id=a.pk, day=d("2027-03-29"))["amr"] == 0


@pytest.mark.django_db
def test_r35_equal_points_share_a_place_1_1_3_and_display_order():
    a, b, c, e = make_accounts(4)
    day = d("2026-10-25")
    award(c, 30, utc("2026-10-25T08:00:00Z"))
    award(b, 50, utc("2026-10-25T09:00:00Z"))
    award(a, 50, utc("2026-10-25T09:00:00Z"))  # same total at the same instant as b: lower id first
    award(e, 20, utc("2026-10-25T07:00:00Z"))
    award(e, 30, utc("2026-10-25T08:30:00Z"))  # e reaches 50 earlier (08:30) than a and b
    page = ranking_page(board="daily", limit=10, offset=0, day=day)
    assert page["count"] == 4
    assert [(r["place"], r["player"]["id"], r["points"]) for r in page["results"]] == [
        (1, e.pk, 50),
        (1, a.pk, 50),
        (1, b.pk, 50),
        (4, c.pk, 30),
    ]
    assert page["results"][0]["player"] == {"id": e.pk, "display_name": "P3"}
    assert ranking_me(board="daily", account_id=b.pk, day=day) == {"place": 1, "points": 50, "total_players": 4}
    assert ranking_me(board="daily", account_id=c.pk, day=day) == {"place": 4, "points": 30, "total_players": 4}
    # pages: offset inside a tie keeps the shared place
    page2 = ranking_page(board="daily", limit=2, offset=2, day=day)
    assert [(r["place"], r["player"]["id"]) for r in page2["results"]] == [(1, b.pk), (4, c.pk)]
    assert ranking_page(board="daily", limit=2, offset=4, day=day) == {"count": 4, "results": []}


@pytest.mark.django_db
def test_r35_account_without_points_is_unlisted_but_placed_after_everyone():
    a, b, z = make_accounts(3)
    award(a, 10, utc("2026-04-01T10:00:00Z"))
    award(b, 10, utc("2026-04-01T11:00:00Z"))
    assert ranking_me(board="amr", account_id=z.pk, day=d("2026-04-01")) == {
        "place": 3,
        "points": 0,
        "total_players": 2,
    }
    assert ranking_me(board="weekly", account_id=a.pk, day=d("2026-04-06")) == {
        "place": 1,
        "points": 0,
        "total_players": 0,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("seek_from", [1000, 1])
def test_r35_places_across_histogram_buckets_and_deep_pages(seek_from, monkeypatch):
    from rankings import selectors

    monkeypatch.setattr(selectors, "SEEK_FROM_OFFSET", seek_from)  # 1: every page > 0 seeks by points
    accounts = make_accounts(12)
    at = utc("2026-07-01T10:00:00Z")
    amounts = [5000, 3000, 2048, 2047, 2047, 1100, 1024, 1023, 700, 700, 3, 1]
    for i, (acc, amount) in enumerate(zip(accounts, amounts, strict=True)):
        award(acc, amount, at + timedelta(seconds=i))
    expected_places = [1, 2, 3, 4, 4, 6, 7, 8, 9, 9, 11, 12]
    for acc, amount, place in zip(accounts, amounts, expected_places, strict=True):
        assert ranking_me(board="amr", account_id=acc.pk, day=d("2026-07-01")) == {
            "place": place,
            "points": amount,
            "total_players": 12,
        }
    full = ranking_page(board="amr", limit=100, offset=0, day=d("2026-07-01"))["results"]
    assert [r["place"] for r in full] == expected_places
    for offset in range(13):
        for limit in (1, 3):
            part = ranking_page(board="amr", limit=limit, offset=offset, day=d("2026-07-01"))["results"]
            assert part == full[offset : offset + limit]


@pytest.mark.django_db
def test_r35_api_lists_and_me(guest):
    client, me = guest("dev-rank-1")
    other, other_id = guest("dev-rank-2")
    from django.utils import timezone

    award(other_id, 40, timezone.now())
    award(me, 25, timezone.now())
    res = client.get("/api/v1/rankings/daily?limit=1&offset=0")
    assert res.status_code == 200
    today = romanian_today().isoformat()
    assert res.json() == {
        "count": 2,
        "results": [{"place": 1, "player": {"id": other_id, "display_name": f"Player {other_id}"}, "points": 40}],
        "period": {"starts_on": today, "ends_on": today, "final": False},  # issue 24: the days it covers
    }
    res = client.get("/api/v1/rankings/amr/me")
    assert res.json() == {"place": 2, "points": 25, "total_players": 2}
    assert client.get("/api/v1/rankings/weekly?limit=0").status_code == 400
    assert client.get("/api/v1/rankings/monthly").status_code == 404
    assert client.get("/api/v1/account").json()["points"] == {"amr": 25, "weekly": 25, "daily": 25}
