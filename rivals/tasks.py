"""Celery tasks of the rivals app: thin — fetch by id, return if done, call a service."""

from __future__ import annotations

from celery import shared_task

from rivals.services.system import system_heartbeat


@shared_task(name="rivals.heartbeat")
def heartbeat() -> int:
    """Proves beat → worker → database: appends a ``HeartbeatRecorded`` event."""
    return system_heartbeat(source="celery")


@shared_task(name="rivals.games_expire_due")
def games_expire_due() -> int:
    """P-4: end pool games whose server time ran out, even if the client stopped calling."""
    from rivals.services.games import games_expire_due as expire

    return expire()


@shared_task(name="rivals.levels_generate", acks_late=True)
def levels_generate(*, start: int = 1, end: int = 11000, chunk: int = 200) -> int:
    """R-2: store the shipped levels in chunks (idempotent: stored levels are skipped)."""
    from rivals.services.levels import levels_generate as generate

    return generate(start=start, end=end, chunk=chunk)
