"""Level generator benchmark (R-1, R-2): time to re-generate the levels with N processes, and
whether the result is the shipped table.

Run: .venv/bin/python tests/perf/bench_levels.py [--quick] [--jobs 2]
Full run = all 11,000 levels (target <= 2 minutes on 2 cores, issue 13); --quick = every 25th
level (440 levels), extrapolated. Also prints the rolling-mean trend and HARD separation.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from itertools import pairwise
from multiprocessing import Pool

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from rivals.engine.level_generator import generate_level
from rivals.engine.levels import MAX_LEVEL, table


def _one(n):
    li = generate_level(n)
    return (li.level, li.code, li.layout, li.hard, li.difficulty)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None, help="also write the table (TSV) here")
    args = ap.parse_args()
    step = 25 if args.quick else 1
    levels = list(range(1, MAX_LEVEL + 1, step))
    t = time.perf_counter()
    with Pool(args.jobs) as pool:
        rows = pool.map(_one, levels, chunksize=8)
    dt = time.perf_counter() - t
    print(
        f"generated {len(rows)} levels with {args.jobs} processes in {dt:.1f}s "
        f"({1000 * dt * args.jobs / len(rows):.1f} ms per level per core)"
    )
    if step > 1:
        print(f"extrapolated to all {MAX_LEVEL} levels: {dt * step:.0f}s")
    shipped = table()
    differ = [
        r[0] for r in rows if r != (lambda s: (s.level, s.code, s.layout, s.hard, s.difficulty))(shipped[r[0] - 1])
    ]
    print(
        f"shipped table: {len(rows) - len(differ)} of {len(rows)} generated levels identical"
        + (f"; DIFFERENT: {differ[:10]}" if differ else "")
    )
    by = {r[0]: r for r in rows}
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write("level\tcode\tlayout\thard\tdifficulty\n")
            fh.writelines(f"{r[0]}\t{r[1]}\t{r[2]}\t{int(r[3])}\t{r[4]}\n" for r in rows)
    if step == 1:
        means = []
        for start in range(1, MAX_LEVEL - 99, 100):
            means.append(statistics.mean(by[n][4] for n in range(start, start + 100)))
        rises = sum(1 for a, b in pairwise(means) if b >= a)
        print(
            f"rolling mean over 100 levels (block starts every 100): first={means[0]:.2f} "
            f"last={means[-1]:.2f}; non-decreasing steps {rises}/{len(means) - 1}"
        )
        big = [
            statistics.mean(by[n][4] for n in range(s, min(s + 1000, MAX_LEVEL + 1)))
            for s in range(1, MAX_LEVEL + 1, 1000)
        ]
        print(
            "mean difficulty per 1000 levels: "
            + " ".join(f"{m:.2f}" for m in big)
            + ("  (strictly increasing)" if all(b > a for a, b in pairwise(big)) else "")
        )
        above = 0
        hard = [n for n in by if by[n][3]]
        for n in hard:
            nb = [by[k][4] for k in range(n - 4, n + 5) if k in by and not by[k][3]]
            above += by[n][4] > max(nb)
        margins = []
        for n in hard:
            nb = [by[k][4] for k in range(n - 4, n + 5) if k in by and not by[k][3]]
            margins.append(by[n][4] - statistics.mean(nb))
        print(
            f"HARD levels above all 8 neighbours: {above}/{len(hard)}; HARD minus mean of its "
            f"8 neighbours: mean={statistics.mean(margins):.2f} min={min(margins):.2f}; "
            f"above the neighbours' mean: {sum(m > 0 for m in margins)}/{len(hard)}"
        )
    else:
        for a in range(0, len(rows), len(rows) // 10):
            chunk = rows[a : a + len(rows) // 10]
            print(f"levels {chunk[0][0]}-{chunk[-1][0]}: mean difficulty {statistics.mean(r[4] for r in chunk):.2f}")


if __name__ == "__main__":
    main()
