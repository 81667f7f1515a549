"""A channel layer on PostgreSQL's LISTEN/NOTIFY — the embedded default (no Redis needed).

At most once, like every channel layer (a full channel drops, a message sent while a listener
reconnects is lost): what the live room sends over it is re-readable from the log, so that is
enough, and nothing is written to a table (channels-postgres, the packaged alternative, stores
every message in one and deletes it when read — writes on the database the game needs).

- ``group_send`` is one ``NOTIFY`` on the group's PostgreSQL channel; every process with a
  member LISTENs there and hands the message to its members' queues.
- ``send`` to a channel made by ``new_channel`` reaches the process that made it (its
  PostgreSQL channel); ``receive`` works for this process's channels only.
- Messages are JSON (dicts of JSON values) of at most ``max_message_bytes`` (NOTIFY's payload
  limit is 8000 bytes): the live relay cuts its ranges to fit, or sends a range alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import uuid

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

from rivals.live import db

log = logging.getLogger(__name__)


def _pg_channel(name: str) -> str:
    return "rl_" + hashlib.sha256(name.encode()).hexdigest()[:40]


class PostgresChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]
    max_message_bytes = 7900

    def __init__(self, expiry: int = 60, capacity: int = 1000, channel_capacity=None, **kwargs):
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        self.client = uuid.uuid4().hex[:12]
        self.queues: dict[str, asyncio.Queue] = {}
        self.groups: dict[str, set[str]] = {}
        self.listen_conn = None
        self.send_conn = None
        self.listening: set[str] = set()
        self.commands: asyncio.Queue | None = None
        self.task: asyncio.Task | None = None
        self.starting = asyncio.Lock()
        self.send_lock = asyncio.Lock()

    # --- the listener ---------------------------------------------------------------------------

    async def _ensure(self) -> None:
        async with self.starting:
            if self.task is None or self.task.done():
                self.commands = asyncio.Queue()
                self.listen_conn = await db.connect(application_name="rivals-live-layer")
                self.listening = set()
                await self._listen(_pg_channel(self.client))
                for group in self.groups:
                    await self._listen(_pg_channel(group))
                self.task = asyncio.create_task(self._loop(), name="live-layer-listen")

    async def _listen(self, pg: str) -> None:
        if pg not in self.listening:
            await self.listen_conn.execute(f'LISTEN "{pg}"')
            self.listening.add(pg)

    async def _loop(self) -> None:
        while True:
            try:
                async for note in self.listen_conn.notifies(timeout=0.1):
                    self._dispatch(note.payload)
                while not self.commands.empty():
                    sql, done = self.commands.get_nowait()
                    await self.listen_conn.execute(sql)
                    done.set_result(None)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection went away: a new one, every LISTEN again
                log.warning("live layer: listener lost its connection", exc_info=True)
                with contextlib.suppress(Exception):
                    await self.listen_conn.close()
                await asyncio.sleep(0.5)
                try:
                    self.listen_conn = await db.connect(application_name="rivals-live-layer")
                    self.listening = set()
                    await self._listen(_pg_channel(self.client))
                    for group in self.groups:
                        await self._listen(_pg_channel(group))
                except Exception:
                    log.warning("live layer: could not reconnect yet", exc_info=True)

    async def _command(self, sql: str) -> None:
        await self._ensure()
        done = asyncio.get_running_loop().create_future()
        self.commands.put_nowait((sql, done))
        await done

    def _dispatch(self, payload: str) -> None:
        try:
            body = json.loads(payload)
        except ValueError:
            return
        targets = self.groups.get(body.get("g"), ()) if "g" in body else [body.get("c")]
        for channel in targets:
            queue = self.queues.get(channel)
            if queue is not None:
                with contextlib.suppress(asyncio.QueueFull):  # a full channel drops (at most once)
                    queue.put_nowait(body["m"])

    async def _notify(self, pg: str, body: dict) -> None:
        payload = json.dumps(body, separators=(",", ":"))
        if len(payload.encode()) > self.max_message_bytes:
            raise ValueError(f"message of {len(payload)} bytes: over {self.max_message_bytes}")
        async with self.send_lock:
            if self.send_conn is None or self.send_conn.closed:
                self.send_conn = await db.connect(application_name="rivals-live-layer-send")
            try:
                await self.send_conn.execute("SELECT pg_notify(%s, %s)", [pg, payload])
            except Exception:
                with contextlib.suppress(Exception):
                    await self.send_conn.close()
                self.send_conn = None
                raise

    # --- the channel layer API ------------------------------------------------------------------

    async def new_channel(self, prefix: str = "specific") -> str:
        name = f"{prefix}.{self.client}!{uuid.uuid4().hex}"
        self.queues[name] = asyncio.Queue(maxsize=self.get_capacity(name))
        return name

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        client = channel.partition("!")[0].rpartition(".")[2] if "!" in channel else ""
        if client == self.client:
            queue = self.queues.get(channel)
            if queue is not None:
                try:
                    queue.put_nowait(message)
                except asyncio.QueueFull:
                    raise ChannelFull(channel) from None
            return
        if not client:
            raise ValueError("only channels made by new_channel can be sent to on this layer")
        await self._notify(_pg_channel(client), {"c": channel, "m": message})

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        await self._ensure()
        queue = self.queues.get(channel)
        if queue is None:
            queue = self.queues[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return await queue.get()

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        first = group not in self.groups
        self.groups.setdefault(group, set()).add(channel)
        if first:
            await self._command(f'LISTEN "{_pg_channel(group)}"')
            self.listening.add(_pg_channel(group))

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is None:
            return
        members.discard(channel)
        if not members:
            del self.groups[group]
            with contextlib.suppress(Exception):
                await self._command(f'UNLISTEN "{_pg_channel(group)}"')
            self.listening.discard(_pg_channel(group))

    async def group_send(self, group: str, message: dict) -> None:
        self.require_valid_group_name(group)
        await self._notify(_pg_channel(group), {"g": group, "m": message})

    async def flush(self) -> None:
        self.queues.clear()
        self.groups.clear()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        for conn in (self.listen_conn, self.send_conn):
            if conn is not None:
                await conn.close()
