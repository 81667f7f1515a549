"""Benchmark of skill ratings and rating-aware matchmaking (R-41, R-42; issue 34).

    .venv/bin/python tests/perf/bench_ratings.py [--quick] [--no-db] [--accounts N]

1. **Rating quality** (``ratings_sim.rating_quality``): 1,000 bots with a known true skill, 20,000
   results (half one-to-one, half four players) rated by the service's mathematics: Kendall τ of
   ordinal and true skill (target ≥ 0.8); the share of one-to-one results whose winner the higher
   μ named, each predicted before it was rated (target ≥ 65 %; the true skill's own share is the
   ceiling); how many results a newcomer needs until its ordinal is within one σ-unit (25/3) of its
   true skill — the first time, and for good.
2. **Match quality against wait** (``ratings_sim.queue_run``): players join at 1, 5 and 20 a
   second; the queue's pairing (a pass at every join and every 2 s) against first-come pairing on
   the same arrivals: the median rating gap (an Arena's: its spread) and the p95 wait (target at
   5 joins/s in Quick Match: the gap at most half of first-come's, p95 wait ≤ 10 s).
3. **Cost**: the package's update of one result (target ≤ 1 ms), a pairing pass over 10,000 waiting
   tickets (target ≤ 50 ms), and — on a database of its own (``DATABASE_URL``'s server, else the
   embedded PostgreSQL; dropped at the end) — ``ratings_update`` committed, the pass's read of
   10,000 waiting tickets and their ratings, the statements a Quick Match's round end sends and
   the rating's share of them (target: its append and its projections), and the rating board
   against the ranking boards at ``--accounts`` players (place lookup, top-100, deep pages).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tests.perf import ratings_sim as sim  # noqa: E402
from tests.perf.ratings_sim import percentile  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)
VERDICT = {True: "PASS", False: "FAIL"}


def _ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:7.2f} ms  p99 {percentile(samples, 0.99) * 1000:7.2f} ms"


def quality(args) -> list[tuple[float, float]]:
    started = time.perf_counter()
    q = sim.rating_quality(
        bots=args.bots, results=args.results, share_one_to_one=0.5, newcomers=args.newcomers, seed=args.seed
    )
    print(f"\n## Rating quality: {args.bots} bots, {args.results} results ({time.perf_counter() - started:.1f} s)")
    print(f"results per bot {q['results_per_bot']:.1f}, median σ afterwards {q['sigma_median']:.2f}")
    print(
        f"{VERDICT[q['tau'] >= 0.8]} Kendall τ(ordinal, true skill) {q['tau']:.3f} (μ: {q['tau_mu']:.3f}; target ≥ 0.8)"
    )
    print(
        f"{VERDICT[q['online_accuracy'] >= 0.65]} next 1v1 predicted by the higher μ {q['online_accuracy']:.1%} "
        f"(second half, before rating; fresh pairs afterwards {q['fresh_accuracy']:.1%}; the true skill's own "
        f"{q['oracle_accuracy']:.1%}; a coin 50 %; target ≥ 65 %)"
    )
    first, stays = q["newcomers"]["first"], q["newcomers"]["stays"]
    print(
        f"newcomers ({len(first)}): ordinal within one σ-unit ({sim.SIGMA_UNIT:.2f}) of the true skill after "
        f"median {statistics.median(first):.0f} results (p90 {percentile(first, 0.9):.0f}); for good after median "
        f"{statistics.median(stays):.0f} (p90 {percentile(stays, 0.9):.0f}; 401 = not within 400)"
    )
    return q["settled"]


def matchmaking(args, settled) -> None:
    print(f"\n## Match quality against wait ({args.seconds:.0f} s simulated per run, the first 120 s left out)")
    print("mode   joins/s  policy   matches  median gap  (true skill)  p50 wait  p95 wait  repeats")
    for size, mode in ((2, "quick"), (4, "arena")):
        for rate in (1, 5, 20):
            runs = {}
            for policy in ("fifo", "rating"):
                runs[policy] = run = sim.queue_run(
                    settled=settled,
                    population=max(1000, rate * 200),
                    rate=rate,
                    size=size,
                    seconds=args.seconds,
                    warmup=120,
                    policy=policy,
                    seed=args.seed + rate,
                )
                print(
                    f"{mode:6} {rate:7}  {policy:7} {len(run.gaps):8}  {statistics.median(run.gaps):10.2f}  "
                    f"{statistics.median(run.true_gaps):12.2f}  {percentile(run.waits, 0.5):7.1f}s "
                    f"{percentile(run.waits, 0.95):8.1f}s  {run.repeats:7}"
                )
            if mode == "quick" and rate == 5:
                fifo, rated = runs["fifo"], runs["rating"]
                halved = statistics.median(rated.gaps) <= statistics.median(fifo.gaps) / 2
                quick = percentile(rated.waits, 0.95) <= 10
                print(
                    f"{VERDICT[halved and quick]} Quick Match at 5 joins/s: gap {statistics.median(rated.gaps):.2f} "
                    f"against first-come's {statistics.median(fifo.gaps):.2f} (target ≤ half), "
                    f"p95 wait {percentile(rated.waits, 0.95):.1f} s (target ≤ 10 s)"
                )


def pure_costs(args) -> None:
    from rivals.matches.pairing import Waiting, groups
    from rivals.ratings import skill

    print("\n## Cost, in this process")
    rng = random.Random(args.seed)
    for n in (2, 4):
        samples = []
        for _ in range(2000):
            before = [skill.Skill(rng.gauss(25, 8), rng.uniform(1, 8.3)) for _ in range(n)]
            places = sim.places_of([rng.random() for _ in range(n)])
            t = time.perf_counter()
            skill.rate(before, places)
            samples.append(time.perf_counter() - t)
        ok = statistics.median(samples) <= 0.001
        print(f"{VERDICT[ok]} the package's update of a result of {n}: {_ms(samples)} (target ≤ 1 ms)")
    for size, mode in ((2, "quick"), (4, "arena")):
        tickets = [
            Waiting(
                ticket=i,
                account=i,
                mu=rng.gauss(25, 10),
                joined_at=T0 + timedelta(seconds=rng.uniform(0, 60)),
                last=frozenset({rng.randrange(10_000)}),
            )
            for i in range(10_000)
        ]
        wall, cpu = [], []
        for _ in range(7):
            t, c = time.perf_counter(), time.process_time()
            made = groups(tickets, size=size, now=T0 + timedelta(seconds=60))
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        print(
            f"{VERDICT[statistics.median(cpu) <= 0.05]} a {mode} pass over 10,000 waiting tickets ({len(made)} groups): "
            f"CPU median {statistics.median(cpu) * 1000:.1f} ms, wall median {statistics.median(wall) * 1000:.1f} ms "
            "(target ≤ 50 ms; the machine's other load counts in the wall time)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples and a shorter simulation")
    parser.add_argument("--no-db", action="store_true", help="only the simulations and the in-process costs")
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--results", type=int, default=20_000)
    parser.add_argument("--newcomers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=900)
    parser.add_argument("--accounts", type=int, default=200_000, help="players on the boards")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.quick:
        args.newcomers, args.seconds, args.accounts = 30, 420, 50_000
    started = time.perf_counter()
    settled = quality(args)
    matchmaking(args, settled)
    pure_costs(args)
    if not args.no_db:
        from tests.perf.benchdb import bench_database
        from tests.perf.ratings_db import database_costs

        with bench_database("bench_ratings", os.environ.get("DATABASE_URL")) as name:
            database_costs(args, name)
    print(f"\ntotal {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
