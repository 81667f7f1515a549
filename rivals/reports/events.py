"""The events of players' reports (R-39): one typed constructor each (schema version 1).

Stream ``report-<id>`` (stream type ``report``). A report names its reporter and its subject
(``player:<id>`` or ``club:<id>``); the reporter's note is personal data, sealed with the
reporter's key (``note_sealed``, ``rivals.personal``). What an operator does about a report is
appended where it belongs: a reset name on the player's stream (``DisplayNameReset``, so the
player is told), a club's new name on the club's (``ClubRenamed``) — and the review here.
"""

from __future__ import annotations

from typing import TypedDict
from uuid import UUID

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
REPORT_FILED = "ReportFiled"
REPORT_REVIEWED = "ReportReviewed"

REPORT_EVENTS = frozenset({REPORT_FILED, REPORT_REVIEWED})


class ReportFiledData(TypedDict):
    report_id: str
    reporter_id: int
    subject: str
    reason: str
    note_sealed: str | None


def report_filed(
    *, report_id: UUID | str, reporter_id: int, subject: str, reason: str, note_sealed: str | None
) -> NewEvent:
    """``subject``: ``player:<id>`` or ``club:<id>``; ``reason``: ``name``, ``personal_data`` or
    ``cheating``."""
    data: ReportFiledData = {
        "report_id": str(report_id),
        "reporter_id": reporter_id,
        "subject": subject,
        "reason": reason,
        "note_sealed": note_sealed,
    }
    return NewEvent(REPORT_FILED, data)


class ReportReviewedData(TypedDict):
    report_id: str
    decision: str
    action: str
    note: str


def report_reviewed(*, report_id: UUID | str, decision: str, action: str, note: str) -> NewEvent:
    """``decision``: ``dismissed`` or ``upheld``; ``action``: what was done about the subject
    (``none``, ``name_reset``, ``club_renamed``); ``note``: the operator's reason."""
    data: ReportReviewedData = {"report_id": str(report_id), "decision": decision, "action": action, "note": note}
    return NewEvent(REPORT_REVIEWED, data)
