"""Rulesets as scoring functions (pure; no Django).

- Rivals round scoring (R-13…R-16), shown in Single Player and used by every competitive round.
- Pool scoring (P-1…P-3).
- Classic has no score (time only).
"""

from __future__ import annotations

from dataclasses import dataclass

# --- Rivals (R-13…R-16) ------------------------------------------------------------------------
PAIR_POINTS = 100
RECORD_POINTS = 200
DECISIVE_POINTS = 300
BLOCKED_CLICK_POINTS = -100
JOKER_PAIR_POINTS = 0


@dataclass(frozen=True)
class PairScore:
    points: int
    record_ms: int  # the player's round record after this pair
    is_record: bool
    interval_ms: int


def rivals_pair_score(*, interval_ms: int, record_ms: int | None, decisive: bool) -> PairScore:
    """Score one removed pair.

    ``interval_ms``: time since the player's previous pair (or joker pair), or since the round
    started for the first pair; ``record_ms``: the record so far (``None`` before the first pair).
    R-14: the first pair sets the record; a later pair strictly shorter than the record is worth
    200 and becomes the record. R-15: a decisive pair is worth 300 (and still updates the record
    when its interval beats it). R-13: otherwise 100.
    """
    if record_ms is None:
        new_record, is_record = interval_ms, False
    elif interval_ms < record_ms:
        new_record, is_record = interval_ms, True
    else:
        new_record, is_record = record_ms, False
    if decisive:
        points = DECISIVE_POINTS
    elif is_record:
        points = RECORD_POINTS
    else:
        points = PAIR_POINTS
    return PairScore(points=points, record_ms=new_record, is_record=is_record, interval_ms=interval_ms)


# --- Pool (P-1…P-3) ---------------------------------------------------------------------------
# P-1: set values (configurable table; seeds state bamboo 3, flowers 6, seasons 7 and the order).
POOL_SET_VALUES = {"C": 1, "D": 2, "B": 3, "wind": 4, "dragon": 5, "flower": 6, "season": 7}
POOL_OPTION_USES = 5  # P-3: undo, shuffle and hint each at most 5 times per game
POOL_PENALTY_FACTOR = 5  # P-3: each use costs 5 × pairs on the table


def face_set(face: str) -> str:
    if face in ("N", "S", "E", "W"):
        return "wind"
    if face in ("R", "G", "Wh"):
        return "dragon"
    if face.startswith("F"):
        return "flower"
    if face.startswith("S") and len(face) == 2 and face[1].isdigit():
        return "season"
    return face[-1]  # "3B" → "B"


def pool_set_value(face: str, values: dict[str, int] | None = None) -> int:
    return (values or POOL_SET_VALUES)[face_set(face)]


def pool_pair_points(face_a: str, face_b: str, pairs_on_table: int, values: dict[str, int] | None = None) -> int:
    """P-2: set value × pairs on the table before the removal; a mixed bonus pair uses the higher."""
    return max(pool_set_value(face_a, values), pool_set_value(face_b, values)) * pairs_on_table


def pool_option_cost(pairs_on_table: int) -> int:
    """P-3: an undo, shuffle or hint costs 5 × pairs on the table (returned as a negative delta)."""
    return -POOL_PENALTY_FACTOR * pairs_on_table


# --- Quick Match, and who earns at all (R-12/R-24 reading, R-18a) ------------------------
QUICK_MATCH_COMPLETED = 20
QUICK_MATCH_NOT_COMPLETED = 15


def nobody_earns(results: list[tuple[bool, int]]) -> bool:
    """R-12/R-24, one reading of the seed's "every score is 0": every score is 0 *and* nobody
    completed the board (a player who completed has played, whatever the taps cost).
    ``results`` = [(completed, score)]."""
    return all(score == 0 for _, score in results) and not any(done for done, _ in results)


def idle_unpaid(points: list[int], played: list[bool] | None) -> list[int]:
    """R-18a: a player who removed no pair (by hand or with a joker) earns nothing; places and
    shares were computed among all players as usual, and an idle share is not passed on."""
    if played is None:
        return points
    return [p if took_part else 0 for p, took_part in zip(points, played, strict=True)]


def quick_match_points(results: list[tuple[bool, int]], played: list[bool] | None = None) -> list[int]:
    """R-12: ``results`` = [(completed, round score)] of the two players → account points;
    ``played`` = whether each removed a pair (R-18a; None: both did).

    The winner is decided by completion first, then score (R-18); only the winner earns: 20 if
    they completed the board, otherwise 15. Tied top scores (nobody completed) → both 0; if every
    score is 0 and nobody completed, nobody earns; an idle winner earns nothing (R-18a).
    """
    if nobody_earns(results):
        return [0] * len(results)
    ranked = sorted(range(len(results)), key=lambda i: (not results[i][0], -results[i][1]))
    best, second = ranked[0], ranked[1] if len(ranked) > 1 else None
    if second is not None and results[best] == results[second] and not results[best][0]:
        return [0] * len(results)
    points = [0] * len(results)
    points[best] = QUICK_MATCH_COMPLETED if results[best][0] else QUICK_MATCH_NOT_COMPLETED
    return idle_unpaid(points, played)


# --- places and shared prizes (R-18, R-20; the same rule serves R-25 and P-5) ---------------------


def competition_places(keys: list) -> list[int]:
    """Standard competition ranking of ``keys`` (higher is better): equal keys share a place and
    the next place skips (1, 1, 3). Returns the place of each input, in input order."""
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    places = [0] * len(keys)
    for rank, i in enumerate(order, start=1):
        previous = order[rank - 2] if rank > 1 else None
        places[i] = places[previous] if previous is not None and keys[previous] == keys[i] else rank
    return places


def shared_prizes(places: list[int], table: list[int]) -> list[int]:
    """Prizes by place, tied players sharing the prizes of the places they occupy equally,
    rounded down (R-20: two tied for 1st of 80/40 get 60 each; three tied for 1st of 80/40/20
    get 46). Places beyond the table are worth 0."""
    out = []
    for place in places:
        tied = places.count(place)
        prizes = [table[p - 1] if p - 1 < len(table) else 0 for p in range(place, place + tied)]
        out.append(sum(prizes) // tied)
    return out


ARENA_PRIZES = (80, 40, 20, 0)


def arena_prizes(totals: list[int], played: list[bool] | None = None) -> list[int]:
    """R-20: final places by the sum of the three round scores; prizes 80 / 40 / 20 / 0 shared by
    tied players, rounded down. ``played``: whether each removed a pair in the match (None: all
    did).

    R-20's decision: the seed's Arena has no "every score 0" clause (R-12/R-24 have one), so only
    R-18a applies — four players who all removed pairs and all total 0 share 35 each; an idle
    player's share is not paid (nor passed on)."""
    return idle_unpaid(shared_prizes(competition_places(totals), list(ARENA_PRIZES)), played)
