"""``manage.py setup_periodic_tasks`` (``make run`` runs it at every start): beat's schedule is what
``config/periodic.py`` declares — a schedule changed by hand in beat's tables is put back — and a
job an operator paused stays paused (its last ``JobPaused`` / ``JobResumed``, issue 22)."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask, PeriodicTasks

from config.periodic import PERIODIC_TASKS
from rivals.periodic.services import jobs_paused


class Command(BaseCommand):
    help = "Create or update the periodic tasks declared in config/periodic.py (idempotent; pauses kept)."

    @transaction.atomic
    def handle(self, *args, **options):
        names = set()
        paused = jobs_paused()
        for spec in PERIODIC_TASKS:
            names.add(spec["name"])
            fields = {
                "task": spec["task"],
                "enabled": spec["name"] not in paused,
                "interval": None,
                "crontab": None,
                "kwargs": spec.get("kwargs_json", "{}"),
                "description": spec.get("description", ""),
            }
            if "interval_seconds" in spec:
                fields["interval"], _ = IntervalSchedule.objects.get_or_create(
                    every=spec["interval_seconds"], period=IntervalSchedule.SECONDS
                )
            else:
                cron = spec["crontab"]
                fields["crontab"], _ = CrontabSchedule.objects.get_or_create(
                    minute=cron.get("minute", "*"),
                    hour=cron.get("hour", "*"),
                    day_of_week=cron.get("day_of_week", "*"),
                    day_of_month=cron.get("day_of_month", "*"),
                    month_of_year=cron.get("month_of_year", "*"),
                    timezone=cron.get("timezone", "UTC"),
                )
            PeriodicTask.objects.update_or_create(name=spec["name"], defaults=fields)
        # what is not declared is disabled — Celery's own celery.backend_cleanup included (issue 40:
        # it was listed as running) — so that the jobs page and /healthz say what runs
        stale = PeriodicTask.objects.exclude(name__in=names).filter(enabled=True)
        if stale.update(enabled=False):
            PeriodicTasks.update_changed()  # a running beat reads its schedule again
        if options["verbosity"]:
            kept = (
                f" ({len(paused & names)} paused by an operator: {', '.join(sorted(paused & names))})" if paused else ""
            )
            self.stdout.write(f"{len(names)} periodic tasks set up{kept}")
