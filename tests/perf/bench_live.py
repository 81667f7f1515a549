"""Live updates under load (issue 23): N concurrent WebSockets on one uvicorn serving
``config.asgi`` (the relay and the hub in it), each on its account topic, 2 × ROUNDS of them also
in a round that is being played at RATE intents/s (the service's own intent path, from a process
of its own, as a web worker would commit them). Figures, for each N:

- commit → client latency (p50 / p99) of every pushed board event (the player's own, and the
  opponent's summary) — target p99 ≤ 100 ms at 1,000 sockets;
- memory per idle socket (the server's RSS growth over the connections, divided by N);
- the web CPU the push costs per intent (the ASGI process's CPU time over the load window,
  divided by the intents committed meanwhile: its relay, hub, fan-out and socket writes);
- reconnect with ``since`` under load: RECONNECTORS round players drop their socket every few
  seconds and resume with the last position they saw; at the end every round subscriber's
  positions are compared with the log: gaps and duplicates (both must be 0).

Runs on a database of its own (``benchdb``: created on the server of ``DATABASE_URL``, else the
embedded PostgreSQL, and dropped at the end) with the PostgreSQL channel layer (``--redis URL``
for channels-redis). Not part of the test suite (``make bench BENCH_ARGS=live``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from config.serving import uvicorn_ws_options  # noqa: E402
from tests.perf.benchdb import bench_database  # noqa: E402

LAYOUT = "L00"  # the Turtle: 72 pairs a board, so a round outlasts a phase at one pair a second


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def rss_kib(pid: int) -> int:
    total = 0
    for child in [pid, *children(pid)]:
        try:
            for line in Path(f"/proc/{child}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_s(pid: int) -> float:
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for child in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            pass
    return total


def children(pid: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    except OSError:
        return []
    return [int(x) for x in out.split()]


# --- the world: accounts and rounds, made through the services ------------------------------------


def make_accounts(n: int) -> list[int]:
    from rivals.models import Account

    have = list(Account.objects.order_by("pk").values_list("pk", flat=True))
    for i in range(len(have), n):
        have.append(Account.objects.create_user(f"live-bench-{i}", None, display_name=f"Bench {i}").pk)
    return have[:n]


def make_rounds(players: list[int]) -> list[dict]:
    """Quick Matches of two players each, started now, with the deal's winning plan (both boards
    are the same deal)."""
    from rivals import engine
    from rivals.games.models import Game
    from rivals.games.services import game_board
    from rivals.matches.services import match_create

    rounds = []
    for a, b in zip(players[0::2], players[1::2], strict=True):
        rnd = match_create(mode="quick", account_ids=[a, b]).rounds.get()
        plan = engine.solve(game_board(Game.objects.get(round_id=rnd.pk, account_id=a))).plan
        rounds.append({"id": str(rnd.pk), "players": [a, b], "plan": [list(p) for p in plan]})
    return rounds


# --- the load: intents at a fixed rate, from a process of its own ----------------------------------


def load_process(rounds: list[dict], rate: float, seconds: float, out, ready, go) -> None:
    import django

    django.setup()
    from django.utils import timezone

    from rivals.games.models import Game
    from rivals.matches.services import round_intent_apply
    from rivals.models import Account

    accounts = {a.pk: a for a in Account.objects.filter(pk__in=[p for r in rounds for p in r["players"]])}
    seqs = {(g.round_id and str(g.round_id), g.account_id): g.seq for g in Game.objects.filter(round_id__isnull=False)}
    steps = [(r, p) for r in rounds for p in r["players"]]
    done: dict[tuple, int] = {}
    ready.set()
    go.wait()
    commits, errors, accepted = [], 0, 0
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < seconds:
        due = start + k / rate
        if due > time.monotonic():
            time.sleep(due - time.monotonic())
        r, p = steps[k % len(steps)]
        k += 1
        i = done.get((r["id"], p), 0)
        if i >= len(r["plan"]):
            continue
        seq = seqs.get((r["id"], p), 0)
        try:
            result = round_intent_apply(
                account=accounts[p],
                round_id=r["id"],
                intent={"seq": seq, "type": "remove_pair", "tiles": r["plan"][i]},
                now=timezone.now(),
            )
        except Exception:  # counted: a round that ended meanwhile
            errors += 1
            continue
        committed = time.time()
        if result.refused is None:
            accepted += 1
            done[(r["id"], p)] = i + 1
            seqs[(r["id"], p)] = seq + 1
            commits += [(e.position, committed) for e in result.events]
    out.put({"commits": commits, "errors": errors, "intents": accepted})


# --- the clients ---------------------------------------------------------------------------------


class Socket:
    def __init__(self, account_id: int, round_id: str | None):
        self.account_id, self.round_id = account_id, round_id
        self.received: dict[str, list[tuple[int, float]]] = {}
        self.last: dict[str, int] = {}
        self.ws = None
        self.task = None
        self.closed_codes: list[int] = []

    async def open(self, url: str, ticket: str, since: dict[str, int] | None = None) -> None:
        import websockets

        self.ws = await websockets.connect(f"{url}?ticket={ticket}", max_queue=None, open_timeout=60)
        topics = ["account"] + ([f"round:{self.round_id}"] if self.round_id else [])
        for topic in topics:
            message = {"op": "subscribe", "topic": topic}
            if since and topic in since:
                message["since"] = since[topic]
            await self.ws.send(json.dumps(message))
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = time.time()
                m = json.loads(raw)
                if m.get("op") == "subscribed":
                    self.last.setdefault(m["topic"], m["position"])
                elif m.get("op") == "event":
                    self.received.setdefault(m["topic"], []).append((m["position"], now))
                    self.last[m["topic"]] = m["position"]
        except ConnectionClosed as closed:
            if closed.rcvd is not None:
                self.closed_codes.append(closed.rcvd.code)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await self.task


async def open_all(sockets: list[Socket], url: str, batch: int = 100) -> None:
    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from rivals.live.services import live_ticket_issue
    from rivals.models import Account

    @sync_to_async
    def tickets(ids):
        accounts = Account.objects.in_bulk(ids)
        return [live_ticket_issue(account=accounts[i], now=timezone.now())[0] for i in ids]

    for i in range(0, len(sockets), batch):
        part = sockets[i : i + batch]
        issued = await tickets([s.account_id for s in part])
        await asyncio.gather(*(s.open(url, t) for s, t in zip(part, issued, strict=True)))


async def reconnect_loop(sockets: list[Socket], url: str, stop: asyncio.Event, every: float) -> int:
    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from rivals.live.services import live_ticket_issue
    from rivals.models import Account

    @sync_to_async
    def ticket(account_id):
        return live_ticket_issue(account=Account.objects.get(pk=account_id), now=timezone.now())[0]

    n = 0
    while not stop.is_set():
        for s in sockets:
            if stop.is_set():
                break
            await s.close()
            since = dict(s.last)
            await asyncio.sleep(0.2)  # away while the round goes on
            await s.open(url, await ticket(s.account_id), since=since)
            n += 1
            await asyncio.sleep(every / max(1, len(sockets)))
    return n


def expected_positions(round_id: str, after: int, upto: int) -> list[int]:
    from rivals.games.models import Game
    from rivals.models import Event

    streams = [
        f"round-{round_id}",
        *(f"game-{g}" for g in Game.objects.filter(round_id=round_id).values_list("pk", flat=True)),
    ]
    return list(
        Event.objects.filter(stream_id__in=streams, position__gt=after, position__lte=upto)
        .order_by("position")
        .values_list("position", flat=True)
    )


async def phase(n: int, args, url: str, server_pid: int) -> dict:
    from asgiref.sync import sync_to_async

    accounts = await sync_to_async(make_accounts)(n)
    sockets = [Socket(a, None) for a in accounts]
    base_rss = rss_kib(server_pid)
    t0 = time.monotonic()
    await open_all(sockets, url)  # every client on its account topic
    await asyncio.sleep(3)
    connect_s = time.monotonic() - t0
    per_socket = (rss_kib(server_pid) - base_rss) * 1024 / n
    # then ROUNDS Quick Matches start (R-17: a round nobody plays ends after 20 s, so they start
    # now) and their players' clients subscribe to them, as a client entering a round does
    rounds = await sync_to_async(make_rounds)(accounts[: 2 * args.rounds])
    by_player = {p: r["id"] for r in rounds for p in r["players"]}
    for s in sockets:
        s.round_id = by_player.get(s.account_id)
        if s.round_id:
            await s.ws.send(json.dumps({"op": "subscribe", "topic": f"round:{s.round_id}"}))
    while any(s.round_id and f"round:{s.round_id}" not in s.last for s in sockets):
        await asyncio.sleep(0.05)
    idle = [s for s in sockets if s.round_id is None]
    first = {s: dict(s.last) for s in sockets if s.round_id}

    ctx = multiprocessing.get_context("spawn")  # fresh processes: no database connection shared
    out, go = ctx.Queue(), ctx.Event()
    ready = [ctx.Event() for _ in range(args.loaders)]
    loaders = [  # two processes, as two web workers: one alone cannot commit 200 round intents/s here
        ctx.Process(
            target=load_process,
            args=(rounds[k :: args.loaders], args.rate / args.loaders, args.seconds, out, ready[k], go),
        )
        for k in range(args.loaders)
    ]
    for loader in loaders:
        loader.start()
    while not all(r.is_set() for r in ready):
        await asyncio.sleep(0.1)
    # the clients' own pauses are not the server's latency: no full collection of this process's
    # thousands of sockets while it measures
    gc.collect()
    gc.freeze()
    cpu0, w0 = cpu_s(server_pid), time.monotonic()
    go.set()
    stop = asyncio.Event()
    reconnecting = [s for s in sockets if s.round_id][: args.reconnectors]
    reconnector = asyncio.create_task(reconnect_loop(reconnecting, url, stop, args.reconnect_every))
    while any(loader.is_alive() for loader in loaders):
        await asyncio.sleep(0.2)
    parts = [out.get(timeout=30) for _ in loaders]
    result = {key: sum((p[key] for p in parts), [] if key == "commits" else 0) for key in parts[0]}
    for loader in loaders:
        loader.join()
    stop.set()
    reconnects = await reconnector
    await asyncio.sleep(2)  # the last pushes arrive
    cpu, wall = cpu_s(server_pid) - cpu0, time.monotonic() - w0

    commits = dict(result["commits"])
    latencies = [
        (at - commits[pos]) * 1000
        for s in sockets
        if s.round_id
        for pos, at in s.received.get(f"round:{s.round_id}", [])
        if pos in commits
    ]
    upto = max(commits) if commits else 0
    gaps = dups = 0
    for s in sockets:
        if not s.round_id:
            continue
        topic = f"round:{s.round_id}"
        got = [p for p, _ in s.received.get(topic, []) if p <= upto]
        want = await sync_to_async(expected_positions)(s.round_id, first[s].get(topic, 0), upto)
        dups += len(got) - len(set(got))
        gaps += len(set(want) - set(got))
    closed = sum(len(s.closed_codes) for s in sockets)
    await asyncio.gather(*(s.close() for s in sockets))
    intents = result["intents"]
    return {
        "sockets": n,
        "in_rounds": 2 * args.rounds,
        "connect_s": connect_s,
        "idle_bytes": per_socket,
        "intents": intents,
        "rate": intents / args.seconds,
        "errors": result["errors"],
        "pushes": len(latencies),
        "p50": pct(latencies, 0.5),
        "p99": pct(latencies, 0.99),
        "max": max(latencies) if latencies else float("nan"),
        "cpu_ms_per_intent": cpu / intents * 1000 if intents else float("nan"),
        "cpu_share": cpu / wall,
        "reconnects": reconnects,
        "gaps": gaps,
        "dups": dups,
        "server_closed": closed,
        "idle_sockets": len(idle),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="200 and 1,000 sockets, 10 s each")
    ap.add_argument("--sockets", default="1000,5000")
    ap.add_argument("--rounds", type=int, default=100, help="rounds played (2 players each)")
    ap.add_argument("--rate", type=float, default=200, help="intents/s")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--reconnectors", type=int, default=20)
    ap.add_argument("--reconnect-every", type=float, default=3.0)
    ap.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    ap.add_argument("--loaders", type=int, default=2, help="processes committing the intents")
    ap.add_argument("--redis", default="", help="channels-redis URL (default: the PostgreSQL layer)")
    args = ap.parse_args()
    if args.quick:
        args.sockets, args.seconds = "200,1000", 10.0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["RIVALS_ROUND_LAYOUTS"] = LAYOUT
    if args.redis:
        os.environ["RIVALS_LIVE_LAYER_URL"] = args.redis
    rows = []
    with tempfile.TemporaryDirectory() as tmp, bench_database("bench_live", os.environ.get("DATABASE_URL")):
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        os.environ["RIVALS_DATA_DIR"] = tmp
        port = 18000 + os.getpid() % 1000
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port), "--workers"]
            + [str(args.workers), *uvicorn_ws_options(), "--log-level", "warning", "--backlog", "8192"],
            cwd=ROOT,
            env={**os.environ},
            start_new_session=True,
        )
        try:
            time.sleep(4)
            url = f"ws://127.0.0.1:{port}/api/v1/live"
            for n in [int(x) for x in args.sockets.split(",")]:
                print(f"--- {n} sockets ({2 * args.rounds} in rounds at {args.rate:.0f} intents/s)", flush=True)
                row = asyncio.run(phase(n, args, url, server.pid))
                rows.append(row)
                print(
                    f"sockets {row['sockets']}: connected in {row['connect_s']:.1f}s; "
                    f"{row['intents']} intents ({row['rate']:.0f}/s, {row['errors']} refused); "
                    f"commit → client p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, max {row['max']:.0f} ms "
                    f"over {row['pushes']} pushes; idle socket {row['idle_bytes'] / 1024:.1f} KiB; "
                    f"push CPU {row['cpu_ms_per_intent']:.2f} ms/intent ({row['cpu_share'] * 100:.0f}% of a core); "
                    f"{row['reconnects']} reconnects with since: {row['gaps']} gaps, {row['dups']} duplicates",
                    flush=True,
                )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
    ok = True
    for row in rows:
        if row["sockets"] >= 1000 and row["sockets"] <= 1000 and not row["p99"] <= 100:
            ok = False
        if row["gaps"] or row["dups"]:
            ok = False
    print(("PASS" if ok else "FAIL") + ": p99 ≤ 100 ms at 1,000 sockets; 0 gaps and 0 duplicates on resume", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
