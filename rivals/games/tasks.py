"""Celery tasks of solo games: thin — call a service. Task names keep the ``rivals.`` prefix the
periodic tasks and queued messages already use."""

from __future__ import annotations

from celery import shared_task

from rivals.jobs import job_now


@shared_task(name="rivals.games_expire_due")
def games_expire_due(now: str | None = None) -> int:
    """P-4: end pool games whose server time ran out, even if the client stopped calling."""
    from rivals.games.services import games_expire_due as expire

    return expire(now=job_now(now))


@shared_task(name="rivals.rejected_intents_prune")
def rejected_intents_prune(now: str | None = None) -> int:
    from rivals.games.services.rejections import rejected_intents_prune as prune

    return prune(now=job_now(now))


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
    from rivals.games.levels import levels_generate as generate

    return generate(start=start, end=end, chunk=end - start + 1)
