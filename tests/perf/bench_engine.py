"""Engine benchmark: intents/s, hint (winning plan) and decisive-pair latency on the service's
own positions (generated deals and positions reached from them by random legal play), over all
layouts and over the >= 100-tile layouts alone.

Run: .venv/bin/python tests/perf/bench_engine.py [--quick]
Targets: >= 100,000 intents/s/core; hint median <= 5 ms; on the >= 100-tile layouts decisive
checks and hints p99 <= 20 ms (issue 13); no answer bounded by the node budget.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from rivals.engine import Board, all_layouts, deal_from_code, format_code, hint, is_decisive, solve
from rivals.engine.assist import HINT_NODE_BUDGET
from rivals.engine.prng import SplitMix64


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def fmt(name, xs, unit="ms"):
    return (
        f"{name}: n={len(xs)} median={statistics.median(xs):.2f}{unit} "
        f"p99={pct(xs, 0.99):.2f}{unit} max={max(xs):.2f}{unit} mean={statistics.mean(xs):.2f}{unit}"
    )


def positions(n_deals: int, seed: int = 1, min_size: int = 0):
    """(board, plan) pairs: fresh deals of every layout (of at least ``min_size`` tiles), plus a
    position reached from each by random legal play."""
    rng = SplitMix64(seed)
    lays = [lay for lay in all_layouts() if lay.size >= min_size]
    out = []
    for k in range(n_deals):
        lay = lays[k % len(lays)]
        deal = deal_from_code(format_code(lay.id, rng.next64() & (2**35 - 1)))
        ruleset = ("rivals", "classic", "pool")[k % 3]
        board = Board(deal.layout, deal.faces, ruleset)
        out.append((board.copy(), deal.plan))
        steps = rng.below(max(1, lay.size // 2 - 1))
        for _ in range(steps):
            pairs = board.removable_pairs()
            if not pairs:
                break
            board.remove(*pairs[rng.below(len(pairs))])
        if board.present:
            out.append((board.copy(), deal.plan))
    return out


def bench_intents(seconds: float) -> float:
    deal = deal_from_code("MJ1-L00-AAAAAAA")
    board = Board(deal.layout, deal.faces, "rivals")
    plan = deal.plan
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        for a, b in plan:  # one intent = free test + match + remove
            if board.is_free(a) and board.can_remove(a, b):
                board.remove(a, b)
            n += 1
        board.present = deal.layout.full
    return n / (time.perf_counter() - t0)


def bench_positions(title: str, pos, budget: int) -> None:
    from rivals.engine import assist

    assist.clear_memos()
    hint_ms, solve_ms, nodes, undecided, unsolvable = [], [], [], 0, 0
    for board, _plan in pos:
        t = time.perf_counter()
        res = solve(board, budget)
        solve_ms.append((time.perf_counter() - t) * 1000)
        nodes.append(res.nodes)
        undecided += res.solvable is None
        unsolvable += res.solvable is False
        assist.clear_memos()
        t = time.perf_counter()
        hint(board)  # no stored plan: recomputed (the slow path)
        hint_ms.append((time.perf_counter() - t) * 1000)
    print(f"[{title}] positions: {len(pos)} ({unsolvable} unsolvable, {undecided} undecided at {budget} nodes)")
    print(f"[{title}] " + fmt("winning plan (solve)", solve_ms))
    print(f"[{title}] " + fmt("hint without stored plan", hint_ms))
    print(f"[{title}] solver nodes: median={statistics.median(nodes)} p99={pct(nodes, 0.99)} max={max(nodes)}")
    t_plan = []
    for board, plan in pos[:200]:
        t = time.perf_counter()
        hint(board, plan)
        t_plan.append((time.perf_counter() - t) * 1000)
    print(f"[{title}] " + fmt("hint with stored plan", t_plan))
    assist.clear_memos()  # cold memo for the decisive figures
    dec_ms = []
    rng = SplitMix64(7)
    decisive = 0
    for board, _ in pos:
        pairs = board.removable_pairs()
        if not pairs:
            continue
        p = pairs[rng.below(len(pairs))]
        assist.clear_memos()
        t = time.perf_counter()
        decisive += is_decisive(board, p)
        dec_ms.append((time.perf_counter() - t) * 1000)
    print(f"[{title}] " + fmt("decisive check of one move", dec_ms) + f" ({decisive} decisive)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n_deals = 60 if args.quick else 400
    print(f"intents/s (free test + match + remove, 1 core): {bench_intents(1.0 if args.quick else 3.0):,.0f}")
    bench_positions("all layouts", positions(n_deals), HINT_NODE_BUDGET)
    bench_positions(">= 100 tiles", positions(n_deals, seed=2, min_size=100), HINT_NODE_BUDGET)


if __name__ == "__main__":
    main()
