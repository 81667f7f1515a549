"""Seating as a pure function (R-23). No Django.

n waiting players sit at ceil(n/4) tables whose sizes differ by at most one (5 → 3+2,
6 → 3+3, 9 → 3+3+3, 10 → 4+3+3); a single waiting player waits for the next seating.
Players are taken in current TP standings (highest first), so players of similar TP meet; equal
TP are ordered by a seeded hash of (tournament seed, wave, account) — the same seed gives the same
seating on every machine, and the order of equal players changes from wave to wave.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]  # account ids, seat order
    waiting: list[int]


def table_sizes(n: int) -> list[int]:
    """ceil(n/4) sizes differing by at most one, larger tables first; [] for 0 or 1 player."""
    if n < 2:
        return []
    count = -(-n // 4)
    base, extra = divmod(n, count)
    return [base + 1] * extra + [base] * (count - extra)


def tie_order(seed: int, wave: int, account_id: int) -> bytes:
    """Reproducible order of players with equal TP (blake2b: the same on every platform)."""
    return hashlib.blake2b(f"{seed}:{wave}:{account_id}".encode(), digest_size=8).digest()


def seat(players: Iterable[tuple[int, int]], *, seed: int, wave: int) -> Seating:
    """``(account_id, tp)`` → tables of consecutive players in standings order."""
    ordered = [a for a, _ in sorted(players, key=lambda p: (-p[1], tie_order(seed, wave, p[0])))]
    sizes = table_sizes(len(ordered))
    if not sizes:
        return Seating(tables=[], waiting=ordered)
    tables, start = [], 0
    for size in sizes:
        tables.append(ordered[start : start + size])
        start += size
    return Seating(tables=tables, waiting=[])
