"""Shared helpers for the engine tests (no Django)."""

from __future__ import annotations

from rivals.engine import Board, deal_from_code, get_layout


def turtle_index(x: float, y: float, z: int) -> int:
    """Position id on L00 of the tile at whole-tile coordinates (x, y, z)."""
    return get_layout("L00").positions.index((int(2 * x), int(2 * y), z))


def board_with_pairs(layout_id: str, ruleset: str, wanted: dict[int, str], code: str | None = None) -> Board:
    """A full board of a dealt code, with faces swapped so that ``wanted`` holds
    (position -> face); the face multiset stays a real deal."""
    lay = get_layout(layout_id)
    deal = deal_from_code(code or f"MJ1-{layout_id}-AAAAAAA")
    faces = list(deal.faces)
    for pos, face in wanted.items():
        if faces[pos] == face:
            continue
        j = next(k for k, f in enumerate(faces) if f == face and k not in wanted)
        faces[pos], faces[j] = faces[j], faces[pos]
    assert all(faces[p] == f for p, f in wanted.items())
    return Board(lay, faces, ruleset)


def brute_solvable(board: Board) -> bool:
    """Reference: exhaustive search over removal orders (small positions only)."""
    memo: dict[int, bool] = {}

    def rec(b: Board) -> bool:
        if b.present == 0:
            return True
        if b.present in memo:
            return memo[b.present]
        ok = False
        for a, c in b.removable_pairs():
            b.remove(a, c)
            ok = rec(b)
            b.restore(a, c)
            if ok:
                break
        memo[b.present] = ok
        return ok

    return rec(board.copy())


def play_random(board: Board, rng, keep: int) -> Board:
    """Random legal play (per the board's ruleset) until at most ``keep`` tiles remain or stuck."""
    b = board.copy()
    while b.present.bit_count() > keep:
        pairs = b.removable_pairs()
        if not pairs:
            break
        a, c = pairs[rng.below(len(pairs))]
        b.remove(a, c)
    return b
