"""The projection of competitive play: matches, their players, rounds, queue tickets and duels.

One projection for all of them, so that ``reset`` deletes in the order the foreign keys need.
Every decision (deadlines, places, prizes) was taken by the services and is in the events, so a
replay needs no engine and no clock.

One implementation: ``step(rows, event)`` is the pure effect of one event on the rows it names
(``MatchRows``, keyed by the ids the events carry). Live (inside every append's transaction)
loads the rows an event touches and the platform's driver (``rivals.projection_rows``) steps and
writes what changed; the rebuild folds the whole log into one ``MatchRows`` in memory and the
driver writes it with COPY, and a bulk append of new matches and
rounds (a tournament wave) folds them the same way. A round's end steps the locked rows the caller
hands over in ``live`` (the ``Round``, the ``Match``, its players; a pairing pass, the ticket) — no
query — and their changed columns are written once (``flush``), with the append's statement.

A pair on a round's board is not this projection's (issue 35): it changes the board alone, and
the round's idle deadline (R-17) is derived from the boards (``Round.clock_from``), so the players
of a round share no row on a pair.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from rivals.matches import events as ev
from rivals.matches.events import (
    DUEL_ACCEPTED,
    DUEL_CHALLENGED,
    DUEL_DECLINED,
    DUEL_EXPIRED,
    MATCH_CREATED,
    MATCH_FINISHED,
    QUEUE_EXPIRED,
    QUEUE_JOINED,
    QUEUE_LEFT,
    QUEUE_MATCHED,
    ROUND_ENDED,
    ROUND_SCHEDULED,
)
from rivals.matches.models import Duel, Match, MatchPlayer, QueueTicket, Round
from rivals.models import Event
from rivals.projection_rows import Rows, RowsDriver
from rivals.projections import LiveRows, Projection, defer_insert, defer_update
from rivals.rebuild import Table
from rivals.romanian_time import instant


def _dt(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


@dataclass
class MatchRows:
    """Rows of competitive play — all of them (the rebuild), or those one event touches (live)."""

    matches: dict[str, Match] = field(default_factory=dict)
    players: dict[tuple[str, int], MatchPlayer] = field(default_factory=dict)  # by (match id, account)
    rounds: dict[str, Round] = field(default_factory=dict)
    tickets: dict[str, QueueTicket] = field(default_factory=dict)
    duels: dict[str, Duel] = field(default_factory=dict)


# what the rows hold, parents first (rivals.projection_rows: the one driver)
DRIVER = RowsDriver(
    (
        Rows("matches", Match),
        Rows("players", MatchPlayer),
        Rows("rounds", Round),
        Rows("tickets", QueueTicket),
        Rows("duels", Duel),
    )
)

_CLOSED = {  # the closings that carry no more than their status (a match or acceptance: its own step)
    QUEUE_LEFT: "left",
    QUEUE_EXPIRED: "expired",
    DUEL_DECLINED: "declined",
    DUEL_EXPIRED: "expired",
}


# --- the one step per event ----------------------------------------------------------------------


def step(rows: MatchRows, event: Event) -> None:
    """Apply one event to the rows it names (pure: no database)."""
    _STEPS[event.type](rows, event, event.data)


def _row(collection: dict[str, Any], key: str, event: Event, what: str) -> Any:
    row = collection.get(key)
    if row is None:
        raise ValueError(f"{event!r}: {what} {key} does not exist")
    return row


def _match_created(rows: MatchRows, event: Event, d: ev.MatchCreatedData) -> None:
    match = Match(
        id=d["match_id"],
        mode=d["mode"],
        rounds_total=d["rounds_total"],
        context=d.get("context") or {},
        code=d.get("code") or "",
        salt=d.get("salt") or "",
        version=event.version,
        created_at=event.recorded_at,
    )
    rows.matches[d["match_id"]] = match
    for seat, account_id in enumerate(d["players"]):
        rows.players[(d["match_id"], account_id)] = MatchPlayer(match=match, account_id=account_id, seat=seat)


def _match_finished(rows: MatchRows, event: Event, d: ev.MatchFinishedData) -> None:
    match = _row(rows.matches, d["match_id"], event, "match")
    match.status, match.standings, match.prizes = "finished", d["standings"], d["prizes"]
    match.finished_at, match.version = _dt(d["finished_at"]), event.version
    prizes = {p["account_id"]: p["points"] for p in d["prizes"]}
    for standing in d["standings"]:
        player = rows.players.get((d["match_id"], standing["account_id"]))
        if player is not None:
            player.place, player.prize = standing["place"], prizes.get(standing["account_id"])


def _round_scheduled(rows: MatchRows, event: Event, d: ev.RoundScheduledData) -> None:
    rnd = Round(
        id=d["round_id"],
        match_id=d["match_id"],
        index=d["index"],
        mode=d["mode"],
        players=d["players"],
        code=d["code"] or "",
        salt=d.get("salt") or "",
        layout=d["layout"],
        starts_at=instant(d["starts_at"]),
        hard_ends_at=instant(d["hard_ends_at"]),
        cutoff_at=_dt(d.get("cutoff_at")),
        version=event.version,
    )
    rnd.ends_at = rnd.deadline()[0]
    rows.rounds[d["round_id"]] = rnd


def _round_ended(rows: MatchRows, event: Event, d: ev.RoundEndedData) -> None:
    rnd = _row(rows.rounds, d["round_id"], event, "round")
    rnd.status, rnd.ended_at, rnd.end_reason = "ended", _dt(d["ended_at"]), d["reason"]
    rnd.result, rnd.version = d, event.version
    for result in d["results"]:
        player = rows.players.get((d["match_id"], result["account_id"]))
        if player is not None:
            player.total_score += result["score"]


def _ticket_joined(rows: MatchRows, event: Event, d: ev.QueueJoinedData) -> None:
    rows.tickets[d["ticket_id"]] = QueueTicket(
        id=uuid.UUID(d["ticket_id"]),  # as the ORM reads it: the join answers with this instance
        account_id=d["account_id"],
        mode=d["mode"],
        created_at=event.recorded_at,
        expires_at=instant(d["expires_at"]),
        version=event.version,
    )


def _duel_challenged(rows: MatchRows, event: Event, d: ev.DuelChallengedData) -> None:
    rows.duels[d["duel_id"]] = Duel(
        id=d["duel_id"],
        challenger_id=d["challenger_id"],
        opponent_id=d["opponent_id"],
        created_at=event.recorded_at,
        expires_at=instant(d["expires_at"]),
        version=event.version,
    )


def _close(row: QueueTicket | Duel, event: Event, status: str) -> None:
    """A ticket or a duel closes once."""
    row.status, row.closed_at, row.version = status, event.recorded_at, event.version


def _ticket_closed(rows: MatchRows, event: Event, d: ev.QueueLeftData | ev.QueueExpiredData) -> None:
    _close(_row(rows.tickets, d["ticket_id"], event, "queue ticket"), event, _CLOSED[event.type])


def _ticket_matched(rows: MatchRows, event: Event, d: ev.QueueMatchedData) -> None:
    ticket = _row(rows.tickets, d["ticket_id"], event, "queue ticket")
    _close(ticket, event, "matched")
    ticket.match_id = uuid.UUID(d["match_id"])


def _duel_closed(rows: MatchRows, event: Event, d: ev.DuelDeclinedData | ev.DuelExpiredData) -> None:
    status = _CLOSED[event.type]
    # a withdrawal by the challenger, or the server's end of it (R-38: a party suspended or closed)
    if event.type == DUEL_DECLINED and d.get("by") in ("challenger", "system"):
        status = "cancelled"
    _close(_row(rows.duels, d["duel_id"], event, "duel"), event, status)


def _duel_accepted(rows: MatchRows, event: Event, d: ev.DuelAcceptedData) -> None:
    duel = _row(rows.duels, d["duel_id"], event, "duel")
    _close(duel, event, "accepted")
    duel.match_id = d["match_id"]


_STEPS: dict[str, Callable[[MatchRows, Event, Any], None]] = {
    MATCH_CREATED: _match_created,
    MATCH_FINISHED: _match_finished,
    ROUND_SCHEDULED: _round_scheduled,
    ROUND_ENDED: _round_ended,
    QUEUE_JOINED: _ticket_joined,
    DUEL_CHALLENGED: _duel_challenged,
    QUEUE_MATCHED: _ticket_matched,
    QUEUE_LEFT: _ticket_closed,
    QUEUE_EXPIRED: _ticket_closed,
    DUEL_ACCEPTED: _duel_accepted,
    DUEL_DECLINED: _duel_closed,
    DUEL_EXPIRED: _duel_closed,
}


# --- live: load the rows an event touches, step, write what changed ------------------------------


def _live_round(live: LiveRows | None, round_id: str) -> Round | None:
    rnd = live.round if live is not None else None
    return rnd if rnd is not None and str(rnd.pk) == round_id else None


def _load(event: Event, live: LiveRows | None) -> MatchRows:
    d, kind = event.data, event.type
    rows = MatchRows()
    if kind == ROUND_ENDED:
        rnd = _live_round(live, d["round_id"]) or Round.objects.filter(pk=d["round_id"]).first()
        if rnd is not None:
            rows.rounds[d["round_id"]] = rnd
    if kind == MATCH_FINISHED:
        match = live.match if live is not None else None
        if match is None or str(match.pk) != d["match_id"]:
            match = Match.objects.filter(pk=d["match_id"]).first()
        if match is not None:
            rows.matches[d["match_id"]] = match
    if kind in (ROUND_ENDED, MATCH_FINISHED):
        accounts = {r["account_id"] for r in d["results" if kind == ROUND_ENDED else "standings"]}
        kept = live.match_players if live is not None else None
        if kept is None or set(kept) != accounts or any(str(p.match_id) != d["match_id"] for p in kept.values()):
            # locked: their totals are read, added to and written back
            locked = MatchPlayer.objects.select_for_update().filter(match_id=d["match_id"], account_id__in=accounts)
            kept = {player.account_id: player for player in locked}
            if live is not None:
                live.match_players = kept  # the match's end steps them again (round_end_locked)
        for account_id, player in kept.items():
            rows.players[(d["match_id"], account_id)] = player
    elif kind.startswith("Queue") and kind != QUEUE_JOINED:
        ticket = live.ticket if live is not None else None
        if ticket is None or str(ticket.pk) != d["ticket_id"]:
            ticket = QueueTicket.objects.filter(pk=d["ticket_id"]).first()
        if ticket is not None:
            rows.tickets[d["ticket_id"]] = ticket
    elif kind.startswith("Duel") and kind != DUEL_CHALLENGED:
        duel = Duel.objects.filter(pk=d["duel_id"]).first()
        if duel is not None:
            rows.duels[d["duel_id"]] = duel
    return rows


def _kept_by_caller(live: LiveRows | None) -> Callable[[Any, tuple[str, ...] | None], bool] | None:
    """The rows the caller locked and handed over (``live``: the round, the match, its players, a
    ticket) are the ones every later event of the append steps again (``_load`` takes them, not a
    read): their changed columns are kept for ``flush``, which writes each row once, with the
    append's own statement (issue 35: a round's end wrote its players and its match in statements
    of their own). A join's new ticket is inserted there too (it was a statement of its own)."""
    if live is None:
        return None

    def keep(row: Any, fields: tuple[str, ...] | None) -> bool:
        if fields is None:  # a new row: a join's ticket is inserted with its QueueJoined's statement
            if not isinstance(row, QueueTicket):
                return False
            live.inserted.append(row)
            return True
        handed = (live.round, live.match, live.ticket, *(live.match_players or {}).values())
        if not any(row is mine for mine in handed):
            return False
        _, before = live.dirty.get(id(row), (row, frozenset()))
        live.dirty[id(row)] = (row, before | frozenset(fields))
        return True

    return keep


class MatchesProjection(Projection):
    name = "matches"
    event_types = frozenset(_STEPS)
    uses_live = True
    tables = tuple(Table(c.model._meta.db_table) for c in DRIVER.collections)

    def apply(self, event: Event, live: LiveRows | None = None) -> None:
        rows = _load(event, live)
        DRIVER.apply(rows, lambda rows: step(rows, event), keep=_kept_by_caller(live))
        if live is not None and event.type == QUEUE_JOINED:  # the new ticket, handed to its join: not read back
            live.ticket = rows.tickets[event.data["ticket_id"]]

    def flush(self, live: LiveRows) -> None:
        inserted, live.inserted = live.inserted, []
        for row in inserted:  # one INSERT a new row, sent with the append's own statement
            defer_insert(live, row)
        dirty, live.dirty = live.dirty, {}
        for row, fields in dirty.values():  # one UPDATE a row, sent with the append's own statement
            defer_update(live, row, fields)

    def apply_many(self, events: list[Event]) -> None:
        """New matches and rounds in bulk (a tournament wave): folded like the rebuild, then
        COPY; anything else one by one."""
        if any(e.type not in (MATCH_CREATED, ROUND_SCHEDULED) for e in events):
            return super().apply_many(events)
        rows = MatchRows()
        for event in events:
            step(rows, event)
        DRIVER.copy([rows])

    def rebuild(self, log: Any) -> None:
        """Every row folded in memory, then COPY."""
        rows = MatchRows()
        for event in log.events(self.event_types):
            step(rows, event)
        DRIVER.copy([rows])

    def reset(self) -> None:
        Duel.objects.all().delete()
        QueueTicket.objects.all().delete()
        Round.objects.all().delete()
        MatchPlayer.objects.all().delete()
        Match.objects.all().delete()


matches_projection = MatchesProjection()
