"""Projections: read models derived from events, applied live in the append's transaction.

Each projection names the event types it reads, the tables it writes, how to reset its state,
how to apply one event (live) and how to rebuild its tables from the whole log (``rebuild``:
by default one event at a time; the projections with many events fold them in memory and write
in bulk). ``rebuild_all`` runs ``rivals.rebuild``: private copies, then a short swap of the rows
that differ; tests prove the result equals the live state.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rivals.models import Event


@dataclass(eq=False)
class LiveRows:
    """What one append hands its live projections (``uses_live``): the caller's locked rows, which
    they step in place instead of loading them, and what those steps changed, written once at the
    end of the append (``flush``; the writes ride in one round trip: ``deferred``)."""

    game: Any = None  # a board (rivals.games): the caller's locked Game
    round: Any = None  # a round's row (rivals.matches)
    match: Any = None  # a match's row (rivals.matches)
    ticket: Any = None  # a queue ticket's row the pairing pass locked (rivals.matches)
    # a match's players as a round's end locked them, by account (rivals.matches: RoundEnded's
    # projection keeps them here, the match's MatchFinished steps them again)
    match_players: Any = None
    ratings: Any = None  # the rating rows the ratings service locked, by account (rivals.ratings)
    sichuan_table: Any = None  # a Sichuan table's row (rivals.sichuan)
    game_dirty: str | None = None  # the board's row to write: "insert" or "update"
    game_faces: bool = False  # its faces changed (a shuffle, a restart): written too
    game_plan_changed: bool = False  # the intent set its cached plan (games' ``set_plan``): written too
    # the caller's locked rows a step changed (the round, the match, its players, a ticket), by
    # identity: each row's changed columns, written once at the append's flush (``defer_update``)
    dirty: dict[int, tuple[Any, frozenset[str]]] = field(default_factory=dict)
    inserted: list = field(default_factory=list)  # new rows a step made, inserted at the flush (``defer_insert``)
    sichuan_table_dirty: bool = False
    statistics_games: set = field(default_factory=set)  # (account, layout) played, written once
    statistics_counts: dict = field(default_factory=dict)  # a round's end: counters by account, written once
    deferred: list[tuple[str, list]] = field(default_factory=list)  # ``defer_write``
    # ahead of the INSERT, a ``joins_append`` projection's writes that read ``appended``
    after: list[tuple[str, list]] = field(default_factory=list)


class Projection:
    name: str = ""
    event_types: frozenset[str] = frozenset()
    # the tables it writes (``rivals.rebuild.Table``): a rebuild builds them in private copies
    tables: tuple = ()
    # jobs change its tables without events (the rankings roll): a swap compares them under its lock
    written_by_jobs: bool = False
    # A projection that sets ``uses_live`` receives the caller's instances (``live``) and is
    # flushed once after all events of one append (``flush(live)``).
    uses_live: bool = False
    # A projection that sets ``joins_append`` writes rows that name the events' positions, which
    # only the INSERT gives. An append of one event whose projections are all live or joining
    # runs them ahead of the INSERT (``apply_live_ahead``), the event without its position: such
    # a projection then writes through SQL that reads the position from the append's own
    # ``appended (position, version)``, in the append's one statement — ``ahead(event)`` for a
    # projection that is not live (in every append of one event, whatever its other projections:
    # ``joined_ahead``); a live one's ``apply`` sees ``event.position is None`` and queues those
    # writes in ``live.after``. Of several events, a later one's rows could depend on an earlier
    # one's, which the log would not hold yet: they are applied after the INSERT.
    joins_append: bool = False

    def reset(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def apply(self, event: Event, live: LiveRows | None = None) -> None:  # pragma: no cover - interface
        """One event's effect (``live``: the caller's locked instances, for ``uses_live`` projections)."""
        raise NotImplementedError

    def flush(self, live: LiveRows) -> None:
        """Write what ``apply`` changed on live instances (only for ``uses_live`` projections)."""

    def ahead(self, event: Event) -> list[tuple[str, list]]:  # pragma: no cover - interface
        """``apply``'s writes for one event that has its version but not yet its position, as SQL
        statements that read it from ``appended`` (only for ``joins_append`` projections)."""
        raise NotImplementedError

    @property
    def rebuild_types(self) -> frozenset[str]:
        """The event types ``rebuild`` reads one by one (the progress bar counts them)."""
        return self.event_types

    def rebuild(self, log: Any) -> None:
        """Write this projection's state from the whole log (``rivals.rebuild.EventLog``) into its
        tables, which are empty (or reset). The default applies the events one by one, in
        position order; projections with many events override it with a fold in memory and bulk
        writes."""
        for page in log.pages(self.event_types):
            for event in page:
                self.apply(event)

    def apply_many(self, events: list[Event]) -> None:
        """Apply ``events`` (this projection's, in position order). Projections that can write
        rows in bulk override it; the default applies them one by one."""
        for event in events:
            self.apply(event)


_REGISTRY: list[Projection] = []
_BY_TYPE: dict[str, list[Projection]] = defaultdict(list)


def register(projection: Projection) -> Projection:
    if any(p.name == projection.name for p in _REGISTRY):
        return projection
    _REGISTRY.append(projection)
    reindex()
    return projection


def reindex() -> None:
    """Index the projections by event type again: a projection whose types grow as rooms register
    (the notifications', ``rivals.notices``) is found for them."""
    _BY_TYPE.clear()
    for projection in _REGISTRY:
        for t in projection.event_types:
            _BY_TYPE[t].append(projection)


def registered() -> list[Projection]:
    return list(_REGISTRY)


def by_type(event_type: str) -> list[Projection]:
    return _BY_TYPE.get(event_type, [])


def apply_live(events: Iterable[Event], live: LiveRows | None = None, *, joined: bool = False) -> None:
    """Apply events just stored (their positions known). ``joined``: the projections that join the
    append and are not live wrote theirs in its statement (``joined_ahead``)."""
    touched: list[Projection] = []
    for event in events:
        for projection in _BY_TYPE.get(event.type, ()):
            if joined and projection.joins_append and not projection.uses_live:
                continue
            if projection.uses_live and live is not None:
                projection.apply(event, live=live)
                if projection not in touched:
                    touched.append(projection)
            else:
                projection.apply(event)
    if live is None:
        return
    for projection in touched:
        projection.flush(live)
    if live.deferred:
        _run_deferred(live)


def only_live(events: list[Event]) -> bool:
    """True when every projection of these events takes the caller's live instances and needs
    no position — or, for an append of one event, takes them or joins the append
    (``joins_append``)."""
    if len(events) == 1:
        return all(p.uses_live or p.joins_append for p in _BY_TYPE.get(events[0].type, ()))
    return all(p.uses_live and not p.joins_append for event in events for p in _BY_TYPE.get(event.type, ()))


def apply_live_ahead(events: list[Event], live: LiveRows) -> tuple[list[tuple[str, list]], list[tuple[str, list]]]:
    """``apply_live`` for an append whose projections are all live (``only_live``), before its
    events are stored (they have their versions, not yet their positions): returns the deferred
    row writes instead of sending them, for the event store to send with its INSERT — those that
    need nothing of the INSERT, and those that read ``appended`` (``joins_append``)."""
    joined: list[tuple[str, list]] = []
    for event in events:
        for projection in _BY_TYPE.get(event.type, ()):
            if projection.uses_live:
                projection.apply(event, live=live)
        joined += joined_ahead(event)  # the others join the append (``only_live``)
    for projection in dict.fromkeys(p for e in events for p in _BY_TYPE.get(e.type, ()) if p.uses_live):
        projection.flush(live)
    writes, live.deferred = live.deferred, []
    after, live.after = live.after + joined, []
    return writes, after


def joined_ahead(event: Event) -> list[tuple[str, list]]:
    """An append of one event whose projections are not all live or joining (``only_live``): the
    writes of those that join the append and are not live, for its statement; the others are
    applied after it (``apply_live(joined=True)``)."""
    return [w for p in _BY_TYPE.get(event.type, ()) if p.joins_append and not p.uses_live for w in p.ahead(event)]


def apply_batch(events: list[Event]) -> None:
    """Apply many new events (e.g. the creation of many streams at once): each projection, in
    registration order, gets all of its events in position order in one ``apply_many`` call."""
    for projection in _REGISTRY:
        mine = [e for e in events if e.type in projection.event_types]
        if mine:
            projection.apply_many(mine)


def defer_write(live: LiveRows, sql: str, params: list) -> None:
    """Queue one write of a live projection's flush: the writes of one append (e.g. a board's row
    and its round's row) are sent as one multi-statement round trip at the end of the append."""
    live.deferred.append((sql, params))


def _run_deferred(live: LiveRows) -> None:
    writes, live.deferred = live.deferred, []
    send_writes(writes)


def send_writes(writes: list[tuple[str, list]]) -> None:
    """Send row writes (``(sql, params)``) as one multi-statement round trip."""
    from django.db import connection

    if writes:
        with connection.cursor() as cur:
            cur.execute("; ".join(sql for sql, _ in writes), [p for _, params in writes for p in params])


# --- writing what a step changed (live projections that load rows, step them, write them back) ---

_MISSING = object()


def row_values(obj: Any) -> dict[str, Any]:
    """A snapshot of a model instance's values, taken before a step (``changed_fields`` compares
    it after). Steps assign new values, they do not change a value in place."""
    return obj.__dict__.copy()


def changed_fields(before: dict[str, Any], obj: Any) -> tuple[str, ...]:
    """The fields of ``obj`` (attribute names, in field order) whose values differ from ``before``."""
    now, changed = obj.__dict__, []
    for name in _attnames(obj.__class__):
        a, b = before.get(name, _MISSING), now.get(name, _MISSING)
        if a is not b and a != b:
            changed.append(name)
    return tuple(changed)


@cache
def _attnames(model: Any) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


@cache
def _update_one(model: Any, fields: frozenset[str]) -> tuple[str, tuple]:
    from rivals.rawsql import _preparer

    columns = [f for f in model._meta.concrete_fields if f.attname in fields]
    assign = ", ".join(f"{c.column} = %s" for c in columns)
    return (
        f"UPDATE {model._meta.db_table} SET {assign} WHERE {model._meta.pk.column} = %s",
        tuple((c.attname, _preparer(c)) for c in columns),
    )


def defer_update(live: LiveRows, obj: Any, fields: frozenset[str]) -> None:
    """``defer_write`` the UPDATE of ``fields`` of one row (the caller's locked instance) by
    primary key, the columns in field order."""
    sql, columns = _update_one(obj.__class__, fields)
    values = [prepare(getattr(obj, name)) if prepare else getattr(obj, name) for name, prepare in columns]
    defer_write(live, sql, [*values, obj.pk])


@cache
def _insert_one(model: Any, position: str | None) -> tuple[str, tuple]:
    """One row's INSERT (its columns cast, as a prepared statement needs): its values, or with
    ``position`` its event's position read from ``appended``. A serial primary key is left to the
    table."""
    from django.db import connection

    from rivals.rawsql import _preparer

    fields = [
        f for f in model._meta.concrete_fields if not (f.primary_key and f.get_internal_type().endswith("AutoField"))
    ]
    values = ", ".join("appended.position" if f.attname == position else f"%s::{f.db_type(connection)}" for f in fields)
    source = f"SELECT {values} FROM appended" if position else f"VALUES ({values})"
    return (
        f"INSERT INTO {model._meta.db_table} ({', '.join(f.column for f in fields)}) {source}",
        tuple((f.attname, _preparer(f)) for f in fields if f.attname != position),
    )


def _insert_params(obj: Any, columns: tuple) -> list:
    return [prepare(getattr(obj, name)) if prepare else getattr(obj, name) for name, prepare in columns]


def insert_joined(obj: Any, position: str) -> tuple[str, list]:
    """A ``joins_append`` projection's INSERT of one new row (an instance) whose ``position`` field
    is its event's, read from ``appended`` — an append of one event, so ``appended`` is one row."""
    sql, columns = _insert_one(obj.__class__, position)
    return sql, _insert_params(obj, columns)


def defer_insert(live: LiveRows, obj: Any) -> None:
    """``defer_write`` the INSERT of one new row (a step's instance, its key set), which is then
    as the ORM leaves a saved one."""
    sql, columns = _insert_one(obj.__class__, None)
    defer_write(live, sql, _insert_params(obj, columns))
    obj._state.adding, obj._state.db = False, "default"


def update_rows(model: Any, objs: list, fields: list[str]) -> None:
    """UPDATE the ``fields`` of many rows by primary key in one statement (arrays of the values)."""
    from django.db import connection

    if len(objs) == 1:
        objs[0].save(update_fields=fields)
        return
    meta = model._meta
    columns = [meta.get_field(f) for f in fields]
    assign = ", ".join(f"{c.column} = v.{c.column}" for c in columns)
    arrays = ", ".join(f"%s::{c.db_type(connection)}[]" for c in [meta.pk, *columns])
    names = ", ".join(c.column for c in [meta.pk, *columns])
    with connection.cursor() as cur:
        cur.execute(
            f"UPDATE {meta.db_table} t SET {assign} FROM unnest({arrays}) AS v({names}) "
            f"WHERE t.{meta.pk.column} = v.{meta.pk.column}",
            [
                [o.pk for o in objs],
                *([c.get_db_prep_save(getattr(o, c.attname), connection) for o in objs] for c in columns),
            ],
        )


def rebuild_all(progress: bool = False) -> int:
    """Rebuild every projection from the log (``rivals.rebuild``: private copies, then a short
    swap of the rows that differ). Returns the number of events replayed."""
    from rivals.rebuild import rebuild

    return rebuild(progress=progress).events
