"""The event store: immutability enforced by PostgreSQL, optimistic concurrency, rebuild == live."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection, transaction

from rivals import projections
from rivals.eventstore import NewEvent, StreamConflict, event_append, stream_version
from rivals.models import Account, Event, Stream
from tests.testdb import worker_id


def _append(stream="test-1", n=1, expected=0):
    return event_append(
        stream_id=stream,
        stream_type="test",
        expected_version=expected,
        actor="test",
        events=[NewEvent("Tested", {"i": i}) for i in range(n)],
    )


@pytest.mark.django_db
def test_events_get_consecutive_versions_and_metadata():
    events = _append(n=3)
    assert [e.version for e in events] == [1, 2, 3]
    assert stream_version("test-1") == 3
    more = _append(n=1, expected=3)
    assert more[0].version == 4
    assert more[0].metadata["actor"] == "test"
    assert more[0].position > events[-1].position


class _WritesThenFails(projections.Projection):
    """A live projection that writes its row for ``Granted`` and fails on ``Broken``."""

    name = "test-writes-then-fails"
    event_types = frozenset({"Granted", "Broken"})

    def apply(self, event, live=None):
        Account.objects.filter(pk=event.data["account"]).update(jokers=77)
        if event.type == "Broken":
            raise RuntimeError("the projection failed")


@pytest.fixture
def failing_projection():
    projection = projections.register(_WritesThenFails())
    yield projection
    projections._REGISTRY.remove(projection)
    for event_type in projection.event_types:
        projections._BY_TYPE[event_type].remove(projection)


@pytest.mark.django_db(transaction=True)
def test_an_append_in_autocommit_mode_is_one_transaction_with_its_projections(failing_projection):
    """``event_append`` is atomic on its own: a caller with no transaction (a shell, a command, a
    new job) whose projection fails half-way finds neither the events nor any projection row."""
    account = Account.objects.create(username="autocommit", display_name="A")
    assert connection.get_autocommit() and not connection.in_atomic_block
    with pytest.raises(RuntimeError, match="the projection failed"):
        event_append(
            stream_id="test-autocommit",
            stream_type="test",
            expected_version=0,
            actor="test",
            events=[NewEvent("Granted", {"account": account.pk}), NewEvent("Broken", {"account": account.pk})],
        )
    assert not Event.objects.filter(stream_id="test-autocommit").exists()
    assert not Stream.objects.filter(pk="test-autocommit").exists()
    assert Account.objects.get(pk=account.pk).jokers == 0  # the first event's projection row was rolled back


@pytest.mark.django_db
def test_immutability_update_through_model_save_is_refused_by_postgres():
    (event,) = _append()
    event.data = {"forged": True}
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        event.save()
    event.refresh_from_db()
    assert event.data == {"i": 0}


@pytest.mark.django_db
def test_immutability_queryset_update_and_delete_are_refused_by_postgres():
    _append(n=2)
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(stream_id="test-1").update(type="Forged")
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(stream_id="test-1").delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.first().delete()
    assert Event.objects.filter(stream_id="test-1", type="Tested").count() == 2


@pytest.mark.django_db
def test_immutability_raw_sql_update_delete_truncate_are_refused_by_postgres():
    _append(n=2)
    for sql in (
        "UPDATE rivals_event SET type = 'Forged'",
        "DELETE FROM rivals_event",
        "TRUNCATE rivals_event",
        "TRUNCATE rivals_event CASCADE",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql)
    assert Event.objects.filter(stream_id="test-1").count() == 2


@pytest.mark.django_db
def test_stale_expected_version_is_a_conflict_with_current_version():
    _append(n=2)
    with pytest.raises(StreamConflict) as err, transaction.atomic():
        _append(expected=1)
    assert err.value.details["current_version"] == 2
    assert err.value.status_code == 409 and err.value.code == "conflict"
    with pytest.raises(StreamConflict), transaction.atomic():
        _append(expected=0)  # the stream already exists
    assert stream_version("test-1") == 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_appenders_with_one_expected_version_exactly_one_wins():
    """Two real transactions on two connections race for version 1…: one wins, one conflicts."""
    _append(stream="race", n=1, expected=0)
    barrier = threading.Barrier(2)
    results: list[str] = []
    lock = threading.Lock()

    def writer(tag: str):
        from django.db import connections

        try:
            with transaction.atomic():
                barrier.wait(timeout=10)
                event_append(
                    stream_id="race",
                    stream_type="test",
                    expected_version=1,
                    actor=tag,
                    events=[NewEvent("Raced", {"by": tag})],
                )
            outcome = "ok"
        except StreamConflict:
            outcome = "conflict"
        finally:
            connections.close_all()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=writer, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(results) == ["conflict", "ok"]
    raced = list(Event.objects.filter(stream_id="race").order_by("version").values_list("version", "type"))
    assert raced == [(1, "Tested"), (2, "Raced")]


@pytest.mark.django_db(transaction=True)
def test_concurrent_appenders_at_head_never_lose_an_event():
    """Many writers appending at the head: every event lands, versions 1…n without gaps."""
    writers, per_writer = 4, 10
    errors: list[Exception] = []

    def writer(tag: int):
        from django.db import connections

        try:
            for i in range(per_writer):
                event_append(
                    stream_id="head",
                    stream_type="test",
                    expected_version=None,
                    actor=str(tag),
                    events=[NewEvent("Tested", {"w": tag, "i": i})],
                )
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    versions = list(Event.objects.filter(stream_id="head").order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, writers * per_writer + 1))


def _live_state():
    return sorted(Account.objects.values_list("id", "display_name", "jokers"))


@pytest.mark.django_db
def test_rebuild_projections_equals_live_state(guest):
    from django.core.management import call_command

    from rivals.accounts.services import account_jokers_change

    c1, a1 = guest("dev-a")
    c2, a2 = guest("dev-b")
    c1.patch("/api/v1/account", {"display_name": "Alice"}, format="json")
    c1.patch("/api/v1/account", {"display_name": "Alice B"}, format="json")
    account_jokers_change(account=Account.objects.get(pk=a2), delta=3, reason="operator_grant", actor="operator:test")
    live = _live_state()
    assert (a1, "Alice B", 0) in live and (a2, f"Player {a2}", 3) in live
    Account.objects.update(display_name="garbage", jokers=99)  # projections wrecked
    call_command("rebuild_projections")
    assert _live_state() == live
    assert projections.registered()


# --- the walls around the event log: no escape a session can set, no privilege to rewrite ----


@pytest.mark.django_db
def test_set_pgtrigger_ignore_does_not_switch_the_protection_off():
    _append(n=1)
    with connection.cursor() as cur:
        cur.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = 'rivals_event'::regclass AND NOT tgisinternal")
        names = [row[0] for row in cur.fetchall()]
    assert sorted(names) == ["rivals_event_claimed", "rivals_event_no_truncate", "rivals_event_no_update_delete"]
    ignore = (
        "{"
        + ",".join(f"rivals_event:{n}" for n in names)
        + ",rivals_event:pgtrigger_protect_event_update_delete_ed9f3}"
    )
    for sql in ("UPDATE rivals_event SET type = 'Forged'", "DELETE FROM rivals_event", "TRUNCATE rivals_event"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
            cur.execute("SELECT set_config('pgtrigger.ignore', %s, true)", [ignore])
            cur.execute(sql)
    assert Event.objects.filter(stream_id="test-1", type="Tested").count() == 1


@pytest.fixture
def app_role():
    """A non-superuser role with the application's grants (``manage.py db_roles``), in the test
    database's transaction: created, used with SET ROLE, and rolled back with the test."""
    from django.core.management import call_command

    name = f"rivals_app_test_{worker_id()}"  # roles are the server's, not the database's: one per worker
    with connection.cursor() as cur:
        cur.execute(f"CREATE ROLE {name} NOLOGIN")
    call_command("db_roles", app_role=name)
    return name


def _as_role(role: str, *statements: str) -> None:
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"SET LOCAL ROLE {role}")
        for statement in statements:
            cur.execute(statement)


@pytest.mark.django_db
def test_the_application_role_appends_and_reads_but_cannot_change_events(app_role):
    _append(n=1)
    _as_role(
        app_role,
        "WITH head AS (INSERT INTO rivals_stream (id, type, version, created_at, updated_at, claimed_by) "
        "VALUES ('test-2', 'test', 1, now(), now(), pg_current_xact_id()) RETURNING id) "
        "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, "
        "metadata, recorded_at) SELECT head.id, 'test', 1, 'Tested', 1, '{}', '{}', now() FROM head",
        "SELECT count(*) FROM rivals_event",
        "UPDATE rivals_account SET jokers = jokers",
    )
    with pytest.raises(DatabaseError, match="not claimed at its stream head"):  # issue 26: past the head
        _as_role(
            app_role,
            "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, "
            "metadata, recorded_at) VALUES ('test-1', 'test', 3, 'Tested', 1, '{}', '{}', now())",
        )
    for attack in (
        ["UPDATE rivals_event SET type = 'Forged'"],
        ["DELETE FROM rivals_event"],
        ["TRUNCATE rivals_event"],
        [
            "SET LOCAL pgtrigger.ignore = '{rivals_event:rivals_event_no_update_delete}'",
            "UPDATE rivals_event SET type = 'Forged'",
        ],
        ["SET LOCAL session_replication_role = replica"],
        ["ALTER TABLE rivals_event DISABLE TRIGGER rivals_event_no_update_delete"],
        ["DROP TRIGGER rivals_event_no_update_delete ON rivals_event"],
    ):
        with pytest.raises(DatabaseError, match="permission denied|must be owner"):
            _as_role(app_role, *attack)
    assert Event.objects.filter(type="Tested").count() == 2
    assert not Event.objects.filter(type="Forged").exists()


@pytest.mark.django_db
def test_db_roles_refuses_a_role_that_could_switch_the_protection_off():
    from django.core.management import CommandError, call_command

    with connection.cursor() as cur:
        cur.execute("SELECT current_user")
        me = cur.fetchone()[0]  # the test database's owner: a superuser here
    with pytest.raises(CommandError, match="superuser|owns"):
        call_command("db_roles", app_role=me)
    with pytest.raises(CommandError, match="does not exist"):
        call_command("db_roles", app_role="no_such_role_here")


@pytest.mark.django_db
def test_append_new_streams_opens_many_streams_at_once_and_refuses_an_existing_one():
    from rivals.eventstore import event_append_new_streams

    rows = event_append_new_streams(
        streams=[
            ("bulk-a", "bulk", [NewEvent("Opened", {"n": 1}), NewEvent("Noted", {"n": 2})]),
            ("bulk-b", "bulk", [NewEvent("Opened", {"n": 3})]),
        ],
        actor="test",
    )
    assert [(r.stream_id, r.version, r.type) for r in rows] == [
        ("bulk-a", 1, "Opened"),
        ("bulk-a", 2, "Noted"),
        ("bulk-b", 1, "Opened"),
    ]
    stored = list(Event.objects.filter(stream_id__startswith="bulk-").order_by("position"))
    assert [(e.stream_id, e.version, e.data, e.metadata["actor"]) for e in stored] == [
        ("bulk-a", 1, {"n": 1}, "test"),
        ("bulk-a", 2, {"n": 2}, "test"),
        ("bulk-b", 1, {"n": 3}, "test"),
    ]
    assert [r.position for r in rows] == [e.position for e in stored]
    assert dict(Stream.objects.filter(id__startswith="bulk-").values_list("id", "version")) == {
        "bulk-a": 2,
        "bulk-b": 1,
    }
    with pytest.raises(StreamConflict), transaction.atomic():
        event_append_new_streams(
            streams=[("bulk-c", "bulk", [NewEvent("Opened")]), ("bulk-b", "bulk", [NewEvent("Opened")])]
        )
    assert not Event.objects.filter(stream_id="bulk-c").exists()  # all or nothing
