"""R-34: every read applies the windows of its own instant. From 00:00:00 Romanian time day D−365
has left the AMR — on the board, ``/me``, the account, public profiles and club sums — whether or
not the nightly roll has run (it never runs in these tests); Daily and Weekly read right at
midnight too. Also across both daylight-saving changes, and with the job missing for days."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rankings.models import RankingClock
from rankings.selectors import account_points, public_places, ranking_me, ranking_page
from tests.rankings.helpers import award, d, make_accounts, utc

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, moved by the test (the API reads ``timezone.now()``)."""
    state = {}
    monkeypatch.setattr(timezone, "now", lambda: state["now"])

    def set_to(instant):
        state["now"] = instant

    return set_to


def _every_read(client, account_id: int, club_id: str) -> dict[str, list[int]]:
    """AMR, Weekly and Daily as each read shows them: board, /me, the account, public profile, club."""
    seen: dict[str, list[int]] = {}
    for board in ("amr", "weekly", "daily"):
        page = client.get(f"/api/v1/rankings/{board}").json()["results"]
        me = client.get(f"/api/v1/rankings/{board}/me").json()
        seen[board] = [
            next((r["points"] for r in page if r["player"]["id"] == account_id), 0),
            me["points"],
            client.get("/api/v1/account").json()["points"][board],
            client.get(f"/api/v1/players/{account_id}").json()["points"][board],
            client.get(f"/api/v1/clubs/{club_id}").json()["points"][board],
        ]
    return seen


def test_r34_amr_at_235959_and_000000_romanian_time_without_the_nightly_roll(guest, clock):
    from rivals.models import Account

    # D = Tuesday 2026-12-01 (winter time, +02:00): 00:00:00 is 2026-11-30T22:00:00Z
    clock(utc("2025-11-30T08:00:00Z"))
    client, account_id = guest("windows-device")
    club_id = client.post("/api/v1/clubs", {"name": "Window Club"}, format="json").json()["id"]
    account = Account.objects.get(pk=account_id)
    award(account, 10, utc("2025-12-01T10:00:00Z"))  # day D−365: inside AMR until 23:59:59 of D−1
    award(account, 5, utc("2025-12-02T10:00:00Z"))  # day D−364
    award(account, 1, utc("2026-11-30T08:00:00Z"))  # day D−1, a Monday
    clock(utc("2026-11-30T21:59:59Z"))  # D−1 23:59:59
    assert _every_read(client, account_id, club_id) == {"amr": [16] * 5, "weekly": [1] * 5, "daily": [1] * 5}
    clock(utc("2026-11-30T22:00:00Z"))  # D 00:00:00: D−365 has left AMR, D−1 has left Daily
    assert _every_read(client, account_id, club_id) == {"amr": [6] * 5, "weekly": [1] * 5, "daily": [0] * 5}
    assert RankingClock.objects.get().window_start == d("2025-12-02")  # applied by the reads themselves
    clock(utc("2026-12-06T22:00:00Z"))  # Monday 2026-12-07: last week has left Weekly
    assert _every_read(client, account_id, club_id)["weekly"] == [0] * 5


def test_r34_with_the_nightly_job_not_run_for_days_each_read_still_counts_its_own_365_days():
    (a,) = make_accounts(1)
    # one point on each of D−366 … D−363 (1, 2, 4, 8), D = 2026-12-01; no roll ever runs
    for back, amount in ((366, 1), (365, 2), (364, 4), (363, 8)):
        award(a, amount, utc("2026-11-30T22:00:00Z") - timedelta(days=back) + timedelta(hours=12))
    assert account_points(account_id=a.pk, now=utc("2026-11-30T21:59:59Z"))["amr"] == 2 + 4 + 8
    assert account_points(account_id=a.pk, now=utc("2026-11-30T22:00:00Z"))["amr"] == 4 + 8
    assert ranking_me(board="amr", account_id=a.pk, now=utc("2026-12-01T22:00:00Z"))["points"] == 8
    assert ranking_page(board="amr", limit=10, offset=0, now=utc("2026-12-02T22:00:00Z")) == {"count": 0, "results": []}
    assert public_places(account_id=a.pk, now=utc("2026-12-03T22:00:00Z"))["points"]["amr"] == 0


@pytest.mark.parametrize(
    ("awarded", "last_instant_in", "first_instant_out"),
    [
        # 2026-03-29 is the 23-hour day (clocks go 03:00 → 04:00); it leaves AMR at 2027-03-29
        # 00:00 Romanian time, +03:00 since 2027-03-28's own change
        ("2026-03-28T23:00:00Z", "2027-03-28T20:59:59Z", "2027-03-28T21:00:00Z"),
        # 2026-10-25 is the 25-hour day (04:00 → 03:00); its 23:30 (+02:00) leaves AMR at
        # 2027-10-25 00:00, still summer time (+03:00) in 2027
        ("2026-10-25T21:30:00Z", "2027-10-24T20:59:59Z", "2027-10-24T21:00:00Z"),
    ],
)
def test_r34_a_dst_day_leaves_amr_at_romanian_midnight_365_days_later(awarded, last_instant_in, first_instant_out):
    a, b = make_accounts(2)
    award(a, 7, utc(awarded))
    award(b, 1, utc(first_instant_out) + timedelta(hours=1))  # keeps the board alive after the change
    last_in, first_out = utc(last_instant_in), utc(first_instant_out)
    assert account_points(account_id=a.pk, now=last_in)["amr"] == 7
    assert ranking_page(board="amr", limit=10, offset=0, now=last_in)["results"][0]["points"] == 7
    assert account_points(account_id=a.pk, now=first_out)["amr"] == 0
    assert ranking_me(board="amr", account_id=a.pk, now=first_out) == {"place": 2, "points": 0, "total_players": 1}
