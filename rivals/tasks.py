"""Celery tasks of the rivals app: thin — fetch by id, return if done, call a service."""

from __future__ import annotations

from celery import shared_task

from rivals.services.system import system_heartbeat


@shared_task(name="rivals.heartbeat")
def heartbeat() -> int:
    """Proves beat → worker → database: appends a ``HeartbeatRecorded`` event."""
    return system_heartbeat(source="celery")
