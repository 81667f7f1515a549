"""R-1/R-2: the batch job that precomputes the 11,000 levels (the engine generates; we store)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from rivals import engine
from rivals.models import Level


def _info(n: int) -> tuple[int, str, str, bool, float]:
    info = engine.level_info(n)
    return n, info.code, info.layout, bool(info.hard), float(info.difficulty)


def levels_generate(*, start: int = 1, end: int = engine.MAX_LEVEL, chunk: int = 200, jobs: int = 1,
                    progress: Callable[[int], None] | None = None) -> int:
    """Generate and store levels ``start…end`` that are not stored yet. Idempotent; returns how many
    were added. ``jobs > 1`` spreads the generation over processes (the engine is CPU-bound)."""
    if not 1 <= start <= end <= engine.MAX_LEVEL:
        raise ValueError(f"levels are 1…{engine.MAX_LEVEL}")
    have = set(Level.objects.filter(number__range=(start, end)).values_list("number", flat=True))
    todo = [n for n in range(start, end + 1) if n not in have]
    added = 0
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        for i in range(0, len(todo), chunk):
            part = todo[i:i + chunk]
            rows = list(pool.map(_info, part, chunksize=8)) if pool else [_info(n) for n in part]
            Level.objects.bulk_create(
                [Level(number=n, code=c, layout=lay, hard=h, difficulty=d) for n, c, lay, h, d in rows],
                ignore_conflicts=True,
            )
            added += len(rows)
            if progress:
                progress(added)
    finally:
        if pool:
            pool.shutdown()
    return added
