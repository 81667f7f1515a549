"""R-37: clubs (one club per player, ownership, an empty club closes, names unique
case-insensitively, validated)."""

from __future__ import annotations

import pytest

from rivals.clubs.models import Club
from rivals.models import Event


def _award(account_id, amount, key):
    from rivals.points.services import points_award

    points_award(account=account_id, amount=amount, source="single_player", key=key)


@pytest.mark.django_db
def test_r37_clubs_found_join_leave_hand_over_and_close(guest, api):
    ann, ann_id = guest("ann")
    bob, bob_id = guest("bob")
    cy, cy_id = guest("cy")
    res = ann.post("/api/v1/clubs", {"name": "  Lotus   Court "}, format="json")
    assert res.status_code == 201
    club = res.json()
    assert (club["name"], club["owner"]["id"], club["members_count"]) == ("Lotus Court", ann_id, 1)
    url = f"/api/v1/clubs/{club['id']}"

    # names are unique case-insensitively (after NFC) among open clubs
    res = bob.post("/api/v1/clubs", {"name": "LOTUS court"}, format="json")
    assert res.status_code == 409 and res.json()["error"]["code"] == "conflict"
    for bad in ("x" * 33, "Evil\u202eName", "tab\tname", ""):
        res = bob.post("/api/v1/clubs", {"name": bad}, format="json")
        assert res.status_code == 400 and "name" in res.json()["error"]["details"], bad

    assert bob.post(f"{url}/join").status_code == 200
    assert cy.post(f"{url}/join").status_code == 200
    _award(bob_id, 7, "c1")
    _award(cy_id, 5, "c2")
    page = api.get(url).json()
    assert [m["player"]["id"] for m in page["members"]] == [ann_id, bob_id, cy_id]
    assert page["points"] == {"amr": 12, "weekly": 12, "daily": 12} and page["members_count"] == 3

    # at most one club per player
    other = bob.post("/api/v1/clubs", {"name": "Second"}, format="json")
    assert other.status_code == 422
    assert api.get("/api/v1/clubs?q=lotus").json()["count"] == 1

    # only the owner hands over; then the owner leaving passes it to the longest-standing member
    assert bob.post(f"{url}/owner", {"owner": cy_id}, format="json").status_code == 403
    assert ann.post(f"{url}/owner", {"owner": bob_id}, format="json").json()["owner"]["id"] == bob_id
    assert bob.post(f"{url}/leave").json()["owner"]["id"] == ann_id
    assert ann.post(f"{url}/leave").json()["owner"]["id"] == cy_id
    closed = cy.post(f"{url}/leave").json()
    assert (closed["status"], closed["members_count"], closed["owner"]) == ("closed", 0, None)
    assert cy.post(f"{url}/join").status_code == 422  # a closed club takes nobody
    assert cy.post("/api/v1/clubs", {"name": "lotus COURT"}, format="json").status_code == 201  # name freed

    types = list(Event.objects.filter(stream_id=f"club-{club['id']}").values_list("type", flat=True))
    assert types == [
        "ClubFounded",
        "ClubJoined",
        "ClubJoined",
        "ClubOwnerChanged",
        "ClubLeft",
        "ClubOwnerChanged",
        "ClubLeft",
        "ClubOwnerChanged",
        "ClubLeft",
        "ClubClosed",
    ]


@pytest.mark.django_db
def test_r37_club_projection_rebuilds_from_its_events(guest):
    from rivals.clubs.models import ClubMember
    from rivals.projections import rebuild_all

    ann, _ = guest("ann")
    bob, _ = guest("bob")
    first = ann.post("/api/v1/clubs", {"name": "Red Phoenix"}, format="json").json()
    bob.post(f"/api/v1/clubs/{first['id']}/join")
    ann.post(f"/api/v1/clubs/{first['id']}/leave")
    before = (list(Club.objects.order_by("pk").values()), list(ClubMember.objects.order_by("pk").values()))
    rebuild_all()
    assert (list(Club.objects.order_by("pk").values()), list(ClubMember.objects.order_by("pk").values())) == before
