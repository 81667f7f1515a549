"""Pausing and resuming periodic jobs (issue 22): the operator's act is an event on ``job-<name>``
and beat's switch (``PeriodicTask.enabled``) follows it; ``setup_periodic_tasks`` re-declares
every job from ``config/periodic.py`` at each start and keeps a paused one paused."""

from __future__ import annotations

from django.db import transaction
from django_celery_beat.models import PeriodicTask

from rivals.errors import NotAllowed
from rivals.eventstore import ANY_VERSION, event_append
from rivals.models import Event
from rivals.periodic.events import JOB_PAUSED, JOB_RESUMED, job_paused, job_resumed
from rivals.text import clean_text

STREAM_TYPE = "job"


def job_stream(name: str) -> str:
    return f"job-{name}"


def job_states() -> dict[str, Event]:
    """The last pause or resume of each job that has one (by job name)."""
    last = (
        Event.objects.filter(stream_type=STREAM_TYPE, type__in=(JOB_PAUSED, JOB_RESUMED))
        .order_by("stream_id", "-version")
        .distinct("stream_id")
    )
    return {e.data["job"]: e for e in last}


def job_state(name: str) -> Event | None:
    """The last pause or resume of one job (None: never paused)."""
    return (
        Event.objects.filter(stream_id=job_stream(name), type__in=(JOB_PAUSED, JOB_RESUMED))
        .order_by("-version")
        .first()
    )


def jobs_paused() -> set[str]:
    return {name for name, e in job_states().items() if e.type == JOB_PAUSED}


def _switch(*, name: str, reason: str, actor: str, pause: bool) -> PeriodicTask:
    task = PeriodicTask.objects.select_for_update().get(name=name)
    if pause and not task.enabled:
        raise NotAllowed("the job is already paused")
    if not pause and task.enabled:
        raise NotAllowed("the job is not paused")
    reason = clean_text(reason, field="reason", max_length=300)
    made = (job_paused if pause else job_resumed)(job=name, task=task.task, reason=reason)
    event_append(
        stream_id=job_stream(name), stream_type=STREAM_TYPE, expected_version=ANY_VERSION, actor=actor, events=[made]
    )
    sent = task.last_run_at
    task.enabled = not pause
    task.save()  # django-celery-beat tells beat that its schedule changed
    # … and forgets when beat last sent a disabled job: kept, so that the jobs page says it after a
    # pause and a resume (issue 40), and a resumed job runs at once (its next run is overdue)
    PeriodicTask.objects.filter(pk=task.pk).update(last_run_at=sent)
    task.last_run_at = sent
    return task


@transaction.atomic
def job_pause(*, name: str, reason: str, actor: str) -> PeriodicTask:
    return _switch(name=name, reason=reason, actor=actor, pause=True)


@transaction.atomic
def job_resume(*, name: str, reason: str, actor: str) -> PeriodicTask:
    return _switch(name=name, reason=reason, actor=actor, pause=False)
