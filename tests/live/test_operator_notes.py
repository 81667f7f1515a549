"""An operator's note stays with the operators (issue 40, API.md "Notifications"): what an operator
does to a player — suspend, lift, grant jokers, correct a grant, reset a display name, rename a
club — tells the player a reason code and, only when the operator wrote one for them, a message.
The note's text never leaves the admin: it is in no notification (REST, and what the socket
pushes), no REST answer of the player's; it stays in the event, where operators read it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rivals.live import topics
from rivals.live.logread import note_entry
from rivals.live.models import Notification
from rivals.live.selectors import Topic
from rivals.models import Account, Event
from tests.factories import device_id_for

pytestmark = pytest.mark.django_db

NOTES = {  # one note per path, each naming what an operator would never tell the player
    "grant": "NOTE-grant: compensation for outage #12, ticket 4411",
    "correct": "NOTE-correct: granted twice by Ana, see ticket 4412",
    "reset": "NOTE-reset: reported by player 4242 twice",
    "rename": "NOTE-rename: owner also flagged 97c6",
    "suspend": "NOTE-suspend: bot-like play in Quick Match (flag 97c6)",
    "lift": "NOTE-lift: appeal by email, false positive of flag 97c6",
}


def player_facing(account: Account, client: APIClient) -> str:
    """Everything the player reads of their account: their notifications over REST and as the
    socket pushes them (the ``account`` topic's view of each notification entry), and their REST
    answers — the account, the public profile, their club. (The player's data export joins this
    list once it exists.)"""
    texts = [client.get("/api/v1/notifications", {"limit": 200}).content.decode()]
    topic = Topic("account", "account", f"account:{account.pk}", account.pk)
    rows = Notification.objects.filter(account_id=account.pk).values_list(
        "position", "account_id", "type", "data", "at"
    )
    texts += [json.dumps(topics.message(topic, note_entry(row))) for row in rows]
    texts.append(client.get("/api/v1/account").content.decode())
    texts.append(client.get(f"/api/v1/players/{account.pk}").content.decode())
    club = client.get("/api/v1/account").json().get("club")
    if club:
        texts.append(client.get(f"/api/v1/clubs/{club['id']}").content.decode())
    return "\n".join(texts)


def _act(operator, url: str, action: str, pk, **form):
    res = operator.post(url, {"action": action, "_selected_action": [pk], "apply": "1", **form})
    assert res.status_code == 302, res.content.decode()[:3000]


def test_every_operator_to_player_path_carries_the_code_and_the_message_never_the_note(operator):
    from rivals.clubs.services import club_found
    from rivals.reports.services import report_file

    client = APIClient()
    signin = client.post("/api/v1/auth/guest", {"device_id": device_id_for("notes-player")}, format="json").json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {signin['token']}")
    client.patch("/api/v1/account", {"display_name": "Rude Name"}, format="json")
    player = Account.objects.get(pk=signin["account_id"])
    club = club_found(account=player, name="Rude Club")
    reporter = Account.objects.create_user("notes-reporter")
    accounts, reports = "/admin/rivals/account/", "/admin/reports/report/"

    _act(
        operator,
        accounts,
        "grant_jokers",
        player.pk,
        amount="5",
        reason_code="outage",
        message="Sorry!",
        reason=NOTES["grant"],
    )
    _act(operator, accounts, "correct_jokers", player.pk, amount="2", reason_code="correction", reason=NOTES["correct"])
    name_report = report_file(reporter=reporter, subject=f"player:{player.pk}", reason="name")
    _act(
        operator,
        reports,
        "reset_display_name",
        name_report.pk,
        reason_code="abusive_name",
        message="Please pick another name.",
        reason=NOTES["reset"],
    )
    club_report = report_file(reporter=reporter, subject=f"club:{club.pk}", reason="name")
    _act(
        operator,
        reports,
        "rename_club",
        club_report.pk,
        name="Kind Club",
        reason_code="abusive_name",
        reason=NOTES["rename"],
    )
    _act(
        operator,
        accounts,
        "suspend",
        player.pk,
        reason_code="fair_play",
        message="We saw automated play.",
        reason=NOTES["suspend"],
    )
    _act(
        operator,
        accounts,
        "lift_suspension",
        player.pk,
        reason_code="other",
        message="Welcome back.",
        reason=NOTES["lift"],
    )

    told = {n.type: n.data for n in Notification.objects.filter(account_id=player.pk).exclude(type="prize_awarded")}
    operator_data = {
        k: told[k] for k in ("display_name_reset", "club_renamed", "account_suspended", "account_suspension_lifted")
    }
    assert operator_data == {
        "display_name_reset": {
            "display_name": f"Player {player.pk}",
            "reason_code": "abusive_name",
            "message": "Please pick another name.",
        },
        "club_renamed": {"club_id": str(club.pk), "name": "Kind Club", "reason_code": "abusive_name"},
        "account_suspended": {"reason_code": "fair_play", "message": "We saw automated play."},
        "account_suspension_lifted": {"reason_code": "other", "message": "Welcome back."},
    }
    jokers = [
        n.data for n in Notification.objects.filter(account_id=player.pk, type="jokers_changed").order_by("position")
    ]
    assert jokers == [
        {"account_id": player.pk, "delta": 5, "reason": "operator_grant", "reason_code": "outage", "message": "Sorry!"},
        {"account_id": player.pk, "delta": -2, "reason": "operator_correction", "reason_code": "correction"},
    ]
    seen = player_facing(player, client)
    for path, note in NOTES.items():
        assert note not in seen, path  # the note's text never leaves the admin
        assert note.split(": ", 1)[1] not in seen, path
    assert "We saw automated play." in seen and "Sorry!" in seen  # the messages written for the player do
    # the notes stay with the operators: in the events, and on the admin's pages
    logged = json.dumps(list(Event.objects.values_list("data", flat=True)))
    assert all(note in logged for note in NOTES.values())
    suspended = Event.objects.get(stream_id=player.stream_id, type="AccountSuspended")
    page = operator.get(reverse("admin:rivals_event_change", args=[suspended.position])).content.decode()
    assert NOTES["suspend"] in page


def test_the_forms_say_who_reads_what(operator):
    player = Account.objects.create_user("form-player", display_name="Jade Tiger")
    page = operator.post("/admin/rivals/account/", {"action": "suspend", "_selected_action": [player.pk]})
    text = page.content.decode()
    assert 'name="reason_code"' in text and 'name="message"' in text and 'name="reason"' in text
    assert "the player reads this" in text and "the player never sees it" in text
    for code in ("fair_play", "abusive_name", "terms", "outage", "goodwill", "correction", "other"):
        assert f'value="{code}"' in text
    assert text.index('name="reason_code"') < text.index('name="message"') < text.index('name="reason"')


def test_a_code_outside_the_list_is_refused_by_the_services():
    from rivals.errors import Invalid
    from rivals.fairplay.services import account_suspend

    player = Account.objects.create_user("code-player")
    with pytest.raises(Invalid, match="reason_code"):
        account_suspend(account=player, reason="x", actor="operator:test", reason_code="because")
    assert Account.objects.get(pk=player.pk).suspended_at is None


def test_a_tournament_cancelled_by_an_operator_says_operator_never_the_note():
    from tests.tournaments.helpers import players, running_tournament
    from tournaments.services.lifecycle import tournament_cancel_now

    t = running_tournament(players(2))
    tournament_cancel_now(tournament_id=t.pk, actor="operator:test", note="NOTE-cancel: sponsor pulled out")
    event = Event.objects.get(stream_id=t.stream_id, type="TournamentCancelled")
    entry = {"p": event.position, "s": event.stream_id, "t": event.type, "at": "", "d": event.data}
    pushed = topics.view(Topic(f"tournament:{t.pk}", "tournament", f"tournament:{t.pk}", 1), entry)
    assert pushed["reason"] == "operator" and "note" not in pushed
    for n in Notification.objects.filter(type="tournament_cancelled"):
        assert n.data == {"tournament_id": str(t.pk), "reason": "operator"}


def test_notifications_made_before_keep_no_note_after_the_migration():
    """Rows written when notifications carried the note (``{"reason": note}``, a grant's whole
    data) are made again from their events by migration live 0002 — as the rebuild makes them."""
    import importlib

    from django.apps import apps
    from django.db import connection

    from rivals.accounts.services import account_event
    from rivals.eventstore import NewEvent
    from rivals.rebuild import rebuild

    player = Account.objects.create_user("old-notes")
    old = [  # version 1 events, as they were written before issue 40
        NewEvent("AccountSuspended", {"account_id": player.pk, "reason": "OLD-NOTE flag 97c6"}),
        NewEvent("AccountSuspensionLifted", {"account_id": player.pk, "reason": "OLD-NOTE appeal"}),
        NewEvent(
            "JokersChanged", {"account_id": player.pk, "delta": 3, "reason": "operator_grant", "note": "OLD-NOTE #12"}
        ),
    ]
    for event in old:
        account_event(player, event, actor="operator:test")
    for n in Notification.objects.filter(account_id=player.pk):  # as the old mapping wrote them
        event = Event.objects.get(position=n.position)
        n.data = {"reason": event.data["reason"]} if n.type.startswith("account_") else dict(event.data)
        n.save()
    assert not rebuild(verify_only=True).equal
    migration = importlib.import_module("rivals.live.migrations.0002_operator_notes_kept")
    migration.notes_removed(apps, type("Editor", (), {"connection": connection})())
    data = dict(Notification.objects.filter(account_id=player.pk).values_list("type", "data"))
    assert data == {
        "account_suspended": {"reason_code": "other"},
        "account_suspension_lifted": {"reason_code": "other"},
        "jokers_changed": {"account_id": player.pk, "delta": 3, "reason": "operator_grant", "reason_code": "other"},
    }
    assert "OLD-NOTE" not in json.dumps(list(data.values()))
    assert rebuild(verify_only=True).equal
