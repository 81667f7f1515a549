"""The hub: one per ASGI process. It receives the relay's ranges on one channel of the layer and
fans them out to this process's sockets by topic — the sockets take no channel of their own.

``covered`` is the position up to which the hub has handed every event to its subscriptions. A
range that does not start at ``covered`` (a lost or late publish, a new relay), or that came
without its events (too big for the layer), is read from the log instead; when the relay falls
silent (``STALE_S``) the hub reads the horizon and the log itself. So a subscription sees every
event of its topic once, in position order: its replay (``since``) reads the log up to the
``covered`` of the moment it registered, and the hub hands it everything after."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.conf import settings

from rivals.live import db, topics
from rivals.live.horizon import Horizon
from rivals.live.logread import BoardFolds, read_range, read_topic
from rivals.live.relay import GROUP, Relay

CLOSE_FORBIDDEN = 4403  # decision: the account was suspended or closed; the others: rivals.live.consumers

log = logging.getLogger(__name__)
STALE_S = 3.0
FREEZE_GROWTH = 0.1  # the sockets grew by a tenth since the heap was last frozen: freeze it again
THAW_CHURN = 0.5  # half as many sockets closed as were frozen: collect them once, freeze again
REJOIN_S = 60.0  # group memberships of a layer may expire (channels-redis): joined again this often


@dataclass(eq=False)
class Subscription:
    socket: object  # rivals.live.consumers.LiveConsumer
    topic: object  # rivals.live.selectors.Topic
    floor: int  # positions up to here are the replay's (or before ``since``)
    replaying: bool = True
    buffer: list = field(default_factory=list)


READY_TIMEOUT_S = 30


class Hub:
    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.covered: int | None = None
        self.ready = asyncio.Event()
        self.index: dict[str, set[Subscription]] = defaultdict(set)
        self.sockets: dict[int, set] = defaultdict(set)
        self.folds = BoardFolds()
        self.relay = Relay(self.layer, local=self._on_range)
        self.stop_event = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.conn = None
        self.applying = asyncio.Lock()  # ranges are applied one at a time, in order
        self.heard = time.monotonic()
        self.channel = ""
        self.frozen_at = 0  # sockets when the heap was last frozen
        self.closed_since = 0  # sockets closed since then

    # --- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        self.conn = await db.connect(application_name="rivals-live-hub")
        self.channel = await self.layer.new_channel("live.hub")
        await self.layer.group_add(GROUP, self.channel)
        self.tasks = [
            asyncio.create_task(self._receive(), name="live-hub-receive"),
            asyncio.create_task(self.relay.run(self.stop_event), name="live-relay"),
            asyncio.create_task(self._watch(), name="live-hub-watch"),
        ]

    async def stop(self) -> None:
        self.stop_event.set()
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.layer.group_discard(GROUP, self.channel)
        if self.conn is not None:
            await self.conn.close()

    async def _receive(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
                await self._on_range(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken message or a lost connection: go on
                log.warning("live hub: a range could not be applied", exc_info=True)
                await asyncio.sleep(0.1)

    async def _watch(self) -> None:
        """Rejoin the relay's group now and then; read the log itself while the relay is silent."""
        horizon, joined = Horizon(), time.monotonic()
        while True:
            await asyncio.sleep(0.5)
            try:
                self._tend_heap()
                if time.monotonic() - joined > REJOIN_S:
                    await self.layer.group_add(GROUP, self.channel)
                    joined = time.monotonic()
                if time.monotonic() - self.heard > STALE_S:
                    settled = await horizon.advance(self.conn)
                    if not horizon.samples:
                        await self._on_range({"after": settled, "upto": settled, "events": None}, own=True)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live hub: watch failed", exc_info=True)

    def _tend_heap(self) -> None:
        """Thousands of sockets are thousands of long-lived objects that every full collection
        walks (measured: 0.2–0.8 s pauses at 5,000 sockets, each a push delayed as long). Once
        they are made, they are frozen out of the collector's sight (``gc.freeze``, as
        ``config.wsgi`` does for the startup heap); when many frozen sockets have closed since,
        the heap is collected once (one pause) and frozen again."""
        count = sum(len(s) for s in self.sockets.values())
        if self.frozen_at and self.closed_since > THAW_CHURN * self.frozen_at:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.frozen_at, self.closed_since = max(count, 1), 0
        elif count >= 100 and count > (1 + FREEZE_GROWTH) * self.frozen_at:
            gc.collect(1)
            gc.freeze()
            self.frozen_at = count

    # --- ranges -------------------------------------------------------------------------------

    async def _on_range(self, message: dict, *, own: bool = False) -> None:
        if not own:
            self.heard = time.monotonic()
        async with self.applying:
            await self._apply_range(message)

    async def _apply_range(self, message: dict) -> None:
        after, upto = message["after"], message["upto"]
        if self.covered is None:
            self.covered = after
        if upto <= self.covered:
            self.ready.set()
            return
        if after == self.covered and message.get("events") is not None:
            self._deliver(message["events"], message["notes"], upto)
            return
        while self.covered < upto:  # the gap (or the whole range) from the log
            events, notes, covered = await read_range(self.conn, self.covered, upto, self.folds)
            self._deliver(events, notes, covered)

    def _deliver(self, events: list[dict], notes: list[dict], upto: int) -> None:
        """Hand a contiguous range to the subscriptions (no await: nothing registers meanwhile)."""
        floor = self.covered
        if upto <= floor:
            return
        mine: dict[int, list[dict]] = defaultdict(list)
        for note in notes:
            mine[note["p"]].append(note)
        restricted = []
        for entry in sorted([*events, *notes], key=lambda e: (e["p"], "a" in e)):
            if entry["p"] <= floor:
                continue
            for key in topics.keys_of(entry):
                for sub in tuple(self.index.get(key, ())):
                    self._offer(sub, entry, mine.get(entry["p"], []))
            if "a" not in entry and entry["t"] in topics.RESTRICTING and entry["s"].startswith("account-"):
                restricted.append(int(entry["s"][8:]))
        for account_id in restricted:  # after the range: its notification reaches it first
            for socket in tuple(self.sockets.get(account_id, ())):
                socket.end(CLOSE_FORBIDDEN)  # a suspended or closed account's sockets close
        self.covered = upto
        self.ready.set()

    def _offer(self, sub: Subscription, entry: dict, notes: list[dict]) -> None:
        if entry["p"] <= sub.floor:
            return
        if sub.replaying:
            if len(sub.buffer) >= sub.socket.queue_limit:
                sub.socket.end(4408)
                return
            sub.buffer.append((entry, notes))
            return
        message = topics.message(sub.topic, entry, topics.own_notes(notes, sub.topic.account_id, entry["p"]))
        if message is not None:
            sub.socket.push(message)

    # --- sockets and subscriptions --------------------------------------------------------------

    def attach(self, socket) -> None:
        self.sockets[socket.account_id].add(socket)

    def detach(self, socket) -> None:
        if socket in self.sockets.get(socket.account_id, ()):
            self.closed_since += 1
        self.sockets[socket.account_id].discard(socket)
        if not self.sockets[socket.account_id]:
            del self.sockets[socket.account_id]
        for sub in socket.subscriptions.values():
            self._drop(sub)

    def _drop(self, sub: Subscription) -> None:
        subs = self.index.get(sub.topic.key)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.index[sub.topic.key]

    def unsubscribe(self, sub: Subscription) -> None:
        self._drop(sub)

    async def subscribe(self, socket, topic, since: int | None) -> Subscription:
        """Register, tell the position, replay ``(since, covered]`` from the log, then go live."""
        # the hub is ready once it heard the relay's first range: seconds on a loaded machine (a
        # subscribe that waits longer fails and its socket closes with 1011, the client reconnects)
        await asyncio.wait_for(self.ready.wait(), timeout=READY_TIMEOUT_S)
        start = self.covered
        sub = Subscription(socket, topic, floor=max(start, since or 0))
        self.index[topic.key].add(sub)
        await socket.push_wait(
            {"op": "subscribed", "topic": topic.name, "position": since if since is not None else start}
        )
        if since is not None and since < start:
            events, notes = await read_topic(self.conn, topic, since, start)
            entries = sorted([*events, *notes] if topic.kind == "account" else events, key=lambda e: e["p"])
            for entry in entries:
                mine = topics.own_notes(notes, topic.account_id, entry["p"])
                message = topics.message(topic, entry, mine)
                if message is not None and not socket.ended:
                    await socket.push_wait(message)
        for entry, notes in sub.buffer:
            message = topics.message(topic, entry, topics.own_notes(notes, topic.account_id, entry["p"]))
            if message is not None:
                socket.push(message)
        sub.buffer, sub.replaying = [], False
        return sub

    @property
    def subscriptions(self) -> int:
        return sum(len(s) for s in self.index.values())


_hub: Hub | None = None
_lock: asyncio.Lock | None = None


async def hub() -> Hub:
    """This process's hub, started on first use (the first socket)."""
    global _hub, _lock
    if _lock is None:
        _lock = asyncio.Lock()
    async with _lock:
        if _hub is None:
            candidate = Hub()
            await candidate.start()
            _hub = candidate
    return _hub


async def hub_stop() -> None:
    global _hub
    if _hub is not None:
        await _hub.stop()
        _hub = None


def queue_limit() -> int:
    return settings.RIVALS.get("LIVE_QUEUE", 1000)
