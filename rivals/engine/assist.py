"""Player aids and scoring helpers built on the solver: hint (T-10), shuffle (T-14),
decisive pair (R-15), joker partner (R-8)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, has_removable_pair
from .deals import position_order
from .prng import SplitMix64
from .solver import SolveResult
from .solver import solve as _solve


class _Lru:
    """A small thread-safe LRU memo of this process (the engine's: no Django cache here)."""

    def __init__(self, size: int = 512):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
        return value

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            if len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_SOLVED = _Lru()


def clear_memos() -> None:
    """Forget every position this process solved (a cold start: tests and benchmarks)."""
    _SOLVED.clear()
    _WINNING.clear()


def solve(board: Board, node_budget: int | None = None) -> SolveResult:
    """The solver with a small LRU memo keyed by the exact position, so that e.g. the
    service's ``winning_plan`` followed by ``hint`` on an unsolvable position solves once."""
    key = (board.layout, board.ruleset, board.present, tuple(board.cls), node_budget)
    hit = _SOLVED.get(key)
    if hit is not None:
        return SolveResult(hit.solvable, list(hit.plan), hit.nodes)
    res = _solve(board, node_budget)
    _SOLVED.put(key, res)
    return SolveResult(res.solvable, list(res.plan), res.nodes)


# Fixed, deterministic node budgets (same result on every machine and either implementation).
# Decision (issue 13): one budget for every service question, 200,000 nodes. The hardest of
# 8,000 uniformly random Turtle deals (T-6 and T-6a) needs 27,365; positions of real games need
# at most a few hundred (tests/perf/bench_engine.py): a budget-bounded answer (a hint that does
# not win, a decisive pair scored as not decisive) is out of reach in practice, while a solve
# stays bounded in time (~5 s at the compiled core's speed).
SERVICE_NODE_BUDGET = 200_000
HINT_NODE_BUDGET = SERVICE_NODE_BUDGET
SHUFFLE_NODE_BUDGET = SERVICE_NODE_BUDGET
DECISIVE_NODE_BUDGET = SERVICE_NODE_BUDGET  # R-15 Decision: exceeded -> the pair counts as not decisive
JOKER_NODE_BUDGET = SERVICE_NODE_BUDGET


def plan_still_valid(board: Board, plan: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """The part of ``plan`` still ahead if it wins from the current position, else None.

    Pairs already removed are skipped (whatever order the player used); the plan is valid when
    every pair is either fully removed or fully present and the present pairs replay legally
    to an empty board.
    """
    p = board.present
    rest = []
    for a, b in plan:
        pa = (p >> a) & 1
        pb = (p >> b) & 1
        if pa != pb:
            return None
        if pa:
            rest.append((a, b))
    probe = board.copy()
    for a, b in rest:
        if not probe.can_remove(a, b):
            return None
        probe.remove(a, b)
    return rest if probe.present == 0 else None


def winning_plan(
    board: Board, plan: Sequence[tuple[int, int]] | None = None, node_budget: int | None = HINT_NODE_BUDGET
) -> list[tuple[int, int]] | None:
    """A winning plan from the current position: the given plan if it still wins, else a
    recomputed one; None if the position is unsolvable (or undecided within the budget)."""
    if plan:
        rest = plan_still_valid(board, plan)
        if rest is not None:
            return rest
    if board.present == 0:
        return []
    res = solve(board, node_budget)
    return res.plan if res.solvable else None


def hint(board: Board, plan: Sequence[tuple[int, int]] | None = None) -> tuple[int, int] | None:
    """T-10: next pair of a winning plan from the current position (recomputed if the player
    deviated); if unsolvable, any removable pair (the lowest); None = "no moves"."""
    wp = winning_plan(board, plan)
    if wp:
        return wp[0]
    pairs = board.removable_pairs()
    return pairs[0] if pairs else None


@dataclass
class ShuffleResult:
    faces: list  # full face list, None for removed positions
    solvable: bool
    plan: list  # a winning plan for the new faces when solvable, else []


def _geometric_pair_exists(board: Board) -> bool:
    """Could any arrangement of faces give a removable pair? (positions only)"""
    cls = [0 if (board.present >> i) & 1 else -1 for i in range(board.layout.size)]
    return has_removable_pair(board.layout, cls, board.present, board.lift)


def _reverse_play(board: Board, by_cls: dict[int, list[str]], rng: SplitMix64) -> ShuffleResult | None:
    """Reverse play: matching face pairs on a legal clearing order of the positions (None: no
    clearing order found)."""
    lay = board.layout
    order = position_order(lay, rng, board.present, lift=board.lift)
    if order is None:
        return None
    pairs = []
    for c in sorted(by_cls):
        fs = list(by_cls[c])
        rng.shuffle(fs)
        pairs += [(fs[k], fs[k + 1]) for k in range(0, len(fs), 2)]
    rng.shuffle(pairs)
    out: list = [None] * lay.size
    for (a, b), (fa, fb) in zip(order, pairs, strict=True):
        out[a], out[b] = fa, fb
    return ShuffleResult(out, True, list(order))


def shuffle(board: Board, seed: int) -> ShuffleResult | None:
    """T-14: permute the remaining faces over the remaining positions so that at least one
    removable pair exists; prefer (and report) a solvable permutation. None = refused (no
    permutation can give a free pair, e.g. the remaining tiles are stacked)."""
    tiles = board.tiles()
    if len(tiles) < 2 or not _geometric_pair_exists(board):
        return None
    faces = [board.faces[i] for i in tiles]
    cls = board.cls
    by_cls: dict[int, list[str]] = {}
    for i in tiles:
        by_cls.setdefault(cls[i], []).append(board.faces[i])
    if all(len(v) < 2 for v in by_cls.values()):
        return None  # no two matching faces at all
    rng = SplitMix64((seed & ((1 << 64) - 1)) ^ 0x5348554646)
    lay = board.layout
    if all(len(v) % 2 == 0 for v in by_cls.values()):
        played = _reverse_play(board, by_cls, rng)
        if played is not None:
            return played
    # No clearing order found: random permutations with at least one removable pair.
    best = None
    for _ in range(64):
        fs = list(faces)
        rng.shuffle(fs)
        out = [None] * lay.size
        for i, f in zip(tiles, fs, strict=True):
            out[i] = f
        cand = Board(lay, out, board.ruleset, board.present)
        if not cand.has_removable_pair():
            continue
        res = solve(cand, SHUFFLE_NODE_BUDGET)
        if res.solvable:
            return ShuffleResult(out, True, res.plan)
        if best is None:
            best = out
    if best is None:
        # force a matching pair onto a removable pair of positions
        geo = Board(
            lay,
            ["1B" if (board.present >> i) & 1 else None for i in range(lay.size)],
            "classic" if not board.lift else "rivals",
            board.present,
        )
        a, b = geo.removable_pairs()[0]
        c = next(k for k, v in sorted(by_cls.items()) if len(v) >= 2)
        fa, fb = by_cls[c][0], by_cls[c][1]
        rest = list(faces)
        rest.remove(fa)
        rest.remove(fb)
        rng.shuffle(rest)
        best = [None] * lay.size
        best[a], best[b] = fa, fb
        it = iter(rest)
        for i in tiles:
            if i not in (a, b):
                best[i] = next(it)
    return ShuffleResult(best, False, [])


def _norm(pair: Sequence[int]) -> tuple[int, int]:
    a, b = pair
    return (a, b) if a < b else (b, a)


# R-15 between consecutive positions of one board (issue 35: CPU per round intent): a winning
# plan of each position ``is_decisive`` left behind — the solver's plan of the board after the
# pair, or the plan it was given less that pair —, keyed by the position. The next pair of that
# board starts from it: a removable pair other than the one played that appears in a winning plan
# of the position keeps the board solvable (it can be played first: removing tiles never blocks a
# legal move), so the pair is not decisive — the answer the full check gives too, whatever its
# node budget (that pair's probe is solvable or undecided, never unsolvable), without solving.
# Only ever a shortcut to "not decisive"; every other case runs the full check.
_WINNING = _Lru()


def _position_key(board: Board) -> tuple:
    return (board.layout, board.lift, board.present, tuple(board.cls))


def is_decisive(board_before: Board, pair: tuple[int, int]) -> bool:
    """R-15: the pair is the only removable pair whose removal leaves the board solvable
    (the final pair of a board always is). Bounded by a fixed node budget; an undecided
    case counts as not decisive."""
    pair = _norm(pair)
    a, b = pair
    if not board_before.can_remove(a, b):
        return False
    after = board_before.copy()
    after.remove(a, b)
    if after.present == 0:
        return True
    others = None  # the other removable pairs: listed only where they are looked at
    carried = _WINNING.get(_position_key(board_before))
    if carried is not None:
        if pair in carried:  # the rest of the plan wins from the position after the pair
            _WINNING.put(_position_key(after), [q for q in carried if q != pair])
        others = [q for q in board_before.removable_pairs() if q != pair]
        if others and not set(others).isdisjoint(carried):
            return False  # another pair keeps the board solvable (see _WINNING)
    res = solve(after, DECISIVE_NODE_BUDGET)
    if res.solvable is not True:
        return False
    _WINNING.put(_position_key(after), res.plan)
    if others is None:
        others = [q for q in board_before.removable_pairs() if q != pair]
    if not others:
        return True
    # Removing tiles never blocks a legal move, so any other removable pair that appears in
    # the plan can be played first: that pair keeps the board solvable too.
    in_plan = set(res.plan)
    if any(q in in_plan for q in others):
        return False
    for c, d in others:
        probe = board_before.copy()
        probe.remove(c, d)
        r = solve(probe, DECISIVE_NODE_BUDGET)
        if r.solvable is not False:
            return False  # solvable, or undecided -> not decisive
    return True


def joker_partner(board: Board, tile: int) -> int | None:
    """R-8: partner of the lifted free tile: the matching tile whose removal (with the lifted
    one) leaves the board solvable, preferring free tiles, then the lowest position id; if
    none does, a free one, else the lowest id. None if no matching tile is present.
    Raises ValueError if ``tile`` is not a free tile (only free tiles can be lifted)."""
    if not board.is_free(tile):
        raise ValueError(f"tile {tile} is not free")
    c = board.cls[tile]
    cands = [t for t in board.tiles() if t != tile and board.cls[t] == c]
    if not cands:
        return None
    free = [t for t in cands if board.is_free(t)]
    blocked = [t for t in cands if t not in free]
    for t in free + blocked:
        probe = board.copy()
        probe.remove(tile, t)
        if probe.present == 0 or solve(probe, JOKER_NODE_BUDGET).solvable:
            return t
    return free[0] if free else cands[0]
