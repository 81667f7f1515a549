"""Tiles, faces and matching (T-1, T-2, T-3)."""

from __future__ import annotations

RULESETS = ("classic", "rivals", "pool")

# T-1: canonical face codes, in a fixed order (never reorder: deals depend on it).
SUITED = tuple(f"{rank}{suit}" for suit in "BCD" for rank in range(1, 10))
WINDS = ("N", "S", "E", "W")
DRAGONS = ("R", "G", "Wh")
FLOWERS = ("F1", "F2", "F3", "F4")
SEASONS = ("S1", "S2", "S3", "S4")
FACES: tuple[str, ...] = SUITED + WINDS + DRAGONS + FLOWERS + SEASONS
assert len(FACES) == 42

# The 36 "matching groups" of the full set (T-4 Decision): four copies of each of the
# 34 ordinary faces, the four flowers, the four seasons. Fixed order.
GROUPS: tuple[tuple[str, ...], ...] = tuple((f,) * 4 for f in SUITED + WINDS + DRAGONS) + (
    FLOWERS,
    SEASONS,
)
assert len(GROUPS) == 36 and sum(len(g) for g in GROUPS) == 144

_ORDINARY = SUITED + WINDS + DRAGONS

# Match keys: two faces match iff their keys are equal.
# T-2 (classic, rivals): same face, or both flowers, or both seasons.
_KEY_T2 = {f: i for i, f in enumerate(_ORDINARY)}
_KEY_T2.update(dict.fromkeys(FLOWERS, 34))
_KEY_T2.update(dict.fromkeys(SEASONS, 35))
# T-3 (pool): any bonus tile (flower or season) matches any other bonus tile.
_KEY_T3 = dict(_KEY_T2)
_KEY_T3.update(dict.fromkeys(FLOWERS + SEASONS, 34))

MATCH_KEYS = {"classic": _KEY_T2, "rivals": _KEY_T2, "pool": _KEY_T3}


def check_ruleset(ruleset: str) -> str:
    if ruleset not in MATCH_KEYS:
        raise ValueError(f"unknown ruleset {ruleset!r}; expected one of {RULESETS}")
    return ruleset


def match_key(face: str, ruleset: str) -> int:
    """Integer class of a face under a ruleset (T-2 / T-3)."""
    try:
        return MATCH_KEYS[ruleset][face]
    except KeyError:
        check_ruleset(ruleset)
        raise ValueError(f"unknown face {face!r}") from None


def faces_match(a: str, b: str, ruleset: str) -> bool:
    """T-2 (classic, rivals) / T-3 (pool) matching of two faces."""
    return match_key(a, ruleset) == match_key(b, ruleset)
