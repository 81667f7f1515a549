"""R-34: past Weekly and Daily boards stay readable — ``?week=`` (its Monday) and ``?day=`` — final
as they stood at the period's end (every point awarded inside it, by the Romanian day of its
instant), with shared places as today's (R-35); a period that has not started is 422; the AMR's
365 days are kept."""

from __future__ import annotations

import pytest
from django.utils import timezone

from rivals.fairplay.services import account_suspend, account_suspension_lift
from tests.rankings.helpers import award, make_accounts, utc

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    state = {}
    monkeypatch.setattr(timezone, "now", lambda: state["now"])

    def set_to(instant):
        state["now"] = utc(instant)

    return set_to


def _board(api, path: str, **query) -> dict:
    res = api.get(path, query)
    assert res.status_code == 200, res.content
    body = res.json()
    return {**body, "rows": [(r["place"], r["player"]["display_name"], r["points"]) for r in body["results"]]}


def test_r34_a_past_week_is_final_as_it_stood_at_its_end_with_shared_places(api, clock):
    """The week of the spring change: Monday 2026-03-23 … Sunday 2026-03-29, which ends at
    2026-03-29T21:00:00Z (the 23-hour day, EXAMPLES R-34)."""
    clock("2026-03-23T08:00:00Z")
    a, b, c, d = make_accounts(4, "w")
    award(a, 30, utc("2026-03-29T20:59:59Z"))  # Sunday 23:59:59 +03:00: still the week
    award(b, 20, utc("2026-03-23T06:00:00Z"))  # Monday 08:00 +02:00
    award(b, 10, utc("2026-03-26T12:00:00Z"))
    award(c, 10, utc("2026-03-24T12:00:00Z"))
    award(d, 50, utc("2026-03-29T21:00:00Z"))  # Monday 00:00:00: the next week
    clock("2026-04-01T10:00:00Z")  # the next week's Wednesday
    award(c, 500, utc("2026-04-01T09:00:00Z"))  # this week: the past board does not move
    past = _board(api, "/api/v1/rankings/weekly", week="2026-03-23")
    assert past["rows"] == [(1, "W1", 30), (1, "W0", 30), (3, "W2", 10)]  # W0 reached 30 later
    assert past["count"] == 3
    assert past["period"] == {"starts_on": "2026-03-23", "ends_on": "2026-03-29", "final": True}
    assert _board(api, "/api/v1/rankings/weekly", week="2026-03-25")["rows"] == past["rows"]  # any day names it
    now = _board(api, "/api/v1/rankings/weekly")
    assert now["rows"] == [(1, "W2", 500), (2, "W3", 50)]
    assert now["period"] == {"starts_on": "2026-03-30", "ends_on": "2026-04-05", "final": False}
    assert _board(api, "/api/v1/rankings/weekly", week="2026-03-30")["rows"] == now["rows"]


@pytest.mark.parametrize(
    ("instant", "day"),
    [
        ("2026-03-28T21:59:59Z", "2026-03-28"),
        ("2026-03-28T22:00:00Z", "2026-03-29"),
        ("2026-10-24T20:59:59Z", "2026-10-24"),
        ("2026-10-24T21:00:00Z", "2026-10-25"),
        ("2026-10-25T21:30:00Z", "2026-10-25"),
    ],
)
def test_r34_a_past_day_holds_the_points_of_its_romanian_day_across_daylight_saving(api, clock, instant, day):
    clock("2026-03-20T10:00:00Z")
    first, second = make_accounts(2, "d")
    award(first, 40, utc(instant))
    award(second, 40, utc("2026-03-25T10:00:00Z"))  # another day
    clock("2026-11-02T10:00:00Z")
    board = _board(api, "/api/v1/rankings/daily", day=day)
    assert board["rows"] == [(1, "D0", 40)] and board["period"] == {"starts_on": day, "ends_on": day, "final": True}


def test_r34_a_period_that_has_not_started_is_422_today_is_the_live_board(api, clock):
    clock("2026-06-03T10:00:00Z")  # Wednesday 13:00 Romanian time
    (player,) = make_accounts(1, "f")
    award(player, 5, utc("2026-06-03T09:00:00Z"))
    for path, query in (("daily", {"day": "2026-06-04"}), ("weekly", {"week": "2026-06-08"})):
        res = api.get(f"/api/v1/rankings/{path}", query)
        assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed", query
    today = _board(api, "/api/v1/rankings/daily", day="2026-06-03")
    assert today["rows"] == [(1, "F0", 5)] and today["period"]["final"] is False
    clock("2026-06-03T20:59:59Z")  # 23:59:59: a point now still belongs to that day
    award(player, 1, utc("2026-06-03T20:59:59Z"))
    clock("2026-06-03T21:00:00Z")  # 00:00:00 of Thursday: Wednesday is final
    final = _board(api, "/api/v1/rankings/daily", day="2026-06-03")
    assert final["rows"] == [(1, "F0", 6)] and final["period"]["final"] is True
    assert _board(api, "/api/v1/rankings/daily")["rows"] == []


def test_r34_boards_are_kept_for_the_amr_s_365_days(api, clock):
    clock("2026-06-03T10:00:00Z")
    (player,) = make_accounts(1, "k")
    award(player, 5, utc("2025-06-04T10:00:00Z"))  # day D−364: inside
    assert _board(api, "/api/v1/rankings/daily", day="2025-06-04")["rows"] == [(1, "K0", 5)]
    res = api.get("/api/v1/rankings/daily", {"day": "2025-06-03"})  # D−365: gone
    assert res.status_code == 404 and res.json()["error"]["details"] == {"kept_from": "2025-06-04"}
    assert api.get("/api/v1/rankings/weekly", {"week": "2025-06-02"}).status_code == 404  # its Monday is older
    assert api.get("/api/v1/rankings/weekly", {"week": "2025-06-09"}).status_code == 200


@pytest.mark.parametrize(
    ("path", "query"),
    [("amr", {"week": "2026-06-01"}), ("amr", {"day": "2026-06-01"}), ("weekly", {"day": "2026-06-01"})]
    + [("daily", {"week": "2026-06-01"})],
)
def test_r34_a_period_the_board_does_not_have_is_422(api, clock, path, query):
    clock("2026-06-03T10:00:00Z")
    res = api.get(f"/api/v1/rankings/{path}", query)
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("daily", {"day": "01-06-2026"}),
        ("daily", {"day": ""}),
        ("weekly", {"week": "2026-02-30"}),
    ],
)
def test_r34_a_malformed_period_is_400(api, clock, path, query):
    clock("2026-06-03T10:00:00Z")
    res = api.get(f"/api/v1/rankings/{path}", query)
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"


def test_r34_r38_a_player_suspended_later_leaves_past_boards_too_and_returns_with_the_lift(api, clock):
    """Decision: the totals of a past board are final; who is shown follows R-38 (a suspended or
    closed account is absent from every board, past ones included, until lifted)."""
    clock("2026-06-01T08:00:00Z")
    a, b, c = make_accounts(3, "s")
    for account, points in ((a, 30), (b, 20), (c, 20)):
        award(account, points, utc("2026-06-02T10:00:00Z"))
    clock("2026-06-10T10:00:00Z")
    assert _board(api, "/api/v1/rankings/daily", day="2026-06-02")["rows"] == [
        (1, "S0", 30),
        (2, "S1", 20),
        (2, "S2", 20),
    ]
    account_suspend(account=a, reason="cheating", actor="operator:test")
    after = _board(api, "/api/v1/rankings/daily", day="2026-06-02")
    assert after["rows"] == [(1, "S1", 20), (1, "S2", 20)] and after["count"] == 2
    account_suspension_lift(account=a, reason="appeal", actor="operator:test")
    assert _board(api, "/api/v1/rankings/weekly", week="2026-06-01")["rows"][0] == (1, "S0", 30)
