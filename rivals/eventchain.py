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
- **A NULL link is legitimate only where the chain began** (issue 31): at or below the stream's
  sealed version (``rivals_event_seal``); anywhere else — an event above it, an event of a stream
  with no seal, a stream head with events — it is a break, named at that event. (Skipping NULL
  links let the owner NULL a rewritten event's link, the later ones' and the head's, unseen.)
- What a per-stream chain cannot see by itself: a stream's tail removed together with a rewound
  head row, or a whole stream removed. Anchors outside the database see them
  (``rivals.eventanchor``: a signed checkpoint of every stream head, written by a periodic job);
  ``verify_log`` checks the log against the latest one (``anchored``, below).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache

from django.conf import settings

GENESIS_PREFIX = b"rivals-event-chain/1\0"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@cache
def hmac_key(secret: str) -> bytes:
    key = secret.encode()
    return hashlib.sha256(key).digest() if len(key) > 64 else key


def chain_key() -> bytes:
    return hmac_key(settings.RIVALS["EVENT_CHAIN_KEY"])


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

COLUMNS = (
    "e.stream_id, e.version, e.position, e.type, e.schema_version, e.data::text, e.metadata::text, "
    "e.recorded_at, e.chain"
)
ROWS_SQL = f"SELECT {COLUMNS} FROM rivals_event e ORDER BY e.stream_id, e.version"

Head = tuple[int, bytes]  # (version, chain) of a stream's last event


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
    heads: dict[str, Head] = field(default_factory=dict)

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
    seals: dict[str, Head],
    stream_heads: dict[str, tuple[int, bytes | None]],
    anchored: dict[str, Head] | None = None,
    start: dict[str, Head] | None = None,
) -> Report:
    """Recompute every stream's chain from the rows ``ROWS_SQL`` returns (on ``cursor``), against
    the stored links, the seals of migration 0008, the stream heads and the heads of an anchor.

    ``start`` makes a stream's rows begin at a known head (version, chain): the anchor job reads a
    stream from its anchored event on, whose stored link must be the anchored chain, and links
    what follows from there. The other streams begin at their genesis."""
    report = Report()
    anchored = anchored or {}
    start = start or {}
    broken: set[str] = set()
    current: str | None = None
    chain = b""
    expected_version = 0

    def close_stream(stream_id: str) -> None:
        report.heads[stream_id] = (expected_version, chain)
        if stream_id not in broken:  # else named already, at its first break
            report.breaks += _end_breaks(
                stream_id, expected_version, chain, stream_heads.get(stream_id), seals, anchored
            )

    at_anchor = False  # the job's read of a stream begins at its anchored event: its link is checked
    for stream_id, version, position, type_, schema, data, meta, recorded_at, stored in _stream_rows(cursor):
        report.events += 1
        if stream_id != current:
            if current is not None:
                close_stream(current)
            expected_version, chain = start.get(stream_id, (0, b""))
            chain, at_anchor = chain or genesis(stream_id), expected_version > 0
            current = stream_id
            report.streams += 1
        if stream_id in broken:
            expected_version = version
            continue
        seal = seals.get(stream_id)
        if at_anchor:
            at_anchor = False
            reason = _anchored_reason(stream_id, stored, seal, version, expected_version, chain)
            if reason is not None:
                report.breaks.append(Break(position, stream_id, expected_version, reason))
                broken.add(stream_id)
            continue
        expected_version += 1
        if version != expected_version:
            report.breaks.append(Break(position, stream_id, version, f"version {expected_version} is missing"))
            broken.add(stream_id)
            expected_version = version
            continue
        chain = link(chain, version, content_digest(type_, schema, data, meta, recorded_at))
        reason = _event_reason(stored, seal, anchored.get(stream_id), version, chain)
        if reason is not None:
            report.breaks.append(Break(position, stream_id, version, reason))
            broken.add(stream_id)
    if current is not None:
        close_stream(current)
    report.breaks += _streams_gone(report.heads, stream_heads, start, seals, anchored)
    return report


def _anchored_reason(
    stream_id: str, stored: bytes | None, seal: Head | None, version: int, expected_version: int, chain: bytes
) -> str | None:
    """What is wrong with the anchored event a stream's read begins at (None: nothing)."""
    reason = unlinked_reason(stored, seal, version)
    if version != expected_version:
        return f"the anchored event {stream_id}@{expected_version} is gone"
    if reason is None and stored is not None and bytes(stored) != chain:
        return "its link is not the one the anchor holds"
    return reason


def _event_reason(stored: bytes | None, seal: Head | None, kept: Head | None, version: int, chain: bytes) -> str | None:
    """What is wrong with an event whose chain is ``chain`` (None: nothing)."""
    reason = unlinked_reason(stored, seal, version)
    if reason is None and stored is not None and bytes(stored) != chain:
        reason = "its hash does not match its content"
    if reason is None and seal is not None and seal[0] == version and seal[1] != chain:
        reason = f"the sealed history (versions 1…{version}, their links not stored) does not match"
    if reason is None and kept is not None and kept[0] == version and kept[1] != chain:
        reason = "it does not match the anchored head"
    return reason


def _end_breaks(
    stream_id: str,
    version: int,
    chain: bytes,
    head: tuple[int, bytes | None] | None,
    seals: dict[str, Head],
    anchored: dict[str, Head],
) -> list[Break]:
    """A stream's events read to their end (``version``, ``chain``): against its head, its seal and its anchor."""
    breaks = []
    if head is None:
        breaks.append(Break(None, stream_id, version, "events without a stream head"))
    elif head[0] != version:
        says = f"the stream head says version {head[0]}, the log ends at {version}"
        breaks.append(Break(None, stream_id, head[0], says))
    elif head[1] is None:
        breaks.append(Break(None, stream_id, head[0], "the stream head's chain is missing (NULL)"))
    elif head[1] != chain:
        breaks.append(Break(None, stream_id, head[0], "the stream head's chain does not match its events"))
    for kept, what in (
        (seals.get(stream_id), "sealed events are missing"),
        (anchored.get(stream_id), "an anchored event is gone (the log ends before it)"),
    ):
        if kept is not None and kept[0] > version:
            breaks.append(Break(None, stream_id, kept[0], what))
    return breaks


def _streams_gone(
    read: dict[str, Head],
    stream_heads: dict[str, tuple[int, bytes | None]],
    start: dict[str, Head],
    seals: dict[str, Head],
    anchored: dict[str, Head],
) -> list[Break]:
    """The streams a head, a seal or an anchor knows whose events were not read at all."""
    breaks = []
    for stream_id, (version, _) in stream_heads.items():
        if stream_id in read or version == 0:
            continue
        since = start.get(stream_id, (0, b""))[0]
        gone = f"the anchored event and those after it are gone (the stream head says {version})"
        breaks.append(Break(None, stream_id, since or version, gone if since else "a stream head without events"))
    for kept, what in ((seals, "a sealed stream is gone"), (anchored, "an anchored stream is gone")):
        for stream_id, (version, _) in kept.items():
            if stream_id not in read and stream_id not in stream_heads:
                breaks.append(Break(None, stream_id, version, what))
    return breaks


def unlinked_reason(stored: bytes | None, seal: Head | None, version: int) -> str | None:
    """Issue 31: only the history folded into a seal by migration 0008 has no link."""
    if stored is not None:
        return None
    if seal is None:
        return "its link is missing (NULL), and its stream has no sealed history"
    if version > seal[0]:
        return f"its link is missing (NULL) above the stream's sealed version {seal[0]}"
    return None


@contextmanager
def log_snapshot() -> Iterator[None]:
    """One REPEATABLE READ snapshot of the log (appends may go on beside it); inside a caller's
    transaction (tests), its snapshot rules."""
    from django.db import connection, transaction

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost:
            with connection.cursor() as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def read_heads() -> dict[str, tuple[int, bytes | None]]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT id, version, chain FROM rivals_stream")
        return {s: (v, bytes(c) if c is not None else None) for s, v, c in cur.fetchall()}


def verify_rows(sql: str, params=None, **kwargs) -> Report:
    """``verify_chain`` over the rows of ``sql`` (``COLUMNS``, in stream and version order), read
    by a server-side cursor in batches."""
    from django.db import connection

    with connection.connection.cursor(name="rivals_verify_log") as rows:
        rows.itersize = 5000
        rows.execute(sql, params)
        return verify_chain(rows, **kwargs)


def log_verify(*, anchored: dict[str, Head] | None = None) -> Report:
    """Verify the whole log in one snapshot, against the heads of an anchor when given."""
    from django.db import connection

    with log_snapshot():
        with connection.cursor() as cur:
            cur.execute("SELECT stream_id, version, chain FROM rivals_event_seal")
            seals = {s: (v, bytes(c)) for s, v, c in cur.fetchall()}
        return verify_rows(ROWS_SQL, seals=seals, stream_heads=read_heads(), anchored=anchored)
