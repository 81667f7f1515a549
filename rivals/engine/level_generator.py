"""The Single Player level generator, version 1 (R-1, R-2): how the shipped table was made.

The levels themselves ship with the package (``data/levels-v1.tsv.gz``, read by ``levels``):
a level never changes (R-1), whatever later releases do to the solver. This module is the
generator that produced that table, kept so that the table can be re-derived and checked
(``python -m rivals.engine.levels --check``) - it is not used to serve levels.

Level n (1..MAX_LEVEL) -> a fixed game code, deterministically (no clock, no os.urandom, no
Python ``random``): candidate deal numbers come from SplitMix64 of the level number. The layout
grows with n (TIERS): within a tier the share of the larger layout rises linearly, so the
rolling mean of difficulty rises; candidate deals are scored with the solver (see
``difficulty_of``). HARD levels (every 10th) are dealt on the largest layout of the next tier.

Difficulty (R-2 Decision) is a number computed with the solver, see ``difficulty_of``:
100 * (share of available moves that lead to an unsolvable position, sampled along the plan,
strictest rules T-2 + T-6) + 10 * size / 144 + 3 / mean branching.
"""

from __future__ import annotations

from . import solver_v1
from .board import Board
from .codes import MAX_DEAL, format_code
from .deals import deal_from_code
from .layouts import get_layout
from .levels import MAX_LEVEL, LevelInfo, is_hard
from .prng import mix64
from .solver import _core, geometry

TRAP_NODE_BUDGET = 40  # fixed per probe (version-1 solver nodes); an undecided probe is no trap
SAMPLES = 3  # positions probed along the plan
RULESET = "classic"  # strictest rules (T-2 + T-6): traps are visible

# Layout tiers: (first level, (smaller, larger) layout), small boards first; the share of the
# larger layout grows linearly through the tier (scheduled_layout).
TIERS = (
    (1, ("L08", "L05")),
    (301, ("L05", "L06")),
    (1001, ("L06", "L04")),
    (2501, ("L04", "L03")),
    (4501, ("L03", "L07")),
    (6501, ("L07", "L01")),
    (8501, ("L01", "L02")),
)
HARD_TIER = ("L09", "L00")  # the last tier's HARD levels
HARD_CANDIDATES = 3
NORMAL_CANDIDATES = 2


def _tier_index(n: int) -> int:
    k = 0
    for i, (start, _) in enumerate(TIERS):
        if n >= start:
            k = i
    return k


def is_trap(board: Board, impl: str | None = None) -> bool:
    """The version-1 solver proves the position unsolvable within TRAP_NODE_BUDGET nodes (the
    compiled core's copy of that search when built, else ``solver_v1`` itself: the same)."""
    if board.lift:
        raise ValueError("the trap probe runs under T-6 (the generator's strict rules)")
    if (impl or ("c" if _core is not None else "python")) == "c":
        verdict, _ = _core.trap_probe(geometry(board.layout), board.cls, board.present, TRAP_NODE_BUDGET)
        return verdict is False
    return solver_v1.solve(board, TRAP_NODE_BUDGET).solvable is False


def difficulty_of(code: str) -> float:
    """R-2: solver-measured difficulty of a deal.

    Along the deal's winning plan, at SAMPLES evenly spaced positions, every removable pair
    (strictest rules, T-2 + T-6) that is not a pair of the remaining plan is probed with the
    solver (fixed node budget): an unsolvable result is a trap.
    difficulty = 100 * traps / available moves + 10 * size / 144 + 3 / mean branching.
    """
    deal = deal_from_code(code)
    board = Board(deal.layout, deal.faces, RULESET)
    plan = list(deal.plan)
    choices = 0
    traps = 0
    branching = 0
    samples = 0
    steps = {len(plan) * k // SAMPLES for k in range(SAMPLES)}
    for step, (a, b) in enumerate(plan):
        if step in steps and step < len(plan) - 1:
            pairs = board.removable_pairs()
            rest = set(plan[step:])
            samples += 1
            branching += len(pairs)
            for q in pairs:
                choices += 1
                if q in rest:
                    continue  # a pair of the winning plan: playable first, never a trap
                probe = board.copy()
                probe.remove(*q)
                if is_trap(probe):
                    traps += 1
        board.remove(a, b)
    trap_share = traps / choices if choices else 0.0
    mean_branch = branching / samples if samples else 1.0
    size = deal.layout.size
    return round(100.0 * trap_share + 10.0 * size / 144 + 3.0 / max(mean_branch, 1.0), 3)


def _typical(lid: str) -> float:
    """Difficulty floor of a layout (no traps, branching ignored): the size term."""
    return 10.0 * get_layout(lid).size / 144


def _tier_bounds(k: int) -> tuple[int, int]:
    start = TIERS[k][0]
    end = TIERS[k + 1][0] if k + 1 < len(TIERS) else MAX_LEVEL + 1
    return start, end


def scheduled_layout(n: int) -> str:
    """Layout of a normal level: within its tier the larger layout is taken iff the
    golden-ratio sequence frac(n * phi) (integer form) is below the progress through the tier,
    so every stretch of levels has the exact mixture and the trend rises smoothly."""
    k = _tier_index(n)
    small, large = TIERS[k][1]
    start, end = _tier_bounds(k)
    h = (n * 2654435769) & 0xFFFFFFFF
    return large if h * (end - start) < (2 * (n - start) + 1) << 31 else small


def target_difficulty(n: int) -> float:
    """Expected difficulty of a normal level: rises linearly through each tier from its
    smaller to its larger layout's floor."""
    k = _tier_index(n)
    start, end = _tier_bounds(k)
    lo = _typical(TIERS[k][1][0])
    hi = _typical(TIERS[k][1][-1])
    return lo + (hi - lo) * (n - start + 0.5) / (end - start)


def _candidate(n: int, j: int, lid: str) -> tuple[float, str, str]:
    h = mix64((0x4C564C << 40) ^ (n << 8) ^ j)
    code = format_code(lid, h & MAX_DEAL)
    return (difficulty_of(code), code, lid)


def generate_level(n: int) -> LevelInfo:
    """R-1 / R-2: level n as the version-1 generator makes it (the shipped table's row).

    Normal level: NORMAL_CANDIDATES deals on the scheduled layout, the least trap-laden kept
    (a smooth trend). HARD level (every 10th): HARD_CANDIDATES deals on the largest layout of
    the next tier (last tier: HARD_TIER), the hardest kept - above the normal levels around it.
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_LEVEL:
        raise ValueError(f"level must be an integer in 1..{MAX_LEVEL}")
    k = _tier_index(n)
    if is_hard(n):
        if k + 1 < len(TIERS):
            pool = TIERS[k + 1][1][-1:]
        else:
            pool = HARD_TIER
        cands = [_candidate(n, j, pool[j % len(pool)]) for j in range(HARD_CANDIDATES)]
        d, code, lid = max(cands, key=lambda c: (c[0], c[1]))
        return LevelInfo(n, code, lid, True, d)
    lid = scheduled_layout(n)
    cands = [_candidate(n, j, lid) for j in range(NORMAL_CANDIDATES)]
    d, code, lid = min(cands, key=lambda c: (c[0], c[1]))
    return LevelInfo(n, code, lid, False, d)
