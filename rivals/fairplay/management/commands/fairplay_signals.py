"""``python manage.py fairplay_signals [--verify] [--limit N]``: R-42's fair-play signals.

Without options: score every rated result not scored yet (the beat's sweeper looks back 3 days).
``--verify``: recompute every board of every ``FairPlaySignalsScored`` from the log (its deal and
its ``PairRemoved`` events) with the production analysis and compare the numbers the event
holds; a difference is named (result, board, field) and the command fails. The thresholds of the
time are not re-applied: the flags are events of their own.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from rivals.fairplay.events import FAIR_PLAY_SIGNALS_SCORED


class Command(BaseCommand):
    help = "Score the fair-play signals of rated results not scored yet, or --verify the scored ones against the log."

    def add_arguments(self, parser):
        parser.add_argument("--verify", action="store_true", help="recompute every scored board from the log")
        parser.add_argument("--limit", type=int, default=0, help="at most this many events (--verify; 0: all)")

    def handle(self, *args, **o):
        from rivals.fairplay.signals import fairplay_result_score, signals_verify
        from rivals.fairplay.tasks import results_due
        from rivals.models import Event

        if not o["verify"]:
            now = timezone.now()
            scored = sum(
                fairplay_result_score(result=r, now=now) for r in results_due(now=now, limit=100_000, lookback=None)
            )
            self.stdout.write(f"scored {scored} results")
            return
        events = Event.objects.filter(type=FAIR_PLAY_SIGNALS_SCORED).order_by("position")
        if o["limit"]:
            events = events[: o["limit"]]
        checked, wrong = signals_verify(events.iterator())
        for line in wrong[:50]:
            self.stderr.write(line)
        if wrong:
            raise CommandError(f"{len(wrong)} of {checked} boards differ from the log")
        self.stdout.write(self.style.SUCCESS(f"{checked} scored boards match the log"))
