"""``python manage.py verify_log``: recompute the event log's hash chain (``rivals.eventchain``),
check it against the latest anchor (``rivals.eventanchor``), and name the first event that does
not match; exit status 1 then.

    python manage.py verify_log                    # the whole log, in one snapshot, and the anchors
    python manage.py verify_log --anchors DIR      # the anchors of DIR (default RIVALS_ANCHOR_DIR)
    python manage.py verify_log --no-anchors       # the chain alone

The anchors are what shows a stream's removed tail with its head rewound, or a removed stream:
see docs/security.md.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from rivals.eventanchor import log_verify_anchored
from rivals.eventchain import Report


def report_lines(report: Report, limit: int = 10) -> list[str]:
    lines = [f"first break: {report.first}"] if report.first else []
    lines += [f"  {b}" for b in report.breaks[:limit]]
    if len(report.breaks) > limit:
        lines.append(f"  … and {len(report.breaks) - limit} more")
    return lines


class Command(BaseCommand):
    help = "Recompute the event log's hash chain and check it against the latest anchor; name the first break (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("--anchors", metavar="DIR", help="the anchors' directory (default: RIVALS_ANCHOR_DIR)")
        parser.add_argument("--no-anchors", action="store_true", help="check the chain alone")

    def handle(self, *args, anchors=None, no_anchors=False, **options):
        started = time.perf_counter()
        report, anchored, problem = log_verify_anchored(anchors, use_anchors=not no_anchors)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"{report.events} events in {report.streams} streams checked in {seconds:.2f}s"
            + (f" ({report.events / seconds:,.0f} events/s)" if seconds > 0 else "")
        )
        if anchored is not None and anchored.latest is not None:
            self.stdout.write(f"against {anchored.latest} ({len(anchored.heads)} stream heads)")
        elif not no_anchors and not problem:
            self.stdout.write("no anchor yet: the chain alone was checked (the log-anchor job writes them)")
        if problem:
            self.stdout.write(f"the anchors do not hold: {problem}")
        if report.breaks:
            for line in report_lines(report):
                self.stdout.write(line)
            raise CommandError(f"the event log's hash chain is broken in {len(report.breaks)} places: {report.first}")
        if problem:
            raise CommandError(f"the anchors do not hold: {problem}")
        self.stdout.write(self.style.SUCCESS("the event log's hash chain holds"))
