"""Benchmark of the Sichuan AI (S-19).

    .venv/bin/python tests/perf/bench_sichuan.py [--deals N] [--ai-only M]

Set-up: in every seeded deal ONE AI seat plays against THREE random-legal baseline seats
(``BaselinePlayer``: random missing suit, always takes a win, otherwise a uniformly random legal
action); the AI seat rotates with the deal number (deal i -> AI at seat i % 4), so dealer and
seat effects cancel.  Reported: the AI's win rate (share of deals in which the AI seat wins a
hand) against the baselines' per-seat win rate, average points per deal (AI seat vs a baseline
seat), the AI's decision time (median / p99 per decision, over every AI decision), and the wall
time of a full AI-only deal (four AI seats, engine included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from rivals.sichuan.engine import (
    BaselinePlayer,
    ai_action,
    new_table,
    run_ai_turns,
)


def _pct(sorted_xs, q):
    if not sorted_xs:
        return 0.0
    i = min(len(sorted_xs) - 1, int(round(q * (len(sorted_xs) - 1))))
    return sorted_xs[i]


def play_mixed(n_deals: int, seed0: int = 1):
    decision_times: list[float] = []
    turn_times: list[float] = []  # decisions on the AI's own turn (discard/kong/win search)
    ai_wins = base_wins = 0
    ai_points = base_points = 0
    ai_fan_wins = 0

    def timed_ai(view):
        t0 = time.perf_counter()
        a = ai_action(view)
        dt = time.perf_counter() - t0
        decision_times.append(dt)
        if view.phase == "turn":
            turn_times.append(dt)
        return a

    for i in range(n_deals):
        seed = seed0 + i
        ai_seat = i % 4
        table = new_table(seed)
        policies = {s: (timed_ai if s == ai_seat else BaselinePlayer(seed * 7 + s)) for s in range(4)}
        run_ai_turns(table, human_seat=None, policies=policies)
        assert table.over and sum(table.scores) == 0
        for s in range(4):
            won = table.wins[s] is not None
            if s == ai_seat:
                ai_wins += won
                ai_points += table.scores[s]
                ai_fan_wins += won and table.wins[s]["fan"] > 0
            else:
                base_wins += won
                base_points += table.scores[s]
    return {
        "deals": n_deals,
        "ai_win_rate": ai_wins / n_deals,
        "baseline_win_rate": base_wins / (3 * n_deals),
        "ai_avg_points": ai_points / n_deals,
        "baseline_avg_points": base_points / (3 * n_deals),
        "decisions": len(decision_times),
        "decision_median_ms": 1000 * statistics.median(decision_times),
        "decision_p99_ms": 1000 * _pct(sorted(decision_times), 0.99),
        "decision_max_ms": 1000 * max(decision_times),
        "turn_decision_median_ms": 1000 * statistics.median(turn_times),
        "turn_decision_p99_ms": 1000 * _pct(sorted(turn_times), 0.99),
    }


def play_ai_only(n_deals: int, seed0: int = 100_000):
    times = []
    for i in range(n_deals):
        t0 = time.perf_counter()
        table = new_table(seed0 + i)
        run_ai_turns(table, human_seat=None)
        times.append(time.perf_counter() - t0)
        assert table.over
    times.sort()
    return {
        "ai_only_deals": n_deals,
        "ai_only_deal_mean_ms": 1000 * statistics.mean(times),
        "ai_only_deal_p99_ms": 1000 * _pct(times, 0.99),
        "ai_only_deal_max_ms": 1000 * times[-1],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--ai-only", type=int, default=200)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    mixed = play_mixed(args.deals)
    ai_only = play_ai_only(args.ai_only)
    res = {**mixed, **ai_only, "total_s": time.perf_counter() - t0}
    for k, v in res.items():
        print(f"{k:24s} {v:.4f}" if isinstance(v, float) else f"{k:24s} {v}")
    ok = (
        res["ai_win_rate"] > res["baseline_win_rate"] + 0.10
        and res["decision_p99_ms"] <= 5.0
        and res["ai_only_deal_p99_ms"] <= 250.0
    )
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
