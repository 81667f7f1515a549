"""Benchmark of the player search (R-39, ``GET /api/v1/players?q=``) at 1,000,000 accounts.

    DATABASE_URL=postgres://… .venv/bin/python tests/perf/bench_player_search.py [--accounts N] [--quick]

Creates its own database (``bench_player_search_<pid>`` on the server of ``DATABASE_URL``),
migrates it and inserts N accounts with names as players pick them (reproducible, seed 24): a
third keep the name they started with (``Player <id>``), the others chose words, first names,
words with digits, random tags, some with diacritics, Cyrillic or CJK; 1 % are suspended, 0.5 %
closed, a few are operators (none of these is ever listed); 1,000 clubs of 50 members. Then
``VACUUM ANALYZE`` (what autovacuum does) and measures, through the real selector
(``rivals.accounts.selectors.player_search``: the Django connection, the queries' planning
included) and through the API (Django's test client, in process: the view, its serializer and the
JSON), queries of every kind:

* short: two characters, common ("an", "er", "12") and rare ("qx", "ț4");
* common: many names hold it ("player", "dragon", "player 1", "r 9");
* medium and rare: a few thousand to none ("a m", "lotus7", "player 123456", "xylophone");
* pages: offsets 0, 20, 100 and 180 of common queries.

Reports p50 and p99 in milliseconds per kind and over all; the target is p99 ≤ 20 ms.
Drops its database at the end, whatever happens.
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

FIRST = (
    "ana maria ioana elena andrei mihai alex cristi vlad dan radu ion george stefan bogdan adrian florin gabriel "
    "marius paul sorin lucian victor tudor matei david luca sofia irina diana laura alina bianca carmen oana raluca "
    "simona teodora ilinca daria anca emma olivia liam noah james lucas mia chen wei li yuki hiro kenji sakura omar "
    "ali fatima leila ivan olga dmitri natasha pierre chloe hans greta marco giulia pablo lucia"
).split()
WORDS = (
    "dragon tile master lotus jade bamboo phoenix tiger crane pearl wind storm shadow ninja queen king lucky star "
    "moon sun fire water stone ghost wolf fox bear hawk eagle river mountain cloud thunder silent swift golden "
    "silver crimson azure emerald mystic royal cosmic pixel mahjong solitaire turtle panda koi zen sensei samurai "
    "shogun empress emperor blossom cherry orchid plum snow frost blaze"
).split()
ODD = ["ș", "ț", "ă", "â", "î", "é", "ü", "ñ", "ø", "ß", "Д", "ж", "я", "中", "龍", "星", "✨", "★"]

KINDS = {
    "short common": ["an", "er", "ma", "pl", "12", "on", "00"],
    "short rare": ["qx", "zj", "ț4", "x7", "7x", "ß1", "жя"],
    "common": ["player", "dragon", "player 1", "r 9", "layer 5", "ana", "star", "99"],
    "medium": ["a m", "n s", "elena", "jade1", "r 99", "e_", "ninja4", "koi8"],
    "rare": ["player 123456", "xylophone", "qwerty9", "irina.snow", "zzzzqq", "anana", "on s", "9 9"],
}
PAGES = [("player", 20), ("an", 100), ("er", 180), ("12", 100), ("a m", 180), ("dragon", 20)]


def chosen_name(rng: random.Random, account_id: int) -> str:
    if rng.random() < 0.35:
        return f"Player {account_id}"
    k = rng.random()
    if k < 0.25:
        name = rng.choice(FIRST).capitalize() + rng.choice(["", " ", "_", "."]) + rng.choice(WORDS)
    elif k < 0.5:
        name = rng.choice(WORDS).capitalize() + rng.choice(WORDS).capitalize()
    elif k < 0.7:
        name = rng.choice(FIRST).capitalize() + " " + rng.choice(FIRST).capitalize()
    elif k < 0.85:
        name = rng.choice(WORDS) + str(rng.randint(0, 9999))
    else:
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randint(4, 12)))
    if rng.random() < 0.3:
        name += str(rng.randint(1, 999))
    if rng.random() < 0.05:
        name = rng.choice(ODD) + name + rng.choice(ODD)
    return name[:32]


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _report(name, samples_s):
    ms = [s * 1000 for s in samples_s]
    p50, p99 = statistics.median(ms), _pct(ms, 0.99)
    print(f"{name:<34} n={len(ms):<5} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   max {max(ms):7.2f} ms", flush=True)
    return p50, p99


def _phase(name, started):
    print(f"  [{time.perf_counter() - started:6.1f}s] {name}", flush=True)


def generate(cur, accounts: int, started) -> None:
    from rivals.names import search_key

    rng = random.Random(24)
    with cur.cursor.copy(
        "COPY rivals_account (id, password, is_superuser, username, is_staff, is_active, date_joined, "
        "email_verified, display_name, search_name, jokers, suspension_reason, suspended_at, closed_at) FROM STDIN"
    ) as copy:
        for i in range(1, accounts + 1):
            name = chosen_name(rng, i)
            r = rng.random()
            suspended = "2026-01-01T00:00:00Z" if r < 0.01 else None
            closed = "2026-01-02T00:00:00Z" if 0.01 <= r < 0.015 else None
            staff = i % 100_000 == 0
            copy.write_row(
                (i, "!", False, f"bench{i}", staff, closed is None, "2026-01-01T00:00:00Z", False, name[:40])
                + (search_key(name), 0, "", suspended, closed)
            )
    cur.execute("SELECT setval(pg_get_serial_sequence('rivals_account', 'id'), %s)", [accounts])
    _phase(f"{accounts} accounts", started)
    cur.execute(
        "INSERT INTO clubs_club (id, name, name_key, owner_id, status, members_count, version, created_at) "
        "SELECT md5('club' || c)::uuid, 'Club ' || c, 'CLUB ' || c, c * 50, 'open', 50, 50, now() "
        "FROM generate_series(1, %s) c",
        [min(1000, accounts // 50)],
    )
    cur.execute(
        "INSERT INTO clubs_member (account_id, club_id, joined_at) SELECT a, md5('club' || ((a - 1) / 50 + 1))::uuid, "
        "now() FROM generate_series(1, %s) a",
        [min(1000, accounts // 50) * 50],
    )
    _phase("1,000 clubs of 50 members", started)
    cur.execute("VACUUM ANALYZE rivals_account")
    cur.execute("VACUUM ANALYZE clubs_member")
    _phase("VACUUM ANALYZE", started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=15, help="times each query is measured")
    parser.add_argument("--quick", action="store_true", help="100,000 accounts, 5 repeats")
    args = parser.parse_args()
    if args.quick:
        args.accounts, args.repeat = min(args.accounts, 100_000), 5
    base_url = os.environ.get("DATABASE_URL")
    if not base_url:
        print("set DATABASE_URL (a PostgreSQL server the benchmark may create a database on)")
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from tests.perf.benchdb import bench_database

    with bench_database("bench_player_search", base_url) as bench_db:
        return _run(args, bench_db)


def _run(args, bench_db: str) -> int:
    started = time.perf_counter()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from rivals.accounts.selectors import SEARCH_MAX, player_search

    call_command("migrate", verbosity=0)
    _phase(f"database {bench_db} migrated", started)
    with connection.cursor() as cur:
        generate(cur, args.accounts, started)
    rng = random.Random(1)
    calls = [(kind, q, 0) for kind, qs in KINDS.items() for q in qs] + [("pages", q, o) for q, o in PAGES]
    for _kind, q, offset in calls:  # warm: the first call of a kind reads its index pages from disk
        player_search(q=q, limit=20, offset=offset)
    samples: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    order = calls * args.repeat
    rng.shuffle(order)
    for kind, q, offset in order:
        t = time.perf_counter()
        found = player_search(q=q, limit=20, offset=offset)
        samples.setdefault(kind, []).append(time.perf_counter() - t)
        counts[q] = found["count"]
    print(f"matches counted (up to {SEARCH_MAX}): " + ", ".join(f"{q!r} {n}" for q, n in counts.items()), flush=True)
    every = []
    for kind, xs in samples.items():
        _report(f"selector, {kind}", xs)
        every += xs
    _, p99 = _report("selector, every query", every)
    client = Client()
    client.get("/api/v1/players", {"q": "warm"})  # the process's first request reads the schema once
    api = []
    for _kind, q, offset in order[: len(order) // 3]:
        t = time.perf_counter()
        res = client.get("/api/v1/players", {"q": q, "offset": offset, "limit": 20})
        api.append(time.perf_counter() - t)
        assert res.status_code == 200, res.content
    _, api_p99 = _report("API (GET /api/v1/players)", api)
    print(f"target p99 <= 20 ms: selector {'PASS' if p99 <= 20 else 'FAIL'}, API {'PASS' if api_p99 <= 20 else 'FAIL'}")
    connection.close()
    print(f"total {time.perf_counter() - started:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
