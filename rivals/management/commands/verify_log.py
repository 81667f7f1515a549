"""``python manage.py verify_log``: recompute the event log's hash chain (``rivals.eventchain``)
and name the first event that does not match; exit status 1 then.

    python manage.py verify_log                       # the whole log, in one snapshot
    python manage.py verify_log --save-heads FILE     # also write every stream's head to FILE
    python manage.py verify_log --heads FILE          # also check the heads saved in FILE

Keep saved heads away from the database (they are what shows a stream's removed tail, or a
removed stream): see README "Security".
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from rivals.eventchain import Report, log_verify


def report_lines(report: Report, limit: int = 10) -> list[str]:
    lines = [f"first break: {report.first}"] if report.first else []
    lines += [f"  {b}" for b in report.breaks[:limit]]
    if len(report.breaks) > limit:
        lines.append(f"  … and {len(report.breaks) - limit} more")
    return lines


class Command(BaseCommand):
    help = "Recompute the event log's hash chain; name the first event that does not match (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("--save-heads", metavar="FILE", help="write every stream's head (version, chain) here")
        parser.add_argument("--heads", metavar="FILE", help="check that the heads saved in FILE are still in the log")

    def handle(self, *args, save_heads=None, heads=None, **options):
        saved = None
        if heads:
            saved = {}
            with open(heads, encoding="utf-8") as f:
                for line in f:
                    stream_id, version, chain = line.rstrip("\n").rsplit("\t", 2)
                    saved[stream_id] = (int(version), bytes.fromhex(chain))
        started = time.perf_counter()
        report = log_verify(saved_heads=saved)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"{report.events} events in {report.streams} streams checked in {seconds:.2f}s"
            + (f" ({report.events / seconds:,.0f} events/s)" if seconds > 0 else "")
            + (f", {len(saved)} saved heads" if saved is not None else "")
        )
        if save_heads:
            with open(save_heads, "w", encoding="utf-8") as f:
                for stream_id, (version, chain) in sorted(report.heads.items()):
                    f.write(f"{stream_id}\t{version}\t{chain.hex()}\n")
            self.stdout.write(f"{len(report.heads)} stream heads saved to {save_heads}")
        if report.breaks:
            for line in report_lines(report):
                self.stdout.write(line)
            raise CommandError(f"the event log's hash chain is broken in {len(report.breaks)} places: {report.first}")
        self.stdout.write(self.style.SUCCESS("the event log's hash chain holds"))
