"""The solver's worst case on positions a player can reach (issue 25): how long a service question
(R-15's decisive check, a hint, a joker's partner) can hold a web thread.

A player can only meet the service's deals (T-9: solvable by construction, every layout; a level
is one of them) and the positions play reaches from them — solvable ones, and unsolvable ones a
player walks into with a bad pair. So: ``--deals`` fresh deals of the layouts of at least
``--min-size`` tiles (the 144-tile ones by default, where the search is hardest), each played
by a careless player — a uniformly random removable pair at every step, until the board is won or
stuck — and at every position the service's questions, as an intent asks them:
``is_decisive`` of the pair played (every pair of the ``rivals`` ruleset: single player levels and
rounds), ``hint`` (a solve from the position), ``joker_partner`` of a random free tile. Each
question's time and its solver nodes (summed over the solves it makes; a node is the same on every
machine) are recorded: max, p99.9, p99, and how many questions reached the node budget
(``SERVICE_NODE_BUDGET``: an undecided solve counts as not decisive — R-15's one verdict on every
machine). In one process, the compiled core.

    .venv/bin/python tests/perf/bench_worst.py [--deals 200] [--min-size 144] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from rivals.engine import assist, format_code
from rivals.engine.board import Board
from rivals.engine.deals import deal_from_code
from rivals.engine.layouts import all_layouts
from rivals.engine.prng import SplitMix64

_nodes = [0]
_solve = assist._solve


def _counting(board, node_budget=None):
    res = _solve(board, node_budget)
    _nodes[0] += res.nodes
    return res


def measured(fn, *args):
    """(seconds, nodes) of one service question, the solver's memo emptied first (each question
    measured on its own, as a web worker that meets the position for the first time)."""
    assist.clear_memos()
    _nodes[0] = 0
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t, _nodes[0]


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--min-size", type=int, default=144)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    assist._solve = _counting
    rng = SplitMix64(args.seed)
    layouts = [lay for lay in all_layouts() if lay.size >= args.min_size]
    figures: dict[str, list[tuple[float, int, str]]] = {"is_decisive": [], "hint": [], "joker_partner": []}
    stuck = won = 0
    started = time.perf_counter()
    for k in range(args.deals):
        layout = layouts[k % len(layouts)]
        deal = deal_from_code(format_code(layout.id, rng.next64() & (2**35 - 1)))
        board = Board(deal.layout, deal.faces, "rivals")
        move = 0
        while board.present:
            pairs = board.removable_pairs()
            if not pairs:
                stuck += 1
                break
            where = f"{deal.code} move {move}"
            free = board.free_tiles()
            tile = free[rng.below(len(free))]
            seconds, nodes = measured(assist.joker_partner, board, tile)
            figures["joker_partner"].append((seconds, nodes, where, (deal.code, board.present, tile)))
            seconds, nodes = measured(assist.hint, board)
            figures["hint"].append((seconds, nodes, where, (deal.code, board.present, None)))
            pair = pairs[rng.below(len(pairs))]
            seconds, nodes = measured(assist.is_decisive, board, pair)
            figures["is_decisive"].append((seconds, nodes, where, (deal.code, board.present, pair)))
            board.remove(*pair)
            move += 1
        else:
            won += 1
    wall = time.perf_counter() - started
    print(
        f"{args.deals} deals of {', '.join(lay.id for lay in layouts)} played by a careless player "
        f"({won} won, {stuck} stuck) in {wall:.0f} s; budget {assist.SERVICE_NODE_BUDGET:,} nodes per solve"
    )
    for question, rows in figures.items():
        times = [r[0] * 1000 for r in rows]
        nodes = [r[1] for r in rows]
        worst = max(rows, key=lambda r: r[1])
        slowest = max(rows, key=lambda r: r[0])
        print(
            f"{question:14s} n={len(rows):6d}  ms: median {statistics.median(times):.2f}, p99 {pct(times, 0.99):.1f}, "
            f"p99.9 {pct(times, 0.999):.1f}, max {max(times):.1f} ({slowest[2]}); nodes: p99 {pct(nodes, 0.99):,}, "
            f"max {max(nodes):,} ({worst[2]}); at the budget: {sum(n >= assist.SERVICE_NODE_BUDGET for n in nodes)}"
        )
    # the slowest positions again, each 3 times (the least time: the machine is shared)
    print("the hardest positions, timed again (best of 3):")
    for question, rows in figures.items():
        for row in sorted(rows, key=lambda r: -r[1])[:3]:
            code, present, arg = row[3]
            deal = deal_from_code(code)
            board = Board(deal.layout, deal.faces, "rivals", present=present)
            fn = getattr(assist, question)
            args_ = (board,) if arg is None else (board, arg)
            best = min(measured(fn, *args_)[0] for _ in range(3))
            print(f"   {question:14s} {row[2]}: {row[1]:,} nodes, {best * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
