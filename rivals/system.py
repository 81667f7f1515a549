"""System jobs: the heartbeat (liveness of beat → worker → database) and the retention jobs."""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from rivals.models import Heartbeat, IdempotencyRecord

RETENTION_BATCH = 5000


def system_heartbeat(*, source: str, now: datetime | None = None) -> datetime:
    """Record that ``source`` (the Celery worker, run by beat) reached the database just now."""
    now = now or timezone.now()
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO rivals_heartbeat (source, beat_at, host, pid, beats) VALUES (%s, %s, %s, %s, 1) "
            "ON CONFLICT (source) DO UPDATE SET beat_at = EXCLUDED.beat_at, host = EXCLUDED.host, "
            "pid = EXCLUDED.pid, beats = rivals_heartbeat.beats + 1",
            [source, now, socket.gethostname(), os.getpid()],
        )
    return now


def heartbeat_status(*, source: str = "celery", now: datetime | None = None) -> dict:
    """For ``/healthz``: the last heartbeat of ``source`` and whether it is recent (3 intervals)."""
    beat = Heartbeat.objects.filter(source=source).first()
    if beat is None:
        return {"status": "none", "at": None, "age_s": None}
    age = ((now or timezone.now()) - beat.beat_at).total_seconds()
    fresh = age <= 3 * settings.RIVALS["HEARTBEAT_INTERVAL_S"]
    return {
        "status": "ok" if fresh else "stale",
        "at": beat.beat_at.isoformat(),
        "age_s": round(age, 1),
        "host": beat.host,
        "pid": beat.pid,
    }


# a job is late once its next run after the last one is overdue by more than its own interval —
# at least a minute (beat's and a worker's own delays), at most an hour (a daily job missed is
# seen within the hour, not a day later)
LATE_GRACE_MIN_S, LATE_GRACE_MAX_S = 60, 3600


def _period_s(task, due: datetime, now: datetime) -> float:
    """The seconds between the job's runs: its interval, or a crontab's gap after ``due``."""
    if task.interval is not None:
        return task.schedule.run_every.total_seconds()
    following = now + task.schedule.remaining_estimate(due + timedelta(seconds=1))
    return max((following - due).total_seconds(), 1.0)


def job_overdue_s(task, run, *, now: datetime) -> float | None:
    """How long past its grace a declared, enabled job's next run is (None: not late, or never
    ran — nothing to measure from). ``run``: its ``JobRun`` (the worker's last start)."""
    if run is None or run.started_at is None:
        return None
    due = now + task.schedule.remaining_estimate(run.started_at)
    grace = min(max(_period_s(task, due, now), LATE_GRACE_MIN_S), LATE_GRACE_MAX_S)
    overdue = (now - due).total_seconds() - grace
    return overdue if overdue > 0 else None


def jobs_status(*, now: datetime | None = None) -> dict[str, list[str]]:
    """For ``/healthz`` and the jobs page (issue 40): the jobs ``config/periodic.py`` declares that
    an operator paused, that are late (``job_overdue_s``) and whose last run failed, by name."""
    from django_celery_beat.models import PeriodicTask

    from config.periodic import PERIODIC_TASKS
    from rivals.models import JobRun

    now = now or timezone.now()
    tasks = list(
        PeriodicTask.objects.filter(name__in=[spec["name"] for spec in PERIODIC_TASKS])
        .select_related("interval", "crontab")
        .order_by("name")
    )
    runs = JobRun.objects.in_bulk([t.task for t in tasks])
    out: dict[str, list[str]] = {"paused": [], "late": [], "failed": []}
    for task in tasks:
        run = runs.get(task.task)
        if not task.enabled:
            out["paused"].append(task.name)
            continue
        if job_overdue_s(task, run, now=now) is not None:
            out["late"].append(task.name)
        if run is not None and run.finished_at is not None and not run.ok:
            out["failed"].append(task.name)
    return out


def prune_older(queryset, field: str, before: datetime) -> int:
    """Delete rows older than ``before`` in batches (short transactions, no long locks)."""
    deleted = 0
    while True:
        ids = list(queryset.filter(**{f"{field}__lt": before}).values_list("pk", flat=True)[:RETENTION_BATCH])
        if not ids:
            return deleted
        deleted += queryset.filter(pk__in=ids).delete()[0]


def idempotency_prune(*, now: datetime | None = None) -> int:
    """Idempotency records older than ``IDEMPOTENCY_RETENTION_H`` (a key is for retries)."""
    before = (now or timezone.now()) - timedelta(hours=settings.RIVALS["IDEMPOTENCY_RETENTION_H"])
    return prune_older(IdempotencyRecord.objects, "created_at", before)


EVENT_PARTITION_MONTHS_AHEAD = 3


def event_partitions_ensure(*, now: datetime | None = None, months_ahead: int = EVENT_PARTITION_MONTHS_AHEAD) -> int:
    """Issue 26: the event log's monthly partitions exist up to ``months_ahead`` months past
    ``now`` (migration 0011's ``rivals_event_partitions_ensure``: carved out of the catch-all
    ``rivals_event_after``, so an append never waits for this job). Returns the months made
    (0 when they exist: idempotent)."""
    upto = (now or timezone.now()) + timedelta(days=31 * months_ahead)
    with connection.cursor() as cur:
        cur.execute("SELECT rivals_event_partitions_ensure(%s)", [upto])
        return cur.fetchone()[0]


def event_partitions() -> list[dict]:
    """The log's partitions in time order: name, range (None for an open end), rows (estimated
    by the planner's statistics: no scan) and size on disk."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), greatest(c.reltuples, 0)::bigint, "
            "pg_total_relation_size(c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'rivals_event'::regclass"
        )
        rows = cur.fetchall()
    order = {"rivals_event_before": "0", "rivals_event_after": "2"}
    return [
        {"name": name, "bound": bound, "rows_estimate": rows_, "bytes": size}
        for name, bound, rows_, size in sorted(rows, key=lambda r: order.get(r[0], "1" + r[0]))
    ]
