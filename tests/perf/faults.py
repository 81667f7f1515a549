"""Faults (issue 14, item 2): each scenario against the service run as in production — gunicorn
(2 workers × 4 threads), a Celery worker and beat — with a PASS/FAIL line and its figures.

The PostgreSQL and the Redis broker are this script's own (pgserver's binaries in a temporary
folder; a redis-server on a Unix socket), so it can stop and kill them; the cache is an empty
database of the machine's Redis (``CACHE_URL`` to choose). The scenarios:

1. ``one-seq``      100 concurrent intents with one ``seq`` on one game, and on one round board →
                    exactly one accepted, the others 409; the stream's versions gap-free.
2. ``idempotency``  one ``Idempotency-Key`` sent 3 times in a row, and 20 times at once → one
                    effect (one event, one record), every answer the first one's.
3. ``worker-kill``  the worker SIGKILLed while it ends rounds, and while it finalizes a tournament
                    (its transaction open), then started again → each round ended once, each
                    match's prizes once, the tournament finalized once with each prize once.
4. ``beat-twice``   a simulated 3-day outage (rounds, tournaments and the AMR window overdue),
                    then two beats at once and ``jobs_run_due`` twice at the same moment → every
                    due round and tournament handled once; ranking totals equal a recompute.
5. ``db-restart``   PostgreSQL restarted, then stopped for 10 s, under load — solo games, Quick
                    Matches, an Arena and a tournament in play → 503 ``unavailable`` with
                    ``Retry-After`` while down, never a 500; web and worker recover with no restart;
                    every intent a client saw accepted is in the event log (0 lost); rounds still
                    end and the tournament finalizes once.
6. ``web-kill``     a gunicorn worker SIGKILLed under load → clients that lost their answer learn
                    the outcome by re-reading the game's ``seq``; nothing lost, nothing doubled.

    .venv/bin/python tests/perf/faults.py [scenario …]     # all when none is named

Exit 1 if any scenario fails. Everything it started is stopped and its folder removed at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.perf import bench_games_http as solo  # noqa: E402
from tests.perf import bench_rounds as rounds  # noqa: E402
from tests.perf.load import Guarded, parallel  # noqa: E402
from tests.perf.stack import OwnRedis, Stack, free_redis_dbs, stop  # noqa: E402

RESULTS: list[tuple[str, bool, str]] = []


def verdict(name: str, ok: bool, figures: str) -> bool:
    RESULTS.append((name, ok, figures))
    print(f"{'PASS' if ok else 'FAIL'} {name}: {figures}", flush=True)
    return ok


def wait_for(predicate, seconds: float, step: float = 0.25) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def fresh_connection(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60)


def raw_call(port: int, method: str, path: str, body=None, token=None, headers=None):
    """One request on a connection of its own: (status, headers, answer)."""
    conn = fresh_connection(port)
    h = {"Content-Type": "application/json", **(headers or {})}
    if token:
        h["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, h)
        res = conn.getresponse()
        raw = res.read()
        return res.status, dict(res.getheaders()), (json.loads(raw) if raw else None)
    finally:
        conn.close()


def guest(port: int, device: str) -> tuple[str, int]:
    _, _, body = raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": f"{device}-perf-device-0123456789"})
    return body["token"], body["account_id"]


def versions_gap_free(stream_id: str) -> bool:
    from rivals.models import Event

    versions = list(Event.objects.filter(stream_id=stream_id).order_by("version").values_list("version", flat=True))
    return versions == list(range(1, len(versions) + 1))


def game_plan(game_id) -> list:
    from rivals.games.models import Game

    return Game.objects.get(pk=game_id).plan


class World:
    """The run's own PostgreSQL and Redis broker, the cache, Django in this process, the stack."""

    def __init__(self, folder: Path):
        from tests.platform.test_outages import OwnPostgres

        self.folder = folder
        self.pg = OwnPostgres(folder)
        self.redis = OwnRedis(folder)
        self.cache = os.environ.get("CACHE_URL") or free_redis_dbs(1)[0]
        self.flush_cache = "CACHE_URL" not in os.environ
        os.environ.update(
            DATABASE_URL=self.pg.url,
            CELERY_BROKER_URL=self.redis.url,
            CACHE_URL=self.cache,
            DJANGO_SETTINGS_MODULE="config.settings",
            RIVALS_ROUND_LAYOUTS="L08",
            CELERY_VISIBILITY_TIMEOUT_S="10",
            RIVALS_DATA_DIR=str(folder),
            LOG_LEVEL="WARNING",
        )
        self.stack = Stack(
            database_url=self.pg.url,
            broker_url=self.redis.url,
            cache_url=self.cache,
            folder=folder,
            RIVALS_ROUND_LAYOUTS="L08",
            CELERY_VISIBILITY_TIMEOUT_S="10",
        )
        self.stack.prepare()
        import django

        django.setup()
        self.stack.start()
        solo.Api.port = self.stack.port
        time.sleep(3)  # the worker connects to the broker

    def close(self) -> None:
        solo.Api.observer = None
        self.stack.stop()
        for proc in getattr(self, "extra", []):
            stop(proc)
        from django.db import connections

        connections.close_all()
        self.redis.stop()
        self.pg.server.cleanup()
        if self.flush_cache:
            import redis

            redis.Redis.from_url(self.cache).flushdb()


# --- 1. one seq, 100 at once ---------------------------------------------------------------------


def hundred_at_once(port: int, path: str, body: dict, token: str, n: int = 100, headers=None) -> list:
    barrier = threading.Barrier(n)
    answers: list = [None] * n

    def send(i):
        conn = fresh_connection(port)
        conn.connect()
        barrier.wait()
        h = {"Content-Type": "application/json", "Authorization": f"Token {token}", **(headers or {})}
        conn.request("POST", path, json.dumps(body), h)
        res = conn.getresponse()
        answers[i] = (res.status, dict(res.getheaders()), json.loads(res.read() or b"null"))
        conn.close()

    parallel(send, range(n))
    return answers


def scenario_one_seq(world: World) -> bool:
    from rivals.games.models import Game
    from rivals.matches.services import match_create
    from rivals.models import Event

    port = world.stack.port
    token, _ = guest(port, "one-seq")
    _, _, game = raw_call(port, "POST", "/api/v1/games", {"mode": "single", "level": 1}, token)
    pair = game_plan(game["id"])[0]
    answers = hundred_at_once(
        port, f"/api/v1/games/{game['id']}/intents", {"seq": 0, "type": "remove_pair", "tiles": pair}, token
    )
    game_statuses = Counter(a[0] for a in answers)
    stream = f"game-{game['id']}"
    game_ok = (
        game_statuses == Counter({200: 1, 409: 99})
        and versions_gap_free(stream)
        and Event.objects.filter(stream_id=stream, type="PairRemoved").count() == 1
        and Game.objects.get(pk=game["id"]).seq == 1
    )

    tokens = [guest(port, f"one-seq-round-{i}") for i in range(2)]
    match = match_create(mode="quick", account_ids=[a for _, a in tokens])
    rnd = match.rounds.get()
    _, _, view = raw_call(port, "GET", f"/api/v1/rounds/{rnd.pk}", token=tokens[0][0])
    from rivals import engine

    pair = rounds.plan_from_view(engine, view)[0]
    answers = hundred_at_once(
        port, f"/api/v1/rounds/{rnd.pk}/intents", {"seq": 0, "type": "remove_pair", "tiles": pair}, tokens[0][0]
    )
    round_statuses = Counter(a[0] for a in answers)
    board = Game.objects.get(round_id=rnd.pk, account_id=tokens[0][1])
    round_ok = (
        round_statuses == Counter({200: 1, 409: 99})
        and versions_gap_free(board.stream_id)
        and Event.objects.filter(stream_id=board.stream_id, type="PairRemoved").count() == 1
    )
    return verdict(
        "one-seq",
        game_ok and round_ok,
        f"game: {dict(game_statuses)}, versions gap-free {versions_gap_free(stream)}; round board: "
        f"{dict(round_statuses)}, versions gap-free {versions_gap_free(board.stream_id)}",
    )


# --- 2. Idempotency-Key ----------------------------------------------------------------------------


def scenario_idempotency(world: World) -> bool:
    from rivals.models import Event, IdempotencyRecord

    port = world.stack.port
    token, account_id = guest(port, "idempotency")
    _, _, game = raw_call(port, "POST", "/api/v1/games", {"mode": "single", "level": 1}, token)
    plan = game_plan(game["id"])
    path = f"/api/v1/games/{game['id']}/intents"
    stream = f"game-{game['id']}"

    serial = [
        raw_call(
            port,
            "POST",
            path,
            {"seq": 0, "type": "remove_pair", "tiles": plan[0]},
            token,
            {"Idempotency-Key": "serial-1"},
        )
        for _ in range(3)
    ]
    serial_ok = (
        [s for s, _, _ in serial] == [200, 200, 200]
        and [h.get("Idempotent-Replayed") for _, h, _ in serial] == [None, "true", "true"]
        and serial[1][2] == serial[0][2] == serial[2][2]
    )
    burst = hundred_at_once(
        port,
        path,
        {"seq": 1, "type": "remove_pair", "tiles": plan[1]},
        token,
        n=20,
        headers={"Idempotency-Key": "burst-1"},
    )
    firsts = [a for a in burst if a[1].get("Idempotent-Replayed") is None]
    burst_ok = all(a[0] == 200 and a[2] == burst[0][2] for a in burst) and len(firsts) == 1
    effects = {
        key: Event.objects.filter(stream_id=stream, metadata__idempotency_key=key).count()
        for key in ("serial-1", "burst-1")
    }
    records = IdempotencyRecord.objects.filter(owner=f"account:{account_id}").count()
    ok = (
        serial_ok
        and burst_ok
        and effects == {"serial-1": 1, "burst-1": 1}
        and records == 2
        and versions_gap_free(stream)
    )
    return verdict(
        "idempotency",
        ok,
        f"3 in a row: {[s for s, _, _ in serial]} (2 replayed); 20 at once: "
        f"{dict(Counter(a[0] for a in burst))}, {len(firsts)} ran, {len(burst) - len(firsts)} replayed; "
        f"events per key {effects}, records {records}",
    )


# --- 3. the worker killed while rounds end and while a tournament finalizes -------------------------


def kill_worker(world: World) -> None:
    stop(world.stack.worker, signal.SIGKILL)


def long_transactions() -> int:
    """Backends other than ours in a write transaction open for more than 300 ms."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> "
            "pg_backend_pid() AND backend_xid IS NOT NULL AND now() - xact_start > interval '300 ms'"
        )
        return cur.fetchone()[0]


def scenario_worker_kill(world: World, rounds_n: int = 150, players_n: int = 1200) -> bool:
    from django.utils import timezone

    from rivals import engine
    from rivals.accounts.services import account_guest_signin
    from rivals.matches.models import Round
    from rivals.matches.services import match_create, round_intent_apply
    from rivals.models import Account, Event
    from rivals.points.models import PointsLedgerEntry
    from tournaments.models import Table, Tournament
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register

    # rounds: each with a pair by its first player, their deadlines (20 s after that pair) a few
    # seconds apart; the worker is killed once a third of them ended
    accounts = [account_guest_signin(device_id=f"wk-{i:06d}-perf-device")[0] for i in range(2 * rounds_n)]
    now = timezone.now()
    round_ids = []
    for i in range(rounds_n):
        m = match_create(
            mode="quick",
            account_ids=[accounts[2 * i].pk, accounts[2 * i + 1].pk],
            starts_at=now - timedelta(seconds=10),
        )
        rnd = m.rounds.get()
        pair = list(engine.deal_from_code(rnd.code).plan[0])
        round_intent_apply(
            account=accounts[2 * i], round_id=rnd.pk, intent={"seq": 0, "type": "remove_pair", "tiles": pair}
        )
        round_ids.append(rnd.pk)
    streams = [f"round-{pk}" for pk in round_ids]

    def ended() -> int:
        return Event.objects.filter(stream_id__in=streams, type="RoundEnded").count()

    wait_for(lambda: ended() >= rounds_n // 3, 60, 0.05)
    kill_worker(world)
    at_kill = ended()
    time.sleep(3)
    while_dead = ended()  # reads and the sweeper need a worker: nothing ends them now
    world.stack.start_worker("wk-rescuer")
    wait_for(lambda: ended() == rounds_n, 90)
    per_round = Counter(
        Event.objects.filter(stream_id__in=streams, type="RoundEnded").values_list("stream_id", flat=True)
    )
    match_ids = list(Round.objects.filter(pk__in=round_ids).values_list("match_id", flat=True))
    finished = Counter(
        Event.objects.filter(stream_id__in=[f"match-{m}" for m in match_ids], type="MatchFinished").values_list(
            "stream_id", flat=True
        )
    )
    prizes = Counter(
        PointsLedgerEntry.objects.filter(
            source="quick_match", ref__match_id__in=[str(m) for m in match_ids]
        ).values_list("award_key", flat=True)
    )
    rounds_ok = (
        len(per_round) == rounds_n
        and set(per_round.values()) == {1}
        and len(finished) == rounds_n
        and set(finished.values()) == {1}
        and len(prizes) >= rounds_n
        and set(prizes.values()) == {1}
        and at_kill < rounds_n
    )
    verdict(
        "worker-kill/rounds",
        rounds_ok,
        f"{rounds_n} rounds: worker SIGKILLed with {at_kill} ended ({while_dead} 3 s later); after the restart "
        f"{len(per_round)} ended, RoundEnded per round {sorted(set(per_round.values()))}, MatchFinished per "
        f"match {sorted(set(finished.values()))}, {len(prizes)} prizes, each once: {set(prizes.values()) == {1}}",
    )

    # a tournament of players_n, nobody playing: its tables' rounds end at its end time (R-17), then
    # the finalization (one transaction, a prize per player) runs; the worker is killed while that
    # transaction is open
    people = [account_guest_signin(device_id=f"tk-{i:06d}-perf-device")[0] for i in range(players_n)]
    now = timezone.now()
    starts = now + timedelta(seconds=10 + players_n * 0.03)
    t = tournament_create(
        actor="operator:faults",
        kind="regular",
        title="Kill Cup",
        starts_at=starts,
        ends_at=starts + timedelta(seconds=15),
        min_players=2,
        multipliers=[1],
        prize_table=list(range(1000, 0, -1)),
        now=now,
    )
    for a in people:
        tournament_register(tournament_id=t.pk, account=a, now=now)
    wait_for(lambda: Table.objects.filter(tournament=t).count() >= players_n // 4, 90)
    wait_for(lambda: timezone.now() > t.ends_at, 60)
    caught = wait_for(lambda: long_transactions() > 0, 60, 0.02)
    kill_worker(world)
    finalized = lambda: Event.objects.filter(stream_id=f"tournament-{t.pk}", type="TournamentFinalized").count()  # noqa: E731
    at_kill = finalized()
    world.stack.start_worker("tk-rescuer")
    wait_for(lambda: finalized() >= 1, 120)
    time.sleep(6)  # the sweeper and a redelivered task run it again: still once
    prizes = Counter(
        PointsLedgerEntry.objects.filter(source="tournament_prize", ref__tournament_id=str(t.pk)).values_list(
            "account_id", flat=True
        )
    )
    t = Tournament.objects.get(pk=t.pk)
    ok = (
        caught
        and at_kill == 0
        and finalized() == 1
        and t.status == "finished"
        and len(prizes) == min(players_n, 1000)
        and set(prizes.values()) == {1}
        and Account.objects.count() >= players_n
    )
    return (
        verdict(
            "worker-kill/finalize",
            ok and rounds_ok,
            f"{players_n} players: worker SIGKILLed inside the finalization's transaction ({caught}; "
            f"finalized at the kill: {at_kill}); after the restart TournamentFinalized ×{finalized()}, "
            f"{len(prizes)} prizes, each once: {set(prizes.values()) == {1}}",
        )
        and rounds_ok
    )


# --- 4. a 3-day outage, two beats, jobs run twice at once -----------------------------------------


def scenario_beat_twice(world: World) -> bool:
    from django.db import connection
    from django.utils import timezone

    from rankings.days import amr_window_start, romanian_today
    from rankings.selectors import rankings_recomputed, rankings_state
    from rivals.accounts.services import account_guest_signin
    from rivals.matches.models import Round
    from rivals.matches.services import match_create
    from rivals.models import Event
    from rivals.points.services import points_award
    from tournaments.models import Tournament
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register

    now = timezone.now()
    past = now - timedelta(days=3)
    accounts = [account_guest_signin(device_id=f"bt-{i:06d}-perf-device")[0] for i in range(40)]
    # a tournament that started (seated, tables open) before the outage and ends during it
    live = tournament_create(
        actor="operator:faults",
        kind="regular",
        title="Outage Cup",
        now=now,
        starts_at=now + timedelta(seconds=3),
        ends_at=now + timedelta(seconds=14),
        min_players=2,
        prize_table=[30, 20, 10],
        multipliers=[1],
    )
    for a in accounts[20:28]:
        tournament_register(tournament_id=live.pk, account=a, now=now)
    wait_for(lambda: Tournament.objects.get(pk=live.pk).tables.filter(round_id__isnull=False).exists(), 60)
    stop(world.stack.beat)  # the outage: no beat, no worker
    kill_worker(world)
    # …simulated as 3 days long: the AMR window was last rolled 3 days ago, awards around its edge
    today = romanian_today(now)
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO rankings_rankingclock (id, window_start) VALUES (1, %s) ON CONFLICT (id) DO UPDATE "
            "SET window_start = EXCLUDED.window_start",
            [amr_window_start(today - timedelta(days=3))],
        )
    for i, a in enumerate(accounts):
        for k, days_ago in enumerate((366, 365, 364, 363, 30, 6, 2, 1, 0)):
            points_award(
                account=a,
                amount=5 + i + k,
                source="arena",
                key=f"bt:{a.pk}:{days_ago}",
                at=now - timedelta(days=days_ago, minutes=i),
            )
    # rounds that should have ended 3 days ago, tournaments that should have started and ended
    overdue = [
        match_create(mode="quick", account_ids=[accounts[2 * i].pk, accounts[2 * i + 1].pk], starts_at=past, now=past)
        .rounds.get()
        .pk
        for i in range(10)
    ]
    tours = [live.pk]
    for n, (start, end) in enumerate(((3, 2), (2.5, 1))):
        t = tournament_create(
            actor="operator:faults",
            kind="regular",
            title=f"Missed Cup {n}",
            starts_at=now - timedelta(days=start),
            ends_at=now - timedelta(days=end),
            min_players=2,
            prize_table=[30, 20, 10],
            multipliers=[1],
            now=now - timedelta(days=3, hours=1),
        )
        for a in accounts[30 + 4 * n : 34 + 4 * n]:
            tournament_register(tournament_id=t.pk, account=a, now=now - timedelta(days=3, minutes=30))
        tours.append(t.pk)
    wait_for(lambda: timezone.now() > live.ends_at + timedelta(seconds=2), 30)
    time.sleep(1)
    world.stack.start_worker("bt")
    world.stack.start_beat()
    second = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel",
            "WARNING",
            "-s",
            str(world.folder / "beat-schedule-2"),
        ],
        cwd=ROOT,
        env=world.stack.env,
        stdout=(world.folder / "beat2.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    world.extra = [second]
    jobs = [
        subprocess.Popen(
            [sys.executable, "manage.py", "jobs_run_due"],
            cwd=ROOT,
            env=world.stack.env,
            stdout=subprocess.DEVNULL,
            stderr=(world.folder / f"jobs-{i}.log").open("ab"),
        )
        for i in range(2)
    ]
    codes = [j.wait(timeout=240) for j in jobs]

    def settled() -> bool:
        return (
            not Round.objects.filter(pk__in=overdue, status="running").exists()
            and not Tournament.objects.filter(pk__in=tours, status__in=("upcoming", "running")).exists()
        )

    wait_for(settled, 120)
    time.sleep(6)  # a few more sweeps of both beats
    stop(second)
    ended = Counter(
        Event.objects.filter(stream_id__in=[f"round-{r}" for r in overdue], type="RoundEnded").values_list(
            "stream_id", flat=True
        )
    )
    handled = {
        str(t): Counter(Event.objects.filter(stream_id=f"tournament-{t}").values_list("type", flat=True)) for t in tours
    }
    once = all(
        c.get("TournamentFinalized", 0) + c.get("TournamentCancelled", 0) == 1 and c.get("TournamentStarted", 0) <= 1
        for c in handled.values()
    )
    state = rankings_state()
    expected = rankings_recomputed(window_start=amr_window_start(today))
    rankings_ok = (
        state.window_start == amr_window_start(today)
        and state.amr == expected.amr
        and state.daily == expected.daily
        and state.weekly == expected.weekly
        and state.histogram == expected.histogram
    )
    ok = codes == [0, 0] and len(ended) == len(overdue) and set(ended.values()) == {1} and once and rankings_ok
    summary = {
        t[:8]: {k: v for k, v in c.items() if k != "TournamentCreated" and not k.startswith("Player")}
        for t, c in handled.items()
    }
    return verdict(
        "beat-twice",
        ok,
        f"3-day outage, 2 beats + jobs_run_due ×2 at once (exit {codes}): {len(ended)}/"
        f"{len(overdue)} overdue rounds ended, each once: {set(ended.values()) == {1}}; tournaments "
        f"{summary}; AMR window {state.window_start} = recompute: {rankings_ok} "
        f"({len(state.amr)} AMR totals, {len(state.daily)} daily, {len(state.weekly)} weekly)",
    )


# --- 5. PostgreSQL restarted and stopped under load -----------------------------------------------


class Ledger:
    """What clients saw: every answer (status, code, Retry-After, when) and every accepted intent."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers: list[tuple[int, str | None, float]] = []
        self.accepted: list[tuple[str, str, int]] = []  # (token, path, seq sent)

    def __call__(self, api, method, path, body, status, answer, seconds):
        code = answer.get("error", {}).get("code") if isinstance(answer, dict) else None
        with self.lock:
            self.answers.append((status, code, time.monotonic()))
            if method == "POST" and path.endswith("/intents") and status == 200:
                self.accepted.append((api.token, path, body["seq"]))


def accepted_lost(accepted: list[tuple[str, str, int]]) -> tuple[int, int]:
    """(accepted intents, of which not in the event log): each accepted intent's first event
    carries the board's new seq (sent seq + 1) in the board's stream."""
    from rivals.games.models import Game
    from rivals.models import AccessToken, Event
    from rivals.secrets import secret_digest

    owner = dict(AccessToken.objects.values_list("key", "account_id"))  # keyed by the token's digest
    wanted = defaultdict(set)
    for token, path, seq in accepted:
        kind, target = path.split("/")[3:5]
        if kind == "games":
            wanted[f"game-{target}"].add(seq + 1)
        else:
            board = Game.objects.get(round_id=target, account_id=owner[secret_digest(token)])
            wanted[board.stream_id].add(seq + 1)
    lost = 0
    for stream, seqs in wanted.items():
        stored = set(Event.objects.filter(stream_id=stream, data__has_key="seq").values_list("data__seq", flat=True))
        lost += len(seqs - stored)
    return sum(len(s) for s in wanted.values()), lost


def scenario_db_restart(world: World) -> bool:
    from django.db import connections
    from django.utils import timezone

    from rivals.accounts.services import account_guest_signin
    from rivals.models import Event
    from tournaments.models import Tournament
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register

    ledger, errors = Ledger(), []
    now = timezone.now()
    t = tournament_create(
        actor="operator:faults",
        kind="regular",
        title="Outage Cup",
        starts_at=now + timedelta(seconds=4),
        ends_at=now + timedelta(seconds=75),
        min_players=2,
        prize_table=[50, 30, 10],
        multipliers=[1, 2],
        now=now,
    )
    for i in range(24):
        tournament_register(
            tournament_id=t.pk, account=account_guest_signin(device_id=f"dr-t{i:06d}-perf-device")[0], now=now
        )
    solo.Api.observer = ledger
    players = [Guarded(solo.Player(f"dr-s{i}", "single", world.pg.url), errors) for i in range(4)]
    players += [Guarded(rounds.RoundPlayer(f"dr-q{i}"), errors) for i in range(4)]
    players += [Guarded(rounds.RoundPlayer(f"dr-a{i}", mode="arena"), errors) for i in range(4)]
    stop_at = time.monotonic() + 40

    def play(p):
        while time.monotonic() < stop_at:
            ok, _ = p.step()
            time.sleep(0.02 if ok else 0.1)

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    for th in threads:
        th.start()
    time.sleep(6)
    world.pg.stop()  # a restart
    world.pg.start()
    time.sleep(6)
    world.pg.stop()  # down for 10 s
    time.sleep(5)
    health_down = world.stack.healthz(timeout=10)
    time.sleep(5)
    world.pg.start()
    up_at = time.monotonic()
    for th in threads:
        th.join(timeout=120)
    solo.Api.observer = None
    connections.close_all()
    statuses = Counter(s for s, _, _ in ledger.answers)
    unavailable = [(c, at) for s, c, at in ledger.answers if s == 503]
    after = [s for s, _, at in ledger.answers if at > up_at + 3]
    accepted, lost = accepted_lost(ledger.accepted)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status in ("finished", "cancelled"), 90, 1)
    time.sleep(3)
    t = Tournament.objects.get(pk=t.pk)
    finals = Event.objects.filter(stream_id=f"tournament-{t.pk}", type="TournamentFinalized").count()
    health_up = world.stack.healthz()
    ok = (
        statuses.get(500, 0) == 0
        and all(s < 500 or s == 503 for s in statuses)
        and unavailable
        and all(c == "unavailable" for c, _ in unavailable)
        and health_down == 503
        and health_up == 200
        and after
        and all(s < 500 for s in after)
        and lost == 0
        and t.status == "finished"
        and finals == 1
        and world.stack.web.poll() is None
        and world.stack.worker.poll() is None
    )
    return verdict(
        "db-restart",
        ok,
        f"{len(ledger.answers)} answers {dict(sorted(statuses.items()))}; "
        f"{len(unavailable)} × 503 unavailable while down, /healthz {health_down} down → {health_up} up; "
        f"{len(after)} answers after recovery, none ≥ 500: {all(s < 500 for s in after)}; {accepted} intents "
        f"accepted, {lost} lost; tournament {t.status}, finalized ×{finals}; web and worker never "
        f"restarted: {world.stack.web.poll() is None and world.stack.worker.poll() is None}",
    )


# --- 6. a gunicorn worker SIGKILLed under load ----------------------------------------------------


class ReReader:
    """A client that plays one game along its plan and, when an answer is lost, re-reads the game."""

    def __init__(self, port: int, device: str):
        self.port = port
        self.token, _ = guest(port, device)
        self.lost_answers = self.accepted = 0
        self.new_game()

    def new_game(self):
        for _ in range(50):  # a lost answer here only leaves an unplayed game behind
            try:
                status, _, game = raw_call(self.port, "POST", "/api/v1/games", {"mode": "classic"}, self.token)
                break
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        self.game, self.seq, self.plan = game["id"], 0, game_plan(game["id"])
        self.games = getattr(self, "games", []) + [(self.game, 0)]

    def run(self, until: float):
        conn = fresh_connection(self.port)
        while time.monotonic() < until:
            if self.seq >= len(self.plan):
                self.games[-1] = (self.game, self.accepted_here())
                self.new_game()
            body = json.dumps({"seq": self.seq, "type": "remove_pair", "tiles": self.plan[self.seq]})
            try:
                conn.request(
                    "POST",
                    f"/api/v1/games/{self.game}/intents",
                    body,
                    {"Content-Type": "application/json", "Authorization": f"Token {self.token}"},
                )
                res = conn.getresponse()
                res.read()
                status = res.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = fresh_connection(self.port)
                self.lost_answers += 1
                status = None
            if status is None:  # learn the outcome by re-reading the game
                for _ in range(50):
                    try:
                        code, _, game = raw_call(self.port, "GET", f"/api/v1/games/{self.game}", token=self.token)
                        break
                    except (OSError, http.client.HTTPException):
                        time.sleep(0.1)
                status = 200 if game["seq"] == self.seq + 1 else 0
            if status == 200:
                self.seq += 1
                self.accepted += 1
        self.games[-1] = (self.game, self.accepted_here())

    def accepted_here(self) -> int:
        return self.seq


def scenario_web_kill(world: World) -> bool:
    from rivals.games.models import Game
    from rivals.models import Event

    port = world.stack.port
    clients = [ReReader(port, f"wk-web-{i}") for i in range(8)]
    until = time.monotonic() + 12
    threads = [threading.Thread(target=c.run, args=(until,)) for c in clients]
    for th in threads:
        th.start()
    killed = []
    for _ in range(3):
        time.sleep(3)
        pids = world.stack.web_worker_pids()
        if pids:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])
    for th in threads:
        th.join(timeout=60)
    problems = 0
    games = 0
    for c in clients:
        for game_id, seen in c.games:
            games += 1
            seqs = list(
                Event.objects.filter(stream_id=f"game-{game_id}", type="PairRemoved")
                .order_by("version")
                .values_list("data__seq", flat=True)
            )
            stored = Game.objects.get(pk=game_id).seq
            if seqs != list(range(1, len(seqs) + 1)) or stored != seen or len(seqs) != seen:
                problems += 1
    lost = sum(c.lost_answers for c in clients)
    accepted = sum(c.accepted for c in clients)
    ok = problems == 0 and lost > 0 and len(killed) == 3 and world.stack.web.poll() is None
    return verdict(
        "web-kill",
        ok,
        f"3 gunicorn workers SIGKILLed under 8 clients: {lost} answers lost and "
        f"re-read, {accepted} intents accepted over {games} games; games whose events or seq differ "
        f"from what the clients learned: {problems} (lost 0, doubled 0 when 0)",
    )


SCENARIOS = {
    "one-seq": scenario_one_seq,
    "idempotency": scenario_idempotency,
    "web-kill": scenario_web_kill,
    "worker-kill": scenario_worker_kill,
    "db-restart": scenario_db_restart,
    "beat-twice": scenario_beat_twice,
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenarios", nargs="*", choices=[[], *SCENARIOS], default=[])
    args = ap.parse_args()
    names = args.scenarios or list(SCENARIOS)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores, shared)", flush=True)
    with tempfile.TemporaryDirectory(prefix="rivals-faults-") as tmp:
        world = World(Path(tmp))
        try:
            for name in names:
                t0 = time.monotonic()
                try:
                    SCENARIOS[name](world)
                except Exception as exc:  # a scenario that breaks is a failure, the others run
                    import traceback

                    traceback.print_exc()
                    verdict(name, False, f"raised {exc!r}")
                print(f"    ({time.monotonic() - t0:.0f} s)", flush=True)
                for proc, start in (
                    (world.stack.worker, world.stack.start_worker),
                    (world.stack.beat, world.stack.start_beat),
                ):
                    if proc is None or proc.poll() is not None:
                        start()
        finally:
            world.close()
    failed = [n for n, ok, _ in RESULTS if not ok]
    print(f"{len(RESULTS) - len(failed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
