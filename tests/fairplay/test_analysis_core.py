"""R-42: the fair-play analysis' replays in the engine's compiled core (``rivals/engine/csrc/replay.c``)
give the same answers as the engine's Python, and the analysis gives the same signals with the
core as without it (pure: no database)."""

from __future__ import annotations

import random

import pytest

from rivals import engine
from rivals.engine.board import removable_pairs_py
from rivals.engine.solver import _core, geometry
from rivals.fairplay import analysis
from rivals.fairplay.analysis import Move, _Position, _swap_plan, analyse_board
from tests.fairplay.removable import walk_removable

# the compiled core is part of every install (a failed build fails it): a missing core fails here
assert _core is not None, "the engine's compiled core is not built (make venv builds it)"


def _plays(rng: random.Random, deal: engine.Deal, ruleset: str, follow: float):
    """One board of play: a random pair, or the winning plan's next pair with chance ``follow``;
    yields (board before the pair, the plan then or None, the pair)."""
    board = engine.Board(deal.layout, deal.faces, ruleset)
    plan = list(deal.plan) if ruleset == "rivals" else None
    while pairs := board.removable_pairs():
        if plan is not None:
            plan = engine.plan_still_valid(board, plan)
        if plan and rng.random() < follow:
            pair = tuple(sorted(plan[0]))
        else:
            pair = rng.choice(pairs)
        yield board, plan, pair
        board.remove(*pair)


@pytest.mark.parametrize("ruleset", ["rivals", "classic"])
def test_R_42_the_cores_removable_pairs_equal_the_engines_at_every_position(ruleset):
    rng = random.Random(42)
    positions = 0
    for k in range(20):
        deal = engine.deal_from_code(engine.random_code(rng.randrange(1 << 30), f"L0{k % 10}"))
        for board, _, _ in _plays(rng, deal, ruleset, 0.5):
            got = _core.removable_pairs(geometry(board.layout), board.cls, board.present, board.lift)
            # against the engine's pure-Python reference: Board.removable_pairs itself calls the core
            assert got == removable_pairs_py(board.layout, board.cls, board.present, board.lift)
            positions += 1
    assert positions > 500


def test_R_42_the_cores_plan_repair_is_the_swap_or_a_proof_that_the_pair_keeps_the_deal():
    """1 exactly where ``analysis._swap_plan`` finds the swapped plan; 2 only where the position
    after the pair is solvable (the solver agrees); every removable pair off the plan of positions
    of play on the 144-tile layouts and smaller ones."""
    rng = random.Random(7)
    seen = {0: 0, 1: 0, 2: 0}
    for k in range(8):
        deal = engine.deal_from_code(engine.random_code(rng.randrange(1 << 30), ("L00", "L09", "L08", "L06")[k % 4]))
        for board, plan, _ in _plays(rng, deal, "rivals", 0.6):
            if not plan:
                continue
            where = {t: i for i, q in enumerate(plan) for t in q}
            for q in board.removable_pairs():
                if q in plan or tuple(reversed(q)) in plan:
                    continue
                got = _core.plan_repair(geometry(board.layout), board.present, board.lift, plan, *q)
                seen[got] += 1
                assert (got == 1) == (_swap_plan(plan, where, board, q) is not None)
                if got == 2:
                    after = board.copy()
                    after.remove(*q)
                    assert after.present == 0 or engine.solve(after).solvable is True
    assert min(seen.values()) >= 10, seen


def _boards(rng: random.Random, n: int):
    for k in range(n):
        deal = engine.deal_from_code(engine.random_code(rng.randrange(1 << 30), ("L00", "L09", "L06", "L08")[k % 4]))
        follow = (0.0, 0.3, 0.7, 1.0)[k % 4]
        moves = [Move(pair, rng.randint(500, 5000)) for _, _, pair in _plays(rng, deal, "rivals", follow)]
        yield deal, moves


def test_R_42_the_analysis_gives_the_same_signals_with_the_compiled_core_as_without_it(monkeypatch):
    rng = random.Random(36)
    boards = list(_boards(rng, 12))
    with_core = [analyse_board(d.layout, d.faces, m, d.plan, probes=1, probe_budget=200).as_dict() for d, m in boards]
    monkeypatch.setattr(analysis, "_core", None)
    without = [analyse_board(d.layout, d.faces, m, d.plan, probes=1, probe_budget=200).as_dict() for d, m in boards]
    for a, b in zip(with_core, without, strict=True):
        assert a.pop("solves") <= b.pop("solves")  # the core proves what the probes would have solved
        assert a == b
    assert sum(a["critical"] for a in with_core) > 0 and sum(a["plan_hits"] for a in with_core) > 0


def test_R_42_the_analysis_keeps_the_removable_pairs_removal_by_removal_without_the_core(monkeypatch):
    """The Python fallback (``_Removable`` kept up to date removal by removal) lists the engine's
    pairs too, and its plan repair (the swap only) answers 1 exactly where the compiled core does,
    the swapped plan emptying the board after the pair."""
    monkeypatch.setattr(analysis, "_core", None)
    positions, deal = walk_removable(9, 10)
    assert positions > 300
    board = engine.Board(deal.layout, deal.faces, "rivals")
    pos = _Position(board, [tuple(sorted(p)) for p in deal.plan], 10)
    got = {q: pos.repair(q) for q in board.removable_pairs() if q not in pos.pairs}
    assert got == {(12, 105): 1, (60, 135): 0, (96, 111): 1, (110, 129): 0, (110, 140): 0, (117, 135): 1}
    g = geometry(board.layout)
    for q, repair in got.items():
        assert (repair == 1) == (_core.plan_repair(g, board.present, board.lift, pos.plan, *q) == 1)
        if repair == 1:
            after = board.copy()
            for p in [q, *pos.swapped(q)]:
                assert after.can_remove(*p)
                after.remove(*p)
            assert after.present == 0
