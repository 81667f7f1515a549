"""The Sichuan table service: one human (seat 0) against three server AIs (SICHUAN.md S-1…S-19).

A table is the event stream ``sichuan-<id>``: ``SichuanTableOpened`` (who plays it), then the
engine's events (``TableDealt``, ``MissingSuitDeclared``, ``TileDrawn`` … ``DealEnded``), and
before the engine's events of every accepted human intent a ``SichuanIntentAccepted`` (the
intent, its ``seq``). The engine's state is rebuilt on every request by folding the stream
through ``engine.replay`` (the service events are skipped); the ``SichuanTable`` row is the
projection clients list and lock on.

An intent is validated by the engine (``IllegalAction`` → 422), the AIs then act on the server in
the same transaction until the human must act again or the deal ends, and everything is appended
at once with the stream's expected version. A refused intent raises a ``DomainError`` and writes
nothing here (the API records it as a ``RejectedIntent``).

S-17: results are events of this stream (``Settled``, ``DealEnded``) shown to the player; nothing
is awarded to the points ledger, so Sichuan results never reach the rankings.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from rivals.errors import Conflict, Invalid, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append, stream_filter
from rivals.ids import is_uuid
from rivals.intents import intent_envelope
from rivals.models import Account, Event
from rivals.projections import LiveRows, Projection
from rivals.rebuild import Table
from rivals.sichuan import engine
from rivals.sichuan.events import (
    DEAL_ENDED,
    SETTLED,
    SICHUAN_INTENT_ACCEPTED,
    SICHUAN_TABLE_OPENED,
    TABLE_DEALT,
    engine_event,
    sichuan_intent_accepted,
    sichuan_table_opened,
)
from rivals.sichuan.models import SichuanTable

STREAM_TYPE = "sichuan"
HUMAN_SEAT = 0  # S-2: seat 0 is the human
MAX_SEED = 2**63 - 1  # seeds are stored in a bigint; the engine masks to 64 bits anyway
INTENT_TYPES = ("declare_missing", "discard", "pong", "kong", "win", "pass")
SUITS = ("C", "D", "B")
N_TILES = 108  # S-1

SERVICE_EVENT_TYPES = frozenset({SICHUAN_TABLE_OPENED, SICHUAN_INTENT_ACCEPTED})
# every event type the engine folds (``Table._on_<Type>``)
ENGINE_EVENT_TYPES = frozenset(n[len("_on_") :] for n in dir(engine.Table) if n.startswith("_on_"))


def stream_id_of(table_id) -> str:
    return f"sichuan-{table_id}"


def _engine_events(dicts: list[dict]) -> list[NewEvent]:
    """The engine's event dicts as store events: ``type`` becomes the event type, the rest data."""
    return [engine_event(d) for d in dicts]


@dataclass
class TableState:
    """A table's projection row, its engine state (replayed) and the events just appended."""

    table: SichuanTable
    state: engine.Table
    events: list[Event]


# --- reads used by writes -----------------------------------------------------------------------


def table_for_account(*, account: Account, table_id, lock: bool = False) -> SichuanTable:
    """Another account's table is 404, not 403: existence is not leaked."""
    qs = SichuanTable.objects.select_for_update() if lock else SichuanTable.objects
    table = qs.filter(pk=table_id, account=account).first() if is_uuid(table_id) else None
    if table is None:
        raise NotFound("no such Sichuan table")
    return table


def table_engine_state(*, table: SichuanTable) -> engine.Table:
    """Rebuild the engine state by replaying the stream (service events skipped)."""
    rows = (
        Event.objects.filter(**stream_filter(table.stream_id), version__lte=table.version)
        .exclude(type__in=SERVICE_EVENT_TYPES)
        .order_by("version")
        .values_list("type", "data")
    )
    return engine.replay([{**data, "type": type_} for type_, data in rows])


# --- writes -------------------------------------------------------------------------------------


def _seed(value) -> int:
    if value is None:
        return secrets.randbits(63)  # drawn by the server (S-2: dealer and deal follow the seed)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid("seed must be an integer", details={"seed": ["not an integer"]})
    if not 0 <= value <= MAX_SEED:
        raise Invalid(f"seed must be between 0 and {MAX_SEED}", details={"seed": ["out of range"]})
    return value


@transaction.atomic
def sichuan_table_create(*, account: Account, seed: int | None = None, now: datetime | None = None) -> TableState:
    """A new table: the human at seat 0 and three AIs. The AIs declare their missing suits at
    once, without seeing the human's choice (S-3: declarations are simultaneous)."""
    seed = _seed(seed)
    table_id = uuid.uuid4()
    state = engine.new_table(seed)
    engine.run_ai_turns(state, human_seat=HUMAN_SEAT)
    events = [sichuan_table_opened(table_id=table_id, account_id=account.pk, human_seat=HUMAN_SEAT)]
    events += _engine_events(state.events)
    stored = event_append(
        stream_id=stream_id_of(table_id),
        stream_type=STREAM_TYPE,
        expected_version=0,
        actor=f"account:{account.pk}",
        now=now,
        events=events,
    )
    return TableState(table=SichuanTable.objects.get(pk=table_id), state=state, events=stored)


def _tile(value, name: str = "tile") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{name} must be a tile id (integer)", details={name: ["not an integer"]})
    if not 0 <= value < N_TILES:
        raise Invalid(f"{name} {value} is not a tile id (0…{N_TILES - 1})", details={name: ["unknown tile id"]})
    return value


def intent_action(intent: Any) -> tuple[int, dict[str, Any]]:
    """Check an intent's shape (400 ``invalid``) and return (seq, engine action)."""
    kind, seq = intent_envelope(intent, INTENT_TYPES)
    action: dict[str, Any] = {"type": kind}
    if kind == "declare_missing":
        suit = intent.get("suit")
        if suit not in SUITS:
            raise Invalid("declare_missing needs suit: C, D or B", details={"suit": [f"one of {list(SUITS)}"]})
        action["suit"] = suit
    elif kind == "discard":
        if "tile" not in intent:
            raise Invalid("discard needs a tile id", details={"tile": ["required"]})
        action["tile"] = _tile(intent["tile"])
    elif kind == "kong" and intent.get("tile") is not None:
        action["tile"] = _tile(intent["tile"])  # which kong, when several are possible
    return seq, action


@transaction.atomic
def sichuan_intent_apply(*, account: Account, table_id, intent: Any, now: datetime | None = None) -> TableState:
    """Validate and apply one human intent, then let the AIs act until the human must act again
    or the deal ends. Raises a ``DomainError`` (and writes nothing) when refused."""
    seq, action = intent_action(intent)
    table = table_for_account(account=account, table_id=table_id, lock=True)
    if seq != table.seq:
        raise Conflict(f"stale seq {seq}: the table has accepted {table.seq} intents", details={"seq": table.seq})
    if table.status == "finished":
        raise NotAllowed("the deal is over", details={"status": table.status})
    state = table_engine_state(table=table)
    try:
        human = engine.apply(state, HUMAN_SEAT, action)
    except engine.IllegalAction as exc:
        raise NotAllowed(str(exc), details={"legal_actions": engine.legal_actions(state, HUMAN_SEAT)}) from exc
    ai = engine.run_ai_turns(state, human_seat=HUMAN_SEAT)
    events = [sichuan_intent_accepted(seq=seq + 1, seat=HUMAN_SEAT, action=action)]
    events += _engine_events(human + ai)
    stored = event_append(
        stream_id=table.stream_id,
        stream_type=STREAM_TYPE,
        expected_version=table.version,
        actor=f"account:{account.pk}",
        now=now or timezone.now(),
        events=events,
        live=LiveRows(sichuan_table=table),
    )
    return TableState(table=table, state=state, events=stored)


# --- projection ---------------------------------------------------------------------------------


class SichuanTableProjection(Projection):
    """``SichuanTable`` rows from the ``sichuan`` streams (status, seq, version, scores, times)."""

    name = "sichuan_tables"
    event_types = ENGINE_EVENT_TYPES | SERVICE_EVENT_TYPES

    tables = (Table(SichuanTable._meta.db_table),)

    def reset(self) -> None:
        SichuanTable.objects.all().delete()

    def rebuild(self, log) -> None:
        """Stream by stream (a table's row depends on its own events only), written by COPY."""
        from rivals.rawsql import copy_insert

        done: list[SichuanTable] = []
        table = None
        for page in log.pages(self.event_types, by_stream=True, stream_type=STREAM_TYPE):
            for event in page:
                if event.type == SICHUAN_TABLE_OPENED:
                    if table is not None:
                        done.append(table)
                    table = self._opened(event)
                elif table is None or event.stream_id != f"sichuan-{table.pk}":
                    raise ValueError(f"{event!r}: a Sichuan stream without {SICHUAN_TABLE_OPENED}")
                else:
                    self._change(table, event)
            if len(done) >= 1000:
                copy_insert(SichuanTable, done)
                done = []
        copy_insert(SichuanTable, done + ([table] if table is not None else []))

    @staticmethod
    def _opened(event) -> SichuanTable:
        d = event.data
        return SichuanTable(
            id=d["table_id"],
            account_id=d["account_id"],
            human_seat=d.get("human_seat", HUMAN_SEAT),
            version=event.version,
            created_at=event.recorded_at,
            updated_at=event.recorded_at,
        )

    uses_live = True  # an intent's events (often 20+) change the locked row once, in flush()

    def apply(self, event: Event, live: LiveRows | None = None) -> None:
        if event.stream_type != STREAM_TYPE:
            return  # generic type names (``Settled`` …) may be used by other streams
        if event.type == SICHUAN_TABLE_OPENED:
            self._opened(event).save(force_insert=True)
            return
        table_id = event.stream_id.removeprefix("sichuan-")
        table = live.sichuan_table if live is not None else None
        if live is None or table is None or str(table.pk) != table_id:
            table = SichuanTable.objects.get(pk=table_id)
            self._change(table, event)
            table.save()
            return
        self._change(table, event)
        live.sichuan_table_dirty = True

    def flush(self, live: LiveRows) -> None:
        if live.sichuan_table_dirty:
            live.sichuan_table_dirty = False
            live.sichuan_table.save()

    @staticmethod
    def _change(table: SichuanTable, event: Event) -> None:
        d = event.data
        table.version, table.updated_at = event.version, event.recorded_at
        if event.type == TABLE_DEALT:
            table.seed, table.dealer = d["seed"], d["dealer"]
        elif event.type == SICHUAN_INTENT_ACCEPTED:
            table.seq = d["seq"]
        elif event.type == SETTLED:  # S-13…S-16: each record moves points from payer to payee
            scores = list(table.scores)
            for p in d["payments"]:
                scores[p["payer"]] -= p["amount"]
                scores[p["payee"]] += p["amount"]
            table.scores = scores
        elif event.type == DEAL_ENDED:
            table.status, table.scores = "finished", list(d["scores"])
            table.end_reason, table.finished_at = d["reason"], event.recorded_at


sichuan_table_projection = SichuanTableProjection()
