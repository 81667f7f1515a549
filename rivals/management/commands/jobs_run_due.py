"""``python manage.py jobs_run_due``: run every periodic job of ``config/periodic.py`` once, now.

What beat would do, synchronously in this process (for operators after an outage, and for tests).
Jobs are looked up by task name in the Celery app, so this command knows no app's code. A job
declared twice (e.g. a midnight run and its hourly catch-up) runs once. Every job is idempotent:
running this while beat runs too is safe.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from config.celery import app
from config.periodic import PERIODIC_TASKS


class Command(BaseCommand):
    help = "Run every periodic job (config/periodic.py) once, now, synchronously."

    def add_arguments(self, parser):
        parser.add_argument("--only", action="append", default=[], help="run only this task name (repeatable)")

    def handle(self, *args, **options):
        app.loader.import_default_modules()
        seen: set[tuple[str, str]] = set()
        failed = []
        for spec in PERIODIC_TASKS:
            name, kwargs = spec["task"], spec.get("kwargs_json", "{}")
            if (name, kwargs) in seen or (options["only"] and name not in options["only"]):
                continue
            seen.add((name, kwargs))
            task = app.tasks.get(name)
            if task is None:
                failed.append(name)
                self.stderr.write(f"{name}: no such task")
                continue
            result = task.apply(kwargs=json.loads(kwargs))
            if result.failed():
                failed.append(name)
                self.stderr.write(f"{name}: failed: {result.result!r}")
            else:
                self.stdout.write(f"{name}: {result.result}")
        if failed:
            raise CommandError(f"{len(failed)} job(s) failed: {', '.join(failed)}")
