"""A tamper-evident log (issue 19): every event carries a keyed hash chained over its content and
the previous event of its stream.

    chain(e_v) = HMAC-SHA256(K, chain(e_{v-1}) ‖ int4(v) ‖ SHA-256(content(e_v)))
    chain(e_0) = HMAC-SHA256(K, "rivals-event-chain/1" ‖ 0x00 ‖ stream_id)       (the genesis)
    content(e) = type ⏎ schema_version ⏎ data::text ⏎ metadata::text ⏎ µs since the epoch

``data::text`` and ``metadata::text`` are PostgreSQL's own canonical text of the stored JSONB,
so the writer (the append's one statement, ``rivals.eventstore``: SQL functions of migration
0008) and the verifier (this module, in Python, from the stored rows) hash the same bytes.

Decisions:
- **Per stream**, not in log order: the stream head row is already every append's lock, so the
  previous hash is at hand (``rivals_stream.chain``; ``chain_base`` is the chain the last append
  started from, which hands the statement its first link) — a global chain would serialise every
  append of the service on one row.
- **Keyed** (``RIVALS_EVENT_CHAIN_KEY``; else derived from ``DJANGO_SECRET_KEY``): the database
  never stores the key (the append sends its HMAC pads as statement parameters), so the role that
  owns ``rivals_event`` and can switch its triggers off cannot compute a valid chain for a rewritten
  event: any change, insertion or removal inside a stream breaks the chain at that event. The key
  must never change (older events are verified with it).
- **Existing events are not updated**: migration 0008 folds each stream's existing events into its
  chain and writes it to the stream head and to ``rivals_event_seal`` (append-only, like the log),
  so the first new event of an old stream chains over its whole history; the old events keep a
  NULL ``chain`` and are verified through the seal and the next stored link.
- What a per-stream chain cannot see by itself: a stream's tail removed together with a rewritten
  head row, or a whole stream removed. ``verify_log --save-heads FILE`` writes every stream's head
  (version and chain) to a file kept away from the database; ``verify_log --heads FILE`` later
  checks that each saved head is still in the log.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache

from django.conf import settings

GENESIS_PREFIX = b"rivals-event-chain/1\0"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@cache
def _key(secret: str) -> bytes:
    key = secret.encode()
    return hashlib.sha256(key).digest() if len(key) > 64 else key


def chain_key() -> bytes:
    return _key(settings.RIVALS["EVENT_CHAIN_KEY"])


def pads() -> tuple[bytes, bytes]:
    """HMAC's inner and outer pads of the key: what the SQL side needs (``sha256(ko ‖ sha256(ki ‖ m))``)."""
    return _pads(chain_key())


@cache
def _pads(key: bytes) -> tuple[bytes, bytes]:
    key = key.ljust(64, b"\0")
    return bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)


def genesis(stream_id: str) -> bytes:
    return hmac.new(chain_key(), GENESIS_PREFIX + stream_id.encode(), hashlib.sha256).digest()


def micros(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(microseconds=1)


def content_digest(type_: str, schema_version: int, data_text: str, metadata_text: str, recorded_at: datetime) -> bytes:
    text = f"{type_}\n{schema_version}\n{data_text}\n{metadata_text}\n{micros(recorded_at)}"
    return hashlib.sha256(text.encode()).digest()


def link(previous: bytes, version: int, digest: bytes) -> bytes:
    return hmac.new(chain_key(), previous + version.to_bytes(4, "big", signed=True) + digest, hashlib.sha256).digest()


# --- verification ------------------------------------------------------------------------------

ROWS_SQL = (
    "SELECT e.stream_id, e.version, e.position, e.type, e.schema_version, e.data::text, e.metadata::text, "
    "e.recorded_at, e.chain FROM rivals_event e ORDER BY e.stream_id, e.version"
)


@dataclass
class Break:
    position: int | None
    stream_id: str
    version: int
    reason: str

    def __str__(self) -> str:
        at = f"event #{self.position}" if self.position is not None else "no event"
        return f"{at} ({self.stream_id}@{self.version}): {self.reason}"


@dataclass
class Report:
    events: int = 0
    streams: int = 0
    breaks: list[Break] = field(default_factory=list)
    heads: dict[str, tuple[int, bytes]] = field(default_factory=dict)

    @property
    def first(self) -> Break | None:
        """The break with the smallest position (the first event that does not match)."""
        known = [b for b in self.breaks if b.position is not None]
        return min(known, key=lambda b: b.position) if known else (self.breaks[0] if self.breaks else None)


def _stream_rows(cursor) -> Iterator[tuple]:
    while rows := cursor.fetchmany(5000):
        yield from rows


def verify_chain(
    cursor,
    *,
    seals: dict[str, tuple[int, bytes]],
    stream_heads: dict[str, tuple[int, bytes | None]],
    saved: dict[str, tuple[int, bytes]] | None = None,
) -> Report:
    """Recompute every stream's chain from the rows ``ROWS_SQL`` returns (on ``cursor``), against
    the stored links, the seals of migration 0008, the stream heads and heads saved earlier."""
    report = Report()
    saved = saved or {}
    broken: set[str] = set()
    current: str | None = None
    chain = b""
    expected_version = 0

    def close_stream(stream_id: str) -> None:
        report.heads[stream_id] = (expected_version, chain)
        head = stream_heads.get(stream_id)
        if stream_id in broken:  # named already, at its first break
            return
        if head is None:
            report.breaks.append(Break(None, stream_id, expected_version, "events without a stream head"))
        elif head[0] != expected_version or (head[1] is not None and head[1] != chain):
            report.breaks.append(
                Break(
                    None,
                    stream_id,
                    head[0],
                    f"the stream head says version {head[0]}, the log ends at {expected_version}",
                )
            )
        for kept, what in (
            (seals.get(stream_id), "sealed events are missing"),
            (saved.get(stream_id), "a saved head is gone"),
        ):
            if kept is not None and kept[0] > expected_version:
                report.breaks.append(Break(None, stream_id, kept[0], what))

    for stream_id, version, position, type_, schema, data, meta, recorded_at, stored in _stream_rows(cursor):
        report.events += 1
        if stream_id != current:
            if current is not None:
                close_stream(current)
            current, chain, expected_version = stream_id, genesis(stream_id), 0
            report.streams += 1
        if stream_id in broken:
            expected_version = version
            continue
        expected_version += 1
        if version != expected_version:
            report.breaks.append(Break(position, stream_id, version, f"version {expected_version} is missing"))
            broken.add(stream_id)
            expected_version = version
            continue
        chain = link(chain, version, content_digest(type_, schema, data, meta, recorded_at))
        seal = seals.get(stream_id)
        if stored is not None and bytes(stored) != chain:
            report.breaks.append(Break(position, stream_id, version, "its hash does not match its content"))
            broken.add(stream_id)
        elif seal is not None and seal[0] == version and seal[1] != chain:
            report.breaks.append(Break(position, stream_id, version, "the sealed history does not match"))
            broken.add(stream_id)
        elif stream_id in saved and saved[stream_id][0] == version and saved[stream_id][1] != chain:
            report.breaks.append(Break(position, stream_id, version, "it does not match the saved head"))
            broken.add(stream_id)
    if current is not None:
        close_stream(current)
    for stream_id, (version, _) in stream_heads.items():
        if stream_id not in report.heads and version > 0:
            report.breaks.append(Break(None, stream_id, version, "a stream head without events"))
    for stream_id, (version, _) in saved.items():
        if stream_id not in report.heads:
            report.breaks.append(Break(None, stream_id, version, "a saved stream is gone"))
    return report


def log_verify(*, saved_heads: dict[str, tuple[int, bytes]] | None = None) -> Report:
    """Verify the whole log in one REPEATABLE READ snapshot (appends may go on beside it)."""
    from django.db import connection, transaction

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        with connection.cursor() as cur:
            if outermost:  # inside a caller's transaction (tests), its snapshot rules
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cur.execute("SELECT stream_id, version, chain FROM rivals_event_seal")
            seals = {s: (v, bytes(c)) for s, v, c in cur.fetchall()}
            cur.execute("SELECT id, version, chain FROM rivals_stream")
            heads = {s: (v, bytes(c) if c is not None else None) for s, v, c in cur.fetchall()}
        with connection.connection.cursor(name="rivals_verify_log") as rows:
            rows.itersize = 5000
            rows.execute(ROWS_SQL)
            return verify_chain(rows, seals=seals, stream_heads=heads, saved=saved_heads)
