"""Notifications (API.md "Notifications"): a projection of events, the same over REST as on the
``account`` topic, rebuilt from the log (``rebuild_projections --verify`` covers them)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from rivals.fairplay.services import account_suspend, account_suspension_lift
from rivals.live.models import Notification
from rivals.matches import services as svc
from rivals.models import Account
from rivals.rebuild import rebuild
from tests.matches.helpers import accounts

pytestmark = pytest.mark.django_db


def kinds(account) -> list[str]:
    return list(
        Notification.objects.filter(account_id=account.pk).order_by("position", "id").values_list("type", flat=True)
    )


def test_duels_queue_and_suspension_notify_the_accounts_concerned(guest):
    a, b, c = accounts(3, prefix="notify")
    now = timezone.now()
    duel, _ = svc.duel_challenge(account=a, opponent=b.pk, now=now)
    svc.duel_accept(account=b, duel_id=duel.pk, now=now)
    declined, _ = svc.duel_challenge(account=b, opponent=c.pk, now=now)
    svc.duel_decline(account=b, duel_id=declined.pk, now=now)  # a withdrawal: the opponent hears of it
    assert kinds(b)[:1] == ["duel_challenged"] and "duel_accepted" in kinds(a)
    assert "duel_declined" in kinds(c) and "duel_declined" not in kinds(b)
    assert kinds(a).count("round_started") == 1 and kinds(b).count("round_started") == 1
    t1, _ = svc.queue_join(account=a, mode="quick", now=now + timedelta(minutes=10))
    svc.queue_join(account=c, mode="quick", now=now + timedelta(minutes=10))
    found = Notification.objects.get(account_id=a.pk, type="match_found")
    assert found.data["ticket_id"] == str(t1.pk) and found.data["match_id"]
    account_suspend(account=c, reason="names", actor="operator:test")
    account_suspension_lift(account=c, reason="ok", actor="operator:test")
    assert kinds(c)[-2:] == ["account_suspended", "account_suspension_lifted"]

    report = rebuild(verify_only=True)
    assert report.equal, report.differences
    assert "live_notification" in {d.table for d in report.differences}


def test_rest_pages_after_since_oldest_first(guest):
    client, account_id = guest("rest-notes")
    account = Account.objects.get(pk=account_id)
    other = accounts(1, prefix="rest-other")[0]
    for _ in range(3):
        duel, _ = svc.duel_challenge(account=other, opponent=account.pk, now=timezone.now())
        svc.duel_decline(account=account, duel_id=duel.pk, now=timezone.now())
    page = client.get("/api/v1/notifications?limit=2").json()
    assert page["count"] == 3 and [n["type"] for n in page["results"]] == ["duel_challenged"] * 2
    first = page["results"][0]
    assert set(first) == {"position", "type", "at", "data"} and first["data"]["challenger"] == other.pk
    rest = client.get(f"/api/v1/notifications?since={page['results'][1]['position']}").json()
    assert rest["count"] == 1 and rest["results"][0]["position"] > page["results"][1]["position"]
    assert client.get("/api/v1/notifications?since=-1").status_code == 400
    assert client.get("/api/v1/notifications?limit=x").json()["error"]["code"] == "invalid"


def test_the_ticket_endpoint(guest, api):
    client, _ = guest("ticket-rest")
    res = client.post("/api/v1/live/ticket")
    assert res.status_code == 201 and set(res.json()) == {"ticket", "expires_at", "url"}
    assert res.json()["url"].endswith(f"/api/v1/live?ticket={res.json()['ticket']}")
    assert api.post("/api/v1/live/ticket").status_code == 401


def test_a_queue_match_names_its_ticket_owner_and_one_recorded_before_is_told_by_its_ticket(settings):
    """QueueMatched version 2 names the ticket's owner (issue 35: its ``match_found`` reads no earlier
    event); a version 1 event (no ``account_id``) is told to the owner its ``QueueJoined`` names —
    live and by the rebuild."""
    from rivals.eventstore import NewEvent, event_append
    from rivals.matches.events import QUEUE_MATCHED
    from rivals.models import Event

    settings.RIVALS["QUEUE_WINDOW_START"] = 1000
    a, b, c = accounts(3, prefix="owner")
    now = timezone.now()
    ticket, _ = svc.queue_join(account=a, mode="quick", now=now)
    svc.queue_join(account=b, mode="quick", now=now)
    matched = Event.objects.get(stream_id=f"queue-{ticket.pk}", type=QUEUE_MATCHED)
    assert matched.schema_version == 2 and matched.data["account_id"] == a.pk
    old, _ = svc.queue_join(account=c, mode="quick", now=now)
    v1 = NewEvent(QUEUE_MATCHED, {"ticket_id": str(old.pk), "match_id": matched.data["match_id"]}, 1)
    event_append(
        stream_id=f"queue-{old.pk}", stream_type="queue", expected_version=1, actor="test", now=now, events=[v1]
    )
    found = Notification.objects.get(account_id=c.pk, type="match_found")
    assert found.data == {"ticket_id": str(old.pk), "match_id": matched.data["match_id"]}
    report = rebuild(verify_only=True)
    assert "live_notification" not in {d.table for d in report.differences if d.any}


def test_rebuild_projections_verify_covers_notifications(capsys):
    a, b = accounts(2, prefix="verify-notes")
    svc.duel_challenge(account=a, opponent=b.pk, now=timezone.now())
    call_command("rebuild_projections", "--verify")
    assert "every projection equals the log" in capsys.readouterr().out
    Notification.objects.filter(account_id=b.pk).delete()  # a projection row lost (never an event)
    report = rebuild(verify_only=True)
    assert [d.table for d in report.differences if d.any] == ["live_notification"]
    rebuild()  # and the rebuild writes it back
    assert kinds(b) == ["duel_challenged"]


def test_tournament_starting_is_sent_once_five_minutes_before_to_the_registered():
    from tournaments.reminders import tournament_reminders_append
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register, tournament_unregister

    a, b, c = accounts(3, prefix="remind")
    now = timezone.now()
    t = tournament_create(
        actor="operator:test",
        now=now,
        kind="regular",
        title="Soon Cup",
        starts_at=now + timedelta(minutes=20),
        ends_at=now + timedelta(minutes=80),
        min_players=2,
        prize_table=[100],
        multipliers=[1],
        registration_opens_at=now,
    )
    for x in (a, b, c):
        tournament_register(tournament_id=t.pk, account=x, now=now + timedelta(seconds=1))
    tournament_unregister(tournament_id=t.pk, account=c, now=now + timedelta(seconds=2))
    assert tournament_reminders_append(now=now + timedelta(minutes=10)) == 0  # 10 minutes before: not yet
    assert tournament_reminders_append(now=now + timedelta(minutes=16)) == 1
    assert tournament_reminders_append(now=now + timedelta(minutes=17)) == 0  # once
    assert kinds(a)[-1] == kinds(b)[-1] == "tournament_starting" and "tournament_starting" not in kinds(c)
    note = Notification.objects.get(account_id=a.pk, type="tournament_starting")
    assert note.data["tournament_id"] == str(t.pk) and note.data["title"] == "Soon Cup"
    assert rebuild(verify_only=True).equal


def test_r39_a_name_reset_notifies_the_player():
    """An operator's name reset (issue 24, on the account's stream) reaches the player's
    notifications as ``display_name_reset`` with the neutral name; the rebuild agrees."""
    from rivals.accounts.services import account_rename
    from rivals.reports.services import report_file, report_name_reset

    reporter, player = accounts(2, prefix="reset-notify")
    account_rename(account=player, display_name="Call 0722 000 000")
    report = report_file(reporter=reporter, subject=f"player:{player.pk}", reason="personal_data")
    report_name_reset(report=report, reason="a phone number", actor="operator:test")
    reset = Notification.objects.get(account_id=player.pk, type="display_name_reset")
    player.refresh_from_db()
    assert reset.data == {"display_name": player.display_name, "reason_code": "abusive_name"}  # not the note
    assert player.display_name != "Call 0722 000 000"
    assert rebuild(verify_only=True).equal


def test_a_match_is_announced_before_its_first_round(guest):
    """API.md Notifications: a Quick Match's ``match_found`` comes before its ``round_started``
    (and a duel's ``duel_accepted`` before its round), in position order — what REST pages and
    the ``account`` topic both follow."""
    client, account_id = guest("order-first")
    a = Account.objects.get(pk=account_id)
    b, c = accounts(2, prefix="order")
    now = timezone.now()
    svc.queue_join(account=a, mode="quick", now=now)
    svc.queue_join(account=b, mode="quick", now=now)
    assert kinds(a) == ["match_found", "round_started"] and kinds(b) == ["match_found", "round_started"]
    found, started = client.get("/api/v1/notifications").json()["results"]
    assert found["type"] == "match_found" and started["type"] == "round_started"
    assert found["position"] < started["position"] and found["data"]["match_id"] == started["data"]["match_id"]
    duel, _ = svc.duel_challenge(account=c, opponent=b.pk, now=now)
    svc.duel_accept(account=b, duel_id=duel.pk, now=now)
    assert kinds(c) == ["duel_accepted", "round_started"]


def test_every_notification_type_made_here_has_its_typed_shape_registered():
    """The ``Notification`` union is the registry's (``rivals.notification_types``): each type a
    room makes (its ``notices`` module, registered in ``rivals.notices``) is registered with its
    data's shape, and a REST page of one is read through it (the suite's contract check refuses a
    type or key not declared)."""
    import importlib
    import inspect
    import re

    from django.apps import apps

    from rivals import notices, notification_types

    # the notices modules of every room that registered some: one small function per event type
    # (issue 33); their shapes beside
    rooms = [apps.get_app_config(label).name for label in notices.features()]
    assert len(rooms) >= 7, rooms
    modules = [importlib.import_module(f"{room}.notices") for room in rooms]
    SHAPES = {name: shape for module in modules for name, shape in module.SHAPES.items()}
    source = "\n".join(inspect.getsource(module) for module in modules)
    made = set(re.findall(r'"([a-z]+(?:_[a-z]+)+)",\s*(?:data|\{|dict\()', source))
    made |= set(re.findall(r'\((?:\w+|\w+\["\w+"\]), "([a-z_]+)", ', source))  # (account, type, …)
    made |= set(re.findall(r'to_account\(\s*"([a-z_]+)"', source))
    assert made == set(SHAPES), made ^ set(SHAPES)
    assert set(SHAPES) <= set(notification_types.names())
