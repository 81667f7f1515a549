"""The database part of ``bench_fairplay.py`` (issue 36): run inside the benchmark's own database.

Duels on the 144-tile layouts are played through the real services (``round_intent_apply``, at
simulated instants; one honest bot against one assisted, as ``demo.play_style`` plays them), then
the worker's whole scoring of each rated result is timed — ``fairplay_result_score``: the reads
of the rating and the boards' events, the analysis, the baseline, the comparisons, the append
and its projection, the flag decisions — in process time and wall time. And the round's last
intent — the one that ends it and rates the match — is checked to append no signal (nothing
added to an intent's request).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from tests.perf.bench_fairplay import VERDICT

T0 = datetime(2026, 6, 1, 9, tzinfo=UTC)


def _duel(k: int, players, rng: random.Random):
    from demo import play_style as style
    from rivals import engine
    from rivals.engine.assist import winning_plan
    from rivals.games.models import Game
    from rivals.games.services import game_board
    from rivals.matches import services as svc

    code = engine.random_code(rng.randrange(1 << 34), "L00" if k % 2 else "L09")
    t0 = T0 + timedelta(hours=k)
    match = svc.match_create(mode="duel", account_ids=[p.pk for p in players], now=t0, code=code)
    rnd = match.rounds.get()
    plan = list(engine.deal_from_code(code).plan)
    clocks = {p.pk: t0 + timedelta(seconds=2) for p in players}
    boards = {p.pk: game_board(Game.objects.get(round_id=rnd.pk, account=p)) for p in players}
    plans = {p.pk: list(plan) for p in players}
    while True:
        rnd.refresh_from_db()
        movable = [p for p in players if boards[p.pk].removable_pairs()]
        if rnd.status != "running" or not movable:
            break
        p = min(movable, key=lambda q: clocks[q.pk])
        board = boards[p.pk]
        pairs = board.removable_pairs()
        if p is players[1] and rng.random() < 0.7:  # the assisted one
            plans[p.pk] = winning_plan(board, plans[p.pk]) or [pairs[0]]
            pair, ms = plans[p.pk][0], style.assisted_ms(rng)
        else:
            pair, ms = style.human_pair(board, pairs, 0.7, rng), style.human_ms(2000, board, pairs, rng)
        clocks[p.pk] += timedelta(milliseconds=max(450, ms))
        game = Game.objects.get(round_id=rnd.pk, account=p)
        result = svc.round_intent_apply(
            account=p,
            round_id=rnd.pk,
            intent={"seq": game.seq, "type": "remove_pair", "tiles": list(pair)},
            now=clocks[p.pk],
        )
        if result.refused:
            break
        board.remove(*pair)
    rnd.refresh_from_db()
    if rnd.status == "running":
        svc.round_end_if_due(round_id=rnd.pk, now=rnd.ends_at, via="sweeper")
    return f"match:{match.pk}"


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[int(0.95 * (len(xs) - 1))]


def database_costs(args, name: str) -> None:
    """Run by ``bench_fairplay.main`` once Django is set up, in the benchmark's database ``name``."""
    from django.core.management import call_command
    from django.db import connection

    from rivals.fairplay.signals import fairplay_result_score
    from rivals.models import Event
    from tests.matches.helpers import accounts

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    print(f"\n## On the database {name} (migrated in {time.perf_counter() - started:.1f} s)")
    rng = random.Random(args.seed)
    players = accounts(2, prefix="bench-fp")
    n = 6 if args.quick else args.duels
    results = [_duel(k, players, rng) for k in range(n)]
    signals_in_requests = Event.objects.filter(type="FairPlaySignalsScored").count()
    print(
        f"{VERDICT[signals_in_requests == 0]} {n} duels on 144-tile layouts played through the services: "
        f"{signals_in_requests} signals appended by their intents (nothing added to an intent's request)"
    )
    from rivals.engine import assist
    from rivals.fairplay import signals

    analysed = []  # process time of the boards' analysis within each scoring
    analyse = signals._analyse

    def timed(*a, **kw):
        c = time.process_time()
        try:
            return analyse(*a, **kw)
        finally:
            analysed[-1] += 1000 * (time.process_time() - c)

    signals._analyse = timed
    cpu, wall = [], []
    load = os.getloadavg()[0]
    try:
        for result in results:
            analysed.append(0.0)
            assist.clear_memos()  # the intents' solves of the same positions: not in a worker's process
            c, w = time.process_time(), time.perf_counter()
            assert fairplay_result_score(result=result, now=T0 + timedelta(days=1))
            cpu.append(1000 * (time.process_time() - c))
            wall.append(1000 * (time.perf_counter() - w))
    finally:
        signals._analyse = analyse
    load = f"{load:.1f}–{os.getloadavg()[0]:.1f}"
    boards = [len(e.data["boards"]) for e in Event.objects.filter(type="FairPlaySignalsScored")]
    rest = [c - a for c, a in zip(cpu, analysed, strict=True)]
    print(
        f"{VERDICT[statistics.median(cpu) <= 20 and _p95(cpu) <= 20]} fairplay_result_score of a duel "
        f"({statistics.mean(boards):.0f} boards of 144 tiles): process time median {statistics.median(cpu):.1f} ms, "
        f"p95 {_p95(cpu):.1f} ms, max {max(cpu):.1f} ms; wall median {statistics.median(wall):.1f} ms "
        f"(target ≤ 20 ms of worker time; load average {load})"
    )
    print(
        f"     of which the analysis of the two boards: median {statistics.median(analysed):.1f} ms, "
        f"p95 {_p95(analysed):.1f} ms, max {max(analysed):.1f} ms; the rest (reads, baseline, comparisons, "
        f"append, projection, flags): median {statistics.median(rest):.1f} ms, max {max(rest):.1f} ms"
    )
    print(f"     per duel, ms: {' '.join(f'{c:.0f}' for c in cpu)}")
    connection.close()
