"""What every Celery task last did, for operators (the admin's periodic-tasks page): a
``JobRun`` row per task name, rewritten by the worker's task signals — when it started, when it
finished, and its result or error in a line. Job state, not events."""

from __future__ import annotations

import logging

from celery.signals import task_failure, task_prerun, task_success
from django.db import DatabaseError
from django.db.models import F
from django.utils import timezone

log = logging.getLogger(__name__)
RESULT_MAX = 500


def readable(value) -> str:
    """A task's return value as a person reads it (issue 22: not a Python repr): ``rounds 0,
    tickets 0, duels 0``; an empty mapping is ``nothing to do``; ``None`` is ``done``."""
    if value is None:
        return "done"
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {readable(v)}" for k, v in value.items()) or "nothing to do"
    if isinstance(value, (list, tuple, set)):
        return ", ".join(readable(v) for v in value) or "none"
    return str(value)


def _summary(value) -> str:
    text = readable(value)
    return text if len(text) <= RESULT_MAX else text[: RESULT_MAX - 1] + "…"


def _write(task_name: str, **fields) -> None:
    from rivals.models import JobRun

    try:
        updated = JobRun.objects.filter(pk=task_name).update(**fields)
        if not updated:
            plain = {k: v for k, v in fields.items() if not hasattr(v, "resolve_expression")}
            JobRun.objects.get_or_create(pk=task_name, defaults=plain)
            JobRun.objects.filter(pk=task_name).update(**fields)
    except DatabaseError:  # a record of a job must never fail the job (an outage is retried there)
        log.warning("could not record the run of %s", task_name, exc_info=True)


@task_prerun.connect(weak=False, dispatch_uid="rivals.jobs.prerun")
def _started(sender=None, **_):
    _write(sender.name, started_at=timezone.now())


@task_success.connect(weak=False, dispatch_uid="rivals.jobs.success")
def _succeeded(sender=None, result=None, **_):
    _write(sender.name, finished_at=timezone.now(), ok=True, result=_summary(result), runs=F("runs") + 1)


@task_failure.connect(weak=False, dispatch_uid="rivals.jobs.failure")
def _failed(sender=None, exception=None, **_):
    _write(
        sender.name,
        finished_at=timezone.now(),
        ok=False,
        result=_summary(f"{type(exception).__name__}: {exception}"),
        runs=F("runs") + 1,
        failures=F("failures") + 1,
    )


def job_now(now: str | None):
    """A periodic task's clock: ``now`` (an ISO instant, JSON-serialisable in a task's kwargs) or
    the server's. Beat sends none; ``manage.py simulate`` runs the jobs at its simulated instants."""
    from django.utils.dateparse import parse_datetime

    return parse_datetime(now) if now else timezone.now()
