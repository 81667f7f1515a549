"""Players' reports (R-39, seed 000: "do not publish other people's personal information").

Any player may report a player's display name or a club's name (``name``, ``personal_data``) or a
player's play (``cheating``): ``ReportFiled`` on a new ``report-<id>`` stream, into the operators'
review queue (the admin, beside the fair-play flags). One open report per reporter and subject
(409 for a second one; the database's unique key decides between two at once); reporting oneself
is 422. An operator reviews it with a reason: dismisses it, upholds it, resets the player's display
name to the neutral one (``DisplayNameReset`` on the player's stream: the player is told; the name
is refused to them for 7 days) or renames the club (``ClubRenamed``). Acting on a name closes
every open report about that name (of the subject, for ``name`` or ``personal_data``).
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from rivals import personal
from rivals.accounts.services import account_name_reset, account_public_face_guard
from rivals.clubs.services import club_get, club_rename
from rivals.errors import Conflict, Invalid, NotAllowed, NotFound
from rivals.eventstore import event_append
from rivals.models import Account
from rivals.reports.events import report_filed, report_reviewed
from rivals.reports.models import REASONS, Report
from rivals.reports.selectors import NAME_REASONS
from rivals.text import clean_text

STREAM_TYPE = "report"
NOTE_MAX = 500
SUBJECT = re.compile(r"^(player):([1-9][0-9]{0,17})$|^(club):([0-9a-fA-F-]{36})$")
DECISIONS = ("dismissed", "upheld")

if TYPE_CHECKING:  # a type only: the clubs room is read through its selectors and services
    from rivals.clubs.models import Club


def report_subject(subject: str) -> Account | Club:
    """The player or club a subject names: a player with a public page (not closed, not an
    operator), or an open club; else 404 (422 for a closed club)."""
    match = SUBJECT.match(subject) if isinstance(subject, str) else None
    if match is None:
        message = 'must be "player:<id>" or "club:<id>"'
        raise Invalid(f"subject {message}", details={"subject": [message]})
    if match.group(1):
        player = Account.objects.filter(pk=int(match.group(2)), closed_at__isnull=True, is_staff=False).first()
        if player is None:
            raise NotFound("no such player")
        return player
    club = club_get(match.group(4))  # NotFound: no such club
    if club.status != "open":
        raise NotAllowed("the club is closed: its name is no longer used", details={"status": club.status})
    return club


def _subject_key(target: Account | Club) -> str:
    return f"player:{target.pk}" if isinstance(target, Account) else f"club:{target.pk}"


@transaction.atomic
def report_file(
    *, reporter: Account, subject: str, reason: str, note: str | None = None, now: datetime | None = None
) -> Report:
    """``ReportFiled`` (R-39): 403 a suspended reporter (R-38), 404 unknown subject, 422 oneself,
    409 an open report of the same reporter on the same subject."""
    if reason not in dict(REASONS):
        raise Invalid(f"reason must be one of {sorted(dict(REASONS))}", details={"reason": ["unknown"]})
    account_public_face_guard(account=reporter, doing="report_file")  # R-38 (the API's NotSuspended says it first)
    target = report_subject(subject)
    if isinstance(target, Account) and target.pk == reporter.pk:
        raise NotAllowed("you cannot report yourself")
    key = _subject_key(target)
    open_one = Report.objects.filter(reporter=reporter, subject=key, status="open").values_list("pk", flat=True)
    duplicate = Conflict(
        "you have an open report on this subject: the operators will review it",
        details={"report": str(open_one.first()) if open_one.first() else None},
    )
    if open_one.exists():
        raise duplicate
    note = clean_text(note or "", field="note", max_length=NOTE_MAX, min_length=0)
    report_id = uuid.uuid4()
    sealed = personal.seal(account_id=reporter.pk, field="note", value=note)["note_sealed"] if note else None
    filed = report_filed(report_id=report_id, reporter_id=reporter.pk, subject=key, reason=reason, note_sealed=sealed)
    try:
        with transaction.atomic():
            event_append(
                stream_id=f"report-{report_id}",
                stream_type=STREAM_TYPE,
                expected_version=0,
                actor=f"account:{reporter.pk}",
                now=now,
                events=[filed],
            )
    except IntegrityError:  # filed at the same moment by another request of the reporter
        duplicate.details["report"] = str(open_one.first())
        raise duplicate from None
    return Report.objects.get(pk=report_id)


def _review(report: Report, *, decision: str, action: str, note: str, actor: str) -> None:
    event_append(
        stream_id=report.stream_id,
        stream_type=STREAM_TYPE,
        expected_version=report.version,
        actor=actor,
        events=[report_reviewed(report_id=report.pk, decision=decision, action=action, note=note)],
    )


def _open_locked(report: Report) -> Report:
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.status != "open":
        raise NotAllowed(f"the report was already reviewed ({report.status})")
    return report


@transaction.atomic
def report_review(*, report: Report, decision: str, note: str, actor: str) -> Report:
    """An operator dismisses or upholds a report, with a reason (``ReportReviewed``)."""
    if decision not in DECISIONS:
        raise NotAllowed(f"a review decides one of {DECISIONS}")
    report = _open_locked(report)
    _review(report, decision=decision, action="none", note=clean_text(note, field="note", max_length=300), actor=actor)
    report.refresh_from_db()
    return report


def _close_name_reports(subject: str, *, action: str, note: str, actor: str) -> int:
    """Uphold every open report about the subject's name (they asked for what was done)."""
    reports = Report.objects.select_for_update().filter(subject=subject, status="open", reason__in=NAME_REASONS)
    done = 0
    for report in reports.order_by("pk"):
        _review(report, decision="upheld", action=action, note=note, actor=actor)
        done += 1
    return done


@transaction.atomic
def report_name_reset(
    *, report: Report, reason: str, actor: str, reason_code: str = "abusive_name", message: str = ""
) -> Account:
    """R-39: reset the reported player's display name to the neutral one (``DisplayNameReset``, on
    the player's stream: the player is told ``reason_code`` and ``message``, never ``reason``),
    and close the open reports about that name."""
    report = _open_locked(report)
    if report.subject_player_id is None:
        raise NotAllowed("this report is about a club: rename the club")
    reason = clean_text(reason, field="reason", max_length=300)
    player = account_name_reset(
        account=Account(pk=report.subject_player_id),
        reason=reason,
        actor=actor,
        report_id=str(report.pk),
        reason_code=reason_code,
        message=message,
    )
    if report.reason not in NAME_REASONS:  # a cheating report that named the name too: this one as well
        _review(report, decision="upheld", action="name_reset", note=reason, actor=actor)
    _close_name_reports(report.subject, action="name_reset", note=reason, actor=actor)
    return player


@transaction.atomic
def report_club_rename(
    *, report: Report, name: str, reason: str, actor: str, reason_code: str = "abusive_name", message: str = ""
) -> Club:
    """R-39: rename the reported club (``ClubRenamed``: its owner is told ``reason_code`` and
    ``message``), and close the open reports about its name."""
    report = _open_locked(report)
    if report.subject_club_id is None:
        raise NotAllowed("this report is about a player: reset the display name")
    reason = clean_text(reason, field="reason", max_length=300)
    club = club_rename(
        club_id=report.subject_club_id,
        name=name,
        reason=reason,
        actor=actor,
        report_id=str(report.pk),
        reason_code=reason_code,
        message=message,
    )
    if report.reason not in NAME_REASONS:
        _review(report, decision="upheld", action="club_renamed", note=reason, actor=actor)
    _close_name_reports(report.subject, action="club_renamed", note=reason, actor=actor)
    return club
