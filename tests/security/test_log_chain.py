"""Finding 8 (issue 19): the log's owner can rewrite it. Every event carries a keyed hash chained
over its content and its stream's previous event; ``verify_log`` (and ``rebuild_projections
--verify``) names the first event that does not match."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from rivals import eventchain
from rivals.eventstore import ANY_VERSION, NewEvent, event_append, event_append_new_streams
from rivals.models import Event, Stream


def _append_some():
    event_append(stream_id="test-a", stream_type="test", events=[NewEvent("A", {"n": 1})], expected_version=0)
    event_append(
        stream_id="test-a",
        stream_type="test",
        events=[NewEvent("B", {"n": 2, "x": [1.5, "é"]}), NewEvent("C", {}), NewEvent("D", {"deep": {"k": None}})],
        expected_version=1,
    )
    event_append(stream_id="test-b", stream_type="test", events=[NewEvent("A", {})], expected_version=ANY_VERSION)
    event_append(stream_id="test-b", stream_type="test", events=[NewEvent("B", {})], expected_version=ANY_VERSION)
    event_append_new_streams(
        streams=[("test-c", "test", [NewEvent("A", {"i": i}) for i in range(3)]), ("test-d", "test", [NewEvent("A")])]
    )
    # many events in one append, each way the head is claimed (the chain is then one looping call:
    # nesting a link per event exceeded the planner's stack past a few hundred)
    many = [NewEvent("M", {"i": i}) for i in range(2000)]
    event_append(stream_id="test-e", stream_type="test", events=many, expected_version=0)
    event_append(stream_id="test-e", stream_type="test", events=many[:300], expected_version=2000)
    event_append(stream_id="test-b", stream_type="test", events=many[:17], expected_version=ANY_VERSION)


def _rewrite(sql: str, params) -> None:
    """What the table's owner can do: switch the triggers off and rewrite (a superuser here)."""
    with connection.cursor() as cur:
        cur.execute("SET session_replication_role = replica")
        cur.execute(sql, params)
        cur.execute("SET session_replication_role = DEFAULT")


def _verify() -> str:
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_every_append_writes_the_chain_that_python_recomputes():
    _append_some()
    for stream_id in ("test-a", "test-b", "test-c", "test-d", "test-e"):
        chain = eventchain.genesis(stream_id)
        with connection.cursor() as cur:
            cur.execute(
                "SELECT version, type, schema_version, data::text, metadata::text, recorded_at, chain "
                "FROM rivals_event WHERE stream_id = %s ORDER BY version",
                [stream_id],
            )
            for version, type_, schema, data, meta, at, stored in cur.fetchall():
                chain = eventchain.link(chain, version, eventchain.content_digest(type_, schema, data, meta, at))
                assert bytes(stored) == chain, (stream_id, version)
        assert bytes(Stream.objects.get(pk=stream_id).chain) == chain
    assert "the event log's hash chain holds" in _verify()


@pytest.mark.django_db
def test_finding8_a_rewrite_by_the_tables_owner_is_named_by_verify_log():
    _append_some()
    victim = Event.objects.get(stream_id="test-a", version=3)
    _rewrite("UPDATE rivals_event SET data = '{\"forged\": true}' WHERE position = %s", [victim.position])
    with pytest.raises(CommandError) as failed:
        _verify()
    assert f"event #{victim.position} (test-a@3)" in str(failed.value)
    with pytest.raises(CommandError, match=f"event #{victim.position}"):
        call_command("rebuild_projections", "--verify", "--no-progress", stdout=io.StringIO())


@pytest.mark.django_db
def test_finding8_a_deleted_event_and_a_truncated_tail_are_found():
    _append_some()
    middle = Event.objects.get(stream_id="test-c", version=2)
    _rewrite("DELETE FROM rivals_event WHERE position = %s", [middle.position])
    with pytest.raises(CommandError, match=r"test-c@3\): version 2 is missing"):
        _verify()


@pytest.mark.django_db
def test_finding8_a_removed_tail_with_a_rewritten_head_is_found_against_the_anchor():
    """Issue 31 replaced the saved heads of issue 19 by signed anchors (tests/security/test_log_tamper.py)."""
    _append_some()
    call_command("anchor_log", stdout=io.StringIO())
    last = Event.objects.get(stream_id="test-a", version=4)
    third = Event.objects.get(stream_id="test-a", version=3)
    _rewrite("DELETE FROM rivals_event WHERE position = %s", [last.position])
    _rewrite("UPDATE rivals_stream SET version = 3, chain = %s WHERE id = 'test-a'", [bytes(third.chain)])
    assert "the event log's hash chain holds" in call_verify("--no-anchors")  # the chain alone cannot see it
    with pytest.raises(CommandError, match="test-a@4\\): an anchored event is gone"):
        _verify()


def call_verify(*args) -> str:
    out = io.StringIO()
    call_command("verify_log", *args, stdout=out)
    return out.getvalue()
