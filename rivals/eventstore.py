"""The event store: append with an expected version; projections updated in the same transaction.

Streams are named ``<type>-<id>`` (``account-12``, ``game-…``). ``event_append`` is the only
writer of ``rivals_event``; the table itself refuses UPDATE, DELETE and TRUNCATE (a trigger), so
corrections are new compensating events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg
from django.db import connection, transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

from rivals import context, eventchain
from rivals.errors import Conflict
from rivals.models import Event, Stream
from rivals.rawsql import execute_prepared

if TYPE_CHECKING:
    from rivals.projections import LiveRows


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: a past-tense type and its JSON data (its constructor's
    payload type: ``rivals.event_types``)."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    schema_version: int = 1


ANY_VERSION = None  # append at the head whatever it is (system streams, ledgers)


class StreamConflict(Conflict):
    def __init__(self, stream_id: str, expected: int | None, current: int):
        super().__init__(
            f"stream {stream_id} is at version {current}, not {expected}",
            details={"stream": stream_id, "expected_version": expected, "current_version": current},
        )
        self.current_version = current


def stream_version(stream_id: str) -> int:
    return Stream.objects.filter(pk=stream_id).values_list("version", flat=True).first() or 0


NESTED_LINKS_MAX = 16  # past this, one call that loops (the nesting's depth grows with the events)


def _chain_sql(base: str, version0: str, count: int) -> str:
    """The chain after ``count`` new events (``rivals.eventchain``), from ``base`` at ``version0``,
    over the digests of CTE ``d`` and the pads of CTE ``k``: one link per event, nested (inlined by
    the planner: the hot path's one or few events), or for many events ``rivals_event_chain``, the
    same links in a loop (migration 0009: nesting hundreds exceeds the planner's stack)."""
    if count > NESTED_LINKS_MAX:
        return (
            f"rivals_event_chain({base}, {version0}, (SELECT array_agg(digest ORDER BY n) FROM d), "
            "(SELECT ki FROM k), (SELECT ko FROM k))"
        )
    expr = base
    for n in range(1, count + 1):
        expr = (
            f"rivals_event_link({expr}, ({version0}) + {n}, (SELECT digest FROM d WHERE n = {n}), "
            "(SELECT ki FROM k), (SELECT ko FROM k))"
        )
    return expr


def _head_claim_sql(expected: int | None, count: int) -> str:
    """The stream-head statement of an append, as a CTE ``head(version, chain_base, chain)`` (the
    new version, the chain the append starts from, and the chain after it).

    The head row is the concurrency point: a conditional UPDATE (or INSERT for a new stream)
    makes a second writer with the same expectation block until the first commits and then find
    the version moved — no row, so no event is inserted: a conflict, never a lost or duplicated
    version. The same row lock orders the hash chain: the head keeps the chain of its last event.
    The claim records the versions it hands out (``base_version`` < v ≤ ``version``) and its
    transaction (``claimed_by``): the log's insert trigger refuses any event outside its own
    transaction's claim, which keeps (stream, version) unique across the log's partitions
    (migration 0011).
    """
    genesis = "(SELECT genesis FROM g)"
    returning = " RETURNING version, chain_base, chain"
    insert = (
        "INSERT INTO rivals_stream (id, type, version, created_at, updated_at, first_at, chain_base, chain, claimed_by) "
        f"VALUES (%s, %s, %s, %s, %s, %s, {genesis}, {_chain_sql(genesis, '0', count)}, pg_current_xact_id()) "
    )
    if expected is None:  # append at the head, whatever it is
        return (
            insert + "ON CONFLICT (id) DO UPDATE SET version = rivals_stream.version + EXCLUDED.version, "
            "base_version = rivals_stream.version, claimed_by = EXCLUDED.claimed_by, "
            "first_at = least(rivals_stream.first_at, EXCLUDED.first_at), "
            "updated_at = EXCLUDED.updated_at, chain_base = rivals_stream.chain, "
            f"chain = {_chain_sql('rivals_stream.chain', 'rivals_stream.version', count)}" + returning
        )
    if expected == 0:  # a new stream
        return insert + "ON CONFLICT (id) DO NOTHING" + returning
    return (
        "UPDATE rivals_stream SET version = version + %s, base_version = version, claimed_by = pg_current_xact_id(), "
        "updated_at = %s, first_at = least(first_at, %s), chain_base = chain, "
        f"chain = {_chain_sql('chain', 'version', count)} WHERE id = %s AND version = %s" + returning
    )


def _events_chain_sql(count: int) -> tuple[str, str, str]:
    """How the appended rows get their chain: the head's new chain for one event; for more, a
    recursive CTE ``ch(n, h)`` walks from the head's ``chain_base`` (a CTE, the join, the column)."""
    if count == 1:
        return "", "", "head.chain"
    cte = (
        "ch(n, h) AS (SELECT 0, head.chain_base FROM head UNION ALL SELECT ch.n + 1, "
        f"rivals_event_link(ch.h, head.version - {count} + ch.n + 1, d.digest, k.ki, k.ko) "
        "FROM ch JOIN d ON d.n = ch.n + 1 CROSS JOIN head CROSS JOIN k), "
    )
    return cte, " JOIN ch ON ch.n = v.n", "ch.h"


def _metadata(actor: str | None, metadata: dict[str, Any] | None) -> dict[str, Any]:
    """An append's event metadata: actor, the server's request id, the idempotency key's
    fingerprint (only inside an idempotent operation), and the caller's extras."""
    meta = {"actor": actor, "request_id": context.request_id.get()}
    key = context.idempotency_key.get()
    if key:
        meta["idempotency_key"] = key
    if metadata:
        meta.update(metadata)
    return meta


@transaction.atomic(savepoint=False)  # part of the caller's transaction: no extra round trips
def event_append(
    *,
    stream_id: str,
    stream_type: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    actor: str | None = None,
    now: datetime | None = None,
    metadata: dict[str, Any] | None = None,
    live: LiveRows | None = None,
) -> list[Event]:
    """Append ``events`` to a stream whose current version must be ``expected_version``.

    ``expected_version=None`` appends at the head (for streams with a single logical writer such
    as system jobs). Raises ``StreamConflict`` (HTTP 409) when the stream moved. Live projections
    are applied before returning, inside this transaction; ``live`` hands them the caller's
    already-locked instances (``LiveRows(game=game)``) so they need not load them again.
    """
    if not events:
        return []
    now = now or timezone.now()
    count = len(events)
    meta = _metadata(actor, metadata)
    rows = [
        Event(
            stream_id=stream_id,
            stream_type=stream_type,
            type=e.type,
            schema_version=e.schema_version,
            data=e.data,
            metadata=meta,
            recorded_at=now,
        )
        for e in events
    ]
    # One statement, one round trip: the head claim gates the INSERT (no head row, no events);
    # each event's version is the new head minus its distance from the end. (The ORM's
    # bulk_create costs more CPU than the append itself.)
    if expected_version is None or expected_version == 0:
        head_params: list[Any] = [stream_id, stream_type, count, now, now, now]
    else:
        head_params = [count, now, now, stream_id, expected_version]
    values = ", ".join(["(%s, %s::int, %s, %s::smallint, %s::jsonb, %s::jsonb, %s::timestamptz)"] * count)
    value_params: list[Any] = []
    for n, r in enumerate(rows, start=1):
        value_params += [stream_type, n, r.type, r.schema_version, Jsonb(r.data), Jsonb(r.metadata), r.recorded_at]
    ki, ko = eventchain.pads()
    from rivals import projections

    # The hot path (an intent on a locked board): its versions are known before the INSERT, so
    # the live projections are applied first and their row writes ride in the INSERT's round
    # trip (those that need the events' positions, e.g. notifications, read them from the
    # INSERT's RETURNING: ``after``). Should the head claim fail, the StreamConflict below rolls
    # the writes back with the caller's transaction.
    ahead = live is not None and expected_version is not None and projections.only_live(rows)
    writes: list[tuple[str, list]] = []
    after: list[tuple[str, list]] = []  # writes that read the appended rows' positions
    if ahead and live is not None and expected_version is not None:  # (ahead says both)
        for n, r in enumerate(rows, start=1):
            r.version = expected_version + n
        writes, after = projections.apply_live_ahead(rows, live)
    elif count == 1:  # the projections that join the append ride in it, the others follow it
        after = projections.joined_ahead(rows[0])
    chain_cte, chain_join, chain_col = _events_chain_sql(count)
    with connection.cursor() as django_cursor:
        # one statement (the row writes as data-modifying CTEs), so that the server prepares it
        cur = execute_prepared(
            django_cursor,
            f"WITH RECURSIVE v(stream_type, n, type, schema_version, data, metadata, recorded_at) AS (VALUES {values}), "
            "d AS (SELECT n, rivals_event_digest(type, schema_version, data, metadata, recorded_at) AS digest FROM v), "
            "k AS (SELECT %s::bytea AS ki, %s::bytea AS ko), g AS (SELECT %s::bytea AS genesis), "
            f"head AS ({_head_claim_sql(expected_version, count)}), "
            + "".join(f"w{i} AS ({sql}), " for i, (sql, _) in enumerate(writes))
            + chain_cte
            + "appended AS (INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, "
            "metadata, recorded_at, chain) SELECT %s, v.stream_type, head.version - %s + v.n, v.type, v.schema_version, "
            f"v.data, v.metadata, v.recorded_at, {chain_col} FROM head CROSS JOIN v{chain_join} ORDER BY v.n "
            "RETURNING position, version)"
            + "".join(f", a{i} AS ({sql})" for i, (sql, _) in enumerate(after))
            + " SELECT position, version FROM appended",
            value_params
            + [ki, ko, eventchain.genesis(stream_id)]
            + head_params
            + [p for _, write_params in writes for p in write_params]
            + [stream_id, count]
            + [p for _, write_params in after for p in write_params],
        )
        inserted = sorted(cur.fetchall(), key=lambda row: row[1])
    if not inserted:
        raise StreamConflict(stream_id, expected_version, stream_version(stream_id))
    for r, (position, version) in zip(rows, inserted, strict=True):
        r.position, r.version = position, version
        r._state.adding = False
    if not ahead:
        projections.apply_live(rows, live, joined=count == 1)
    return rows


NEW_STREAMS_CHUNK = 1000  # events per statement of a bulk append


@transaction.atomic(savepoint=False)
def event_append_new_streams(
    *,
    streams: Sequence[tuple[str, str, Sequence[NewEvent]]],
    actor: str | None = None,
    now: datetime | None = None,
    metadata: dict[str, Any] | None = None,
) -> list[Event]:
    """Open many new streams at once (``[(stream_id, stream_type, events)]``, each expected at
    version 0) — e.g. the matches, rounds and boards of a tournament wave — in a few statements,
    with the projections applied in bulk. Raises ``StreamConflict`` if any stream exists already
    (the caller's transaction then rolls back whatever this call wrote)."""
    now = now or timezone.now()
    meta = _metadata(actor, metadata)
    rows: list[Event] = []
    for stream_id, stream_type, events in streams:
        rows += [
            Event(
                stream_id=stream_id,
                stream_type=stream_type,
                version=n,
                type=e.type,
                schema_version=e.schema_version,
                data=e.data,
                metadata=meta,
                recorded_at=now,
            )
            for n, e in enumerate(events, start=1)
        ]
    counts = {stream_id: len(events) for stream_id, _, events in streams}
    by_key = {(r.stream_id, r.version): r for r in rows}
    chunk: list[Event] = []
    for i, row in enumerate(rows):
        chunk.append(row)
        last_of_stream = i + 1 == len(rows) or rows[i + 1].stream_id != row.stream_id
        if last_of_stream and (len(chunk) >= NEW_STREAMS_CHUNK or i + 1 == len(rows)):
            _append_new_streams_chunk(chunk, counts, by_key, now)
            chunk = []
    from rivals import projections

    projections.apply_batch(rows)
    return rows


def _append_new_streams_chunk(rows: list[Event], counts: dict[str, int], by_key: dict, now: datetime) -> None:
    heads: dict[str, str] = {}
    for r in rows:
        heads.setdefault(r.stream_id, r.stream_type)
    with connection.cursor() as django_cursor:
        # server-side binding, one binary array per column: thousands of values are sent as a few
        # parameters, never quoted into (and parsed out of) the statement's text
        cur = psycopg.Cursor(django_cursor.connection)
        ki, ko = eventchain.pads()
        cur.execute(
            "WITH RECURSIVE v AS (SELECT * FROM unnest(%(streams)b::text[], %(versions)b::int[], %(etypes)b::text[], "
            "%(schemas)b::smallint[], %(data)b::jsonb[], %(meta)b::jsonb[]) "
            "AS v(stream_id, n, type, schema_version, data, metadata)), "
            "d AS (SELECT stream_id, n, rivals_event_digest(type, schema_version, data, metadata, %(now)b) AS digest "
            "FROM v), k AS (SELECT %(ki)b::bytea AS ki, %(ko)b::bytea AS ko), "
            "g AS (SELECT * FROM unnest(%(ids)b::text[], %(geneses)b::bytea[]) AS g(id, genesis)), "
            # each new stream's chain from its genesis (rivals.eventchain), one link per event
            "ch(stream_id, n, h) AS (SELECT g.id, 0, g.genesis FROM g UNION ALL SELECT ch.stream_id, ch.n + 1, "
            "rivals_event_link(ch.h, ch.n + 1, d.digest, k.ki, k.ko) FROM ch "
            "JOIN d ON d.stream_id = ch.stream_id AND d.n = ch.n + 1 CROSS JOIN k), "
            "head AS (INSERT INTO rivals_stream (id, type, version, created_at, updated_at, first_at, chain_base, "
            "chain, claimed_by) SELECT h.id, h.type, h.version, %(now)b, %(now)b, %(now)b, g.genesis, ch.h, "
            "pg_current_xact_id() "
            "FROM unnest(%(ids)b::text[], "
            "%(types)b::text[], %(counts)b::int[]) AS h(id, type, version) JOIN g ON g.id = h.id "
            "JOIN ch ON ch.stream_id = h.id AND ch.n = h.version ON CONFLICT (id) DO NOTHING RETURNING id, type) "
            "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, "
            "recorded_at, chain) SELECT v.stream_id, head.type, v.n, v.type, v.schema_version, v.data, v.metadata, "
            "%(now)b, ch.h FROM head JOIN v ON v.stream_id = head.id "
            "JOIN ch ON ch.stream_id = v.stream_id AND ch.n = v.n "
            "ORDER BY v.stream_id, v.n RETURNING position, stream_id, version",
            {
                "now": now,
                "ids": list(heads),
                "types": list(heads.values()),
                "counts": [counts[h] for h in heads],
                "geneses": [eventchain.genesis(h) for h in heads],
                "ki": ki,
                "ko": ko,
                "streams": [r.stream_id for r in rows],
                "versions": [r.version for r in rows],
                "etypes": [r.type for r in rows],
                "schemas": [r.schema_version for r in rows],
                "data": [Jsonb(r.data) for r in rows],
                "meta": [Jsonb(r.metadata) for r in rows],
            },
        )
        inserted = cur.fetchall()
    if len(inserted) != len(rows):
        opened = {stream_id for _, stream_id, _ in inserted}
        taken = next(stream_id for stream_id in heads if stream_id not in opened)
        raise StreamConflict(taken, 0, stream_version(taken))
    for position, stream_id, version in inserted:
        row = by_key[(stream_id, version)]
        row.position = position
        row._state.adding = False


def stream_filter(stream_id: str) -> dict[str, Any]:
    """The lookup of one stream's events, with the earliest moment they can have been recorded
    (the head's ``first_at``: every append lowers it to its own instant), so that PostgreSQL
    plans only the log's partitions from that month on (migration 0011) instead of every one."""
    with connection.cursor() as cur:  # one primary-key read (the ORM's would cost more than it)
        cur.execute("SELECT first_at FROM rivals_stream WHERE id = %s", [stream_id])
        row = cur.fetchone()
    first_at = row[0] if row else None
    return {"stream_id": stream_id} | ({"recorded_at__gte": first_at} if first_at is not None else {})


def stream_bound_sql(stream: str = "%s", *, events: str = "") -> str:
    """``stream_filter``'s bound in SQL, for a raw read that takes it in the same round trip (the
    head's ``first_at`` read by a subquery, so a prepared plan prunes the partitions at run time).
    ``stream``: the stream's id as SQL (a parameter, or an expression of the query's rows);
    ``events``: the alias of ``rivals_event`` in the query, if it has one."""
    col = f"{events}." if events else ""
    return (
        f"{col}stream_id = {stream} AND {col}recorded_at >= "
        f"coalesce((SELECT first_at FROM rivals_stream WHERE id = {stream}), '-infinity')"
    )


# the bound with its two parameters: the stream's id, twice
STREAM_BOUND_SQL = stream_bound_sql()


def stream_events(stream_id: str) -> list[Event]:
    return list(Event.objects.filter(**stream_filter(stream_id)).order_by("version"))
