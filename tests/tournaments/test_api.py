"""API.md "Tournaments": lists, the page, registration and its errors (real HTTP through DRF)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rivals.points.services import points_award
from tournaments.services.lifecycle import tournament_cancel, tournament_create

pytestmark = pytest.mark.django_db


def live_tournament(kind="regular", *, start_in=timedelta(minutes=10), **kw):
    now = timezone.now()
    settings = {
        "kind": kind,
        "title": "Live Cup",
        "starts_at": now + start_in,
        "ends_at": now + start_in + timedelta(hours=1),
        "min_players": 2,
        "prize_table": [100, 50],
        "multipliers": [1, 2],
        "registration_opens_at": now - timedelta(minutes=1),
    }
    settings.update(kw)
    return tournament_create(actor="operator:1", **settings)


def test_r21_list_by_status_and_the_page_shows_the_settings(api, guest):
    t = live_tournament()
    gone = live_tournament(title="Gone")
    tournament_cancel(tournament_id=gone.pk, actor="operator:1")
    res = api.get("/api/v1/tournaments?status=upcoming")
    assert res.status_code == 200
    body = res.json()
    assert body["count"] == 1
    row = body["results"][0]
    assert (
        row["id"],
        row["kind"],
        row["status"],
        row["min_players"],
        row["prize_table"],
        row["multipliers"],
        row["registered"],
    ) == (str(t.pk), "regular", "upcoming", 2, [100, 50], [1, 2], 0)
    assert api.get("/api/v1/tournaments?status=cancelled").json()["results"][0]["cancel_reason"] == "operator"
    assert api.get("/api/v1/tournaments?status=soon").json()["error"]["code"] == "invalid"
    assert api.get("/api/v1/tournaments").json()["count"] == 2
    page = api.get(f"/api/v1/tournaments/{t.pk}").json()
    assert page["standings"] == [] and page["me"] is None and page["current_table"] is None
    assert api.get("/api/v1/tournaments/not-a-uuid").status_code == 404


def test_registration_through_the_api_and_its_errors(api, guest):
    t = live_tournament()
    client, account_id = guest("reg-1")
    assert api.post(f"/api/v1/tournaments/{t.pk}/register").status_code == 401
    res = client.post(f"/api/v1/tournaments/{t.pk}/register")
    assert res.status_code == 201 and res.json()["registered"] and res.json()["registered_count"] == 1
    again = client.post(f"/api/v1/tournaments/{t.pk}/register")
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
    page = client.get(f"/api/v1/tournaments/{t.pk}").json()
    assert page["registered"] == 1 and page["me"]["registered"] and page["standings"][0]["player"]["id"] == account_id
    res = client.delete(f"/api/v1/tournaments/{t.pk}/register")
    assert res.status_code == 200 and res.json() == {**res.json(), "registered": False, "registered_count": 0}
    assert client.delete(f"/api/v1/tournaments/{t.pk}/register").json()["error"]["code"] == "not_allowed"
    cancelled = live_tournament(title="Off")
    tournament_cancel(tournament_id=cancelled.pk, actor="operator:1")
    res = client.post(f"/api/v1/tournaments/{cancelled.pk}/register")
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    # idempotent retry of the same POST: the first answer, nothing new
    key = {"HTTP_IDEMPOTENCY_KEY": "reg-retry"}
    first = client.post(f"/api/v1/tournaments/{t.pk}/register", **key)
    second = client.post(f"/api/v1/tournaments/{t.pk}/register", **key)
    assert first.status_code == second.status_code == 201 and second.headers["Idempotent-Replayed"] == "true"


def test_register_after_the_start_is_refused_and_the_read_starts_it(guest):
    t = live_tournament(start_in=timedelta(seconds=-1), registration_opens_at=timezone.now() - timedelta(minutes=5))
    client, _ = guest("late")
    res = client.post(f"/api/v1/tournaments/{t.pk}/register")
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    t.refresh_from_db()
    assert (t.status, t.cancel_reason) == ("cancelled", "too_few_players")  # the due start was applied first


def test_r28_not_eligible_names_the_current_figure(guest):
    t = live_tournament("champions", min_players=16)
    client, account_id = guest("champ")
    points_award(account=account_id, amount=150, source="tournament_prize", key="test:champ")
    res = client.post(f"/api/v1/tournaments/{t.pk}/register")
    assert res.status_code == 403
    error = res.json()["error"]
    assert error["code"] == "not_eligible" and error["details"]["weekly_prize_points"] == 150
    assert error["details"]["required"] == 200
    points_award(account=account_id, amount=50, source="tournament_prize", key="test:champ2")
    assert client.post(f"/api/v1/tournaments/{t.pk}/register").status_code == 201
    assert client.get(f"/api/v1/tournaments/{t.pk}").json()["min_players"] == 16


def test_openapi_schema_lists_the_tournament_paths(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/v1/tournaments", "/api/v1/tournaments/{tournament_id}/register", "/api/v1/pots/{pot_id}"):
        assert path in schema
