"""Periodic tasks as operators read them (issue 22): what each job does in plain words, its
declared schedule (``config/periodic.py``: what every start restores), whether an operator paused
it (who, when, why), when beat last sent it and when a worker last ran it with what result
(``JobRun``, written by ``rivals.jobs``). Beat's rows are not edited here: the schedule is code,
and pausing or resuming is an action with a reason (an event that survives a restart)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django_celery_beat.models import ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask, SolarSchedule

from config.periodic import PERIODIC_TASKS
from rivals.admin_actions import ObjectActionsMixin, Row, confirm_then_apply, permission_check
from rivals.admin_base import ReadOnlyAdmin
from rivals.admin_display import actor_html, when
from rivals.models import JobRun
from rivals.periodic.events import JOB_PAUSED
from rivals.periodic.services import job_pause, job_resume, job_state
from rivals.system import jobs_status

admin.site.unregister(PeriodicTask)
# the schedules' rows too: edited here, they would change a job's timing outside the declaration
# (and the next start would point the job at a new row, leaving the edit behind, silently)
for _model in (IntervalSchedule, CrontabSchedule, SolarSchedule, ClockedSchedule):
    admin.site.unregister(_model)
DECLARED = {spec["name"]: spec for spec in PERIODIC_TASKS}


def _every(seconds: int) -> str:
    if seconds % 3600 == 0:
        return "hourly" if seconds == 3600 else f"every {seconds // 3600} hours"
    if seconds % 60 == 0:
        return "every minute" if seconds == 60 else f"every {seconds // 60} minutes"
    return f"every {seconds} seconds"


def declared_schedule(spec: dict | None) -> str:
    """The schedule ``config/periodic.py`` declares, in words."""
    if spec is None:
        return "not declared (every start of the service disables it)"
    if "interval_seconds" in spec:
        return _every(spec["interval_seconds"])
    cron = spec["crontab"]
    zone = " Romanian time" if cron.get("timezone") == "Europe/Bucharest" else f" {cron.get('timezone', 'UTC')}"
    minute, hour = cron.get("minute", "*"), cron.get("hour", "*")
    rest = [cron.get(k, "*") for k in ("day_of_week", "day_of_month", "month_of_year")]
    if hour == "*" and minute.isdigit():
        when_ = f"hourly at :{int(minute):02d}"
    elif hour.isdigit() and minute.isdigit():
        when_ = f"daily at {int(hour):02d}:{int(minute):02d}"
    else:
        when_ = f"cron {minute} {hour}"
    return (
        when_ + zone + ("" if rest == ["*", "*", "*"] else f" (day of week {rest[0]}, day {rest[1]}, month {rest[2]})")
    )


def _current(task: PeriodicTask) -> str:
    if task.interval is not None:
        return _every(
            int(task.interval.every * {"seconds": 1, "minutes": 60, "hours": 3600}.get(task.interval.period, 1))
        )
    return str(task.crontab or task.clocked or task.solar or "—")


def _label(task: PeriodicTask) -> str:
    return task.name


MONITORED = (
    "monitoring sees it: /healthz answers “degraded” (jobs: paused) from now until the job is resumed — tell "
    "whoever watches it"
)
HEARTBEAT = "the heartbeat goes stale within three minutes: /healthz answers “degraded” (heartbeat) too"


def _switch(pause: bool):
    verb = "Pause" if pause else "Resume"

    def rows(task: PeriodicTask) -> Row:
        skip = (
            ("already paused" if not task.enabled else None) if pause else (None if not task.enabled else "not paused")
        )
        if pause:
            lines = ["beat stops sending it — through restarts too — until it is resumed"]
            if task.name in DECLARED:
                lines.append(MONITORED)
            if task.task == "rivals.heartbeat":
                lines.append(HEARTBEAT)
        else:
            lines = [f"beat sends it again ({declared_schedule(DECLARED.get(task.name))}), the first time now"]
        return Row(task, _label(task), [task.description or "—", *lines], skip)

    def action(modeladmin, request, queryset):
        service = job_pause if pause else job_resume
        return confirm_then_apply(
            modeladmin,
            request,
            queryset,
            name=action.__name__,
            title=f"{verb} jobs",
            explain="Every start of the service keeps the job as you leave it. The safety nets of the game clock "
            "(matches-sweep, tournaments-sweep) are how missed deadlines are caught: pause them only to investigate.",
            rows=rows,
            apply=lambda t, d, actor: service(name=t.name, reason=d["reason"], actor=actor) and None,
            ordering=("name",),
            danger=pause,
        )

    action.__name__ = "pause_jobs" if pause else "resume_jobs"
    return admin.action(description=f"{verb} (with a note)", permissions=["pause"])(action)


pause_jobs, resume_jobs = _switch(True), _switch(False)


@admin.register(PeriodicTask)
class PeriodicTaskAdmin(ObjectActionsMixin, ReadOnlyAdmin):
    """The health columns first (issue 40: the list fits 1280 px); what each job does is its
    name's tooltip on the list and the first line of its page."""

    list_display = ("job", "state", "last_sent", "last_run", "last_result", "declared")
    list_display_links = ("job",)
    ordering = ("name",)  # no filter beside the list: the state column says it, and the list fits 1280 px
    fields = (
        "job",
        "what_it_does",
        "task_name",
        "declared",
        "schedule_now",
        "state",
        "last_sent",
        "last_run",
        "last_result",
    )
    readonly_fields = fields
    actions = [pause_jobs, resume_jobs]
    object_actions = (("pause_jobs", "Pause…"), ("resume_jobs", "Resume…"))
    has_pause_permission = permission_check("django_celery_beat.change_periodictask")

    def object_action_shown(self, obj: PeriodicTask, name: str) -> bool:
        return (name == "pause_jobs") == obj.enabled

    def get_changelist_instance(self, request):
        """The page's runs and health in two queries (not per row)."""
        cl = super().get_changelist_instance(request)
        runs = JobRun.objects.in_bulk({t.task for t in cl.result_list})
        health = jobs_status()
        for task in cl.result_list:
            task.job_run, task.health = runs.get(task.task), health
        return cl

    def _run(self, obj: PeriodicTask) -> JobRun | None:
        if hasattr(obj, "job_run"):
            return obj.job_run
        return JobRun.objects.filter(pk=obj.task).first()

    @admin.display(description="job", ordering="name")
    def job(self, obj: PeriodicTask):
        return format_html('<span title="{}">{}</span>', obj.description or "", obj.name)

    @admin.display(description="what it does")
    def what_it_does(self, obj: PeriodicTask) -> str:
        return obj.description or "—"

    @admin.display(description="task")
    def task_name(self, obj: PeriodicTask) -> str:
        return obj.task

    @admin.display(description="declared schedule")
    def declared(self, obj: PeriodicTask) -> str:
        return declared_schedule(DECLARED.get(obj.name))

    @admin.display(description="schedule in beat now")
    def schedule_now(self, obj: PeriodicTask):
        now, spec = _current(obj), DECLARED.get(obj.name)
        if spec is not None and now != declared_schedule(spec) and "interval_seconds" in spec:
            return format_html("{} <b>— differs from the declaration: the next start restores it</b>", now)
        return now

    @admin.display(description="state")
    def state(self, obj: PeriodicTask):
        if obj.name not in DECLARED:
            return "enabled, not declared: the next start disables it" if obj.enabled else "disabled (not declared)"
        if obj.enabled:
            health = getattr(obj, "health", None) or jobs_status()
            return format_html("<b>late</b>") if obj.name in health["late"] else "running"
        last = job_state(obj.name)
        if last is not None and last.type == JOB_PAUSED:
            return format_html(
                "<b>paused</b> by {} at {}: {}",
                actor_html((last.metadata or {}).get("actor")),
                when(last.recorded_at),
                last.data.get("reason", ""),
            )
        return format_html("<b>disabled</b>")

    @admin.display(description="last sent by beat")
    def last_sent(self, obj: PeriodicTask):
        return when(obj.last_run_at) if obj.last_run_at else "never"

    @admin.display(description="last run by a worker")
    def last_run(self, obj: PeriodicTask):
        run = self._run(obj)
        return when(run.finished_at) if run and run.finished_at else "never"

    @admin.display(description="result")
    def last_result(self, obj: PeriodicTask):
        run = self._run(obj)
        if run is None or run.finished_at is None:
            return "—"
        colour = "#1a7f37" if run.ok else "#b3261e"
        return format_html(
            '<span class="job-result" title="{}"><span style="color:{}">{}</span> {}</span><br>'
            "<small>{} runs, {} failed</small>",
            run.result,
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
