"""Rebuild speed: ``rebuild_projections`` on a log of ~100,000 events, and a client's intents while
it runs.

The log: real games played through the services (solver plans on Turtle deals, a daily bonus and
points for each player), then their game streams copied with new ids ×``--copies`` (events
inserted, never changed), so that the log has the shape of a busy service's (mostly pairs)
without hours of play. Then:

1. a rebuild that has every copied board to write (the first after the copies: their rows are
   missing), figures from the command itself;
2. ``--verify`` (the steady state: every table compared, nothing written);
3. a rebuild while a client plays: the client's intent latency during it, then ``--verify``.

Target (issue 14): ≥ 20,000 events/s. Usage: ``python tests/perf/bench_rebuild.py [--games 24]
[--copies 60]`` (a database of its own on the server of ``DATABASE_URL``, else the embedded one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

TARGET = 20_000


def play_games(n: int) -> list:
    from rivals import engine
    from rivals.accounts.services import account_guest_signin
    from rivals.daily_bonus.services import daily_bonus_claim
    from rivals.games.models import Game
    from rivals.games.services import game_board, game_create, game_intent_apply

    games = []
    for i in range(n):
        account, _, _ = account_guest_signin(device_id=f"bench-rebuild-{i:06d}-perf-device")
        daily_bonus_claim(account=account)
        game = game_create(account=account, mode="classic", code=engine.random_code(rng_seed=1000 + i, layout_id="L00"))
        result = engine.solve(game_board(game))
        plan = result.plan if result.solvable else []
        keep = len(plan) if i % 3 else len(plan) // 2  # one in three left half played
        for seq, pair in enumerate(plan[:keep]):
            game_intent_apply(
                account=account, game_id=game.pk, intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)}
            )
        games.append(Game.objects.get(pk=game.pk))
    return games


def copy_streams(copies: int) -> int:
    """Every game stream copied ``copies`` times under new ids (stream heads too)."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(
            "CREATE TEMP TABLE bench_map ON COMMIT DROP AS SELECT s.id AS old, k, gen_random_uuid() AS new "
            "FROM rivals_stream s, generate_series(1, %s) k WHERE s.type = 'game'",
            [copies],
        )
        cur.execute(
            "INSERT INTO rivals_stream (id, type, version, created_at, updated_at) "
            "SELECT 'game-' || m.new, s.type, s.version, s.created_at, s.updated_at "
            "FROM bench_map m JOIN rivals_stream s ON s.id = m.old"
        )
        cur.execute(
            "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, recorded_at) "
            "SELECT 'game-' || m.new, e.stream_type, e.version, e.type, e.schema_version, "
            "  CASE WHEN e.data ? 'game_id' THEN jsonb_set(e.data, '{game_id}', to_jsonb(m.new::text)) ELSE e.data END, "
            "  e.metadata, e.recorded_at "
            "FROM bench_map m JOIN rivals_event e ON e.stream_id = m.old ORDER BY m.k, e.position"
        )
        return cur.rowcount


def command(*args: str) -> str:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    try:
        call_command("rebuild_projections", *args, "--no-progress", stdout=out)
    except Exception as exc:  # verify reports a difference as an error
        out.write(f"\nERROR {exc}")
    text = out.getvalue().strip()
    print(f"   ({time.perf_counter() - started:.1f} s) " + text.replace("\n", "\n   "), flush=True)
    return text


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--copies", type=int, default=60)
    ap.add_argument("--profile", action="store_true", help="profile one rebuild (cProfile) and stop")
    args = ap.parse_args()
    from tests.perf.benchdb import bench_database

    with bench_database("rivals_bench_rebuild", os.environ.get("DATABASE_URL")):
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from rivals.models import Event
        from rivals.rebuild import rebuild

        call_command("migrate", verbosity=0)
        t0 = time.perf_counter()
        games = play_games(args.games)
        played = Event.objects.count()
        print(
            f"played {len(games)} Turtle games through the services: {played} events "
            f"({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        copied = copy_streams(args.copies)
        total = Event.objects.count()
        print(f"copied the game streams ×{args.copies}: {copied} events more, {total} in the log", flush=True)

        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.runcall(rebuild)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(22)
            return 0
        print("1. rebuild (every copied board to write)")
        first = rebuild()
        print(
            f"   {first.events} events in {first.build_seconds:.2f} s build ({first.rate:,.0f} events/s) + "
            f"{first.swap_seconds * 1000:.0f} ms swap; {first.written} rows written",
            flush=True,
        )
        print("2. verify (steady state: compare only)")
        verified = command("--verify")

        print("3. rebuild while a client plays (open loop, 20 intents/s on fresh games)")
        latencies, stop, errors = [], threading.Event(), []

        def client():
            from rivals import engine
            from rivals.accounts.services import account_guest_signin
            from rivals.games.services import game_board, game_create, game_intent_apply

            try:
                account, _, _ = account_guest_signin(device_id="bench-rebuild-live")
                while not stop.is_set():
                    game = game_create(
                        account=account,
                        mode="classic",
                        code=engine.random_code(rng_seed=len(latencies), layout_id="L08"),
                    )
                    plan = engine.solve(game_board(game)).plan
                    for seq, pair in enumerate(plan):
                        if stop.is_set():
                            break
                        t = time.perf_counter()
                        game_intent_apply(
                            account=account,
                            game_id=game.pk,
                            intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)},
                        )
                        latencies.append(time.perf_counter() - t)
                        time.sleep(max(0.0, 0.05 - (time.perf_counter() - t)))
            except Exception as exc:
                errors.append(exc)
            finally:
                connections.close_all()

        worker = threading.Thread(target=client)
        worker.start()
        time.sleep(1)
        report = rebuild()
        stop.set()
        worker.join()
        lat = sorted(latencies)
        print(
            f"   {report.events} events in {report.build_seconds:.2f} s build ({report.rate:,.0f} events/s) + "
            f"{report.swap_seconds * 1000:.0f} ms swap (attempt {report.swap_attempts}); {report.caught_up} events "
            f"caught up; {report.written} rows written"
        )
        print(
            f"   client: {len(lat)} intents, p50 {statistics.median(lat) * 1000:.1f} ms, "
            f"p99 {lat[int(len(lat) * 0.99) - 1] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms; errors {len(errors)}"
        )
        connections.close_all()
        print("4. verify after the rebuild beside traffic")
        after = command("--verify")
        ok = (
            first.rate >= TARGET
            and "every projection equals the log" in verified
            and "every projection equals the log" in after
            and not errors
        )
        print(
            f"{'PASS' if first.rate >= TARGET else 'FAIL'} rebuild {first.rate:,.0f} events/s "
            f"(target ≥ {TARGET:,}; {report.rate:,.0f} events/s beside the client); "
            f"{'PASS' if not errors else 'FAIL'} the client: {len(errors)} errors, max {lat[-1] * 1000:.0f} ms"
        )
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
