"""The board analysis of the fair-play signals (R-42), pure (the engine only, no Django).

One board of a competitive round is replayed from its deal and the pairs its player removed, in
order (``PairRemoved``; a joker's pair, ``JokerUsed``, is the server's choice and only moves the
board on). At every position reached while the deal is still solvable the analysis asks the
exact solver (R-15's fixed node budget):

* is it a *critical* position — several pairs removable and some of them make the deal
  unsolvable (R-42: "positions where some free pair would make the deal unsolvable")? And did
  the player's pair keep it solvable?
* at a *choice* position (several pairs removable), was the player's pair the server's own plan
  pair — the next pair of the winning plan from that position, the plan kept while it still wins
  and recomputed when the player left it (T-10's hint: ``engine.winning_plan``)?
* the interval before the pair (the server's ``interval_ms``), marked hard (critical) or not;
* whether the pair was forced (the only removable pair): the collusion signal compares only the
  pairs the deal does not force.

Once a pair makes the deal unsolvable the later positions have no right answer: they count
for pace only. An undecided solve (the budget) counts as "keeps" — never as evidence.

Cost: a removable pair of the current plan keeps the deal solvable without a solve (removing
tiles never blocks a legal removal); so does a pair that swaps partners with the plan's pairs of
its group when the swapped plan replays (only the plan's pairs between the two need a look).
Only the remaining pairs need the solver: the player's own pair within R-15's budget (its answer
is evidence), the others ("probes", to find whether the position is critical) at most ``probes``
per position within a small node budget — a losing pair is usually proved so in a few nodes; an
undecided probe counts as not losing, so a critical position may be missed, never invented. A
probe is not solved when the pair is shown to keep the deal otherwise — the plan's own pairs (its
tiles' partners paired together) empty the board in some order, or the winning pairs an earlier
probe found, mended around the pairs removed since, do: the solver could not have found it
losing, so the answer (and which pairs were probed) is the same. The position's removable pairs
and these replays run in the engine's compiled core (``_core.removable_pairs``, ``plan_repair``,
``matching_empties``; the Python below when it is not built, tested equal).
``tests/perf/bench_fairplay.py`` measures the cost on 144-tile layouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rivals.engine import Board, Layout
from rivals.engine.assist import SERVICE_NODE_BUDGET
from rivals.engine.assist import solve as _solve
from rivals.engine.board import free_mask_of
from rivals.engine.deals import update_free
from rivals.engine.solver import _core, geometry

Pair = tuple[int, int]
CERTIFICATES = 4  # the latest probes' winning pairs kept to answer later probes


def _norm(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class Move:
    """One removal of the board, in order: ``tiles``, ``interval_ms`` (0 for the first pair) and
    whether the server chose it (a joker, R-8)."""

    tiles: Pair
    interval_ms: int = 0
    joker: bool = False


@dataclass
class BoardSignals:
    """What one board says (the numbers of a ``FairPlaySignalsScored`` entry)."""

    pairs: int = 0  # pairs the player removed (jokers not counted)
    choices: int = 0  # positions, still solvable, with several removable pairs
    plan_hits: int = 0  # of those, the player's pair was the server's plan pair
    critical: int = 0  # positions where some removable pair loses the deal
    kept: int = 0  # of those, the player's pair kept it solvable
    lost_at: int | None = None  # the index of the pair that made the deal unsolvable, if any
    # pace: intervals (ms) at critical positions and at the others (first pair and jokers left out)
    hard_ms: list[int] = field(default_factory=list)
    easy_ms: list[int] = field(default_factory=list)
    # the pairs the deal did not force, in order (the collusion signal's input)
    free_pairs: list[Pair] = field(default_factory=list)
    solves: int = 0  # solver calls the analysis made (its cost)

    def as_dict(self) -> dict:
        return {
            "pairs": self.pairs,
            "choices": self.choices,
            "plan_hits": self.plan_hits,
            "critical": self.critical,
            "kept": self.kept,
            "lost_at": self.lost_at,
            "hard_ms": self.hard_ms,
            "easy_ms": self.easy_ms,
            "free_pairs": [list(p) for p in self.free_pairs],
            "solves": self.solves,
        }


def _swap_plan(plan: list[Pair], where: dict[int, int], board: Board, pair: Pair) -> list[Pair] | None:
    """The plan with ``pair`` first and its tiles' plan partners paired together where the later
    of their two pairs was, if that still wins (None otherwise).

    Only the plan's pairs between the two need a look: removing tiles never blocks a legal
    removal, so the pairs before them stay removable with ``pair`` gone, and after the later one
    the board is the plan's own."""
    a, b = pair
    ka, kb = where.get(a), where.get(b)
    if ka is None or kb is None or ka == kb:
        return None
    pa = plan[ka][0] if plan[ka][1] == a else plan[ka][1]
    pb = plan[kb][0] if plan[kb][1] == b else plan[kb][1]
    if board.cls[pa] != board.cls[pb]:
        return None
    lo, hi = (ka, kb) if ka < kb else (kb, ka)
    probe = board.copy()
    gone = (1 << a) | (1 << b)
    for x, y in plan[:lo]:
        gone |= (1 << x) | (1 << y)
    probe.present &= ~gone
    for x, y in plan[lo + 1 : hi]:
        if not probe.can_remove(x, y):
            return None
        probe.remove(x, y)
    if not probe.can_remove(pa, pb):
        return None
    return [*plan[:lo], *plan[lo + 1 : hi], _norm(pa, pb), *plan[hi + 1 :]]


class _Removable:
    """``Board.removable_pairs`` of each position in turn, kept up to date removal by removal (the
    free tiles updated around the removed ones; T-6a's lifted partners looked for only among the
    tiles of the free tile's own face): the same pairs, a fraction of the cost."""

    def __init__(self, board: Board):
        self.board = board
        if _core is not None:
            return
        self.free = free_mask_of(board.layout, board.present)
        self.of_cls: dict[int, int] = {}
        for t in range(board.layout.size):
            if (board.present >> t) & 1:
                self.of_cls[board.cls[t]] = self.of_cls.get(board.cls[t], 0) | (1 << t)

    def removed(self, a: int, b: int) -> None:
        if _core is not None:  # the compiled core reads the position itself
            return
        gone = (1 << a) | (1 << b)
        cls = self.board.cls
        self.of_cls[cls[a]] &= ~(1 << a)
        self.of_cls[cls[b]] &= ~(1 << b)
        self.free = update_free(self.board.layout, self.board.present, self.free, gone)

    def pairs(self) -> list[Pair]:
        board = self.board
        if _core is not None:  # the board's: the compiled core's (the same pairs: tests/fairplay/test_analysis_core.py)
            return board.removable_pairs()
        free = self.free
        p, cls, lay = board.present, board.cls, board.layout
        by_cls: dict[int, list[int]] = {}
        m = free
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            by_cls.setdefault(cls[i], []).append(i)
        out = set()
        for tiles in by_cls.values():
            for x in range(len(tiles)):
                for y in range(x + 1, len(tiles)):
                    out.add((tiles[x], tiles[y]))
        if board.lift:
            L, R, C, A = lay.left, lay.right, lay.cover, lay.affect_mask
            m = free
            while m:
                low = m & -m
                m ^= low
                a = low.bit_length() - 1
                cand = A[a] & p & ~free & self.of_cls[cls[a]]
                if not cand:
                    continue
                q = p & ~low
                while cand:
                    lb = cand & -cand
                    cand ^= lb
                    j = lb.bit_length() - 1
                    if not (q & C[j]) and (not (q & L[j]) or not (q & R[j])):
                        out.add((a, j) if a < j else (j, a))
        return sorted(out)


class _Position:
    """The current position, its winning plan (None once unsolvable) and the cost so far."""

    def __init__(self, board: Board, plan: list[Pair] | None, budget: int):
        self.board, self.budget, self.solves = board, budget, 0
        self.plan = plan
        self.certificates: list[list[Pair]] = []  # the winning pairs of the latest probes' positions

    @property
    def plan(self) -> list[Pair] | None:
        return self._plan

    @plan.setter
    def plan(self, plan: list[Pair] | None) -> None:
        self._plan = plan
        self.pairs = set(plan or ())
        self._where: dict[int, int] | None = None  # made when a swap is looked for (``swapped``)

    def swapped(self, pair: Pair) -> list[Pair] | None:
        if not self._plan:
            return None
        if self._where is None:
            self._where = {t: k for k, q in enumerate(self._plan) for t in q}
        return _swap_plan(self._plan, self._where, self.board, pair)

    def keeps(self, pair: Pair) -> tuple[bool, list[Pair] | None]:
        """Does removing ``pair`` keep the deal solvable? With the plan after it: the swapped
        plan, or the solver's (None when the pair is the plan's). Undecided: keeps."""
        if pair in self.pairs:
            return True, None
        if self.repair(pair) == 1:  # the compiled core's check first: the list only when it wins
            return True, self.swapped(pair)
        return self.solved(pair)

    def solved(self, pair: Pair, budget: int | None = None) -> tuple[bool, list[Pair] | None]:
        after = self.board.copy()
        after.remove(*pair)
        if after.present == 0:
            return True, []
        self.solves += 1
        res = _solve(after, budget or self.budget)
        if res.solvable is False:
            return False, None
        return True, list(res.plan) if res.solvable else None

    def any_loses(self, pairs: list[Pair], probes: int, probe_budget: int) -> bool:
        """Does one of ``pairs`` lose the deal? The plan's pairs and their swaps keep it; of the
        others at most ``probes`` are solved (the lowest first): a bound on the cost, so a
        position with more candidates may be counted as not critical. A probe whose pair keeps the
        deal by the plan's pairs in another order, or by the winning pairs an earlier probe found
        (``CERTIFICATES``, mended around the pairs removed since), is not solved: the solver would
        not have found it losing either — the same answer, without its cost."""
        for q in pairs:
            if q in self.pairs:
                continue
            repair = self.repair(q)
            if repair == 1:
                continue
            if probes <= 0:
                return False
            probes -= 1
            if repair == 2 or self.certified(q):
                continue
            keeps, plan = self.solved(q, probe_budget)
            if not keeps:
                return True
            if plan is not None and _core is not None:
                self.certificates.insert(0, [q, *plan])
                del self.certificates[CERTIFICATES:]
        return False

    def certified(self, pair: Pair) -> bool:
        """Does a winning set of pairs an earlier probe found show the position after ``pair``
        solvable (``engine._core.matching_empties``)?"""
        if not self.certificates:
            return False
        board = self.board
        g = geometry(board.layout)
        return any(
            _core.matching_empties(g, board.cls, board.present, board.lift, pairs, *pair) for pairs in self.certificates
        )

    def repair(self, pair: Pair) -> int:
        """1: the plan's swap wins after ``pair`` (``swapped``); 2: not the swap, but the same pairs
        (the plan's, with the tiles' partners paired together) empty the board in some order —
        the position after ``pair`` is solvable, so a probe would not find it losing; 0: neither
        (the solver must say)."""
        plan = self._plan
        if not plan:
            return 0
        if _core is None:
            return 1 if self.swapped(pair) is not None else 0
        board = self.board
        return _core.plan_repair(geometry(board.layout), board.present, board.lift, plan, *pair)

    def replan(self, pair: Pair, solved: list[Pair] | None) -> list[Pair] | None:
        """The server's plan after the player's kept ``pair``: the plan while it still wins; after
        a pair off the plan, the plan with the pair's tiles swapping partners if that still wins,
        else the solver's plan of the new position (``solved``: what ``keeps`` found)."""
        plan = self.plan
        if pair in self.pairs:
            return [q for q in plan if q != pair]
        if solved is not None:
            return solved
        after = self.board.copy()
        after.remove(*pair)
        if after.present == 0:
            return []
        self.solves += 1
        res = _solve(after, self.budget)
        return list(res.plan) if res.solvable else None


def analyse_board(
    layout: Layout,
    faces: Sequence[str],
    moves: Sequence[Move],
    plan: Sequence[Pair],
    *,
    ruleset: str = "rivals",
    budget: int = SERVICE_NODE_BUDGET,
    probes: int = 2,
    probe_budget: int = SERVICE_NODE_BUDGET,
) -> BoardSignals:
    """The signals of one board: its deal (``faces``, and ``plan``: the deal's winning plan) and
    the removals in order. ``probes``: how many pairs off the plan (and its swaps) are solved per
    position to find whether it is critical, each within ``probe_budget`` nodes (settings
    ``RIVALS["FAIRPLAY_SIGNALS"]``: ``probes``, ``probe_nodes``); the player's own pair and the
    plan are solved within ``budget`` (R-15's)."""
    board = Board(layout, faces, ruleset)
    pos = _Position(board, [_norm(*p) for p in plan], budget)
    live = _Removable(board)
    out = BoardSignals()
    for k, move in enumerate(moves):
        pair = _norm(*move.tiles)
        if move.joker:  # the server's pair, its partner maybe not free
            pos.plan = _after(pos, pair) if board.can_remove(*pair) else _joker_plan(pos, pair)
            board.remove(*pair)
            live.removed(*pair)
            continue
        if not board.can_remove(*pair):
            raise ValueError(f"move {k}: {pair} is not removable")
        out.pairs += 1
        removable = live.pairs()
        several = len(removable) > 1
        if several:
            out.free_pairs.append(pair)
        hard = False
        if pos.plan is not None and several:
            out.choices += 1
            plan_pair = _norm(*pos.plan[0]) if pos.plan else None
            out.plan_hits += pair == plan_pair
            mine, mine_plan = pos.keeps(pair)
            hard = not mine
            if mine:
                hard = pos.any_loses([q for q in removable if q != pair], probes, probe_budget)
            if hard:
                out.critical += 1
                out.kept += mine
            if not mine:
                out.lost_at = out.pairs - 1
            pos.plan = pos.replan(pair, mine_plan) if mine else None
        elif pos.plan is not None:
            pos.plan = _after(pos, pair)
        if k > 0:
            (out.hard_ms if hard else out.easy_ms).append(int(move.interval_ms))
        board.remove(*pair)
        live.removed(*pair)
    out.solves = pos.solves
    return out


def _joker_plan(pos: _Position, pair: Pair) -> list[Pair] | None:
    """The plan after a joker's pair that is not an ordinary removal: the solver's, if any."""
    if pos.plan is None:
        return None
    return pos.replan(pair, None)


def _after(pos: _Position, pair: Pair) -> list[Pair] | None:
    """The plan after a pair the player had no choice about (or a joker's)."""
    if pos.plan is None:
        return None
    keeps, solved = pos.keeps(pair)
    return pos.replan(pair, solved) if keeps else None
