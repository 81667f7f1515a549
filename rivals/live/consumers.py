"""The socket (API.md "Live updates"): ``/api/v1/live?ticket=…``, then ``subscribe`` /
``unsubscribe`` messages; events come from this process's hub (``rivals.live.hub``).

Every message to the client goes through one bounded queue and one writer task: the order is the
order of the queue, and a client that does not read fills it — the socket is then closed with
4408 (the client reconnects with ``since``) instead of buffering without bound.

From the client (issue 31): a message is at most ``RIVALS["LIVE_MAX_FRAME_BYTES"]`` (4 KiB: a
subscribe is ~100 bytes) — a bigger one closes the socket with 1009 ("message too big"; the
server refuses it before reading it when started with ``--ws-max-size``, as ``manage.py serve``
does, and this consumer under any server) — and is parsed by the API's one parser
(``rivals.api.parsers.parse_json``): anything it refuses (not JSON, nested too deeply, U+0000 …)
is ``{"op": "error", "code": "invalid"}`` and the socket stays open. Whatever else fails while a
message is handled closes the socket with 1011, logged — never an unhandled exception that
drops it without a close frame and leaves it attached to the hub."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from rivals.api.parsers import RefusedJSON, parse_json
from rivals.live import hub as hubs
from rivals.live.selectors import topic_authorize, topic_parse
from rivals.live.services import live_ticket_redeem

log = logging.getLogger(__name__)

CLOSE_TOO_BIG = 1009  # RFC 6455: a message bigger than LIVE_MAX_FRAME_BYTES
CLOSE_ERROR = 1011  # RFC 6455: the server failed while handling a message (logged)
CLOSE_UNAUTHORIZED = 4401  # API.md: a bad, used or expired ticket
CLOSE_SLOW = 4408  # API.md: the server could not keep up with this socket


class LiveConsumer(AsyncWebsocketConsumer):
    # the sockets take no channel of the layer: the hub holds one per process and fans out here
    channel_layer_alias = "live.sockets-take-no-channel"

    account_id: int | None = None
    ended = False
    writer: asyncio.Task | None = None

    async def connect(self):
        ticket = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("ticket", [""])[0]
        account = await database_sync_to_async(live_ticket_redeem)(ticket=ticket, now=timezone.now())
        await self.accept()
        if account is None:
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        self.account_id = account.pk
        self.queue_limit = settings.RIVALS.get("LIVE_QUEUE", 1000)
        self.queue: asyncio.Queue = asyncio.Queue()
        self.subscriptions: dict = {}
        self.hub = await hubs.hub()
        self.hub.attach(self)
        self.writer = asyncio.create_task(self._write())

    async def disconnect(self, code):
        self.ended = True
        if self.account_id is not None:
            self.hub.detach(self)
            self.subscriptions = {}
        if self.writer is not None:
            self.writer.cancel()

    # --- to the client ------------------------------------------------------------------------

    def push(self, message: dict) -> None:
        """Queue a message; a queue past its limit ends the socket (4408)."""
        if self.ended:
            return
        if self.queue.qsize() >= self.queue_limit:
            self.end(CLOSE_SLOW)
            return
        self.queue.put_nowait(message)

    async def push_wait(self, message: dict) -> None:
        """Queue a message of a replay: waits while the queue is full (the replay reads no faster
        than the client takes it)."""
        while not self.ended and self.queue.qsize() >= self.queue_limit:
            await asyncio.sleep(0.01)
        if not self.ended:
            self.queue.put_nowait(message)

    def end(self, code: int) -> None:
        """Close the socket with ``code`` after what is queued, or at once when it is too slow."""
        if self.ended:
            return
        self.ended = True
        self.hub.detach(self)
        self.subscriptions = {}
        if code == CLOSE_SLOW:  # drop the backlog: nothing more is buffered for this socket
            if self.writer is not None:
                self.writer.cancel()
            self.queue = asyncio.Queue()
            asyncio.get_running_loop().create_task(self._close(code))
        else:
            self.queue.put_nowait(("close", code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.close(code=code)

    async def _write(self) -> None:
        while True:
            message = await self.queue.get()
            if isinstance(message, tuple):
                await self._close(message[1])
                return
            await self.send(text_data=json.dumps(message, separators=(",", ":")))

    # --- from the client ----------------------------------------------------------------------

    def _error(self, code: str, message: str, topic: str | None = None) -> None:
        body = {"op": "error", "code": code, "message": message}
        if topic is not None:
            body["topic"] = topic
        self.push(body)

    async def receive(self, text_data=None, bytes_data=None):
        if self.account_id is None or self.ended:
            return
        try:
            await self._receive(text_data, bytes_data)
        except Exception:
            log.exception("live: a message of account %s failed; its socket is closed with 1011", self.account_id)
            self.end(CLOSE_ERROR)

    @staticmethod
    def _message(text_data: str | None, bytes_data: bytes | None):
        """The client's message as data; None for one the API's parser refuses; ``...`` for one
        over the size limit (measured in UTF-8 bytes, as the server's ``--ws-max-size``)."""
        limit = settings.RIVALS["LIVE_MAX_FRAME_BYTES"]
        if text_data is not None:
            if len(text_data) > limit or len(text_data.encode("utf-8", "surrogatepass")) > limit:
                return ...
            text = text_data
        else:
            if len(bytes_data or b"") > limit:
                return ...
            try:
                text = (bytes_data or b"").decode("utf-8")
            except UnicodeDecodeError:
                return None
        try:
            return parse_json(text)
        except RefusedJSON:
            return None

    async def _receive(self, text_data, bytes_data):
        msg = self._message(text_data, bytes_data)
        if msg is ...:
            self.end(CLOSE_TOO_BIG)
            return
        op = msg.get("op") if isinstance(msg, dict) else None
        parsed = topic_parse(msg.get("topic")) if isinstance(msg, dict) else None
        if op not in ("subscribe", "unsubscribe") or parsed is None:
            self._error("invalid", 'expected {"op": "subscribe" | "unsubscribe", "topic": …}')
            return
        name = msg["topic"]
        if op == "unsubscribe":
            sub = self.subscriptions.pop(name, None)
            if sub is not None:
                self.hub.unsubscribe(sub)
            self.push({"op": "unsubscribed", "topic": name})
            return
        since = msg.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int) or not 0 <= since < 2**63):
            self._error("invalid", "since is a position: an integer ≥ 0", name)
            return
        if name not in self.subscriptions and len(self.subscriptions) >= settings.RIVALS.get("LIVE_MAX_TOPICS", 32):
            self._error("limit_reached", "too many topics on one socket", name)
            return
        topic = await database_sync_to_async(topic_authorize)(
            account_id=self.account_id, kind=parsed[0], ident=parsed[1]
        )
        if topic is None:
            self._error("not_found", "no such topic", name)
            return
        old = self.subscriptions.pop(name, None)
        if old is not None:
            self.hub.unsubscribe(old)
        sub = await self.hub.subscribe(self, topic, since)
        if not self.ended:
            self.subscriptions[name] = sub
        else:
            self.hub.unsubscribe(sub)
