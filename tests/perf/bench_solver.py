"""Literature benchmark: exact solvability of seeded, *uniformly random* Turtle deals under
T-2 + T-6 (classic). Reference (de Bondt): ~14 ms/deal in C, 2.95-2.96 % unsolvable.

Run: .venv/bin/python tests/perf/bench_solver.py [--quick] [--deals N] [--budget NODES]
Prints mean / median / p99 / max time, node counts, unsolvable share and the number of deals
left undecided by the fixed node budget (default: the service's, R-15's decisive-pair budget).
Targets (issue 13): 0 undecided, mean <= 14 ms, p99 <= 100 ms.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from rivals.engine import Board, get_layout, solve
from rivals.engine.assist import DECISIVE_NODE_BUDGET
from rivals.engine.prng import SplitMix64
from rivals.engine.tiles import GROUPS


def random_turtle(seed: int) -> Board:
    faces = [f for g in GROUPS for f in g]
    SplitMix64(0xB0D7 ^ (seed << 16)).shuffle(faces)  # uniform permutation of the 144 tiles
    return Board(get_layout("L00"), faces, "classic")


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="100 deals")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--budget", type=int, default=DECISIVE_NODE_BUDGET, help="fixed node budget per deal")
    args = ap.parse_args()
    n = 100 if args.quick else args.deals
    ms, nodes = [], []
    solvable = unsolvable = undecided = 0
    t_all = time.perf_counter()
    for seed in range(n):
        board = random_turtle(seed)
        t = time.perf_counter()
        res = solve(board, args.budget)
        ms.append((time.perf_counter() - t) * 1000)
        nodes.append(res.nodes)
        if res.solvable is None:
            undecided += 1
        elif res.solvable:
            solvable += 1
        else:
            unsolvable += 1
    decided = solvable + unsolvable
    share = unsolvable / decided if decided else float("nan")
    se = math.sqrt(share * (1 - share) / decided) if decided else float("nan")
    from rivals.engine import solver

    impl = getattr(solver, "implementation", "python")
    print(f"deals={n} budget={args.budget} nodes/deal solver={impl} wall={time.perf_counter() - t_all:.1f}s")
    print(
        f"time: mean={statistics.mean(ms):.1f}ms median={statistics.median(ms):.1f}ms "
        f"p99={pct(ms, 0.99):.1f}ms max={max(ms):.1f}ms"
    )
    print(
        f"nodes: mean={statistics.mean(nodes):.0f} median={statistics.median(nodes):.0f} "
        f"p99={pct(nodes, 0.99)} max={max(nodes)}"
    )
    print(
        f"solvable={solvable} unsolvable={unsolvable} undecided={undecided} "
        f"unsolvable share of decided={100 * share:.2f}% (+/- {100 * se:.2f}%)"
    )
    worst = sorted(range(n), key=lambda i: -ms[i])[:5]
    print("slowest deals (seed, nodes, ms): " + ", ".join(f"({i}, {nodes[i]}, {ms[i]:.0f})" for i in worst))
    decided_ms = [m for m, nd in zip(ms, nodes, strict=True) if nd <= args.budget]
    if decided_ms:
        print(
            f"decided deals only: mean={statistics.mean(decided_ms):.1f}ms median={statistics.median(decided_ms):.1f}ms"
        )


if __name__ == "__main__":
    main()
