"""The commit-order horizon (rivals/live/horizon.py): a position committed after a later one is
never skipped — the horizon stays below a transaction that appended and is still open, and
passes it once it commits or rolls back."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from rivals.live import db
from rivals.live.horizon import Horizon

pytestmark = pytest.mark.django_db(transaction=True)

# an append as the event store makes it: the stream head claims the version, then the event
INSERT = (
    "WITH head AS (INSERT INTO rivals_stream (id, type, version, created_at, updated_at, claimed_by) "
    "VALUES (%s, 'test', 1, now(), now(), pg_current_xact_id()) RETURNING id) "
    "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, recorded_at) "
    "SELECT head.id, 'test', 1, 'Tested', 1, '{}', '{}', now() FROM head RETURNING position"
)


def _advance(horizon: Horizon) -> int:
    async def run():
        conn = await db.connect()
        try:
            return await horizon.advance(conn)
        finally:
            await conn.close()

    return asyncio.run(run())


def test_the_horizon_waits_for_an_open_append_and_passes_it_at_commit_or_rollback():
    horizon = Horizon()
    with psycopg.connect(db.conninfo()) as slow, psycopg.connect(db.conninfo(), autocommit=True) as fast:
        first = slow.execute(INSERT, ["horizon-slow"]).fetchone()[0]  # open: not committed
        later = fast.execute(INSERT, ["horizon-fast"]).fetchone()[0]  # committed, a higher position
        assert later > first
        for _ in range(3):
            assert _advance(horizon) < first  # never past the open transaction's position
        slow.commit()
        assert _advance(horizon) >= later
        rolled = slow.execute(INSERT, ["horizon-rolled-back"]).fetchone()[0]
        after = fast.execute(INSERT, ["horizon-after"]).fetchone()[0]
        assert _advance(horizon) < rolled
        slow.rollback()
        assert _advance(horizon) >= after


def test_a_transaction_that_does_not_append_never_holds_the_horizon():
    horizon = Horizon()
    with psycopg.connect(db.conninfo()) as reader, psycopg.connect(db.conninfo(), autocommit=True) as fast:
        reader.execute("CREATE TEMP TABLE horizon_scratch (x int)")  # a long writer elsewhere (a rebuild)
        reader.execute("INSERT INTO horizon_scratch VALUES (1)")
        reader.execute("SELECT count(*) FROM rivals_event").fetchone()
        position = fast.execute(INSERT, ["horizon-reader"]).fetchone()[0]
        assert _advance(horizon) >= position
        reader.rollback()


def test_the_position_sequence_hands_out_one_position_at_a_time():
    """The horizon needs positions drawn in real-time order: the sequence caches none."""
    with psycopg.connect(db.conninfo()) as conn:
        cache = conn.execute(
            "SELECT seqcache FROM pg_sequence WHERE seqrelid = pg_get_serial_sequence('rivals_event', 'position')::regclass"
        ).fetchone()[0]
    assert cache == 1
