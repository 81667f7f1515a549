import time

from django.core.management.base import BaseCommand

from rivals import projections


class Command(BaseCommand):
    help = "Reset every projection and rebuild it from the event log (one transaction)."

    def handle(self, *args, **options):
        started = time.perf_counter()
        count = projections.rebuild_all(progress=lambda msg: self.stdout.write(msg))
        self.stdout.write(
            self.style.SUCCESS(f"rebuilt {len(projections.registered())} projections from {count} events "
                               f"in {time.perf_counter() - started:.2f}s")
        )
