"""R-15 between consecutive positions (issue 35): ``is_decisive`` starts each pair of a board from
the winning plan the previous pair of that board left behind — a shortcut to "not decisive" only.
Its answers are those of the full check (the algorithm before the shortcut, kept here as the
reference) on every pair of games that follow a winning plan, leave it, or play at random."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.engine import Board, all_layouts, assist, deal_from_code, format_code, is_decisive
from rivals.engine.prng import SplitMix64


def reference_is_decisive(board_before: Board, pair: tuple[int, int]) -> bool:
    """``is_decisive`` without the carried plans (the solver's memo is keyed by the exact position
    and budget: it answers what the solver answers)."""
    a, b = sorted(pair)
    pair = (a, b)
    if not board_before.can_remove(a, b):
        return False
    after = board_before.copy()
    after.remove(a, b)
    if after.present == 0:
        return True
    res = assist.solve(after, assist.DECISIVE_NODE_BUDGET)
    if res.solvable is not True:
        return False
    others = [q for q in board_before.removable_pairs() if q != pair]
    if not others:
        return True
    if any(q in set(res.plan) for q in others):
        return False
    for c, d in others:
        probe = board_before.copy()
        probe.remove(c, d)
        if assist.solve(probe, assist.DECISIVE_NODE_BUDGET).solvable is not False:
            return False
    return True


def play_and_compare(board: Board, rng: SplitMix64, leave: int) -> tuple[int, int]:
    """Play to the end (won or stuck): along a winning plan, leaving it one pair in ``leave`` (a
    random removable pair; 1 = always). Every pair's answer against the reference."""
    decisive = pairs = 0
    plan = assist.solve(board, assist.DECISIVE_NODE_BUDGET).plan
    while board.present:
        removable = board.removable_pairs()
        if not removable:
            break
        follow = plan and plan[0] in removable and rng.below(leave) != 0
        pair = plan[0] if follow else removable[rng.below(len(removable))]
        got = is_decisive(board, (pair[1], pair[0]) if rng.below(2) else pair)
        assert got == reference_is_decisive(board, pair), (board, pair)
        decisive += got
        pairs += 1
        board.remove(*pair)
        plan = [q for q in plan if q != pair] if follow else assist.solve(board, assist.DECISIVE_NODE_BUDGET).plan
    return pairs, decisive


def test_R_15_carried_plans_answer_as_the_full_check_along_whole_games():
    pairs = decisive = 0
    for k, lay in enumerate(all_layouts()):
        for leave in (1_000_000, 8, 2, 1):
            deal = deal_from_code(format_code(lay.id, 77 + k))
            p, d = play_and_compare(Board(lay, deal.faces, "rivals"), SplitMix64(k * 10 + leave), leave)
            pairs += p
            decisive += d
    assert pairs > 1500 and decisive > 40  # every final pair, and decisive pairs before it


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([lay.id for lay in all_layouts()]),
    st.integers(0, 2**35 - 1),
    st.sampled_from(["rivals", "classic"]),
    st.integers(0, 2**32),
    st.sampled_from([1, 2, 5, 1_000_000]),
)
def test_R_15_carried_plans_answer_as_the_full_check_on_any_game(layout_id, number, ruleset, seed, leave):
    """Property: any deal, either removal rule, any mix of following and leaving a winning plan."""
    deal = deal_from_code(format_code(layout_id, number))
    play_and_compare(Board(deal.layout, deal.faces, ruleset), SplitMix64(seed), leave)
