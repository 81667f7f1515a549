from django.core.management.base import BaseCommand, CommandError

from rivals.rebuild import RebuildBusy, rebuild


class Command(BaseCommand):
    help = (
        "Rebuild every projection from the event log into private copies, then write into the live "
        "tables only the rows that differ, in one short locked transaction: safe beside live traffic. "
        "--verify compares only, and checks the log's hash chain (exit status 1 when a projection differs "
        "from the log or the chain is broken: verify_log)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--verify", action="store_true", help="compare the rebuilt projections with the live tables; write nothing"
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, verify=False, no_progress=False, **options):
        try:
            report = rebuild(verify_only=verify, progress=not no_progress)
        except RebuildBusy as exc:
            raise CommandError(str(exc)) from exc
        for d in report.differences:
            if d.any:
                self.stdout.write(
                    f"  {d.table}: {d.only_live} rows only live, {d.only_rebuilt} only rebuilt, {d.changed} changed"
                )
                for example in d.examples:
                    self.stdout.write(f"    {example}")
        self.stdout.write(
            f"{report.events} events replayed in {report.build_seconds:.2f}s ({report.rate:,.0f} events/s); "
            f"compared in {report.precompare_seconds:.2f}s without a lock, swap {report.swap_seconds * 1000:.0f} ms under lock (attempt {report.swap_attempts}), "
            f"{report.caught_up} events caught up; {report.seconds:.2f}s in all"
        )
        differing = [d.table for d in report.differences if d.any]
        if verify:
            from rivals.eventanchor import log_verify_anchored
            from rivals.management.commands.verify_log import report_lines

            chain, anchored, problem = log_verify_anchored()
            against = f", against {anchored.latest}" if anchored and anchored.latest else ""
            self.stdout.write(f"hash chain: {chain.events} events in {chain.streams} streams{against}")
            for line in report_lines(chain):
                self.stdout.write(line)
            if chain.breaks:
                raise CommandError(f"the event log's hash chain is broken: {chain.first}")
            if problem:
                raise CommandError(f"the event log's anchors do not hold: {problem}")
            if differing:
                detail = "; ".join(
                    f"{d.table} ({'; '.join(d.examples)})" if d.examples else d.table
                    for d in report.differences
                    if d.any
                )
                raise CommandError(f"{len(differing)} projection tables differ from the log: {detail}")
            self.stdout.write(
                self.style.SUCCESS(
                    f"every projection equals the log ({len(report.differences)} tables); its hash chain holds"
                )
            )
        else:
            self.stdout.write(
                self.style.SUCCESS(
                    f"rebuilt {len(report.differences)} tables; {report.written} live rows written"
                    + (f" ({', '.join(differing)})" if differing else " (all were equal)")
                )
            )
