"""The removable-pair listing (T-6, T-6a) in the compiled core (issue 35: CPU per round intent —
R-15's decisive pair, stuck detection and the hint list the pairs of every position) gives the
same pairs in the same order as the pure-Python reference, ``board.removable_pairs_py``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.engine import Board, all_layouts, board, deal_from_code, format_code, solver
from rivals.engine.prng import SplitMix64

from .helpers import play_random


def both(b: Board) -> list[tuple[int, int]]:
    c = solver.removable_pairs_position(b.layout, b.cls, b.present, b.lift, impl="c")
    py = solver.removable_pairs_position(b.layout, b.cls, b.present, b.lift, impl="python")
    assert c == py, b
    return c


def test_T_6_board_lists_its_pairs_with_the_compiled_core():
    """The installed package lists pairs in the core (the reference stays for the tests)."""
    assert board.compiled_removable_pairs is solver.removable_pairs_position
    deal = deal_from_code(format_code("L00", 12345))
    b = Board(deal.layout, deal.faces, "rivals")
    assert b.removable_pairs() == board.removable_pairs_py(b.layout, b.cls, b.present, b.lift)


def test_T_6a_core_and_reference_list_the_same_pairs_along_whole_games():
    """Every position of random games on every layout and ruleset, to the end (won or stuck);
    the lifting rule (T-6a) gives pairs the classic rule does not, and some positions have none."""
    positions = lifted = empty = 0
    for k, lay in enumerate(all_layouts()):
        deal = deal_from_code(format_code(lay.id, 1000 + k))
        for ruleset in ("classic", "rivals", "pool"):
            b = Board(lay, deal.faces, ruleset)
            rng = SplitMix64(k)
            while b.present:
                pairs = both(b)
                positions += 1
                if ruleset == "rivals":
                    classic = board.removable_pairs_py(b.layout, b.cls, b.present, False)
                    lifted += len(set(pairs) - set(classic))
                if not pairs:
                    empty += 1
                    break
                b.remove(*pairs[rng.below(len(pairs))])
    assert positions > 1000 and lifted > 50 and empty > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([lay.id for lay in all_layouts()]),
    st.integers(0, 2**35 - 1),
    st.sampled_from(["classic", "rivals", "pool"]),
    st.booleans(),
    st.integers(0, 2**32),
    st.integers(0, 144),
)
def test_T_6a_core_and_reference_list_the_same_pairs_on_any_position(layout_id, number, ruleset, scramble, seed, keep):
    """Property: any position (dealt or scrambled, after random play), any ruleset."""
    deal = deal_from_code(format_code(layout_id, number))
    faces = list(deal.faces)
    if scramble:
        SplitMix64(seed).shuffle(faces)
    both(play_random(Board(deal.layout, faces, ruleset), SplitMix64(seed + 1), keep))
