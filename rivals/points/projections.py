"""The points ledger projection: one row per ``PointsAwarded``."""

from __future__ import annotations

from rivals.models import Event
from rivals.points.events import POINTS_AWARDED
from rivals.projections import Projection
from rivals.rebuild.copies import Table


class PointsLedgerProjection(Projection):
    """The points ledger: one row per ``PointsAwarded`` (R-33 sources, award instant)."""

    name = "points_ledger"
    event_types = frozenset({POINTS_AWARDED})
    tables = (Table("rivals_points_ledger"),)

    def reset(self) -> None:
        from rivals.points.models import PointsLedgerEntry

        PointsLedgerEntry.objects.all().delete()

    def apply(self, event: Event) -> None:
        self._entry(event).save(force_insert=True)

    def rebuild(self, log) -> None:
        from rivals.points.models import PointsLedgerEntry
        from rivals.rawsql import copy_insert

        for page in log.pages(self.event_types):
            copy_insert(PointsLedgerEntry, [self._entry(e) for e in page])

    @staticmethod
    def _entry(event: Event):
        from django.utils.dateparse import parse_datetime

        from rivals.points.models import PointsLedgerEntry

        d = event.data
        return PointsLedgerEntry(
            event_position=event.position,
            account_id=d["account_id"],
            amount=d["amount"],
            source=d["source"],
            counts=d["counts"],
            award_key=d["key"],
            awarded_at=parse_datetime(d["awarded_at"]),
            ref=d.get("ref") or {},
        )


points_ledger_projection = PointsLedgerProjection()
