"""The event log's partitions (issue 26, migration 0011): list them — range, estimated rows, size —
and, with ``--ensure``, make the months ahead now (what the daily ``event-partitions`` job does).

    python manage.py event_partitions [--ensure [--months-ahead 3]]
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from rivals.system import EVENT_PARTITION_MONTHS_AHEAD, event_partitions, event_partitions_ensure


class Command(BaseCommand):
    help = "List the event log's partitions; --ensure makes the months ahead (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--ensure", action="store_true", help="make the monthly partitions ahead now")
        parser.add_argument("--months-ahead", type=int, default=EVENT_PARTITION_MONTHS_AHEAD)

    def handle(self, *args, ensure: bool, months_ahead: int, **options):
        if ensure:
            made = event_partitions_ensure(months_ahead=months_ahead)
            self.stdout.write(f"{made} monthly partition(s) made ({months_ahead} months ahead)")
        for p in event_partitions():
            self.stdout.write(
                f"{p['name']:24} {p['bound']:70} ~{p['rows_estimate']:>12,} rows {p['bytes'] / 1e6:10.1f} MB"
            )
