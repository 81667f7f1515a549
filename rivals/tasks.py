"""Celery tasks of the rivals app: thin — fetch by id, return if done, call a service."""

from __future__ import annotations

from celery import shared_task

from rivals import system
from rivals.jobs import job_now


@shared_task(name="rivals.heartbeat")
def heartbeat() -> str:
    """Proves beat → worker → database: rewrites the ``celery`` heartbeat row (see /healthz)."""
    return system.system_heartbeat(source="celery").isoformat()


@shared_task(name="rivals.idempotency_prune")
def idempotency_prune(now: str | None = None) -> int:
    return system.idempotency_prune(now=job_now(now))


@shared_task(name="rivals.event_partitions_ensure")
def event_partitions_ensure(now: str | None = None) -> int:
    """Issue 26: the event log's monthly partitions, three months ahead (idempotent)."""
    return system.event_partitions_ensure(now=job_now(now))


@shared_task(name="rivals.log_anchor")
def log_anchor(now: str | None = None) -> str:
    """Issue 31: check the log against its latest anchor, then write the next one (fails on a rewrite)."""
    from rivals.eventanchor import log_anchor_write

    return log_anchor_write(now=job_now(now))
