"""Property-based tests (hypothesis): legal play, undo, solver plans, codes, deals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.engine import (
    Board,
    all_layouts,
    deal_from_code,
    format_code,
    parse_code,
    solver,
)
from rivals.engine.prng import SplitMix64

LAYOUT_IDS = [lay.id for lay in all_layouts()]
SMALL = [lay.id for lay in all_layouts() if lay.size <= 110]
RULES = st.sampled_from(["classic", "rivals", "pool"])
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.sampled_from(LAYOUT_IDS), st.integers(0, 2**35 - 1), RULES, st.integers(0, 2**32))
def test_random_legal_play_never_removes_a_non_free_tile(layout_id, number, ruleset, seed):
    deal = deal_from_code(format_code(layout_id, number))
    board = Board(deal.layout, deal.faces, ruleset)
    rng = SplitMix64(seed)
    while True:
        pairs = board.removable_pairs()
        if not pairs:
            break
        a, b = pairs[rng.below(len(pairs))]
        assert board.can_remove(a, b)
        fa, fb = board.is_free(a), board.is_free(b)
        if ruleset == "rivals":  # T-6a: one free, the other free once it is lifted
            assert fa or fb
        else:  # T-6: both free
            assert fa and fb
        before = board.present
        board.remove(a, b)
        assert board.present == before & ~((1 << a) | (1 << b))
    assert board.is_won() == (board.present == 0)
    if board.is_won():
        assert board.tiles() == [] and not board.is_stuck()
    else:
        assert board.is_stuck()


@SETTINGS
@given(st.sampled_from(LAYOUT_IDS), st.integers(0, 2**35 - 1), RULES, st.integers(0, 2**32))
def test_undo_restores_exact_previous_state(layout_id, number, ruleset, seed):
    deal = deal_from_code(format_code(layout_id, number))
    board = Board(deal.layout, deal.faces, ruleset)
    rng = SplitMix64(seed)
    stack = []
    for _ in range(20):
        pairs = board.removable_pairs()
        if not pairs:
            break
        snapshot = (board.present, board.free_tiles(), board.removable_pairs())
        a, b = pairs[rng.below(len(pairs))]
        board.remove(a, b)
        stack.append((a, b, snapshot))
    while stack:
        a, b, snapshot = stack.pop()
        board.restore(a, b)
        assert (board.present, board.free_tiles(), board.removable_pairs()) == snapshot


@pytest.mark.parametrize("impl", solver.IMPLEMENTATIONS)
@SETTINGS
@given(st.sampled_from(SMALL), st.integers(0, 2**35 - 1), RULES, st.integers(0, 2**32), st.integers(0, 60))
def test_solver_plan_replays_legally_to_empty(impl, layout_id, number, ruleset, seed, steps):
    deal = deal_from_code(format_code(layout_id, number))
    board = Board(deal.layout, deal.faces, ruleset)
    rng = SplitMix64(seed)
    for _ in range(steps):
        pairs = board.removable_pairs()
        if not pairs:
            break
        board.remove(*pairs[rng.below(len(pairs))])
    res = solver.solve_position(board.layout, board.cls, board.present, board.lift, 30_000, impl=impl)
    if res.solvable:
        probe = board.copy()
        for a, b in res.plan:
            assert probe.can_remove(a, b)
            probe.remove(a, b)
        assert probe.is_won()
    elif res.solvable is False:
        assert res.plan == []


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(LAYOUT_IDS), st.integers(0, 2**35 - 1), st.booleans())
def test_code_round_trips(layout_id, number, lower):
    code = format_code(layout_id, number)
    assert len(code) == 15 and code.startswith("MJ1-L")
    assert parse_code(code.lower() if lower else code) == (layout_id, number)


@SETTINGS
@given(st.sampled_from(LAYOUT_IDS), st.integers(0, 2**35 - 1))
def test_every_dealt_board_is_solvable(layout_id, number):
    deal = deal_from_code(format_code(layout_id, number))
    board = Board(deal.layout, deal.faces, "classic")  # strictest: T-2 with T-6
    for a, b in deal.plan:
        assert board.can_remove(a, b)
        board.remove(a, b)
    assert board.is_won()
    assert sorted(deal.faces) == sorted(deal_from_code(deal.code.lower()).faces)
