"""R-38's decision on a suspended account's public face: it can sign in, read, and add or change
its own credentials, but cannot change its display name, found or join a club, or file a report
(403 ``forbidden`` in the API's error format) — and nothing is written when it is refused."""

from __future__ import annotations

import pytest

from rivals.accounts.services import account_public_face_guard, account_rename
from rivals.clubs.models import Club, ClubMember
from rivals.clubs.services import club_found, club_join
from rivals.errors import Forbidden
from rivals.fairplay.services import account_suspend, account_suspension_lift
from rivals.models import Account, Event
from rivals.reports.models import Report
from rivals.reports.services import report_file
from tests.accounts.conftest import code_in
from tests.factories import device_id_for

pytestmark = pytest.mark.django_db
OPERATOR = "operator:7"


@pytest.fixture
def suspended(guest):
    """A suspended player (API client, id), a club founded by another player, and that player."""
    client, account_id = guest("r38-face")
    other_client, other_id = guest("r38-other")
    assert other_client.post("/api/v1/clubs", {"name": "Jade Garden"}, format="json").status_code == 201
    account_suspend(account=Account.objects.get(pk=account_id), reason="bot play", actor=OPERATOR)
    return client, account_id, Club.objects.get(name="Jade Garden"), other_id


def _refused(res, doing: str) -> None:
    assert res.status_code == 403, res.content
    error = res.json()["error"]
    assert error["code"] == "forbidden" and "suspended" in error["message"]
    assert error["details"]["doing"] == doing


def test_r38_a_suspended_account_cannot_change_its_display_name(suspended):
    client, account_id, _, _ = suspended
    before = Event.objects.count()
    name = Account.objects.get(pk=account_id).display_name
    _refused(client.patch("/api/v1/account", {"display_name": "Fresh Face"}, format="json"), "display_name_change")
    assert Account.objects.get(pk=account_id).display_name == name and Event.objects.count() == before
    assert (
        client.patch("/api/v1/account", {"display_name": "x" * 99}, format="json").status_code == 400
    )  # the body first


def test_r38_a_suspended_account_cannot_found_a_club(suspended):
    client, account_id, _, _ = suspended
    before = Event.objects.count()
    _refused(client.post("/api/v1/clubs", {"name": "Bot Club"}, format="json"), "club_found")
    assert not Club.objects.filter(name="Bot Club").exists() and Event.objects.count() == before


def test_r38_a_suspended_account_cannot_join_a_club(suspended):
    client, account_id, club, _ = suspended
    before = Event.objects.count()
    _refused(client.post(f"/api/v1/clubs/{club.pk}/join"), "club_join")
    assert not ClubMember.objects.filter(account_id=account_id).exists() and Event.objects.count() == before


def test_r38_a_suspended_account_cannot_file_a_report(suspended):
    client, _, club, other_id = suspended
    for subject in (f"player:{other_id}", f"club:{club.pk}"):
        res = client.post("/api/v1/reports", {"subject": subject, "reason": "name"}, format="json")
        assert res.status_code == 403 and res.json()["error"]["code"] == "forbidden"
    assert not Report.objects.exists()


def test_r38_the_services_refuse_a_suspended_account_as_the_api_does(suspended):
    """The rule is the services' (any caller: the API, the demo world, a job), read from the row."""
    _, account_id, club, other_id = suspended
    account = Account.objects.get(pk=account_id)
    for act, doing in (
        (lambda: account_rename(account=account, display_name="Fresh Face"), "display_name_change"),
        (lambda: club_found(account=account, name="Bot Club"), "club_found"),
        (lambda: club_join(account=account, club_id=club.pk), "club_join"),
        (lambda: report_file(reporter=account, subject=f"player:{other_id}", reason="name"), "report_file"),
    ):
        with pytest.raises(Forbidden) as refused:
            act()
        assert refused.value.details["doing"] == doing
    stale = Account.objects.get(pk=other_id)  # loaded before its suspension
    account_suspend(account=Account.objects.get(pk=other_id), reason="test", actor=OPERATOR)
    with pytest.raises(Forbidden):
        account_public_face_guard(account=stale, doing="club_found")


def test_r38_a_suspended_account_still_signs_in_reads_and_manages_its_credentials(
    suspended, api, console_email, django_capture_on_commit_callbacks
):
    client, account_id, club, other_id = suspended
    signed = api.post("/api/v1/auth/guest", {"device_id": device_id_for("r38-face")}, format="json")
    assert signed.status_code == 200 and signed.json()["account_id"] == account_id
    me = client.get("/api/v1/account")
    assert me.status_code == 200 and me.json()["suspended"] is True
    assert client.get(f"/api/v1/clubs/{club.pk}").status_code == 200
    assert client.get(f"/api/v1/players/{other_id}").status_code == 200
    assert client.get("/api/v1/clubs").status_code == 200
    console_email()
    with django_capture_on_commit_callbacks(execute=True):
        added = client.post(
            "/api/v1/account/credentials", {"email": "r38@example.org", "password": "tile-matcher-77"}, format="json"
        )
    assert added.status_code == 202
    verified = client.post("/api/v1/account/verify", {"token": code_in(console_email())}, format="json")
    assert verified.status_code == 200
    login = api.post("/api/v1/auth/login", {"email": "r38@example.org", "password": "tile-matcher-77"}, format="json")
    assert login.status_code == 200 and login.json()["account_id"] == account_id
    changed = client.post(
        "/api/v1/account/password",
        {"old_password": "tile-matcher-77", "new_password": "tile-matcher-88"},
        format="json",
    )
    assert changed.status_code == 200
    # the suspension lifted, the public face is the player's again
    account_suspension_lift(account=Account.objects.get(pk=account_id), reason="appeal", actor=OPERATOR)
    assert client.patch("/api/v1/account", {"display_name": "Fresh Face"}, format="json").status_code == 200
    assert client.post(f"/api/v1/clubs/{club.pk}/join").status_code == 200
