"""The review queue projection: one ``Report`` row per ``ReportFiled``, closed by its review. A
reporter's erasure (``AccountClosed`` with ``erased``) blanks their notes, as a rebuild without
their key reads them."""

from __future__ import annotations

from rivals.accounts.events import ACCOUNT_CLOSED
from rivals.projections import Projection
from rivals.rebuild.copies import Table
from rivals.reports.events import REPORT_FILED, REPORT_REVIEWED


class ReportsProjection(Projection):
    name = "reports"
    event_types = frozenset({REPORT_FILED, REPORT_REVIEWED, ACCOUNT_CLOSED})
    tables = (Table("reports_report"),)

    def reset(self) -> None:
        from rivals.reports.models import Report

        Report.objects.all().delete()

    def apply(self, event) -> None:
        from rivals import personal
        from rivals.reports.models import Report

        d = event.data
        if event.type == ACCOUNT_CLOSED:
            if d.get("erased"):
                Report.objects.filter(reporter_id=d["account_id"]).update(note="")
            return
        if event.type == REPORT_FILED:
            kind, _, ref = d["subject"].partition(":")
            note = personal.unseal(d, account_id=d["reporter_id"], field="note") if d.get("note_sealed") else ""
            Report.objects.create(
                id=d["report_id"],
                reporter_id=d["reporter_id"],
                subject=d["subject"],
                subject_player_id=int(ref) if kind == "player" else None,
                subject_club_id=ref if kind == "club" else None,
                reason=d["reason"],
                note=note or "",
                filed_at=event.recorded_at,
                version=event.version,
            )
            return
        Report.objects.filter(pk=d["report_id"]).update(
            status=d["decision"],
            action=d["action"],
            review_note=d["note"],
            reviewed_at=event.recorded_at,
            reviewed_by=(event.metadata or {}).get("actor") or "",
            version=event.version,
        )


reports_projection = ReportsProjection()
