"""How a bot picks its pair in a competitive round (issue 36): a human's heuristic, a solver's
help, or a partner's pairs — the truth the fair-play signals (R-42) must find without being told.
Shared by the demo world (``demo.bots``) and the signals' benchmark (``tests/perf/fairplay_sim.py``).

* **honest**: no solver — the top of the heap first, a pair whose face has no other removable
  copy before a choice among three or four, now and then a pair at random (less often the
  better the player); it thinks longer (×1.6) where three or more removable tiles share a face
  (a choice a human sees can matter);
* **assisted** at a share: each pair, with that chance, the next pair of a winning plan (the
  hint's plan, kept while it wins) after a quick look (0.9 s × lognormal), whatever the position;
* **colluding**: the pairs its partner removed on the same deal, in order, whenever the next one
  is removable on its own board (with chance ``copy``).
"""

from __future__ import annotations

import math
import random

from rivals import engine

HARD_SLOWDOWN = 1.6
ASSISTED_MS = 900


def ambiguous(board: engine.Board, pairs: list) -> bool:
    """Three or more removable tiles share a face."""
    seen: dict[int, set] = {}
    for a, b in pairs:
        seen.setdefault(board.cls[a], set()).update((a, b))
    return any(len(v) >= 3 for v in seen.values())


def human_pair(board: engine.Board, pairs: list, skill: float, rng: random.Random):
    """An honest player's pair (``skill`` 0…1)."""
    if rng.random() < 0.25 * (1 - skill):
        return rng.choice(pairs)
    layer = board.layout.layer_of
    count: dict[int, int] = {}
    for a, _ in pairs:
        count[board.cls[a]] = count.get(board.cls[a], 0) + 1
    noise = 2.5 - 2 * skill

    def score(p):
        a, b = p
        lonely = 1.0 if count[board.cls[a]] == 1 else 0.0
        return layer[a] + layer[b] + lonely - noise * math.log(-math.log(rng.random()))

    return max(pairs, key=score)


def human_ms(pace_ms: int, board: engine.Board, pairs: list, rng: random.Random) -> int:
    """An honest player's time for its next pair."""
    return int(pace_ms * rng.lognormvariate(0, 0.35) * (HARD_SLOWDOWN if ambiguous(board, pairs) else 1.0))


def assisted_ms(rng: random.Random) -> int:
    return int(ASSISTED_MS * rng.lognormvariate(0, 0.3))
