"""Benchmark of tournaments at 10,000 players (issue 10's targets).

    .venv/bin/python tests/perf/bench_tournaments.py [--players N] [--prizes K] [--quick]

Creates its own database (``bench_tournaments_<pid>`` on the server of ``DATABASE_URL``, else on
the embedded PostgreSQL), migrates it, creates N accounts with ``generate_series`` and measures,
through the real services (events, projections, ledger, rankings):

* **seat one wave** of N registered players: ``tournament_start`` — R-23 seating by TP standings,
  the ``WaveSeated`` event and its N/4 table and N seat rows (target ≤ 5 s for 10,000); also the
  seating alone (``seating.seat``, the pure function);
* **open the tables' rounds**: per table one tournament match of rivals with its round and every
  player's board (``matches_create``, in bulk), in the chunks the worker uses — timed on ``--open-tables``
  tables (default: all of them) and extrapolated when fewer;
* **finalize** N players with 4·N table results (four waves of N/4 tables of four, scored by R-24
  with multipliers ×1…×4): ``tournament_finalize`` — totals from the table results, R-26 places,
  ``TournamentFinalized``, the registrations' places, K prizes as ``PointsAwarded`` (ledger and
  rankings), the trophy (target ≤ 10 s for 10,000 / 40,000).

Prints seconds, the ratio to the target, and the load average. Drops its database at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)

from tests.perf.benchdb import insert_accounts  # noqa: E402

SEAT_TARGET_S, FINALIZE_TARGET_S = 5.0, 10.0


def _report(name: str, seconds: float, target: float | None = None) -> None:
    extra = f"   ({seconds / target:.2f} × the {target:.0f} s target)" if target else ""
    print(f"{name:<58} {seconds:7.2f} s{extra}", flush=True)


def _accounts(cur, n: int) -> None:
    insert_accounts(cur, n)


def _registered(n: int, *, title: str, prizes: int, now):
    """A tournament with N registrations (registered through events, in bulk)."""
    from rivals.eventstore import event_append
    from tournaments import events as ev
    from tournaments.services.lifecycle import tournament_create

    t = tournament_create(
        actor="operator:bench",
        now=now - timedelta(hours=1),
        kind="regular",
        title=title,
        registration_opens_at=now - timedelta(hours=1),
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(hours=1),
        min_players=2,
        prize_table=[max(1, 1000 - 10 * i) for i in range(prizes)],
        multipliers=[1, 2, 3, 4],
    )
    for start in range(1, n + 1, 2000):
        event_append(
            stream_id=t.stream_id,
            stream_type="tournament",
            expected_version=None,
            actor="bench",
            now=now - timedelta(minutes=30),
            events=[
                ev.player_registered(account_id=a, at=now - timedelta(minutes=30, seconds=-a))
                for a in range(start, min(n, start + 1999) + 1)
            ],
        )
    t.refresh_from_db()
    assert t.registered == n, t.registered
    return t


def _results(cur, t, n: int) -> int:
    """Four waves of N/4 tables of four, every table scored (R-24 first-completed row, ×wave)."""
    tid = str(t.pk)
    for wave in range(1, 5):
        cur.execute(
            "INSERT INTO tournaments_wave (tournament_id, number, multiplier, seated_at, ended_at, "
            "tables_open, waiting) VALUES (%s, %s, %s, now(), now(), 0, '[]') RETURNING id",
            [tid, wave, wave],
        )
        wave_id = cur.fetchone()[0]
        cur.execute(
            "INSERT INTO tournaments_table (tournament_id, wave_id, number, status, seated_at, ended_at, end_reason) "
            "SELECT %s, %s, k, 'ended', now(), now(), 'completed' FROM generate_series(1, %s) k",
            [tid, wave_id, n // 4],
        )
        # seat s of table k: account ((k − 1) · 4 + s + wave · 7) mod N + 1 (every player once per wave)
        cur.execute(
            "INSERT INTO tournaments_tableseat (table_id, tournament_id, account_id, seat, place, score, completed, tp) "
            "SELECT tb.id, %s, ((tb.number - 1) * 4 + s + %s * 7) %% %s + 1, s, s + 1, 2000 - 400 * s - tb.number %% 97,"
            " s = 0, (ARRAY[40, 20, 10, 0])[s + 1] * %s FROM tournaments_table tb CROSS JOIN generate_series(0, 3) s "
            "WHERE tb.wave_id = %s",
            [tid, wave, n, wave, wave_id],
        )
    cur.execute("UPDATE tournaments_tournament SET status = 'running', current_wave = 4 WHERE id = %s", [tid])
    cur.execute("SELECT count(*) FROM tournaments_tableseat WHERE tournament_id = %s AND tp IS NOT NULL", [tid])
    return cur.fetchone()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--prizes", type=int, default=100, help="places of the prize table")
    parser.add_argument("--quick", action="store_true", help="2,000 players")
    parser.add_argument("--open-tables", type=int, default=0, help="tables whose rounds are opened and timed (0 = all)")
    args = parser.parse_args()
    n = 2_000 if args.quick else args.players

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")  # the on-commit ticks go nowhere
    from tests.perf.benchdb import bench_database

    with bench_database("bench_tournaments", os.environ.get("DATABASE_URL")) as bench_db:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.utils import timezone

        from tournaments import seating
        from tournaments.models import Registration, Table, TableSeat
        from tournaments.services import play
        from tournaments.services.finalize import tournament_finalize
        from tournaments.services.tables import _open_chunk

        call_command("migrate", verbosity=0)
        print(f"database {bench_db}; {n} players; load average {os.getloadavg()}", flush=True)
        with connection.cursor() as cur:
            _accounts(cur, n)
        now = timezone.now()

        players = [(a, (a * 7919) % 13 * 10) for a in range(1, n + 1)]
        t0 = time.perf_counter()
        plan = seating.seat(players, seed=12345, wave=2)
        _report(f"seating alone (pure R-23, {len(plan.tables)} tables)", time.perf_counter() - t0)

        t = _registered(n, title="Seated", prizes=args.prizes, now=now)
        t0 = time.perf_counter()
        assert play.tournament_start(tournament_id=t.pk, now=now) == "started"
        seat_s = time.perf_counter() - t0
        tables = Table.objects.filter(tournament=t).count()
        assert TableSeat.objects.filter(tournament=t).count() == n
        _report(f"seat one wave of {n} players (R-23, WaveSeated, {tables} tables)", seat_s, SEAT_TARGET_S)
        chunk = args.open_tables or tables
        t0 = time.perf_counter()
        opened = 0
        while opened < chunk:
            done = _open_chunk(tournament_id=t.pk, now=now, account_id=None)
            if not done:
                break
            opened += done
        open_s = time.perf_counter() - t0
        _report(f"open {opened} of those tables' rounds (rivals matches_create)", open_s)
        print(
            f"  → {open_s / opened * 1000:.1f} ms per table; all {tables} tables ≈ {open_s / opened * tables:.1f} s",
            flush=True,
        )
        if opened == tables:
            _report(f"seat and open one wave of {n} players (both steps)", seat_s + open_s, SEAT_TARGET_S)

        t = _registered(n, title="Final", prizes=args.prizes, now=now - timedelta(hours=2))
        with connection.cursor() as cur:
            results = _results(cur, t, n)
        t0 = time.perf_counter()
        assert tournament_finalize(tournament_id=t.pk, now=now + timedelta(hours=2))
        fin_s = time.perf_counter() - t0
        assert Registration.objects.filter(tournament=t, place__isnull=False).count() == n
        _report(f"finalize {n} players, {results} table results, {args.prizes} prizes", fin_s, FINALIZE_TARGET_S)
        print(f"load average after: {os.getloadavg()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
