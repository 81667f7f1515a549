"""Random play on every layout, checking at each position that ``analysis._Removable`` — the
analysis' removable pairs, kept removal by removal, or the compiled core's — lists what the
engine's pure-Python reference lists (T-6a; ``Board.removable_pairs`` itself calls the core, so
against it the core would be compared with itself)."""

from __future__ import annotations

import random

from rivals import engine
from rivals.engine.board import removable_pairs_py


def walk_removable(seed: int, games: int):
    """Play ``games`` random deals to their end; returns the positions checked and the last deal."""
    from rivals.fairplay.analysis import _Removable

    rng = random.Random(seed)
    positions = 0
    for k in range(games):
        deal = engine.deal_from_code(engine.random_code(rng.randrange(1 << 30), f"L0{k % 10}"))
        board = engine.Board(deal.layout, deal.faces, "rivals")
        live = _Removable(board)
        while True:
            pairs = removable_pairs_py(board.layout, board.cls, board.present, board.lift)
            assert live.pairs() == pairs
            positions += 1
            if not pairs:
                break
            p = rng.choice(pairs)
            board.remove(*p)
            live.removed(*p)
    return positions, deal
