"""R-39: any player reports a display name or a club's name (or cheating) — one open report per
reporter and subject, not oneself, throttled — into the operators' review queue; an operator
resets a display name (the player is told, and the reset name is refused to them for 7 days) or
renames a club, with a reason, as events."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from rivals.accounts.services import account_close, account_rename
from rivals.clubs.services import club_found, club_name_key
from rivals.errors import Conflict, NotAllowed
from rivals.fairplay.services import account_suspend
from rivals.models import Account, Event
from rivals.reports.models import Report
from rivals.reports.services import report_club_rename, report_file, report_name_reset, report_review
from rivals.romanian_time import iso_z
from tests.factories import AccountFactory
from tests.projections import assert_live_equals_rebuild

pytestmark = pytest.mark.django_db
OPERATOR = "operator:7"


@pytest.fixture
def two(guest):
    """A reporter (API client, id) and a player named 'Rude Name'."""
    client, reporter_id = guest("reporter-device")
    subject = AccountFactory.create(device_id="reported", display_name="Rude Name")
    return client, reporter_id, subject


def _report(client, subject: str, reason: str = "name", **extra):
    return client.post("/api/v1/reports", {"subject": subject, "reason": reason, **extra}, format="json")


def test_r39_a_report_lands_open_in_the_review_queue_with_its_note_sealed(two):
    client, reporter_id, subject = two
    res = _report(client, f"player:{subject.pk}", "personal_data", note="it is my phone number 0712")
    assert res.status_code == 201, res.content
    body = res.json()
    assert (body["status"], body["subject"], body["reason"]) == ("open", f"player:{subject.pk}", "personal_data")
    report = Report.objects.get(pk=body["id"])
    assert (report.reporter_id, report.subject_player_id, report.note) == (
        reporter_id,
        subject.pk,
        "it is my phone number 0712",
    )
    filed = Event.objects.get(stream_id=f"report-{report.pk}")
    assert filed.type == "ReportFiled" and "0712" not in json.dumps(filed.data)  # sealed (rivals.personal)


def test_r39_one_open_report_per_reporter_and_subject(two, guest):
    client, _, subject = two
    assert _report(client, f"player:{subject.pk}").status_code == 201
    again = _report(client, f"player:{subject.pk}", "cheating")
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
    other, _ = guest("another-reporter")
    assert _report(other, f"player:{subject.pk}").status_code == 201  # another reporter may
    first = Report.objects.filter(subject=f"player:{subject.pk}").order_by("filed_at").first()
    report_review(report=first, decision="dismissed", note="a fine name", actor=OPERATOR)
    assert _report(client, f"player:{subject.pk}").status_code == 201  # reviewed: a new one may be filed
    assert Report.objects.filter(subject=f"player:{subject.pk}", status="open").count() == 2


def test_r39_reporting_oneself_is_422_and_records_nothing(two):
    client, reporter_id, _ = two
    events = Event.objects.count()
    res = _report(client, f"player:{reporter_id}")
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    assert Event.objects.count() == events and not Report.objects.exists()


def test_r39_subjects_that_are_not_there(two):
    client, _, subject = two
    assert _report(client, "player:999999").status_code == 404
    assert _report(client, "club:00000000-0000-4000-8000-000000000000").status_code == 404
    assert _report(client, "account:1").status_code == 400
    assert _report(client, f"player:{subject.pk}", "spam").status_code == 400
    assert _report(client, f"player:{subject.pk}", note="a\x00b").status_code == 400
    account_close(account=subject, reason="gone", actor=OPERATOR)
    assert _report(client, f"player:{subject.pk}").status_code == 404  # no public page, nothing to report
    assert not Report.objects.exists()


def test_r39_a_suspended_player_files_no_report(two):
    client, reporter_id, subject = two
    account_suspend(account=Account.objects.get(pk=reporter_id), reason="test", actor=OPERATOR)
    assert _report(client, f"player:{subject.pk}").status_code == 403


def test_r39_reports_are_throttled(two, guest, rates):
    rates(report="3/hour")
    client, _, _ = two
    targets = [AccountFactory.create(device_id=f"target-{i}") for i in range(4)]
    answers = [_report(client, f"player:{t.pk}").status_code for t in targets]
    assert answers == [201, 201, 201, 429]
    assert Report.objects.count() == 3


def test_r39_a_reset_name_is_neutral_told_to_the_player_and_refused_to_them_for_7_days(two):
    client, reporter_id, subject = two
    report = Report.objects.get(pk=_report(client, f"player:{subject.pk}").json()["id"])
    now = timezone.now()
    player = report_name_reset(report=report, reason="offensive", actor=OPERATOR)
    assert player.display_name == f"Player {subject.pk}"
    reset = Event.objects.get(stream_id=f"account-{subject.pk}", type="DisplayNameReset")  # the player's stream
    assert (reset.data["display_name"], reset.data["reason"], reset.data["report_id"]) == (
        f"Player {subject.pk}",
        "offensive",
        str(report.pk),
    )
    assert "Rude" not in json.dumps(reset.data) and reset.metadata["actor"] == OPERATOR
    report.refresh_from_db()
    assert (report.status, report.action) == ("upheld", "name_reset")
    for name, later in (("Rude Name", 1), ("rude  name", 6 * 24), ("ＲＵＤＥ ＮＡＭＥ", 7 * 24 - 1)):
        with pytest.raises(NotAllowed) as refused:
            account_rename(account=player, display_name=name, now=now + timedelta(hours=later))
        assert refused.value.details["until"] == iso_z(reset.recorded_at + timedelta(days=7))
    account_rename(account=player, display_name="Rude Name", now=now + timedelta(days=7, minutes=1))
    assert Account.objects.get(pk=subject.pk).display_name == "Rude Name"
    other = AccountFactory.create(device_id="other-taker")
    account_rename(account=other, display_name="Rude Name", now=now)  # not the same player: allowed
    assert_live_equals_rebuild()


def test_r39_the_player_patching_the_reset_name_back_gets_422(two, guest):
    client, _, _ = two
    player_client, player_id = guest("reset-player")
    player_client.patch("/api/v1/account", {"display_name": "Spam King"}, format="json")
    report = Report.objects.get(pk=_report(client, f"player:{player_id}").json()["id"])
    report_name_reset(report=report, reason="spam", actor=OPERATOR)
    res = player_client.patch("/api/v1/account", {"display_name": "spam king"}, format="json")
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    assert player_client.get("/api/v1/account").json()["display_name"] == f"Player {player_id}"


def test_r39_an_operator_renames_a_club_and_closes_the_reports_on_its_name(two, guest):
    client, _, owner = two
    club = club_found(account=owner, name="Bad Club")
    other, _ = guest("club-reporter-2")
    first = Report.objects.get(pk=_report(client, f"club:{club.pk}").json()["id"])
    second = Report.objects.get(pk=_report(other, f"club:{club.pk}", "personal_data").json()["id"])
    club_found(account=AccountFactory.create(device_id="taken-owner"), name="Taken Name")
    with pytest.raises(Conflict):  # taken, case folded
        report_club_rename(report=first, name="TAKEN name", reason="x", actor=OPERATOR)
    report_club_rename(report=first, name="Good Club", reason="offensive", actor=OPERATOR)
    club.refresh_from_db()
    assert club.name == "Good Club"
    renamed = Event.objects.get(stream_id=f"club-{club.pk}", type="ClubRenamed")
    assert (renamed.data["previous_name"], renamed.data["reason"]) == ("Bad Club", "offensive")
    assert set(Report.objects.filter(pk__in=[first.pk, second.pk]).values_list("status", "action")) == {
        ("upheld", "club_renamed")
    }
    assert club.name_key == club_name_key("Good Club")
    assert_live_equals_rebuild()


def test_r39_a_reporter_s_erasure_blanks_their_notes_as_a_rebuild_reads_them(two):
    _, reporter_id, subject = two
    reporter = Account.objects.get(pk=reporter_id)
    report_file(reporter=reporter, subject=f"player:{subject.pk}", reason="name", note="he insults")
    account_close(account=reporter, reason="erasure", actor=OPERATOR, erase=True)
    assert Report.objects.get(reporter_id=reporter_id).note == ""
    assert_live_equals_rebuild()


def test_r39_the_review_queue_in_the_admin(client, django_user_model, two, guest):
    reporter_client, _, subject = two
    cheat = AccountFactory.create(device_id="cheater", display_name="Fast Hands")
    _report(reporter_client, f"player:{cheat.pk}", "cheating")
    named = Report.objects.get(pk=_report(reporter_client, f"player:{subject.pk}").json()["id"])
    operator = django_user_model.objects.create_superuser("report-operator", "op-password-1")
    client.force_login(operator)
    queue = client.get("/admin/reports/report/").content.decode()
    assert "Rude Name" in queue and "Fast Hands" in queue
    cheating = Report.objects.get(subject=f"player:{cheat.pk}")
    page = client.get(f"/admin/reports/report/{cheating.pk}/change/").content.decode()
    assert f"fairplay/fairplayflag/?account__id__exact={cheat.pk}" in page  # cheating: the fair-play review
    assert "Fast Hands" in page and "at sign-up" in page  # the current name and its history
    confirm = client.post(
        "/admin/reports/report/", {"action": "reset_display_name", "_selected_action": [named.pk]}
    ).content.decode()
    assert "reason" in confirm and "Rude Name" in confirm  # a page that asks for the reason
    client.post(
        "/admin/reports/report/",
        {
            "action": "reset_display_name",
            "_selected_action": [named.pk],
            "apply": "1",
            "reason_code": "abusive_name",
            "reason": "offensive",
        },
    )
    reset = Event.objects.get(stream_id=f"account-{subject.pk}", type="DisplayNameReset")
    assert reset.metadata["actor"] == f"operator:{operator.pk}"
    history = client.get(f"/admin/reports/report/{named.pk}/change/").content.decode()
    assert "reset by" in history and "offensive" in history


def test_r39_the_name_reset_confirmation_counts_only_the_reports_it_upholds(client, django_user_model, two, guest):
    """Issue 40: a name report and a cheating report on one player — resetting the name upholds the
    name report, and the confirmation says one, and that the cheating report stays open."""
    reporter_client, _, subject = two
    other_client, _ = guest("other-reporter")
    named = Report.objects.get(pk=_report(reporter_client, f"player:{subject.pk}").json()["id"])
    cheating = Report.objects.get(pk=_report(other_client, f"player:{subject.pk}", "cheating").json()["id"])
    client.force_login(django_user_model.objects.create_superuser("count-operator", "op-password-1"))
    url = "/admin/reports/report/"
    confirm = client.post(url, {"action": "reset_display_name", "_selected_action": [named.pk]}).content.decode()
    assert (
        "1 open report(s) about the name are upheld; 1 other open report(s) on it (not about the name) stay open"
        in (confirm)
    )
    form = {"action": "reset_display_name", "_selected_action": [named.pk], "apply": "1", "reason_code": "abusive_name"}
    client.post(url, {**form, "reason": "offensive"})
    assert Report.objects.get(pk=named.pk).status == "upheld" and Report.objects.get(pk=cheating.pk).status == "open"
