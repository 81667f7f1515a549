"""R-37: public player profiles show name, club, trophies and ranking totals — never personal data."""

from __future__ import annotations

import json

import pytest

from rivals.models import Account


def _award(account_id, amount, key):
    from rivals.points.services import points_award

    points_award(account=account_id, amount=amount, source="single_player", key=key)


@pytest.mark.django_db
def test_r37_public_profile_shows_name_club_trophies_totals_and_places_never_personal_data(guest, api, settings):
    owner, owner_id = guest("device-secret-1")
    owner.patch("/api/v1/account", {"display_name": "Jade Dragon"}, format="json")
    account = Account.objects.get(pk=owner_id)
    account.email, account.email_verified = "jade@example.org", True
    account.save()
    club = owner.post("/api/v1/clubs", {"name": "Bamboo Grove"}, format="json").json()
    _award(owner_id, 40, "p1")
    _award(Account.objects.create_user("rival", None).pk, 50, "p2")

    res = api.get(f"/api/v1/players/{owner_id}")
    assert res.status_code == 200
    body = res.json()
    assert body == {
        "id": owner_id,
        "display_name": "Jade Dragon",
        "club": {"id": club["id"], "name": "Bamboo Grove"},
        "trophies": [],
        "points": {"amr": 40, "weekly": 40, "daily": 40},
        "places": {"amr": 2, "weekly": 2, "daily": 2},
        "stats": {  # T-10, R-37 (tests/statistics)
            "games_played": 0,
            "games_won": 0,
            "hints_used": 0,
            "rounds_played": 0,
            "rounds_won": 0,
            "tournaments_played": 0,
            "best_times": [],
        },
        "rating": {  # R-41 (tests/ratings): never rated, the package's start
            "player": {"id": owner_id, "display_name": "Jade Dragon"},
            "mu": 25.0,
            "sigma": 25 / 3,
            "ordinal": 0.0,
            "provisional": True,
            "rated": {"one_to_one": 0, "multi": 0},
            "place": None,
        },
    }
    text = json.dumps(body)
    token = owner._credentials["HTTP_AUTHORIZATION"].split()[1]
    for secret in ("jade@example.org", "device-secret-1", token, "127.0.0.1"):
        assert secret not in text
    assert api.get("/api/v1/players/999999").status_code == 404
    assert api.get("/api/v1/players/abc").status_code == 404
