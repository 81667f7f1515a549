"""Issue 31, part 2: a log no one can rewrite unnoticed. Each tamper is done as the database's
owner (the tests' user is a superuser: ``session_replication_role = replica`` switches the log's
refusal triggers off), then ``verify_log`` — and, after an anchor, the ``log-anchor`` job — must
fail naming the changed stream and version: with and without a previous anchor.

The world: ``tamper-a`` (5 events), ``tamper-b`` (3), and ``tamper-s``, whose first 3 events are
history sealed by migration 0008 (no link stored, the chain at version 3 in ``rivals_event_seal``)
followed by one linked event."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from rivals import eventanchor
from rivals.eventstore import NewEvent, event_append
from tests.log_tamper import ev, owner, seal

pytestmark = pytest.mark.django_db


def verify() -> str:
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    return out.getvalue()


def verify_fails() -> str:
    """The failure, then every break verify_log listed."""
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_log", stdout=out)
    return f"{failed.value}\n{out.getvalue()}"


def anchor() -> str:
    out = io.StringIO()
    call_command("anchor_log", stdout=out)
    return out.getvalue()


def anchor_fails() -> str:
    with pytest.raises(CommandError) as failed:
        anchor()
    return str(failed.value)


def anchors_dir() -> Path:
    from django.conf import settings

    return Path(settings.RIVALS["ANCHOR_DIR"])


def append(stream_id: str, n: int) -> None:
    for _ in range(n):
        event_append(
            stream_id=stream_id, stream_type="tamper", events=[NewEvent("Moved", {"n": 1})], expected_version=None
        )


@pytest.fixture
def log():
    append("tamper-a", 5)
    append("tamper-b", 3)
    append("tamper-s", 4)
    seal("tamper-s", 3)
    append("tamper-r", 2)
    seal("tamper-r", 2)
    assert "the event log's hash chain holds" in verify()


WITH_AND_WITHOUT_ANCHOR = pytest.mark.parametrize("anchored", [False, True], ids=["no-anchor", "anchored"])


# --- NULLed links: legitimate only at or below the sealed version --------------------------------


@WITH_AND_WITHOUT_ANCHOR
@pytest.mark.parametrize("nulled", ["event", "event+later", "event+later+head"])
def test_tamper_a_rewrite_with_nulled_links_is_named_at_the_changed_event(log, anchored, nulled):
    if anchored:
        anchor()
    changed = ev("tamper-a", 3)
    owner("UPDATE rivals_event SET data = '{\"n\": 1000}', chain = NULL WHERE position = %s", [changed.position])
    if "later" in nulled:
        owner("UPDATE rivals_event SET chain = NULL WHERE stream_id = 'tamper-a' AND version > 3")
    if "head" in nulled:
        owner("UPDATE rivals_stream SET chain = NULL WHERE id = 'tamper-a'")
    named = f"event #{changed.position} (tamper-a@3): its link is missing (NULL)"
    assert named in verify_fails()  # the changed event, not a later head
    if anchored:
        assert named in anchor_fails()  # and the next anchor is refused, naming it too
        assert len(os.listdir(anchors_dir())) == 1


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_a_nulled_stream_head_is_named(log, anchored):
    if anchored:
        anchor()
    owner("UPDATE rivals_stream SET chain = NULL WHERE id = 'tamper-b'")
    assert "(tamper-b@3): the stream head's chain is missing (NULL)" in verify_fails()
    if anchored:
        assert "(tamper-b@3): the stream head's chain is missing (NULL)" in anchor_fails()


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_a_nulled_link_above_the_seal_is_named(log, anchored):
    if anchored:
        anchor()
    linked = ev("tamper-s", 4)
    owner("UPDATE rivals_event SET chain = NULL WHERE position = %s", [linked.position])
    named = f"event #{linked.position} (tamper-s@4): its link is missing (NULL) above the stream's sealed version 3"
    assert named in verify_fails()
    if anchored:
        assert named in anchor_fails()


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_a_removed_seal_leaves_the_sealed_history_unlinked_and_named(log, anchored):
    if anchored:
        anchor()
    owner("DELETE FROM rivals_event_seal WHERE stream_id = 'tamper-s'")
    first = ev("tamper-s", 1)
    named = f"event #{first.position} (tamper-s@1): its link is missing (NULL), and its stream has no sealed history"
    assert named in verify_fails()
    if anchored:
        assert named in anchor_fails()


# --- a removed tail, a rewound head, a removed stream ---------------------------------------------


def _remove_last_and_rewind(stream_id: str, version: int) -> None:
    last, before, base = ev(stream_id, version), ev(stream_id, version - 1), ev(stream_id, version - 2)
    owner("DELETE FROM rivals_event WHERE position = %s", [last.position])
    owner(
        "UPDATE rivals_stream SET version = %s, chain = %s, chain_base = %s WHERE id = %s",
        [version - 1, bytes(before.chain), bytes(base.chain), stream_id],
    )


def test_tamper_the_last_event_removed_and_the_head_rewound_is_named_against_the_anchor(log):
    anchor()
    _remove_last_and_rewind("tamper-a", 5)
    assert "(tamper-a@5): an anchored event is gone" in verify_fails()
    assert "(tamper-a@5): an anchored event is gone: the stream head was rewound to version 4" in anchor_fails()


def test_tamper_the_last_event_removed_without_an_anchor_is_named_while_the_head_says_so(log):
    last = ev("tamper-a", 5)
    owner("DELETE FROM rivals_event WHERE position = %s", [last.position])
    assert "(tamper-a@5): the stream head says version 5, the log ends at 4" in verify_fails()


def test_tamper_the_last_event_removed_after_an_anchor_is_named_by_the_next_anchor(log):
    anchor()
    owner("DELETE FROM rivals_event WHERE position = %s", [ev("tamper-a", 5).position])
    assert "(tamper-a@5)" in verify_fails()
    assert "(tamper-a@5): the anchored event and those after it are gone" in anchor_fails()


def test_tamper_a_head_rewound_over_its_events_is_named(log):
    anchor()
    owner("UPDATE rivals_stream SET version = 4, chain = %s WHERE id = 'tamper-a'", [bytes(ev("tamper-a", 4).chain)])
    assert "(tamper-a@4): the stream head says version 4, the log ends at 5" in verify_fails()
    assert "(tamper-a@5): an anchored event is gone: the stream head was rewound to version 4" in anchor_fails()


def test_tamper_a_tail_appended_and_removed_between_two_anchors_is_what_anchors_cannot_see(log):
    """The window docs/security.md names: what was appended after the last anchor and removed,
    its head rewound, before the next one, leaves a log indistinguishable from one where it never
    happened (the key is not needed to rewind to a chain the log already holds)."""
    anchor()
    append("tamper-a", 1)
    _remove_last_and_rewind("tamper-a", 6)
    assert "the event log's hash chain holds" in verify()
    assert "anchor 2 (delta)" in anchor()


def test_tamper_a_removed_stream_is_named_against_the_anchor(log):
    anchor()
    owner("DELETE FROM rivals_event WHERE stream_id = 'tamper-b'")
    owner("DELETE FROM rivals_stream WHERE id = 'tamper-b'")
    assert "(tamper-b@3): an anchored stream is gone" in verify_fails()
    assert "(tamper-b@3): an anchored stream is gone" in anchor_fails()


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_a_removed_sealed_stream_is_named(log, anchored):
    if anchored:
        anchor()
    owner("DELETE FROM rivals_event WHERE stream_id = 'tamper-s'")
    owner("DELETE FROM rivals_stream WHERE id = 'tamper-s'")
    failure = verify_fails()
    assert "(tamper-s@3): a sealed stream is gone" in failure or "(tamper-s@4): an anchored stream is gone" in failure
    if anchored:
        assert "(tamper-s@4): an anchored stream is gone" in anchor_fails()


# --- the sealed history ----------------------------------------------------------------------------


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_swapped_sealed_data_is_named_at_the_seal(log, anchored):
    if anchored:
        anchor()
    one, two = ev("tamper-s", 1), ev("tamper-s", 2)
    owner("UPDATE rivals_event SET data = '{\"n\": 2}' WHERE position = %s", [one.position])
    owner("UPDATE rivals_event SET data = '{\"n\": 0}' WHERE position = %s", [two.position])
    sealed = ev("tamper-s", 3)
    # the sealed events have no links of their own: the stream and its sealed version are named
    assert f"event #{sealed.position} (tamper-s@3): the sealed history (versions 1…3" in verify_fails()


@WITH_AND_WITHOUT_ANCHOR
def test_tamper_seals_swapped_between_two_streams_are_named(log, anchored):
    if anchored:
        anchor()
    owner(
        "UPDATE rivals_event_seal s SET version = o.version, chain = o.chain FROM rivals_event_seal o "
        "WHERE s.stream_id <> o.stream_id"
    )
    failure = verify_fails()
    assert f"event #{ev('tamper-s', 2).position} (tamper-s@2): the sealed history (versions 1…2" in failure
    assert "(tamper-r@3): sealed events are missing" in failure


# --- the anchors themselves ------------------------------------------------------------------------


def test_anchors_are_a_full_one_then_deltas_each_signed_and_linked(log, settings):
    settings.RIVALS = {**settings.RIVALS, "ANCHOR_FULL_EVERY": 2}
    assert "anchor 1 (full): 4 streams, 4 heads listed" in anchor()
    append("tamper-a", 2)
    assert "anchor 2 (delta): 4 streams, 1 heads listed" in anchor()
    append("tamper-c", 1)
    assert "anchor 3 (full): 5 streams, 5 heads listed" in anchor()
    assert "anchor 4 (delta): 5 streams, 0 heads listed" in anchor()
    names = sorted(os.listdir(anchors_dir()))
    assert names == [f"{i:010d}.json" for i in range(1, 5)]
    body = json.loads((anchors_dir() / names[1]).read_bytes())["anchor"]
    assert body["previous"]["name"] == names[0] and body["base"] == 1 and body["events"] == 16
    assert body["heads"] == [["tamper-a", 7, bytes(ev("tamper-a", 7).chain).hex()]]
    loaded = eventanchor.anchors_load()
    assert loaded.latest.seq == 4 and loaded.heads["tamper-c"][0] == 1 and len(loaded.heads) == 5
    assert "against anchor 4 (delta" in verify()


def test_anchors_before_the_latest_full_one_may_be_archived(log, settings):
    settings.RIVALS = {**settings.RIVALS, "ANCHOR_FULL_EVERY": 2}
    for _ in range(4):
        append("tamper-b", 1)
        anchor()
    for seq in (1, 2):
        (anchors_dir() / f"{seq:010d}.json").unlink()
    assert "against anchor 4 (delta" in verify()
    assert "anchor 5 (full)" in anchor()
    (anchors_dir() / "0000000003.json").unlink()
    assert "against anchor 5 (full" in verify()
    assert "anchor 6 (delta)" in anchor()
    (anchors_dir() / "0000000005.json").unlink()  # the full one anchor 6 builds on
    assert "anchor 5 is missing (the next one present is 6)" in verify_fails()
    assert "anchor 5 is missing" in anchor_fails()
    call_command("anchor_log", "--accept", "anchor 5 lost with a disk", stdout=io.StringIO())
    assert "against anchor 7 (full" in verify()


def test_an_anchor_is_never_overwritten_and_a_second_run_gives_up(log):
    anchor()
    first = (anchors_dir() / "0000000001.json").read_bytes()
    body = json.loads(first)["anchor"] | {"written_at": "again"}
    assert eventanchor._write(anchors_dir(), body) is None  # the name is taken: os.link never replaces
    assert (anchors_dir() / "0000000001.json").read_bytes() == first
    assert [n for n in os.listdir(anchors_dir()) if not n.endswith(".json")] == []  # no partial file left


def test_a_changed_or_missing_anchor_is_named(log):
    anchor()
    append("tamper-a", 1)
    anchor()
    anchor()
    second = anchors_dir() / "0000000002.json"
    whole = json.loads(second.read_bytes())
    whole["anchor"]["heads"][0][1] = 5  # the anchored version, lowered
    second.write_bytes(eventanchor.canonical(whole))
    assert "anchor 0000000002.json: its signature does not hold" in verify_fails()
    assert "its signature does not hold" in anchor_fails()
    second.unlink()
    assert "anchor 2 is missing" in verify_fails()


def test_anchors_signed_with_another_key_do_not_hold(log, settings):
    anchor()
    settings.RIVALS = {**settings.RIVALS, "ANCHOR_KEY": "another key"}
    assert "signed with another key" in verify_fails()


def test_an_operator_accepts_a_rewritten_log_once_with_a_reason(log):
    anchor()
    _remove_last_and_rewind("tamper-a", 5)
    assert "tamper-a@5" in anchor_fails()
    out = io.StringIO()
    call_command("anchor_log", "--accept", "restored from the 03:00 backup", stdout=out)
    assert "anchor 2 (full)" in out.getvalue()
    body = json.loads((anchors_dir() / "0000000002.json").read_bytes())["anchor"]
    assert body["accepted"]["reason"] == "restored from the 03:00 backup"
    assert "(tamper-a@5): an anchored event is gone" in body["accepted"]["breaks"][0]
    assert "anchor 3 (delta)" in anchor()
    assert "the event log's hash chain holds" in verify()


def test_the_anchor_key_is_its_own_and_never_in_the_database(log, settings):
    anchor()
    key = settings.RIVALS["ANCHOR_KEY"]
    assert key and key != settings.RIVALS["EVENT_CHAIN_KEY"]
    secrets = [key.encode(), eventanchor.anchor_key()]
    with connection.cursor() as cur:  # no value of any column of any table holds it, as text or bytes
        cur.execute(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN information_schema.tables t "
            "USING (table_schema, table_name) WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
            "AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea')"
        )
        columns = cur.fetchall()
        for table, column in columns:
            cur.execute(
                f'SELECT count(*) FROM "{table}" WHERE position(%s::bytea IN convert_to("{column}"::text, \'UTF8\')) > 0 '
                f"OR position(%s::bytea IN convert_to(\"{column}\"::text, 'UTF8')) > 0",
                [secrets[0], secrets[1].hex().encode()],
            )
            assert cur.fetchone()[0] == 0, (table, column)
    assert len(columns) > 50
    assert key.encode() not in (anchors_dir() / "0000000001.json").read_bytes()


def test_production_names_the_anchors_directory(settings):
    settings.RIVALS = {**settings.RIVALS, "ANCHOR_DIR": ""}
    with pytest.raises(ImproperlyConfigured, match="RIVALS_ANCHOR_DIR"):
        eventanchor.log_anchor_write()


def test_the_log_anchor_job_is_declared_runs_as_a_task_and_is_shown_to_operators(log, operator):
    from config.periodic import PERIODIC_TASKS
    from rivals.tasks import log_anchor

    (spec,) = [s for s in PERIODIC_TASKS if s["task"] == "rivals.log_anchor"]
    assert spec["name"] == "log-anchor" and spec["interval_seconds"] == 600
    assert log_anchor.apply().get().startswith("anchor 1 (full)")
    call_command("setup_periodic_tasks", verbosity=0)
    page = operator.get(reverse("admin:django_celery_beat_periodictask_changelist")).content.decode()
    assert "writes the next anchor" in page and "every 10 minutes" in page
