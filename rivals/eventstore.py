"""The event store: append with an expected version; projections updated in the same transaction.

Streams are named ``<type>-<id>`` (``account-12``, ``game-…``). ``event_append`` is the only
writer of ``rivals_event``; the table itself refuses UPDATE, DELETE and TRUNCATE (a trigger), so
corrections are new compensating events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

from rivals import context
from rivals.errors import Conflict
from rivals.models import Event, Stream


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: a past-tense type and its JSON data."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
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


def _claim_versions(stream_id: str, stream_type: str, expected: int | None, count: int, now: datetime) -> int:
    """Advance the stream head by ``count`` and return the first new version.

    The head row is the concurrency point: a conditional UPDATE (or INSERT for a new stream)
    makes a second writer with the same expectation block until the first commits and then find
    the version moved — a conflict, never a lost or duplicated version.
    """
    with connection.cursor() as cur:
        if expected is None:
            cur.execute(
                "INSERT INTO rivals_stream (id, type, version, created_at, updated_at) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET version = rivals_stream.version + EXCLUDED.version, "
                "updated_at = EXCLUDED.updated_at RETURNING version",
                [stream_id, stream_type, count, now, now],
            )
            return cur.fetchone()[0] - count + 1
        if expected == 0:
            cur.execute(
                "INSERT INTO rivals_stream (id, type, version, created_at, updated_at) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING RETURNING version",
                [stream_id, stream_type, count, now, now],
            )
        else:
            cur.execute(
                "UPDATE rivals_stream SET version = version + %s, updated_at = %s WHERE id = %s AND version = %s "
                "RETURNING version",
                [count, now, stream_id, expected],
            )
        row = cur.fetchone()
    if row is None:
        raise StreamConflict(stream_id, expected, stream_version(stream_id))
    return expected + 1


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
    live: dict[str, Any] | None = None,
) -> list[Event]:
    """Append ``events`` to a stream whose current version must be ``expected_version``.

    ``expected_version=None`` appends at the head (for streams with a single logical writer such
    as system jobs). Raises ``StreamConflict`` (HTTP 409) when the stream moved. Live projections
    are applied before returning, inside this transaction; ``live`` hands them the caller's
    already-locked instances (e.g. ``{"game": game}``) so they need not load them again.
    """
    if not events:
        return []
    now = now or timezone.now()
    first = _claim_versions(stream_id, stream_type, expected_version, len(events), now)
    meta = {"actor": actor, "request_id": context.request_id.get()}
    key = context.idempotency_key.get()
    if key:
        meta["idempotency_key"] = key
    if metadata:
        meta.update(metadata)
    rows = [
        Event(
            stream_id=stream_id,
            stream_type=stream_type,
            version=first + i,
            type=e.type,
            schema_version=e.schema_version,
            data=e.data,
            metadata=meta,
            recorded_at=now,
        )
        for i, e in enumerate(events)
    ]
    # one INSERT … RETURNING (the ORM's bulk_create costs more CPU than the append itself)
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
    params: list[Any] = []
    for r in rows:
        params += [r.stream_id, r.stream_type, r.version, r.type, r.schema_version, Jsonb(r.data), Jsonb(r.metadata),
                   r.recorded_at]
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, "
            f"recorded_at) VALUES {values} RETURNING position",
            params,
        )
        positions = [row[0] for row in cur.fetchall()]
    for r, position in zip(rows, positions, strict=True):
        r.position = position
        r._state.adding = False
    created = rows
    from rivals import projections

    projections.apply_live(created, live)
    return created


def stream_events(stream_id: str) -> list[Event]:
    return list(Event.objects.filter(stream_id=stream_id).order_by("version"))
