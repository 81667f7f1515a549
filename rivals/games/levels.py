"""Levels (R-1/R-2): a level (its stored row, else the shipped table's), whether an account has
unlocked it, and the batch job that copies the shipped table into the ``Level`` rows."""

from __future__ import annotations

from collections.abc import Callable

from rivals import engine
from rivals.errors import NotFound
from rivals.games.models import Level, LevelBest
from rivals.models import Account


def levels_generate(
    *,
    start: int = 1,
    end: int = engine.MAX_LEVEL,
    chunk: int = 200,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Store levels ``start…end`` that are not stored yet, from the engine's shipped table (the
    levels ship with the package: nothing is generated). Idempotent; returns how many were added.
    ``jobs`` is accepted for older callers and not needed (reading the table takes milliseconds)."""
    if not 1 <= start <= end <= engine.MAX_LEVEL:
        raise ValueError(f"levels are 1…{engine.MAX_LEVEL}")
    have = set(Level.objects.filter(number__range=(start, end)).values_list("number", flat=True))
    todo = [n for n in range(start, end + 1) if n not in have]
    added = 0
    for i in range(0, len(todo), chunk):
        rows = [engine.level_info(n) for n in todo[i : i + chunk]]
        Level.objects.bulk_create(
            [
                Level(number=li.level, code=li.code, layout=li.layout, hard=li.hard, difficulty=li.difficulty)
                for li in rows
            ],
            ignore_conflicts=True,
        )
        added += len(rows)
        if progress:
            progress(added)
    return added


def level_get(*, number: int) -> Level:
    """R-1/R-2: the stored level, else the engine's shipped table row (stored on first use; the
    batch job stores the same rows)."""
    if not 1 <= number <= engine.MAX_LEVEL:
        raise NotFound(f"level {number} does not exist (1…{engine.MAX_LEVEL})")
    level = Level.objects.filter(number=number).first()
    if level is None:
        info = engine.level_info(number)
        level, _ = Level.objects.get_or_create(
            number=number,
            defaults={
                "code": info.code,
                "layout": info.layout,
                "hard": info.hard,
                "difficulty": float(info.difficulty),
            },
        )
    return level


def level_unlocked(*, account: Account, number: int) -> bool:
    """Level 1 is open; level n opens when the account has won level n − 1."""
    return number == 1 or LevelBest.objects.filter(account=account, level=number - 1).exists()
