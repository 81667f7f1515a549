"""Which event notifies whom (API.md "Notifications"): a registry the rooms fill from their apps'
``ready()`` — each room says, for the event types it owns, who hears of one and what they read
(``register``). The live room's notifications projection turns them into rows, inside the append's
transaction and by the rebuild (``rivals.live.projections``); the platform knows no room.

An event that does not name its accounts is completed by **facts**: what a room remembers of
earlier events of the log (a ticket's owner from its ``QueueJoined``, a wave's seating from its
``WaveSeated`` …). A room registers its facts twice over — read from the log itself inside the
append's transaction (live), and folded in memory in position order (the rebuild) — never from
another projection's tables, so the order of the rebuild does not matter. A notice asks for the
facts it needs by their kind: ``facts.of(TournamentFacts).seating(...)``.

A notice is ``(account id, notification type, data)``; each notification type's data has its
typed shape registered in ``rivals.notification_types``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rivals import projections

Notices = list[tuple[int, str, dict[str, Any]]]
T = TypeVar("T")


class Facts:
    """The facts of every room that registered some, one instance of each kind: read from the log
    (``log_facts``) or folded from it (``folded_facts``)."""

    def __init__(self, made: list[tuple[FactSource, Any]]) -> None:
        self._made = made  # (source, its reader or folder)

    def of(self, kind: type[T]) -> T:
        facts: T = next(made for source, made in self._made if source.kind is kind)
        return facts

    def learn(self, event: Any) -> None:
        """Fold ``event`` into the facts that learn from its type (the rebuild's pass)."""
        for source, facts in self._made:
            if event.type in source.learns:
                facts.learn(event)


class Told(Protocol):
    """``(event, its data, facts) → notices``: a room's function types ``data`` as the event type's
    payload (``rivals.event_types``: ``PairRemovedData`` …)."""

    def __call__(self, event: Any, data: Any, facts: Facts) -> Notices: ...


@dataclass(frozen=True)
class FactSource:
    """A room's facts: ``kind`` (the base class its notices ask for), the subclass that reads them
    from the log (``live``) and the one that folds them (``folded``, with ``learn(event)``) from the
    event types ``learns``."""

    kind: type
    live: Callable[[], Any]
    folded: Callable[[], Any]
    learns: frozenset[str]


_TOLD: dict[str, tuple[str, Told]] = {}
_FACTS: list[FactSource] = []
_NOTIFYING: frozenset[str] = frozenset()  # _TOLD's keys, kept as the projection reads them per event


def register(*, feature: str, told: Mapping[str, Told], facts: FactSource | None = None) -> None:
    """Register ``feature``'s notices (event type → who hears of it, and what) and its facts. An
    event type another room registered is refused; registering the same again is a no-op."""
    from django.core.exceptions import ImproperlyConfigured

    for event_type, fn in told.items():
        known = _TOLD.get(event_type)
        if known is not None and known != (feature, fn):
            raise ImproperlyConfigured(f"the notices of {event_type} are registered by {known[0]} and {feature}")
        _TOLD[event_type] = (feature, fn)
    global _NOTIFYING
    _NOTIFYING = frozenset(_TOLD)
    if facts is not None and all(f.kind is not facts.kind for f in _FACTS):
        _FACTS.append(facts)
    projections.reindex()  # the notifications projection reads the event types registered here


def features() -> list[str]:
    """The rooms (app labels) that registered notices."""
    return sorted({feature for feature, _ in _TOLD.values()})


def notifying() -> frozenset[str]:
    """The event types that notify someone."""
    return _NOTIFYING


def fact_types() -> frozenset[str]:
    """The event types the rebuild's facts fold."""
    return frozenset(t for source in _FACTS for t in source.learns)


def log_facts() -> Facts:
    return Facts([(source, source.live()) for source in _FACTS])


def folded_facts() -> Facts:
    return Facts([(source, source.folded()) for source in _FACTS])


def notices(event: Any, facts: Facts | None) -> Notices:
    """``[(account_id, notification type, data)]`` for one event (none for most)."""
    entry = _TOLD.get(event.type)
    return entry[1](event, event.data, facts if facts is not None else log_facts()) if entry else []


# --- helpers for the rooms' notices -------------------------------------------------------------------


def stream_suffix(stream_id: str, prefix: str) -> str:
    """``stream_id`` without ``prefix`` (``""`` when it has another)."""
    return stream_id[len(prefix) :] if stream_id.startswith(prefix) else ""


def logged_data(stream_id: str, where: str, params: list[Any]) -> dict[str, Any] | None:
    """The data of the first event of ``stream_id`` that ``where`` selects (SQL over
    ``rivals_event``, with its own ORDER BY if it needs one; ``params`` its values), read inside
    the append's transaction, bounded to the stream's partitions; None when there is none. A
    room's live facts read the log through this (``LogMatchFacts``, ``LogTournamentFacts``)."""
    import json

    from django.db import connection

    from rivals.eventstore import STREAM_BOUND_SQL

    with connection.cursor() as cur:
        cur.execute(
            f"SELECT data FROM rivals_event WHERE {STREAM_BOUND_SQL} AND {where} LIMIT 1",
            [stream_id, stream_id, *params],
        )
        row = cur.fetchone()
    if row is None:
        return None
    return row[0] if isinstance(row[0], dict) else json.loads(row[0])


def to_account(kind: str, view: Callable[[Any], dict[str, Any]]) -> Told:
    """An event of an account's stream (``account-<id>``), told to its account as ``kind`` with
    ``view(data)``."""

    def told(event: Any, data: Any, facts: Facts) -> Notices:
        tail = stream_suffix(event.stream_id, "account-")
        return [(int(tail), kind, view(data))] if tail.isdigit() else []

    return told
