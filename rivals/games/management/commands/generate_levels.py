import time

from django.core.management.base import BaseCommand

from rivals import engine
from rivals.games.levels import levels_generate


class Command(BaseCommand):
    help = "Store the shipped levels (R-1/R-2) as Level rows. Idempotent: stored levels are skipped."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="start", type=int, default=1)
        parser.add_argument("--to", dest="end", type=int, default=engine.MAX_LEVEL)
        parser.add_argument("--jobs", type=int, default=1, help="accepted for older scripts; not needed")
        parser.add_argument("--async", dest="use_celery", action="store_true", help="enqueue on the worker")

    def handle(self, *args, start, end, jobs, use_celery, **options):
        if use_celery:
            from rivals.games.tasks import levels_generate as task

            task.delay(start=start, end=end)
            self.stdout.write(f"enqueued levels {start}…{end} (the worker splits them into chunk tasks)")
            return
        t0 = time.perf_counter()
        added = levels_generate(
            start=start, end=end, jobs=jobs, progress=lambda n: self.stdout.write(f"{n} levels stored")
        )
        self.stdout.write(self.style.SUCCESS(f"{added} levels added in {time.perf_counter() - t0:.1f}s"))
