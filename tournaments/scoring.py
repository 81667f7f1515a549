"""Table points and prize splits as pure functions (R-24, R-25, R-26, R-20 via P-5). No Django
(the tie-sharing rule is rivals' engine scoring, itself pure).

A table result is a list of ``(account_id, completed, score)``. Places follow R-18: completion
first, then score; equal (completed, score) share a place (1, 1, 3). Tied players share the
values of the places they occupy equally, rounded down (R-25, R-20) — then the multiplier.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from rivals.engine.scoring import competition_places, nobody_earns, shared_prizes

# TP by place, for 4 / 3 / 2 players, when the first-placed player completed or did not.
TP_TABLE: dict[int, dict[bool, tuple[int, ...]]] = {
    4: {True: (40, 20, 10, 0), False: (30, 20, 10, 0)},
    3: {True: (30, 15, 0), False: (20, 15, 0)},
    2: {True: (20, 0), False: (10, 0)},
}


@dataclass(frozen=True)
class Placed:
    account_id: int
    place: int
    points: int


def shared_split(keys: Iterable[tuple[int, tuple]], values: Sequence[int]) -> list[Placed]:
    """Rank ``(account_id, key)`` by ``key`` descending; equal keys share a place and the values of
    the places they occupy equally, rounded down (places past ``values`` are worth 0) — the one
    rule of rivals' R-18/R-20 (``competition_places``, ``shared_prizes``), in place order."""
    entries = list(keys)
    places = competition_places([key for _, key in entries])
    shares = shared_prizes(places, list(values))
    placed = [
        Placed(account_id, place, share) for (account_id, _), place, share in zip(entries, places, shares, strict=True)
    ]
    return sorted(placed, key=lambda p: (p.place, p.account_id))


def table_points(
    results: Iterable[tuple[int, bool, int]], multiplier: int = 1, idle: Collection[int] = ()
) -> list[Placed]:
    """R-24/R-25: the places and TP of one table of 2–4 players.

    If every score at the table is 0 and nobody completed the board, nobody gets TP (R-24, the
    reading shared with R-12); places are still given. ``idle``: the players who removed no pair
    at this table — their share is computed as usual and not paid (R-18a).
    """
    results = list(results)
    if len(results) not in TP_TABLE:
        raise ValueError(f"a table has 2–4 players, not {len(results)}")
    if not 1 <= multiplier <= 6:
        raise ValueError(f"the multiplier is an integer 1…6, not {multiplier}")
    keys = [(account_id, (bool(completed), int(score))) for account_id, completed, score in results]
    first_completed = max(k for _, k in keys)[0]
    placed = shared_split(keys, TP_TABLE[len(results)][first_completed])
    if nobody_earns([key for _, key in keys]):
        return [Placed(p.account_id, p.place, 0) for p in placed]
    return [Placed(p.account_id, p.place, 0 if p.account_id in idle else p.points * multiplier) for p in placed]


def final_places(players: Iterable[tuple[int, int, object]]) -> list[tuple[int, int, int]]:
    """R-26: ``(account_id, tp, registered_at)`` → ``(account_id, place, tp)`` by total TP; ties
    broken by earlier registration, then by lower account id (every place is distinct)."""
    ordered = sorted(players, key=lambda p: (-p[1], p[2], p[0]))
    return [(account_id, place, tp) for place, (account_id, tp, _) in enumerate(ordered, start=1)]
