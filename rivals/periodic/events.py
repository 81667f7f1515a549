"""The events of periodic jobs (issue 22): an operator pauses or resumes a job declared in
``config/periodic.py`` — one typed constructor each (schema version 1).

Stream ``job-<name>`` (stream type ``job``; ``name`` as declared, e.g. ``matches-sweep``). The
last of them says whether the job is paused; ``manage.py setup_periodic_tasks`` reads it at
every start, so a pause survives a restart.
"""

from __future__ import annotations

from typing import TypedDict

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
JOB_PAUSED = "JobPaused"
JOB_RESUMED = "JobResumed"

JOB_EVENTS = frozenset({JOB_PAUSED, JOB_RESUMED})


class JobPausedData(TypedDict):
    job: str
    task: str
    reason: str


def job_paused(*, job: str, task: str, reason: str) -> NewEvent:
    """Beat stops sending ``task`` for ``job`` until it is resumed."""
    data: JobPausedData = {"job": job, "task": task, "reason": reason}
    return NewEvent(JOB_PAUSED, data)


class JobResumedData(TypedDict):
    job: str
    task: str
    reason: str


def job_resumed(*, job: str, task: str, reason: str) -> NewEvent:
    data: JobResumedData = {"job": job, "task": task, "reason": reason}
    return NewEvent(JOB_RESUMED, data)
