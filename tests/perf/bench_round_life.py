"""Where a Quick Match round's CPU goes, request by request (issue 35): in one process, through the
API as a client calls it (Django's test client: no network, no other process), on a database of
its own — so its figures do not move with the machine's load as the HTTP benchmarks' do.

Two players play ``--rounds`` Quick Match rounds, ``--repeats`` times interleaved with the solo
games, on 36-tile deals (``L08``; ``--layout`` another) as ``bench_round_path``'s players do — join
the queue, poll the ticket, read the round it names, pair along a winning plan (one completes
first, the other learns of the end by a refused intent) — and one player plays as many solo games:
single-player level 1 (the same 36-tile layout), or with ``--layout`` classic games dealt on it
(a classic intent costs less than a level's: the pair's ratio is then stricter). For each kind of request: calls,
CPU of this process per call (the web side: the database's own CPU is apart; ``bench_round_path``
counts the statements, with ``pg_stat_statements``) and per accepted intent. Then the two figures issue 35 compares:

- **the pair's path**: a round intent that does not end the round against a solo intent;
- **the round's life**: every request of the rounds per accepted round intent against every
  request of the solo games per accepted solo intent — what ``bench_round_path``'s closed loops
  compare, the per-round work (queue, match, reads, the end) spread over the round's pairs.

    .venv/bin/python tests/perf/bench_round_life.py [--rounds 10] [--repeats 5] [--layout L08]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

ENDING = "POST /api/v1/rounds/{id}/intents (the round's end)"
PAIR = "POST /api/v1/rounds/{id}/intents"
SOLO = "POST /api/v1/games/{id}/intents"


class Calls:
    """The client's calls, timed and counted by kind."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.n: dict[str, int] = defaultdict(int)

    def __call__(self, client, method: str, path: str, body=None, *, kind: str | None = None, minimal=False):
        kind = kind or f"{method} {re.sub(r'[0-9a-f-]{36}', '{id}', path)}"
        extra = {"HTTP_PREFER": "return=minimal"} if minimal else {}
        started = time.process_time()
        res = getattr(client, method.lower())(path, body, format="json", **extra)
        self.cpu[kind] += time.process_time() - started
        self.n[kind] += 1
        return res.status_code, (res.json() if res.content else None)


def _guest(name: str):
    from rest_framework.test import APIClient

    client = APIClient()
    res = client.post("/api/v1/auth/guest", {"device_id": f"{name}-round-life-device-0123456789"}, format="json")
    assert res.status_code in (200, 201), res.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {res.json()['token']}")
    return client


def _plan(view: dict) -> list[list[int]]:
    from rivals import engine
    from tests.perf.bench_rounds import plan_from_view

    return plan_from_view(engine, view)


def rounds_played(calls: Calls, players: list, rounds: int) -> int:
    """``rounds`` Quick Match rounds of the two ``players``; the accepted intents."""
    accepted = 0
    for _ in range(rounds):
        tickets = [calls(c, "POST", "/api/v1/queue", {"mode": "quick"})[1] for c in players]
        boards = []
        for client, ticket in zip(players, tickets, strict=True):
            while ticket["status"] == "waiting":
                ticket = calls(client, "GET", f"/api/v1/queue/{ticket['id']}")[1]
            round_id = ticket["round"]  # the ticket names the round to play (no read of the match)
            _, view = calls(client, "GET", f"/api/v1/rounds/{round_id}")
            boards.append([round_id, view["seq"], _plan(view)])
        over = False
        while not over:  # one pair each in turn; the first player's board completes first
            for i, client in enumerate(players):
                round_id, seq, plan = boards[i]
                kind = ENDING if i == 0 and len(plan) == 1 else PAIR
                body = {"seq": seq, "type": "remove_pair", "tiles": plan[0]}
                status, answer = calls(
                    client, "POST", f"/api/v1/rounds/{round_id}/intents", body, kind=kind, minimal=True
                )
                if status != 200:
                    raise RuntimeError(f"refused: {status} {answer}")
                accepted += 1
                boards[i] = [round_id, seq + 1, plan[1:]]
                if answer["status"] == "ended":
                    over = True
                    break
        round_id, seq, plan = boards[1]  # the other player learns of the end by a refused intent
        status, _ = calls(
            players[1],
            "POST",
            f"/api/v1/rounds/{round_id}/intents",
            {"seq": seq, "type": "remove_pair", "tiles": plan[0]},
            kind=f"{PAIR} (refused: over)",
            minimal=True,
        )
        assert status == 422
    return accepted


def solo_played(calls: Calls, client, games: int, layout: str = "L08") -> int:
    """``games`` solo games: level 1 on ``L08``, else classic games dealt on ``layout``."""
    from rivals import engine

    accepted = 0
    for _ in range(games):
        body = (
            {"mode": "single", "level": 1}
            if layout == "L08"
            else {"mode": "classic", "code": engine.random_code(layout_id=layout)}
        )
        _, game = calls(client, "POST", "/api/v1/games", body)
        _, view = calls(client, "GET", f"/api/v1/games/{game['id']}")
        seq = view["seq"]
        for pair in _plan(view):
            body = {"seq": seq, "type": "remove_pair", "tiles": pair}
            status, answer = calls(client, "POST", f"/api/v1/games/{game['id']}/intents", body, minimal=True)
            assert status == 200, answer
            seq, accepted = seq + 1, accepted + 1
    return accepted


def report(calls: Calls, round_intents: int, solo_intents: int) -> None:
    print(f"{'request':60s} {'calls':>6s} {'ms/call':>8s} {'ms/intent':>10s}")
    solo_kinds = {k for k in calls.n if "/games" in k}
    for kind in sorted(calls.cpu, key=lambda k: (k in solo_kinds, -calls.cpu[k])):
        per = solo_intents if kind in solo_kinds else round_intents
        print(
            f"{kind:60s} {calls.n[kind]:6d} {calls.cpu[kind] * 1000 / calls.n[kind]:8.2f} "
            f"{calls.cpu[kind] * 1000 / per:10.2f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds (and solo games) per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--layout",
        default="L08",
        help="the rounds' deals (L08: 36 tiles, solo level 1; another: solo classic games on it, e.g. L00: 144)",
    )
    args = parser.parse_args()
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        RIVALS_ROUND_LAYOUTS=args.layout,
        RIVALS_QUEUE_WINDOW_START="1000",  # R-42's window open: the two players pair at once
        THROTTLE_USER="1000000/minute",
        THROTTLE_ANON="1000000/minute",
    )
    from tests.perf.benchdb import bench_database

    with bench_database("bench_round_life", os.environ.get("DATABASE_URL")):
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        warm = Calls()
        rounds_played(warm, [_guest("warm-a"), _guest("warm-b")], 3)
        solo_played(warm, _guest("warm-solo"), 3, args.layout)

        players, solo = [_guest("a"), _guest("b")], _guest("solo")
        calls, pairs, lives = Calls(), [], []
        round_intents = solo_intents = 0
        for _ in range(args.repeats):  # interleaved: rounds, then as many solo games, each repeat
            part = Calls()
            r, s = rounds_played(part, players, args.rounds), solo_played(part, solo, args.rounds, args.layout)
            round_intents, solo_intents = round_intents + r, solo_intents + s
            for kind in part.n:
                calls.cpu[kind] += part.cpu[kind]
                calls.n[kind] += part.n[kind]
            pairs.append((part.cpu[SOLO] / part.n[SOLO]) / (part.cpu[PAIR] / part.n[PAIR]))
            life = sum(v for k, v in part.cpu.items() if "/games" not in k) / r
            lives.append((sum(v for k, v in part.cpu.items() if "/games" in k) / s) / life)

        print(
            f"{args.repeats} × ({args.rounds} Quick Match rounds, {args.rounds} solo games): {round_intents} accepted "
            f"round intents, {solo_intents} solo; CPU of this process (the web side)"
        )
        report(calls, round_intents, solo_intents)
        pair = calls.cpu[PAIR] / calls.n[PAIR]
        solo_pair = calls.cpu[SOLO] / calls.n[SOLO]
        life = sum(v for k, v in calls.cpu.items() if "/games" not in k) / round_intents
        solo_life = sum(v for k, v in calls.cpu.items() if "/games" in k) / solo_intents
        runs = ", ".join(f"{x:.2f}" for x in pairs)
        print(
            f"the pair's path: a round intent {pair * 1000:.2f} ms, a solo intent {solo_pair * 1000:.2f} ms: the "
            f"round's rate {statistics.median(pairs):.2f} of solo's (median of {args.repeats}: {runs})"
        )
        runs = ", ".join(f"{x:.2f}" for x in lives)
        print(
            f"the round's life: {life * 1000:.2f} ms per accepted round intent, solo's {solo_life * 1000:.2f} ms: "
            f"{statistics.median(lives):.2f} of solo's rate (median of {args.repeats}: {runs}); per-round work "
            f"{(life - pair) * 1000:.2f} ms per intent"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
