"""The fair-play review queue and the reports' queue in the admin (issue 22): open first whatever
the statuses' spelling; a review carries the operator's note; "confirm and suspend" does what it
says per flag — what it did, what it skipped and why, and no success for what it did not do."""

from __future__ import annotations

import pytest

from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.services import account_suspend, fairplay_flag, fairplay_flag_review
from rivals.models import Account, Event
from tests.admin_pages import messages_of
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db
QUEUE = "/admin/fairplay/fairplayflag/"


def _flag(account, subject: str) -> FairPlayFlag:
    return fairplay_flag(account_id=account.pk, kind="fast_pairs", subject=subject, details={"fast_pairs": 4})


def test_the_queue_shows_open_flags_first_then_the_newest(operator):
    ann, bob = AccountFactory.create(device_id="q-ann"), AccountFactory.create(device_id="q-bob")
    old_open = _flag(ann, "game-1")
    reviewed = _flag(bob, "game-2")
    fairplay_flag_review(flag=reviewed, decision="confirmed", note="seen", actor="operator:1")
    new_open = _flag(bob, "game-3")
    dismissed = _flag(ann, "game-4")
    fairplay_flag_review(flag=dismissed, decision="dismissed", note="fine", actor="operator:1")
    page = operator.get(QUEUE).content.decode()
    order = sorted((page.index(f"{f.pk}/change/"), f) for f in (old_open, reviewed, new_open, dismissed))
    assert [f for _, f in order] == [new_open, old_open, dismissed, reviewed]  # open first, then newest


def test_a_review_asks_for_a_note_and_records_it(operator):
    flag = _flag(AccountFactory.create(device_id="n-ann"), "game-n")
    page = operator.post(QUEUE, {"action": "review_dismissed", "_selected_action": [flag.pk]}).content.decode()
    assert 'name="reason"' in page and "Review note" in page and "the flag becomes dismissed" in page
    refused = operator.post(QUEUE, {"action": "review_dismissed", "_selected_action": [flag.pk], "apply": "1"})
    assert refused.status_code == 200 and FairPlayFlag.objects.get(pk=flag.pk).status == "open"  # no note, no review
    res = operator.post(
        QUEUE, {"action": "review_dismissed", "_selected_action": [flag.pk], "apply": "1", "reason": "a fast thumb"}
    )
    flag.refresh_from_db()
    assert (flag.status, flag.review_note, flag.reviewed_by) == (
        "dismissed",
        "a fast thumb",
        f"operator:{operator.user.pk}",
    )
    assert [level for level, text in messages_of(res) if text.startswith("Dismiss flags: 1 done")] == ["success"]
    page = operator.get(f"{QUEUE}{flag.pk}/change/").content.decode()
    assert "a fast thumb" in page and f"operator (#{operator.user.pk})</a>" in page  # by name, not operator:<id>


def test_confirm_and_suspend_says_what_it_did_and_what_it_skipped(operator):
    cheat, other, already = (AccountFactory.create(device_id=f"s-{n}") for n in ("cheat", "other", "already"))
    open_flag = _flag(cheat, "game-a")
    second = _flag(cheat, "game-b")  # the same account twice: suspended once
    reviewed = _flag(other, "game-c")
    fairplay_flag_review(flag=reviewed, decision="dismissed", note="fine", actor="operator:1")
    suspended = _flag(already, "game-d")
    account_suspend(account=already, reason="earlier", actor="operator:1")

    # a flag already reviewed: nothing happens, and the operator is told so — no success
    res = operator.post(
        QUEUE,
        {
            "action": "confirm_and_suspend",
            "_selected_action": [reviewed.pk],
            "apply": "1",
            "reason_code": "fair_play",
            "reason": "bot",
        },
    )
    said = messages_of(res)
    assert not [m for m in said if m[0] == "success"]
    assert any(
        level == "warning" and "skipped" in text and "already reviewed (dismissed" in text for level, text in said
    )
    assert Account.objects.get(pk=other.pk).suspended_at is None
    assert not Event.objects.filter(type="AccountSuspended", data__account_id=other.pk).exists()

    selected = [open_flag.pk, second.pk, reviewed.pk, suspended.pk]
    page = operator.post(QUEUE, {"action": "confirm_and_suspend", "_selected_action": selected}).content.decode()
    assert page.count("will be skipped") == 1 and "already suspended" in page and "leave every ranking" in page
    res = operator.post(
        QUEUE,
        {
            "action": "confirm_and_suspend",
            "_selected_action": selected,
            "apply": "1",
            "reason_code": "fair_play",
            "reason": "bot speed",
        },
    )
    said = messages_of(res)
    success = [text for level, text in said if level == "success"]
    assert len(success) == 1 and success[0].startswith("Confirm and suspend: 3 done")
    assert "confirmed; account suspended" in success[0] and "confirmed; the account was already suspended" in success[0]
    (warning,) = [text for level, text in said if level == "warning"]
    assert warning.startswith("Confirm and suspend: skipped") and f"(#{other.pk})" in warning
    assert "already reviewed (dismissed" in warning
    cheat.refresh_from_db()
    assert cheat.suspended_at is not None and "bot speed" in cheat.suspension_reason
    assert Event.objects.filter(type="AccountSuspended", data__account_id=cheat.pk).count() == 1
    reviews = Event.objects.filter(type="FairPlayFlagReviewed", data__decision="confirmed")
    assert sorted(reviews.values_list("data__note", flat=True)) == ["bot speed"] * 3
    assert Account.objects.get(pk=already.pk).suspension_reason == "earlier"  # left as it was


def test_the_flag_page_has_its_actions_as_buttons_and_says_times_in_romanian_time(operator):
    flag = _flag(AccountFactory.create(device_id="b-ann"), "game-b")
    page = operator.get(f"{QUEUE}{flag.pk}/change/").content.decode()
    for action in ("review_dismissed", "review_confirmed", "confirm_and_suspend"):
        assert f'value="{action}"' in page
    assert "Romanian time" in page and ("EET" in page or "EEST" in page)
    assert "fast pairs" in page  # the details as a list, not JSON
    res = operator.post(
        QUEUE,
        {
            "action": "review_confirmed",
            "_selected_action": [flag.pk],
            "apply": "1",
            "reason": "seen it",
            "next": f"{QUEUE}{flag.pk}/change/",
        },
    )
    assert res.status_code == 302 and res["Location"] == f"{QUEUE}{flag.pk}/change/"  # back to the flag
    assert FairPlayFlag.objects.get(pk=flag.pk).status == "confirmed"
    page = operator.get(f"{QUEUE}{flag.pk}/change/").content.decode()
    assert 'value="review_dismissed"' not in page  # a reviewed flag has no review buttons


def test_a_report_action_on_reviewed_reports_says_it_skipped_them(operator):
    from rivals.reports.models import Report
    from rivals.reports.services import report_file, report_review

    reporter, subject = AccountFactory.create(device_id="r-rep"), AccountFactory.create(device_id="r-sub")
    report = report_file(reporter=reporter, subject=f"player:{subject.pk}", reason="cheating")
    report_review(report=report, decision="dismissed", note="no", actor="operator:1")
    url = "/admin/reports/report/"
    page = operator.post(url, {"action": "uphold", "_selected_action": [report.pk]}).content.decode()
    assert "will be skipped: already reviewed (dismissed" in page and "Nothing to do" in page
    res = operator.post(url, {"action": "uphold", "_selected_action": [report.pk], "apply": "1", "reason": "x"})
    said = messages_of(res)
    assert not [m for m in said if m[0] == "success"] and ("warning", "Uphold reports: nothing done") in said
    assert Report.objects.get(pk=report.pk).status == "dismissed"
    newer_open = report_file(reporter=subject, subject=f"player:{reporter.pk}", reason="cheating")
    newest = report_file(reporter=reporter, subject=f"player:{subject.pk}", reason="name")
    report_review(report=newest, decision="upheld", note="yes", actor="operator:1")
    queue = operator.get(url).content.decode()
    order = sorted((queue.index(f"{r.pk}/change/"), r.pk) for r in (report, newer_open, newest))
    assert [pk for _, pk in order] == [newer_open.pk, newest.pk, report.pk]  # the open one first, then the newest
