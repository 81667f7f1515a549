"""The relay: one per deployment (whichever process holds its advisory lock), it reads the log
up to the commit-order horizon (``rivals.live.horizon``) and publishes it, range after contiguous
range ``(after, upto]``, to every hub through the channel layer.

A publish may be lost (a full channel, a layer restart, a relay that died mid-way): that loses no
event for a client, because a hub that receives a range not starting where it stands reads the
gap from the log itself (``rivals.live.hub``); an idle relay still publishes its horizon every
``HEARTBEAT_S``, so a lost last range is noticed within that time."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from django.conf import settings

from rivals.live import db
from rivals.live.horizon import Horizon
from rivals.live.logread import BoardFolds, read_range

log = logging.getLogger(__name__)

GROUP = "live.hubs"
RELAY_LOCK = (0x4C495645, 1)  # ("LIVE", 1): one relay at a time
ELECTION_S = 1.0


def _conf(name: str, default):
    return settings.RIVALS.get(name, default)


def chunks(after: int, upto: int, events: list[dict], notes: list[dict], budget: int | None):
    """The range as messages of at most ``budget`` bytes, cut between positions (an event and its
    notifications travel together); a position too big alone travels as its range only — the
    hubs read it from the log."""
    if budget is None:
        yield {"after": after, "upto": upto, "events": events, "notes": notes}
        return
    by_position: dict[int, list[tuple[str, dict]]] = {}
    for kind, items in (("events", events), ("notes", notes)):
        for item in items:
            by_position.setdefault(item["p"], []).append((kind, item))
    start, size, part = after, 64, {"events": [], "notes": []}
    for position in sorted(by_position):
        items = by_position[position]
        cost = sum(len(json.dumps(item, separators=(",", ":"))) + 1 for _, item in items)
        if size + cost > budget and (part["events"] or part["notes"]):
            end = max(i["p"] for i in part["events"] + part["notes"])
            yield {"after": start, "upto": end, **part}
            start, size, part = end, 64, {"events": [], "notes": []}
        if 64 + cost > budget:  # alone too big: its range only (from the position before it)
            yield {"after": start, "upto": position, "events": None, "notes": None}
            start = position
            continue
        for kind, item in items:
            part[kind].append(item)
        size += cost
    yield {"after": start, "upto": upto, **part}


class Relay:
    def __init__(self, layer, local=None) -> None:
        self.layer = layer
        # the hub of the relay's own process: handed each range at once (one hop less for its
        # sockets); the copy that comes back over the layer is then already covered
        self.local = local
        self.leading = False
        self.published = 0

    async def run(self, stop: asyncio.Event) -> None:
        """Contend for the relay's lock; lead while holding it (until ``stop`` or a lost connection)."""
        while not stop.is_set():
            conn = None
            try:
                conn = await db.connect(application_name="rivals-live-relay")
                while not stop.is_set():
                    cur = await conn.execute("SELECT pg_try_advisory_lock(%s, %s)", list(RELAY_LOCK))
                    if (await cur.fetchone())[0]:
                        self.leading = True
                        await self._lead(conn, stop)
                        return
                    await _sleep(stop, ELECTION_S)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database or the layer went away: try again
                log.warning("live relay: restarting after an error", exc_info=True)
                await _sleep(stop, ELECTION_S)
            finally:
                self.leading = False
                if conn is not None:
                    await conn.close()  # releases the lock with the session

    async def _lead(self, conn, stop: asyncio.Event) -> None:
        poll = _conf("LIVE_POLL_MS", 10) / 1000
        heartbeat = _conf("LIVE_HEARTBEAT_S", 1.0)
        budget = getattr(self.layer, "max_message_bytes", None)
        horizon, folds = Horizon(), BoardFolds()
        covered = await horizon.advance(conn)
        while horizon.samples and not stop.is_set():  # start where the log is settled
            await asyncio.sleep(poll)
            covered = await horizon.advance(conn)
        log.info("live relay: leading from position %s", covered)
        await self._publish({"after": covered, "upto": covered, "events": [], "notes": []})
        last = time.monotonic()
        while not stop.is_set():
            settled = await horizon.advance(conn)
            while covered < settled:
                events, notes, upto = await read_range(conn, covered, settled, folds)
                for message in chunks(covered, upto, events, notes, budget):
                    await self._publish(message)
                covered, last = upto, time.monotonic()
            if time.monotonic() - last >= heartbeat:
                await self._publish({"after": covered, "upto": covered, "events": [], "notes": []})
                last = time.monotonic()
            await _sleep(stop, poll)

    async def _publish(self, message: dict[str, Any]) -> None:
        if self.local is not None:
            try:
                await self.local(message)
            except Exception:  # the hub reads it from the log when it comes again
                log.warning("live relay: the local hub could not take a range", exc_info=True)
        try:
            await self.layer.group_send(GROUP, {"type": "live.batch", **message})
            self.published += 1
        except Exception:  # a lost publish: the hubs read the gap from the log
            log.warning("live relay: a publish was lost (%s..%s)", message["after"], message["upto"], exc_info=True)


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    except TimeoutError:
        pass
