"""T-4 layouts, T-5 free tiles, T-6 / T-6a removal, T-8 end states, T-11 undo."""

from __future__ import annotations

import json

import pytest

from rivals.engine import Board, LayoutError, all_layouts, deal_from_code, get_layout
from rivals.engine.layouts import Layout, load_layout_file

from .helpers import board_with_pairs, turtle_index


def test_t4_at_least_8_layouts_of_different_sizes_even_and_at_most_144():
    lays = all_layouts()
    assert len(lays) >= 8
    assert [lay.id for lay in lays][:8] == [f"L0{k}" for k in range(8)]
    assert len({lay.size for lay in lays}) >= 8
    for lay in lays:
        assert lay.size % 2 == 0 and 2 <= lay.size <= 144
        assert lay.size == len(lay.positions) and lay.name
        assert get_layout(lay.id.lower()) is lay
    assert min(lay.size for lay in lays) <= 40 and max(lay.size for lay in lays) == 144


def test_t4_unknown_layout_is_keyerror():
    with pytest.raises(KeyError):
        get_layout("L98")


@pytest.mark.parametrize(
    "positions,reason",
    [
        ([[0, 0, 0], [2, 0, 0], [4, 0, 0]], "even"),
        ([[0, 0, 0], [1, 1, 0]], "overlap"),
        ([[0, 0, 0], [4, 0, 0], [2, 0, 1], [8, 0, 0]], "supported"),
        ([[0, 0, 0], [1, 0, 1]], "supported"),  # half over nothing
    ],
)
def test_t4_layout_validation_on_load(tmp_path, positions, reason):
    path = tmp_path / "L90.json"
    path.write_text(json.dumps({"id": "L90", "name": "bad", "positions": positions}))
    with pytest.raises(LayoutError, match=reason if reason != "even" else "even"):
        load_layout_file(path)


def test_t4_valid_custom_layout_loads(tmp_path):
    path = tmp_path / "L91.json"
    path.write_text(json.dumps({"id": "L91", "name": "ok", "positions": [[0, 0, 0], [2, 0, 0], [1, 0, 1], [6, 0, 0]]}))
    lay = load_layout_file(path)
    assert lay.size == 4 and lay.cover[0] == 1 << 2 and lay.cover[1] == 1 << 2


def test_t5_turtle_geometry_87_36_16_4_1():
    lay = get_layout("L00")
    assert lay.size == 144 and lay.name == "Turtle"
    per_layer = [sum(1 for p in lay.positions if p[2] == z) for z in range(5)]
    assert per_layer == [87, 36, 16, 4, 1]
    assert (13, 7, 4) in lay.positions  # top at (6.5, 3.5)
    for x in (0, 13, 14):
        assert (2 * x, 7, 0) in lay.positions  # half-offset end tiles at y = 3.5


def test_t5_turtle_has_35_free_tiles_by_layer():
    lay = get_layout("L00")
    for code in ("MJ1-L00-AAAAAAA", "MJ1-L00-TURTLE7"):
        deal = deal_from_code(code)
        for ruleset in ("classic", "rivals", "pool"):
            board = Board(lay, deal.faces, ruleset)
            free = board.free_tiles()
            assert len(free) == 35
            by_layer = [sum(1 for i in free if lay.positions[i][2] == z) for z in range(5)]
            assert by_layer == [14, 12, 8, 0, 1]


def test_t5_half_offset_end_tiles_block_rows_3_and_4():
    lay = get_layout("L00")
    deal = deal_from_code("MJ1-L00-AAAAAAA")
    board = Board(lay, deal.faces, "classic")
    left = turtle_index(0, 3.5, 0)
    r13, r14 = turtle_index(13, 3.5, 0), turtle_index(14, 3.5, 0)
    assert board.is_free(left) and board.is_free(r14) and not board.is_free(r13)
    for y in (3, 4):
        assert not board.is_free(turtle_index(1, y, 0))  # blocked on the left by x=0 at 3.5
        assert not board.is_free(turtle_index(12, y, 0))  # blocked on the right by x=13
    # removing the left end tile frees both row starts
    board.present &= ~(1 << left)
    assert board.is_free(turtle_index(1, 3, 0)) and board.is_free(turtle_index(1, 4, 0))
    # the top covers all four layer-3 tiles by half
    top = turtle_index(6.5, 3.5, 4)
    for x, y in ((6, 3), (7, 3), (6, 4), (7, 4)):
        assert lay.cover[turtle_index(x, y, 3)] == 1 << top


def test_t5_neighbours_above_and_below_do_not_matter():
    lay = get_layout("L00")
    board = Board(lay, deal_from_code("MJ1-L00-AAAAAAA").faces, "classic")
    # row 0 left end is free although row 1 lies below it in y
    assert board.is_free(turtle_index(1, 0, 0))
    assert board.is_free(turtle_index(12, 7, 0))


def test_t6_classic_and_pool_both_free_distinct_matching():
    a, b = turtle_index(1, 0, 0), turtle_index(12, 0, 0)  # both row ends, free
    c = turtle_index(2, 0, 0)  # blocked
    for ruleset in ("classic", "pool"):
        board = board_with_pairs("L00", ruleset, {a: "5D", b: "5D", c: "5D"})
        assert board.can_remove(a, b) and board.can_remove(b, a)
        assert not board.can_remove(a, a)
        assert not board.can_remove(a, c)  # c not free (inner neighbour of a)
        board.remove(a, b)
        assert not board.can_remove(a, b)  # gone


def test_t6_matching_per_ruleset_in_can_remove():
    a, b = turtle_index(1, 0, 0), turtle_index(12, 0, 0)
    board = board_with_pairs("L00", "pool", {a: "F1", b: "S2"})
    assert board.can_remove(a, b)
    board = board_with_pairs("L00", "classic", {a: "F1", b: "S2"})
    assert not board.can_remove(a, b)
    board = board_with_pairs("L00", "classic", {a: "F1", b: "F2"})
    assert board.can_remove(a, b)


def test_t6a_example_top_tile_and_layer3_tile_lifting():
    """EXAMPLES.md T-6 / T-6a: top tile + a layer-3 tile under it, same face."""
    top = turtle_index(6.5, 3.5, 4)
    under = turtle_index(6, 3, 3)
    for ruleset in ("classic", "pool"):
        board = board_with_pairs("L00", ruleset, {top: "7D", under: "7D"})
        assert board.is_free(top) and not board.is_free(under)
        assert not board.can_remove(top, under) and not board.can_remove(under, top)
        assert (min(top, under), max(top, under)) not in board.removable_pairs()
    board = board_with_pairs("L00", "rivals", {top: "7D", under: "7D"})
    assert board.can_remove(top, under) and board.can_remove(under, top)
    assert (min(top, under), max(top, under)) in board.removable_pairs()


def test_t6a_side_by_side_at_row_end():
    outer, inner = turtle_index(1, 0, 0), turtle_index(2, 0, 0)
    board = board_with_pairs("L00", "classic", {outer: "N", inner: "N"})
    assert not board.can_remove(outer, inner)
    board = board_with_pairs("L00", "rivals", {outer: "N", inner: "N"})
    assert board.can_remove(outer, inner)
    pair = (min(outer, inner), max(outer, inner))
    assert pair in board.removable_pairs()
    # a tile two places in is still blocked after lifting the end tile
    third = turtle_index(3, 0, 0)
    board = board_with_pairs("L00", "rivals", {outer: "N", third: "N"})
    assert not board.can_remove(outer, third)


def test_t6a_stack_of_two_is_removable_in_rivals_only():
    lay = Layout("L92", "stack", [(0, 0, 0), (0, 0, 1)])
    assert not Board(lay, ["3C", "3C"], "classic").can_remove(0, 1)
    rb = Board(lay, ["3C", "3C"], "rivals")
    assert rb.can_remove(0, 1) and rb.removable_pairs() == [(0, 1)] and not rb.is_stuck()
    assert Board(lay, ["3C", "3C"], "classic").is_stuck()


def test_t8_won_and_stuck():
    lay = Layout("L93", "row", [(0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0)])
    b = Board(lay, ["1B", "2B", "2B", "1B"], "classic")
    assert b.removable_pairs() == [(0, 3)]
    b.remove(0, 3)
    assert b.removable_pairs() == [(1, 2)] and not b.is_stuck()
    b.remove(1, 2)
    assert b.is_won() and not b.is_stuck()
    s = Board(lay, ["1B", "2B", "1B", "2B"], "classic")
    assert s.is_stuck() and not s.is_won() and s.removable_pairs() == []
    # rivals: lift 0 -> 1 is free, but 1 does not match 0; lift 3 -> 2 free, no match
    assert Board(lay, ["1B", "2B", "1B", "2B"], "rivals").removable_pairs() == []
    r = Board(lay, ["1B", "1B", "2B", "2B"], "rivals")
    assert r.removable_pairs() == [(0, 1), (2, 3)]


def test_t11_undo_restores_exact_state():
    deal = deal_from_code("MJ1-L00-AAAAAAA")
    board = Board(deal.layout, deal.faces, "classic")
    history = [board.present]
    for a, b in deal.plan:
        board.remove(a, b)
        history.append(board.present)
    assert board.is_won()
    for k, (a, b) in enumerate(reversed(deal.plan)):  # the stack holds the whole game
        board.restore(a, b)
        assert board.present == history[-2 - k]
    assert board.present == get_layout("L00").full


def test_board_copy_is_independent_and_present_validated():
    deal = deal_from_code("MJ1-L08-AAAAAAA")
    b = Board(deal.layout, deal.faces, "rivals")
    c = b.copy()
    a, d = b.removable_pairs()[0]
    c.remove(a, d)
    assert b.present != c.present
    faces = list(deal.faces)
    faces[0] = None
    with pytest.raises(ValueError):
        Board(deal.layout, faces, "classic", present=deal.layout.full)
    assert Board(deal.layout, faces, "classic").present == deal.layout.full & ~1
