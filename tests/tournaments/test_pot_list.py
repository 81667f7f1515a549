"""P-5 (API.md "Community"): pot competitions listed by status — upcoming, running, finished —
with their settings (entry open or listed, start, end, time limit, prize split), paginated; a pot
whose end passed is ranked and paid by the read itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rivals.accounts.services import account_guest_signin
from tournaments.models import Pot
from tournaments.services.pots import pot_create

pytestmark = pytest.mark.django_db


def _pot(title: str, starts_in: int, ends_in: int, **kw) -> Pot:
    now = timezone.now()
    settings = {
        "title": title,
        "code": "MJ1-L08-AAAAAAB",
        "time_limit_s": 300,
        "prize_split": [80, 40],
        "starts_at": now + timedelta(minutes=starts_in),
        "ends_at": now + timedelta(minutes=ends_in),
    }
    settings.update(kw)
    return pot_create(actor="operator:1", now=now - timedelta(hours=2), **settings)


def _titles(api, **query) -> list[str]:
    res = api.get("/api/v1/pots", query)
    assert res.status_code == 200, res.content
    return [p["title"] for p in res.json()["results"]]


def test_p5_pots_are_listed_by_status_with_their_settings(api):
    listed = [account_guest_signin(device_id=f"pot-list-{i}")[0] for i in range(2)]
    _pot("Later", 60, 120, entrants=[a.pk for a in listed], open_entry=False)
    _pot("Now", -5, 30, time_limit_s=240, prize_split=[5, 2], counts=True)
    soon_over = _pot("Over", -60, -1)
    assert _titles(api, status="upcoming") == ["Later"]
    assert _titles(api, status="running") == ["Now"]
    assert _titles(api, status="finished") == ["Over"]  # its end passed: the read ranked it first
    soon_over.refresh_from_db()
    assert soon_over.status == "finished"
    assert _titles(api) == ["Over", "Now", "Later"]  # by start
    body = api.get("/api/v1/pots", {"status": "running"}).json()
    pot = Pot.objects.get(title="Now")
    assert body == {
        "count": 1,
        "results": [
            {
                "id": str(pot.pk),
                "title": "Now",
                "status": "running",
                "entry": "open",
                "starts_at": pot.starts_at.isoformat().replace("+00:00", "Z"),
                "ends_at": pot.ends_at.isoformat().replace("+00:00", "Z"),
                "time_limit_s": 240,
                "prize_split": [5, 2],
                "counts": True,
                "entrants": 0,
            }
        ],
    }
    later = api.get("/api/v1/pots", {"status": "upcoming"}).json()["results"][0]
    assert (later["entry"], later["entrants"]) == ("listed", 2)


def test_p5_the_list_is_paginated_and_refuses_an_unknown_status(api):
    for i in range(5):
        _pot(f"Pot {i}", 10 + i, 100)
    first = api.get("/api/v1/pots", {"status": "upcoming", "limit": 2}).json()
    second = api.get("/api/v1/pots", {"status": "upcoming", "limit": 2, "offset": 2}).json()
    assert first["count"] == second["count"] == 5
    assert [p["title"] for p in first["results"] + second["results"]] == ["Pot 0", "Pot 1", "Pot 2", "Pot 3"]
    for bad in ({"status": "open"}, {"status": ""}, {"limit": 0}):
        assert api.get("/api/v1/pots", bad).status_code == 400
