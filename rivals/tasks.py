"""Celery tasks of the rivals app: thin — fetch by id, return if done, call a service."""

from __future__ import annotations

from celery import shared_task

from rivals.jobs import job_now
from rivals.services import system


@shared_task(name="rivals.heartbeat")
def heartbeat() -> str:
    """Proves beat → worker → database: rewrites the ``celery`` heartbeat row (see /healthz)."""
    return system.system_heartbeat(source="celery").isoformat()


@shared_task(name="rivals.idempotency_prune")
def idempotency_prune(now: str | None = None) -> int:
    return system.idempotency_prune(now=job_now(now))


@shared_task(name="rivals.rejected_intents_prune")
def rejected_intents_prune(now: str | None = None) -> int:
    return system.rejected_intents_prune(now=job_now(now))


@shared_task(name="rivals.games_expire_due")
def games_expire_due(now: str | None = None) -> int:
    """P-4: end pool games whose server time ran out, even if the client stopped calling."""
    from rivals.services.games import games_expire_due as expire

    return expire(now=job_now(now))


LEVELS_PER_CHUNK = 100  # rows copied from the shipped table per task: milliseconds


@shared_task(name="rivals.levels_generate")
def levels_generate(*, start: int = 1, end: int = 11000, chunk: int = LEVELS_PER_CHUNK) -> int:
    """R-2: store the shipped levels ``start…end`` as short idempotent chunk tasks (stored
    levels are skipped), so that a worker lost mid-job costs one chunk, re-delivered."""
    chunks = 0
    for first in range(start, end + 1, chunk):
        levels_generate_chunk.delay(start=first, end=min(end, first + chunk - 1))
        chunks += 1
    return chunks


@shared_task(name="rivals.levels_generate_chunk")
def levels_generate_chunk(*, start: int, end: int) -> int:
    from rivals.services.levels import levels_generate as generate

    return generate(start=start, end=end, chunk=end - start + 1)


@shared_task(name="rivals.email_deliver")
def email_deliver(*, email_id: int) -> str:
    """R-36: send one outbox email after its transaction committed (retried by ``emails-retry``)."""
    from rivals.emails import email_deliver as deliver

    return deliver(email_id=email_id)


@shared_task(name="rivals.emails_retry")
def emails_retry(now: str | None = None) -> int:
    from rivals.emails import emails_retry_due

    return emails_retry_due(now=job_now(now))
