"""Benchmark of the rankings (R-34, R-35) at 1,000,000 accounts.

    DATABASE_URL=postgres://… .venv/bin/python tests/perf/bench_rankings.py [--accounts N] [--density P]

Creates its own database (``bench_rankings_<pid>`` on the server of ``DATABASE_URL``), migrates
it, generates with ``generate_series``: N accounts, a year of daily buckets (each account has a
bucket on a day with probability P, 10 % on the oldest day so the roll has real work), the weekly
rows, the AMR totals and the histograms derived from them. Then measures, through the real
selectors and services (Django connection, one query round-trip each):

* place lookup (``ranking_me``) of random accounts on AMR / Weekly / Daily,
* a top-100 page (``ranking_page(limit=100, offset=0)``) and a deep page (offset N/2),
* past boards (R-34, ``?week=`` / ``?day=``: ``ranking_period`` then ``ranking_page``, as the
  view reads them): the top-100 page and a deep page (offset a quarter to a half of the board) of
  last week, of a week 40 weeks ago, of yesterday and of a day 200 days ago — beside the same two
  pages of the current week and day,
* one award (``points_award``: event append + ledger + rankings projection, committed),
* the nightly roll (``rankings_roll`` of the next day, three consecutive days).

Reports medians and p99 in milliseconds. Drops its database at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)

from tests.perf.benchdb import insert_accounts  # noqa: E402


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _report(name, samples_s):
    ms = [s * 1000 for s in samples_s]
    print(
        f"{name:<34} n={len(ms):<4} median {statistics.median(ms):8.2f} ms   p99 {_pct(ms, 0.99):8.2f} ms", flush=True
    )
    return statistics.median(ms), _pct(ms, 0.99)


def _phase(name, started):
    print(f"  [{time.perf_counter() - started:6.1f}s] {name}", flush=True)


def generate(cur, accounts: int, density: float, today, started):
    from rankings.days import amr_window_start

    start = amr_window_start(today)
    insert_accounts(cur, accounts)
    _phase(f"{accounts} accounts", started)
    # daily buckets: day-major order (the unique index is (day, account)); reached_at inside the
    # Romanian day; points 1…1500
    # each account gets ~density × 364 random days (dupes dropped) among start+1 … today, plus the
    # oldest day for 10 % of the accounts; points 1…1500, reached_at inside the Romanian day
    per_account = max(1, round(density * 364))
    cur.execute(
        """
        INSERT INTO rankings_dailypoints (account_id, day, points, reached_at)
        SELECT DISTINCT ON (day, a) a, day, pts, (day::timestamp AT TIME ZONE 'Europe/Bucharest') + r * interval '23 hours'
        FROM (SELECT a, %(start)s::date + 1 + floor(random() * 364)::int AS day, 1 + floor(random() * 1500)::int AS pts,
                     random() AS r
              FROM generate_series(1, %(n)s) a CROSS JOIN generate_series(1, %(k)s) j
              UNION ALL
              SELECT a, %(start)s::date, 1 + floor(random() * 1500)::int, random()
              FROM generate_series(1, %(n)s) a WHERE random() < 0.1) x
        ORDER BY day, a
        """,
        {"start": start, "n": accounts, "k": per_account},
    )
    cur.execute("SELECT count(*) FROM rankings_dailypoints")
    buckets = cur.fetchone()[0]
    _phase(f"{buckets} daily buckets over 365 days", started)
    cur.execute(
        """
        INSERT INTO rankings_weeklypoints (account_id, week, points, reached_at)
        SELECT account_id, date_trunc('week', day)::date AS week, sum(points), max(reached_at)
        FROM rankings_dailypoints WHERE date_trunc('week', day)::date >= %s GROUP BY 2, 1 ORDER BY 2, 1
        """,
        [start],
    )
    cur.execute(
        "INSERT INTO rankings_amrpoints (account_id, points, reached_at) SELECT account_id, sum(points), "
        "max(reached_at) FROM rankings_dailypoints GROUP BY account_id ORDER BY account_id"
    )
    _phase("weekly rows and AMR totals", started)
    cur.execute(
        """
        INSERT INTO rankings_pointshistogram (board_key, level, value, n)
        SELECT 'amr', 0, points, count(*) FROM rankings_amrpoints WHERE points > 0 GROUP BY points
        UNION ALL SELECT 'amr', 1, points / 1024, count(*) FROM rankings_amrpoints WHERE points > 0 GROUP BY 3
        UNION ALL SELECT 'w:' || week, 0, points, count(*) FROM rankings_weeklypoints WHERE points > 0 GROUP BY 1, 3
        UNION ALL SELECT 'w:' || week, 1, points / 1024, count(*) FROM rankings_weeklypoints WHERE points > 0
                  GROUP BY 1, 3
        UNION ALL SELECT 'd:' || day, 0, points, count(*) FROM rankings_dailypoints WHERE points > 0 GROUP BY 1, 3
        UNION ALL SELECT 'd:' || day, 1, points / 1024, count(*) FROM rankings_dailypoints WHERE points > 0
                  GROUP BY 1, 3
        """
    )
    cur.execute("INSERT INTO rankings_rankingclock (id, window_start) VALUES (1, %s)", [start])
    cur.execute("ANALYZE")
    _phase("histograms, clock, ANALYZE", started)
    return buckets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=1_000_000)
    parser.add_argument("--density", type=float, default=0.02, help="share of accounts with points on a day")
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()

    base_url = os.environ.get("DATABASE_URL")
    if not base_url:
        print("set DATABASE_URL (a PostgreSQL server the benchmark may create a database on)")
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from tests.perf.benchdb import bench_database

    with bench_database("bench_rankings", base_url) as bench_db:
        return _run(args, bench_db)


def _run(args, bench_db: str) -> int:
    started = time.perf_counter()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from rankings.days import romanian_today
    from rankings.selectors import ranking_me, ranking_page, ranking_period
    from rankings.services import rankings_roll
    from rivals.points.services import points_award

    call_command("migrate", verbosity=0)
    _phase(f"database {bench_db} migrated", started)
    today = romanian_today()
    with connection.cursor() as cur:
        generate(cur, args.accounts, args.density, today, started)
    rng = random.Random(1)
    n = args.samples
    results = {}
    for board in ("amr", "weekly", "daily"):
        ids = [rng.randint(1, args.accounts) for _ in range(n)]
        samples = []
        for account_id in ids:
            t = time.perf_counter()
            ranking_me(board=board, account_id=account_id)
            samples.append(time.perf_counter() - t)
        results[f"place {board}"] = _report(f"place lookup ({board})", samples)
    for board in ("amr", "weekly", "daily"):
        samples = []
        for _ in range(n // 3):
            t = time.perf_counter()
            page = ranking_page(board=board, limit=100, offset=0)
            samples.append(time.perf_counter() - t)
        assert len(page["results"]) == min(100, page["count"]), (board, page["count"])
        print(f"  {board} board: {page['count']} ranked players", flush=True)
        results[f"top100 {board}"] = _report(f"top-100 page ({board})", samples)
    for board, days_ago in (("weekly", 0), ("weekly", 7), ("weekly", 280), ("daily", 0), ("daily", 1), ("daily", 200)):
        on = today - timedelta(days=days_ago)
        top, deep = [], []
        for _ in range(n // 3):
            t = time.perf_counter()
            period = ranking_period(board=board, on=on)
            page = ranking_page(board=board, limit=100, offset=0, day=period["day"])
            top.append(time.perf_counter() - t)
        ranked = page["count"]
        for _ in range(n // 10):
            offset = rng.randint(ranked // 4, max(ranked // 4, ranked // 2))
            t = time.perf_counter()
            ranking_page(board=board, limit=100, offset=offset, day=ranking_period(board=board, on=on)["day"])
            deep.append(time.perf_counter() - t)
        when = f"-{days_ago} d" if days_ago else "now"
        print(f"  {board} board of {period['starts_on']}: {ranked} ranked players", flush=True)
        results[f"top100 {board} {when}"] = _report(f"top-100 ({board}, {when})", top)
        results[f"deep {board} {when}"] = _report(f"deep page N/4…N/2 ({board}, {when})", deep)
    samples = []
    for _ in range(n // 10):
        offset = rng.randint(args.accounts // 4, args.accounts // 2)
        t = time.perf_counter()
        ranking_page(board="amr", limit=100, offset=offset)
        samples.append(time.perf_counter() - t)
    results["deep amr"] = _report("deep page (amr, offset N/4…N/2)", samples)
    samples = []
    for i in range(n):
        account_id = rng.randint(1, args.accounts)
        t = time.perf_counter()
        points_award(
            account=account_id, amount=rng.randint(1, 300), source="single_player", key=f"bench:{i}", at=timezone.now()
        )
        samples.append(time.perf_counter() - t)
    results["award"] = _report("one award (append+ledger+boards)", samples)
    samples = []
    for k in (1, 2, 3):
        t = time.perf_counter()
        r = rankings_roll(today=today + timedelta(days=k))
        samples.append(time.perf_counter() - t)
        print(f"  roll to {r.today}: {r.accounts_changed} AMR totals changed in {samples[-1]:.2f}s", flush=True)
    results["roll"] = _report("nightly roll (one day)", samples)
    connection.close()
    print(f"total {time.perf_counter() - started:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
