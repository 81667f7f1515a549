"""Benchmark of the fair-play signals (R-42, R-38's flags; issue 36).

    .venv/bin/python tests/perf/bench_fairplay.py [--quick] [--honest N] [--rounds N] [--layouts all|L00,L09]

A population (``fairplay_sim``) of honest bots of varied skill, solver-assisted bots at shares of
their pairs from 30 % to 100 %, and colluding pairs in tournament waves plays competitive rounds
with the engine; the production signal code scores every board as the worker does (the pure part
of ``rivals.fairplay.signals.fairplay_result_score``: ``analysis`` and ``scoring``). The bots' kind
is never an input of the signals. Targets (issue 36): honest accounts flagged ≤ 1 %; fully
assisted flagged ≥ 95 %, half-assisted ≥ 70 %, colluding pairs ≥ 90 % (the curve by share);
the signals of one result ≤ 20 ms of worker time on 144-tile layouts.

The cost is process time per board (the analysis and the scoring; the worker's reads and its
append are apart: a few milliseconds, ``tests/fairplay``), on the 144-tile boards of the run; a
result is one board per player (a Duel or Quick Match: two; a tournament table: two to four).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

VERDICT = {True: "PASS", False: "FAIL"}
SHARES = (0.3, 0.5, 0.7, 0.85, 1.0)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a small population (a smoke run)")
    parser.add_argument("--no-db", action="store_true", help="skip the database part (the worker's whole scoring)")
    parser.add_argument("--db-only", action="store_true", help="only the database part")
    parser.add_argument("--honest", type=int, default=1000)
    parser.add_argument("--assisted", type=int, default=50, help="spread evenly over the shares 30…100 %%")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--copy", type=float, default=0.9, help="a follower's chance to replay its leader's pair")
    parser.add_argument("--layouts", default="all", help="all, or ids (L00,L09: the 144-tile ones)")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--duels", type=int, default=60, help="the database part's Duels (the worker's whole scoring)")
    args = parser.parse_args()
    if args.quick:
        args.honest, args.assisted, args.pairs, args.rounds = 200, 20, 6, 12
    if args.no_db:
        import django

        django.setup()
        return population(args)
    from tests.perf.benchdb import bench_database
    from tests.perf.fairplay_db import database_costs

    with bench_database("bench_fairplay", os.environ.get("DATABASE_URL")) as name:
        import django

        django.setup()
        verdict = 0 if args.db_only else population(args)
        database_costs(args, name)
    return verdict


def population(args) -> int:
    from rivals import engine
    from rivals.fairplay.signals_projection import thresholds
    from tests.perf import fairplay_sim as sim

    layouts = [lay.id for lay in engine.all_layouts()] if args.layouts == "all" else args.layouts.split(",")
    t = thresholds()
    rng = random.Random(args.seed)
    shares = [SHARES[k % len(SHARES)] for k in range(args.assisted)]
    bots = sim.population(rng, args.honest, shares, args.pairs, args.copy)
    print(
        f"## Population: {args.honest} honest, {args.assisted} assisted ({', '.join(f'{s:.0%}' for s in SHARES)}), "
        f"{args.pairs} colluding pairs (copy {args.copy:.0%}); {args.rounds} rounds each on {','.join(layouts)}"
    )
    started = time.perf_counter()
    run = sim.simulate(bots, args.rounds, layouts, t, args.seed)
    wall = time.perf_counter() - started
    print(f"{run.boards} boards scored in {wall:.0f} s wall")

    honest = [b for b in bots if b.kind == "honest"]
    fp = [b for b in honest if b.index in run.flagged]
    kinds: dict[str, int] = {}
    for b in fp:
        for k in run.flagged[b.index]:
            kinds[k] = kinds.get(k, 0) + 1
    honest_pairs = sum(
        1 for a, b in run.pair_flags if bots[a].partner != b and "honest" in (bots[a].kind, bots[b].kind)
    )
    fp_any = {b.index for b in fp} | {
        x for a, b in run.pair_flags if bots[a].partner != b for x in (a, b) if bots[x].kind == "honest"
    }
    rate = len(fp_any) / len(honest)
    print(f"\n## Honest accounts ({len(honest)})")
    print(
        f"{VERDICT[rate <= 0.01]} flagged {len(fp_any)} ({rate:.2%}; target ≤ 1 %): by kind {kinds or '{}'}, "
        f"in a collusion pair with another account {honest_pairs}"
    )
    print("\n## Assisted accounts: flagged by share of assisted pairs (solver_assist; any kind)")
    ok = True
    for share in SHARES:
        group = [b for b in bots if b.kind == "assisted" and b.share == share]
        if not group:
            continue
        solver = sum("solver_assist" in run.flagged.get(b.index, {}) for b in group) / len(group)
        anyk = sum(b.index in run.flagged for b in group) / len(group)
        target = 0.95 if share == 1.0 else 0.70 if share == 0.5 else None
        verdict = f"{VERDICT[anyk >= target]} " if target else "     "
        ok &= anyk >= target if target else True
        print(
            f"{verdict}{share:5.0%}: {anyk:6.1%} ({solver:.1%} by plan agreement){f'  target ≥ {target:.0%}' if target else ''}"
        )
    pairs = [(b.index, b.partner) for b in bots if b.kind == "leader"]
    caught = sum((min(a, b), max(a, b)) in run.pair_flags for a, b in pairs) / max(1, len(pairs))
    print(f"\n## Colluding pairs ({len(pairs)})")
    print(f"{VERDICT[caught >= 0.9]} flagged {caught:.0%} (target ≥ 90 %)")
    pair_sims = sorted(run.sims_pairs)
    other = sorted(run.sims_honest)
    if pair_sims and other:
        print(
            f"similarity of a colluding pair's shared deals: median {statistics.median(pair_sims):.2f}, "
            f"p10 {pair_sims[len(pair_sims) // 10]:.2f}; of {len(other)} other compared board pairs: "
            f"p99 {other[int(0.99 * (len(other) - 1))]:.2f}, max {other[-1]:.2f}, ≥ {t.collusion_similarity}: "
            f"{sum(s >= t.collusion_similarity for s in other)}"
        )
    _scores(run, bots)
    big = [ms for ms, size in zip(run.per_board_ms, run.board_sizes, strict=True) if size == 144]
    print("\n## Cost (process time of the analysis and scoring, per board)")
    if big:
        big.sort()
        p95 = big[int(0.95 * (len(big) - 1))]
        print(
            f"{VERDICT[2 * statistics.median(big) <= 20]} 144-tile boards ({len(big)}): median {statistics.median(big):.1f} ms, "
            f"p95 {p95:.1f} ms, max {big[-1]:.1f} ms — a two-player result {2 * statistics.median(big):.1f} ms "
            "(target ≤ 20 ms)"
        )
    every = sorted(run.per_board_ms)
    print(
        f"every board ({len(every)}): median {statistics.median(every):.1f} ms, p95 {every[int(0.95 * (len(every) - 1))]:.1f} ms"
    )
    return 0 if ok and rate <= 0.01 and caught >= 0.9 else 1


def _scores(run, bots) -> None:
    """The final windows' scores by kind: how far the honest are from the thresholds."""
    from rivals.fairplay import scoring

    def q(xs, p):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(p * (len(xs) - 1)))] if xs else float("nan")

    print("\n## The last window's scores (z against the same rating band), by kind: median / p99 / max")
    groups = [("honest", lambda b: b.kind == "honest")] + [
        (f"assisted {s:.0%}", lambda b, s=s: b.kind == "assisted" and b.share == s) for s in SHARES
    ]
    groups.append(("colluding", lambda b: b.kind in ("leader", "follower")))
    for name, member in groups:
        rows = [
            scoring.window_scores(run.scores[b.index]["entries"], run.scores[b.index].get("history", {}))
            for b in bots
            if member(b) and b.index in run.scores
        ]
        if not rows:
            continue
        line = []
        for key in ("plan_z", "keep_z", "pace_z", "interval_spread", "plan_share", "keep_share"):
            xs = [r[key] for r in rows]
            line.append(f"{key} {statistics.median(xs):.2f}/{q(xs, 0.99):.2f}/{max(xs):.2f}")
        print(f"{name:<14} " + "  ".join(line))
    assisted_pairs = sum(1 for a, b in run.pair_flags if bots[a].kind == bots[b].kind == "assisted")
    print(f"pairs of two assisted accounts flagged as colluding too (both follow one plan): {assisted_pairs}")


if __name__ == "__main__":
    sys.exit(main())
