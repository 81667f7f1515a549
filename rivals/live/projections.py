"""The notifications projection: ``Notification`` rows from the events that notify (the rooms'
notices, registered in ``rivals.notices``), written in the append's transaction (so a reader of the log by position finds an event's
notifications committed with it) and rebuilt from the log by ``rebuild_projections``."""

from __future__ import annotations

from psycopg.types.json import Jsonb

from rivals.notices import fact_types, folded_facts, log_facts, notices, notifying
from rivals.projections import Projection
from rivals.rebuild import Table


class NotificationsProjection(Projection):
    name = "live_notifications"
    tables = (Table("live_notification"),)
    joins_append = True  # a row names its event's position: on the hot path, from the INSERT (``ahead``)

    @property
    def event_types(self) -> frozenset[str]:  # type: ignore[override]  # the rooms register them
        return notifying()

    @property
    def rebuild_types(self) -> frozenset[str]:
        return notifying() | fact_types()

    def reset(self) -> None:
        from rivals.live.models import Notification

        Notification.objects.all().delete()

    @staticmethod
    def _rows(event, facts) -> list:
        from rivals.live.models import Notification

        return [
            Notification(account_id=account, position=event.position, type=kind, data=data, at=event.recorded_at)
            for account, kind, data in notices(event, facts)
        ]

    def apply(self, event) -> None:
        from rivals.live.models import Notification

        rows = self._rows(event, log_facts())
        if rows:
            Notification.objects.bulk_create(rows, ignore_conflicts=True)

    def ahead(self, event) -> list[tuple[str, list]]:
        """``apply``'s rows as one INSERT that reads the event's position from ``appended`` (the
        statement of an append of this one event: ``rivals.eventstore``)."""
        found = notices(event, log_facts())
        if not found:
            return []
        values = ", ".join(["(%s::bigint, %s::text, %s::jsonb)"] * len(found))
        sql = (
            "INSERT INTO live_notification (account_id, position, type, data, at) "
            "SELECT n.account_id, appended.position, n.type, n.data, %s::timestamptz "
            f"FROM appended CROSS JOIN (VALUES {values}) AS n(account_id, type, data) ON CONFLICT DO NOTHING"
        )
        rows = [v for account, kind, data in found for v in (account, kind, Jsonb(data))]
        return [(sql, [event.recorded_at, *rows])]

    def apply_many(self, events) -> None:
        from rivals.live.models import Notification

        facts = log_facts()
        rows = [row for event in events for row in self._rows(event, facts)]
        if rows:
            Notification.objects.bulk_create(rows, ignore_conflicts=True)

    def rebuild(self, log) -> None:
        from rivals.live.models import Notification
        from rivals.rawsql import copy_insert

        facts, rows, told = folded_facts(), {}, notifying()
        for page in log.pages(self.rebuild_types):
            for event in page:
                if event.type in told:
                    for row in self._rows(event, facts):
                        rows.setdefault((row.account_id, row.position, row.type), row)
                facts.learn(event)
        copy_insert(Notification, list(rows.values()))


notifications_projection = NotificationsProjection()
