"""The database part of ``bench_ratings.py`` (issue 34): run inside the benchmark's own database.

* the rating board against the ranking boards (AMR) at the same number of players: a place
  lookup, the top-100 page and deep pages (offset N/4 … N/2), through the real selectors;
* ``ratings_update`` of one result, committed (the locks and the read, the append, the ratings'
  writes, the notifications);
* a pairing pass's read of 10,000 waiting tickets with their players' ratings, and its decision;
* the statements a Quick Match's round end sends, and how many of them are the rating's.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from datetime import timedelta

from tests.perf.ratings_sim import percentile

VERDICT = {True: "PASS", False: "FAIL"}


def _report(name: str, samples: list[float]) -> float:
    median = statistics.median(samples) * 1000
    print(f"{name:<46} n={len(samples):<4} median {median:8.2f} ms   p99 {percentile(samples, 0.99) * 1000:8.2f} ms")
    return median


def _generate(cur, n: int, today) -> None:
    """``n`` players, each with a rating (μ ~ N(25, 8), σ 1 … 4, 80 % past provisional) and an AMR
    total (1 … 5,000 points), and both boards' histograms — the projections' rows, as they would be."""
    from rankings.days import amr_window_start
    from tests.perf.benchdb import insert_accounts

    insert_accounts(cur, n)
    cur.execute(
        """
        INSERT INTO ratings_rating (account_id, mu, sigma, ordinal, figure, one_to_one, multi, provisional,
            suspended, closed, listed, last_opponents, last_result, rated_at)
        SELECT a, mu, sigma, mu - 3 * sigma, round((mu - 3 * sigma) * 100), k, 0, k < 12, false, false, k >= 12,
            '[]'::jsonb, '', now()
        FROM (SELECT a, 25 + 8 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS mu,
                     1 + 3 * random() AS sigma, CASE WHEN random() < 0.8 THEN 12 + floor(random() * 40)::int
                     ELSE floor(random() * 12)::int END AS k
              FROM generate_series(1, %s) a) x ORDER BY a
        """,
        [n],
    )
    cur.execute(
        "INSERT INTO ratings_histogram (level, value, n) SELECT 0, figure, count(*) FROM ratings_rating "
        "WHERE listed GROUP BY figure UNION ALL SELECT 1, floor(figure / 100.0)::int, count(*) FROM ratings_rating "
        "WHERE listed GROUP BY 2"
    )
    cur.execute(
        "INSERT INTO rankings_amrpoints (account_id, points, reached_at) SELECT a, 1 + floor(random() * 5000)::int, "
        "now() FROM generate_series(1, %s) a",
        [n],
    )
    cur.execute(
        "INSERT INTO rankings_pointshistogram (board_key, level, value, n) SELECT 'amr', 0, points, count(*) "
        "FROM rankings_amrpoints GROUP BY points UNION ALL SELECT 'amr', 1, points / 1024, count(*) "
        "FROM rankings_amrpoints GROUP BY 3"
    )
    cur.execute("INSERT INTO rankings_rankingclock (id, window_start) VALUES (1, %s)", [amr_window_start(today)])
    cur.execute("ANALYZE")


def boards(n: int, samples: int, rng: random.Random) -> None:
    from rankings.selectors import ranking_me, ranking_page
    from rivals.ratings.selectors import rating_board, rating_of

    listed = rating_board(limit=1, offset=0)["count"]
    print(f"\n## The rating board against the AMR board: {n} players ({listed} on the rating board)")
    rows = [
        (
            "place lookup",
            lambda: rating_of(account_id=rng.randint(1, n)),
            lambda: ranking_me(board="amr", account_id=rng.randint(1, n)),
        ),
        (
            "top-100 page",
            lambda: rating_board(limit=100, offset=0),
            lambda: ranking_page(board="amr", limit=100, offset=0),
        ),
        (
            "deep page (offset N/4 … N/2)",
            lambda: rating_board(limit=100, offset=rng.randint(listed // 4, listed // 2)),
            lambda: ranking_page(board="amr", limit=100, offset=rng.randint(n // 4, n // 2)),
        ),
    ]
    for name, rating, ranking in rows:
        timings = {}
        for board, call in (("rating", rating), ("AMR", ranking)):
            taken = []
            for _ in range(samples):
                t = time.perf_counter()
                call()
                taken.append(time.perf_counter() - t)
            timings[board] = _report(f"{name} ({board})", taken)
        print(f"  rating / AMR: {timings['rating'] / timings['AMR']:.2f}")


def rating_updates(samples: int, rng: random.Random) -> None:
    """``ratings_update`` alone, committed; and inside a transaction as a round end calls it (the
    commit is the round end's, not the rating's)."""
    from django.db import transaction
    from django.utils import timezone

    from rivals.ratings.services import ratings_update

    print()
    for committed in (True, False):
        taken = []
        for i in range(samples):
            players = rng.sample(range(1, 1001), 2 if i % 2 else 4)
            places = [(a, k + 1, False) for k, a in enumerate(players)]
            result = f"bench:{committed}:{i}"
            if committed:
                t = time.perf_counter()
                ratings_update(result=result, mode="arena", players=places, at=timezone.now())
                taken.append(time.perf_counter() - t)
                continue
            with transaction.atomic():
                t = time.perf_counter()
                ratings_update(result=result, mode="arena", players=places, at=timezone.now())
                taken.append(time.perf_counter() - t)
        _report(f"ratings_update, {'committed' if committed else 'in the caller’s transaction'}", taken)


def pairing_read(rng: random.Random) -> None:
    from django.utils import timezone

    from rivals.eventstore import event_append_new_streams
    from rivals.matches import pairing
    from rivals.matches.events import queue_joined
    from rivals.matches.services.queue import _waiting

    now = timezone.now()
    streams = []
    for a in range(1, 10_001):
        ticket = uuid.uuid4()
        joined = queue_joined(ticket_id=ticket, account_id=a, mode="arena", expires_at=now + timedelta(hours=1))
        streams.append((f"queue-{ticket}", "queue", [joined]))
    started = time.perf_counter()
    event_append_new_streams(streams=streams, actor="bench", now=now)
    print(f"\n10,000 waiting Arena tickets appended in {time.perf_counter() - started:.1f} s")
    from rivals.ratings.selectors import pairing_ratings

    reads, ratings, decisions = [], [], []
    for _ in range(7):
        t = time.perf_counter()
        waiting = _waiting("arena", now + timedelta(seconds=1))
        reads.append(time.perf_counter() - t)
        t = time.perf_counter()
        pairing_ratings([w.account for w in waiting])
        ratings.append(time.perf_counter() - t)
        t = time.perf_counter()
        pairing.groups(waiting, size=4, now=now + timedelta(seconds=1))
        decisions.append(time.perf_counter() - t)
    _report("a pass's read of 10,000 tickets and ratings", reads)
    _report("  of which the ratings' read", ratings)
    _report("its decision (rivals.matches.pairing)", decisions)


def round_end_statements() -> None:
    """A Quick Match: one pair by A, then the round's end by the sweeper; every statement sent."""
    import psycopg

    from rivals import engine
    from rivals.accounts.services import account_guest_signin
    from rivals.games.models import Game
    from rivals.games.services import game_board
    from rivals.matches import services as svc

    a, _, _ = account_guest_signin(device_id="bench-ratings-a")
    b, _, _ = account_guest_signin(device_id="bench-ratings-b")
    code = engine.random_code(rng_seed=3, layout_id="L08")
    match = svc.match_create(mode="quick", account_ids=[a.pk, b.pk], code=code)
    rnd = match.rounds.get()
    game = Game.objects.get(round_id=rnd.pk, account=a)
    first = engine.solve(game_board(game)).plan[0]
    svc.round_intent_apply(
        account=a, round_id=rnd.pk, intent={"seq": game.seq, "type": "remove_pair", "tiles": list(first)}
    )
    from rivals.matches.services import matches as match_services

    sent: list[tuple[bool, str]] = []
    rating = [False]
    execute, update = psycopg.Cursor.execute, match_services.ratings_update

    def counted(self, query, *args, **kwargs):
        sent.append((rating[0], str(query)))
        return execute(self, query, *args, **kwargs)

    def rated(**kwargs):  # the statements the rating sends (the service unchanged, only watched)
        rating[0] = True
        try:
            return update(**kwargs)
        finally:
            rating[0] = False

    psycopg.Cursor.execute, match_services.ratings_update = counted, rated
    try:
        svc.round_end_if_due(round_id=rnd.pk, now=rnd.ends_at + timedelta(seconds=1), via="sweeper")
    finally:
        psycopg.Cursor.execute, match_services.ratings_update = execute, update
    mine = [q for by_rating, q in sent if by_rating]
    print(
        f"\n{VERDICT[len(mine) <= 4]} a Quick Match's round end sends {len(sent)} statements; the rating's "
        f"{len(mine)} (target: its append and its projection — the locks and read, the append, the ratings' "
        "writes, the notifications):"
    )
    for q in mine:
        print(f"  {' '.join(q.split())[:110]}")


def database_costs(args, name: str) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from rankings.days import romanian_today

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    with connection.cursor() as cur:
        _generate(cur, args.accounts, romanian_today())
    print(f"\n## On the database {name} (migrated and filled in {time.perf_counter() - started:.1f} s)")
    rng = random.Random(args.seed)
    samples = 60 if args.quick else 300
    boards(args.accounts, samples, rng)
    rating_updates(samples, rng)
    pairing_read(rng)
    round_end_statements()
    connection.close()
