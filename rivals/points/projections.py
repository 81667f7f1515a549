"""The points ledger projection: one row per ``PointsAwarded``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rivals.models import Event
from rivals.points.events import POINTS_AWARDED
from rivals.projections import Projection, insert_joined
from rivals.rebuild.copies import Table

if TYPE_CHECKING:
    from rivals.points.models import PointsLedgerEntry


class PointsLedgerProjection(Projection):
    """The points ledger: one row per ``PointsAwarded`` (R-33 sources, award instant)."""

    name = "points_ledger"
    event_types = frozenset({POINTS_AWARDED})
    tables = (Table("rivals_points_ledger"),)
    joins_append = True  # a row names its event's position: written by the award's append itself

    def ahead(self, event: Event) -> list[tuple[str, list]]:
        return [insert_joined(ledger_entry(event), "event_position")]

    def reset(self) -> None:
        from rivals.points.models import PointsLedgerEntry

        PointsLedgerEntry.objects.all().delete()

    def apply(self, event: Event) -> None:
        ledger_entry(event).save(force_insert=True)

    def rebuild(self, log) -> None:
        from rivals.points.models import PointsLedgerEntry
        from rivals.rawsql import copy_insert

        for page in log.pages(self.event_types):
            copy_insert(PointsLedgerEntry, [ledger_entry(e) for e in page])


def ledger_entry(event: Event) -> PointsLedgerEntry:
    """The ledger's row of one ``PointsAwarded`` (not saved: the projection saves it)."""
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
