"""Sichuan table service: projection rebuild, replayed state, concurrency (ARCHITECTURE.md event store)."""

from __future__ import annotations

import random
import threading

import pytest
from django.core.management import call_command
from django.db import connections

from rivals.errors import Conflict, NotAllowed
from rivals.models import Account, Event
from rivals.sichuan import engine
from rivals.sichuan import services as svc
from rivals.sichuan.events import SICHUAN_INTENT_ACCEPTED
from rivals.sichuan.models import SichuanTable
from tests.sichuan.test_api_table import choose


def _account(name: str) -> Account:
    return Account.objects.create(username=name)


def _play(account, table_id, seq: int, state, rng: random.Random, intents: int) -> svc.TableState:
    result = None
    for _ in range(intents):
        if state.over:
            break
        view = {"legal_actions": engine.legal_actions(state, 0)}
        result = svc.sichuan_intent_apply(account=account, table_id=table_id, intent={"seq": seq, **choose(view, rng)})
        seq, state = result.table.seq, result.state
    return result


def _rows():
    return sorted(
        SichuanTable.objects.values_list(
            "id",
            "account_id",
            "human_seat",
            "seed",
            "dealer",
            "status",
            "seq",
            "version",
            "scores",
            "end_reason",
            "created_at",
            "updated_at",
            "finished_at",
        )
    )


@pytest.mark.django_db
def test_rebuild_projections_reproduces_the_sichuan_tables():
    alice, bob = _account("alice"), _account("bob")
    fresh = svc.sichuan_table_create(account=alice, seed=1)
    mid = svc.sichuan_table_create(account=alice, seed=2)
    _play(alice, mid.table.pk, 0, mid.state, random.Random(2), intents=6)
    done = svc.sichuan_table_create(account=bob, seed=3)
    end = _play(bob, done.table.pk, 0, done.state, random.Random(3), intents=500)
    assert end.table.status == "finished"
    live = _rows()
    assert len(live) == 3 and SichuanTable.objects.get(pk=fresh.table.pk).seq == 0
    SichuanTable.objects.update(status="playing", seq=99, version=0, scores=[9, 9, 9, 9], finished_at=None)
    call_command("rebuild_projections")
    assert _rows() == live


@pytest.mark.django_db
def test_engine_state_replayed_from_the_stream_equals_the_live_state():
    account = _account("replayer")
    created = svc.sichuan_table_create(account=account, seed=42)
    result = _play(account, created.table.pk, 0, created.state, random.Random(42), intents=10)
    replayed = svc.table_engine_state(table=SichuanTable.objects.get(pk=created.table.pk))
    assert replayed.snapshot() == result.state.snapshot()
    # the stream holds exactly the engine's events (plus the service's own)
    stored = [
        e
        for e in Event.objects.filter(stream_id=created.table.stream_id).order_by("version")
        if e.type not in svc.SERVICE_EVENT_TYPES
    ]
    assert [{**e.data, "type": e.type} for e in stored] == result.state.events


@pytest.mark.django_db
def test_s3_ais_declare_at_creation_and_the_human_acts_next():
    created = svc.sichuan_table_create(account=_account("s3"), seed=5)
    state = created.state
    assert engine.pending_seats(state) == [0]
    assert [m is not None for m in state.missing] == [False, True, True, True]
    assert [e.type for e in created.events] == ["SichuanTableOpened", "TableDealt"] + ["MissingSuitDeclared"] * 3


@pytest.mark.django_db
def test_refused_intent_writes_nothing():
    account = _account("refused")
    created = svc.sichuan_table_create(account=account, seed=8)
    count = Event.objects.count()
    with pytest.raises(NotAllowed):
        svc.sichuan_intent_apply(account=account, table_id=created.table.pk, intent={"seq": 0, "type": "win"})
    with pytest.raises(Conflict):
        svc.sichuan_intent_apply(
            account=account, table_id=created.table.pk, intent={"seq": 3, "type": "declare_missing", "suit": "C"}
        )
    assert Event.objects.count() == count
    table = SichuanTable.objects.get(pk=created.table.pk)
    assert (table.seq, table.version) == (0, created.table.version)


@pytest.mark.django_db(transaction=True)
def test_two_racing_intents_on_one_table_exactly_one_wins():
    account = _account("racer")
    created = svc.sichuan_table_create(account=account, seed=9)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []
    lock = threading.Lock()

    def racer(suit: str):
        try:
            barrier.wait(timeout=10)
            svc.sichuan_intent_apply(
                account=account, table_id=created.table.pk, intent={"seq": 0, "type": "declare_missing", "suit": suit}
            )
            outcome = "ok"
        except Conflict:
            outcome = "conflict"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=racer, args=(s,)) for s in ("C", "D")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["conflict", "ok"]
    table = SichuanTable.objects.get(pk=created.table.pk)
    assert table.seq == 1
    accepted = Event.objects.filter(stream_id=table.stream_id, type=SICHUAN_INTENT_ACCEPTED)
    assert accepted.count() == 1
    versions = list(
        Event.objects.filter(stream_id=table.stream_id).order_by("version").values_list("version", flat=True)
    )
    assert versions == list(range(1, table.version + 1))
