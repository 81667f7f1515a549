"""Periodic tasks as operators read them: what each job does in plain words (declared with the
schedule in ``config/periodic.py``), when beat last sent it, and when a worker last ran it with
what result (``JobRun``, written by ``rivals.jobs``)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django_celery_beat.admin import PeriodicTaskAdmin as BeatPeriodicTaskAdmin
from django_celery_beat.models import PeriodicTask

from rivals.admin_base import ReadOnlyAdmin
from rivals.models import JobRun

admin.site.unregister(PeriodicTask)


def _run_of(task_name: str) -> JobRun | None:
    return JobRun.objects.filter(pk=task_name).first()


@admin.register(PeriodicTask)
class PeriodicTaskAdmin(BeatPeriodicTaskAdmin):
    list_display = ("name", "what_it_does", "scheduler", "enabled", "last_sent", "last_run", "last_result")
    list_display_links = ("name",)

    @admin.display(description="what it does")
    def what_it_does(self, obj: PeriodicTask) -> str:
        return obj.description or "—"

    @admin.display(description="last sent by beat")
    def last_sent(self, obj: PeriodicTask):
        return obj.last_run_at or "never"

    @admin.display(description="last run by a worker")
    def last_run(self, obj: PeriodicTask):
        run = _run_of(obj.task)
        return run.finished_at if run and run.finished_at else "never"

    @admin.display(description="result")
    def last_result(self, obj: PeriodicTask):
        run = _run_of(obj.task)
        if run is None or run.finished_at is None:
            return "—"
        colour = "#1a7f37" if run.ok else "#b3261e"
        return format_html(
            '<span style="color:{}">{}</span> {} <small>({} runs, {} failed)</small>',
            colour,
            "ok" if run.ok else "FAILED",
            run.result,
            run.runs,
            run.failures,
        )


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    list_display = ("task", "ok", "started_at", "finished_at", "result", "runs", "failures")
    list_filter = ("ok",)
    search_fields = ("task",)
