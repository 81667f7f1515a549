"""Issue 26, the event log at scale: ``rivals_event`` partitioned by month of ``recorded_at``
(migration 0011). What the log promised holds across partitions: append-only on the table and on
every partition, one event per (stream, version) wherever its time would place it, the chain,
the rebuild; the monthly job makes the partitions ahead, idempotently."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from rivals.accounts.services import account_guest_signin, account_jokers_change
from rivals.eventstore import NewEvent, event_append, stream_events, stream_filter
from rivals.models import Event
from rivals.system import event_partitions, event_partitions_ensure
from tests.projections import assert_live_equals_rebuild

pytestmark = pytest.mark.django_db


def _partition_of(position: int) -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT tableoid::regclass::text FROM rivals_event WHERE position = %s", [position])
        return cur.fetchone()[0]


def _month_partition(moment: datetime) -> str:
    return f"rivals_event_{moment.astimezone(UTC):%Y_%m}"


def _spread(stream="spread-1") -> list[Event]:
    """Three events of one stream: long ago, now, far ahead (before, a month, after)."""
    now = datetime.now(UTC)
    times = [datetime(2001, 5, 5, tzinfo=UTC), now, now + timedelta(days=3650)]
    events = []
    for version, moment in enumerate(times):
        events += event_append(
            stream_id=stream, stream_type="test", expected_version=version, actor="test", now=moment,
            events=[NewEvent("Tested", {"i": version})],
        )  # fmt: skip
    return events


def test_one_stream_spans_partitions_and_reads_back_in_version_order():
    events = _spread()
    assert [_partition_of(e.position) for e in events] == [
        "rivals_event_before",
        _month_partition(datetime.now(UTC)),
        "rivals_event_after",
    ]
    assert [(e.version, e.data["i"]) for e in stream_events("spread-1")] == [(1, 0), (2, 1), (3, 2)]


def test_a_version_already_used_is_refused_in_any_partition():
    """Within a partition a unique index refuses it; across partitions the insert trigger: an
    event must lie in the range its own transaction claimed at the stream head."""
    _spread()
    insert = (
        "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, "
        "recorded_at) VALUES ('spread-1', 'test', %s, 'Forged', 1, '{}', '{}', %s)"
    )
    for version, moment in [(1, datetime(2026, 6, 1, tzinfo=UTC)), (2, datetime(2001, 1, 1, tzinfo=UTC)), (4, None)]:
        with pytest.raises(DatabaseError, match="not claimed at its stream head"), transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(insert, [version, moment or datetime.now(UTC)])
    # a transaction that claimed versions 4..5 still cannot reuse 1..3, whatever the month
    with pytest.raises(DatabaseError, match="not claimed"), transaction.atomic():
        event_append(
            stream_id="spread-1", stream_type="test", expected_version=3, actor="test",
            events=[NewEvent("Tested", {}), NewEvent("Tested", {})],
        )  # fmt: skip
        with connection.cursor() as cur:
            cur.execute(insert, [2, datetime(2026, 6, 1, tzinfo=UTC)])
    # and within its own claim, a version twice is the partition's unique index
    with pytest.raises(DatabaseError, match="stream_version"), transaction.atomic():
        event_append(stream_id="spread-1", stream_type="test", expected_version=3, actor="test", events=[])
        with connection.cursor() as cur:
            cur.execute(
                "UPDATE rivals_stream SET base_version = version, version = version + 1, "
                "claimed_by = pg_current_xact_id() WHERE id = 'spread-1'"
            )
            cur.execute(insert, [4, datetime.now(UTC)])
            cur.execute(insert, [4, datetime.now(UTC)])
    assert not Event.objects.filter(type="Forged").exists()
    assert [e.version for e in stream_events("spread-1")] == [1, 2, 3]


def test_no_partition_can_be_changed_directly():
    _spread()
    names = [p["name"] for p in event_partitions()]
    assert names[0] == "rivals_event_before" and names[-1] == "rivals_event_after" and len(names) >= 4
    holding = ["rivals_event_before", _month_partition(datetime.now(UTC)), "rivals_event_after"]
    for table in ["rivals_event", *names]:
        statements = [f"TRUNCATE {table}"]
        if table == "rivals_event" or table in holding:  # a row trigger fires on rows: these hold some
            statements += [f"UPDATE {table} SET type = 'Forged'", f"DELETE FROM {table}"]
        for statement in statements:
            with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
                with connection.cursor() as cur:
                    cur.execute(statement)
    with connection.cursor() as cur:  # and every partition, present or made later, has the row triggers
        cur.execute(
            "SELECT c.relname, array_agg(t.tgname::text ORDER BY t.tgname) FROM pg_inherits i "
            "JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_trigger t ON t.tgrelid = c.oid "
            "WHERE i.inhparent = 'rivals_event'::regclass AND NOT t.tgisinternal GROUP BY c.relname"
        )
        triggers = dict(cur.fetchall())
    assert set(triggers) == set(names)
    for name, found in triggers.items():
        assert found == sorted(["rivals_event_claimed", "rivals_event_no_update_delete", f"{name}_no_truncate"])
    assert Event.objects.filter(stream_id="spread-1").count() == 3


def test_the_rebuild_and_the_chain_read_the_log_across_partitions():
    account, _, _ = account_guest_signin(device_id="partitions-1", now=datetime(2002, 2, 2, tzinfo=UTC))
    for moment in (datetime(2003, 3, 3, tzinfo=UTC), datetime.now(UTC), datetime.now(UTC) + timedelta(days=900)):
        account_jokers_change(account=account, delta=2, reason="operator_grant", actor="operator:test", now=moment)
    partitions = {_partition_of(e.position) for e in stream_events(account.stream_id)}
    assert {"rivals_event_before", "rivals_event_after"} < partitions
    account.refresh_from_db()
    assert account.jokers == 6
    assert_live_equals_rebuild()
    call_command("verify_log", stdout=open("/dev/null", "w"))  # raises at the first event that does not match


def test_the_job_makes_the_months_ahead_out_of_the_catch_all_once():
    now = datetime.now(UTC)
    before = [p["name"] for p in event_partitions()]
    assert _month_partition(now + timedelta(days=62)) in before  # the migration made three months ahead
    assert event_partitions_ensure(now=now) == 0  # idempotent: they exist
    made = event_partitions_ensure(now=now, months_ahead=8)
    after = [p["name"] for p in event_partitions()]
    assert made == len(after) - len(before) >= 4
    assert _month_partition(now + timedelta(days=31 * 8)) in after
    assert event_partitions_ensure(now=now, months_ahead=8) == 0
    # an event of the new months lands in its month, not in the catch-all
    (event,) = event_append(
        stream_id="ahead-1", stream_type="test", expected_version=0, actor="test",
        now=now + timedelta(days=31 * 6), events=[NewEvent("Tested", {})],
    )  # fmt: skip
    assert _partition_of(event.position) == _month_partition(now + timedelta(days=31 * 6))


def test_the_job_never_makes_a_month_over_rows_already_in_the_catch_all():
    far = datetime.now(UTC) + timedelta(days=31 * 7)
    event_append(
        stream_id="future-1", stream_type="test", expected_version=0, actor="test", now=far,
        events=[NewEvent("Tested", {})],
    )  # fmt: skip
    event_partitions_ensure(now=datetime.now(UTC), months_ahead=12)
    names = [p["name"] for p in event_partitions()]
    assert _month_partition(far - timedelta(days=31)) in names  # up to the month before the row
    assert _month_partition(far) not in names  # the row's month stays in the catch-all
    (event,) = Event.objects.filter(stream_id="future-1")
    assert _partition_of(event.position) == "rivals_event_after"


def test_the_partitions_job_is_declared_and_runs_as_a_task():
    from config.periodic import PERIODIC_TASKS
    from rivals.tasks import event_partitions_ensure as task

    assert "rivals.event_partitions_ensure" in {spec["task"] for spec in PERIODIC_TASKS}
    assert task.apply().get() == 0


def test_a_streams_reads_plan_only_the_partitions_from_its_first_event_on():
    now = datetime.now(UTC)
    event_append(
        stream_id="recent-1", stream_type="test", expected_version=0, actor="test", now=now,
        events=[NewEvent("Tested", {})],
    )  # fmt: skip
    lookup = stream_filter("recent-1")
    assert lookup == {"stream_id": "recent-1", "recorded_at__gte": now}
    plan = str(Event.objects.filter(**lookup).order_by("version").explain())
    assert _month_partition(now) in plan and "rivals_event_before" not in plan
    # an append recorded earlier (a job applying a past instant) lowers the bound: nothing is missed
    event_append(
        stream_id="recent-1", stream_type="test", expected_version=1, actor="test", now=datetime(2001, 1, 1, tzinfo=UTC),
        events=[NewEvent("Tested", {})],
    )  # fmt: skip
    assert stream_filter("recent-1")["recorded_at__gte"] == datetime(2001, 1, 1, tzinfo=UTC)
    assert [e.version for e in stream_events("recent-1")] == [1, 2]
    assert stream_filter("unknown-1") == {"stream_id": "unknown-1"}


def test_operators_list_the_partitions_and_make_the_months_ahead():
    from io import StringIO

    out = StringIO()
    call_command("event_partitions", "--ensure", "--months-ahead", "5", stdout=out)
    lines = out.getvalue().splitlines()
    made, rest = lines[0].split(" ", 1)  # the migration made three months ahead: some more now
    assert int(made) >= 1 and rest == "monthly partition(s) made (5 months ahead)"
    assert lines[1].startswith("rivals_event_before ") and lines[-1].startswith("rivals_event_after ")
    assert any(line.startswith(_month_partition(datetime.now(UTC) + timedelta(days=31 * 5))) for line in lines)
