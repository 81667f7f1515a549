"""The matchmaking queue (R-12 Quick Match, R-20 Arena, R-42 rating-aware): tickets, paired by
the closest ratings inside a window that widens with each ticket's wait (``rivals.matches.pairing``,
a pure function) — no worker needed: every join runs a pairing pass, and so does the beat's sweep
(every 2 s), which applies the widened windows of tickets nobody joined after.

A ticket is the stream ``queue-<id>``: ``QueueJoined``, then one of ``QueueMatched``,
``QueueLeft``, ``QueueExpired``. Joins of one account are serialised on an advisory lock. A join
commits its ticket first, then runs a pairing pass in a transaction of its own; no lock is held
across the queue (issue 35): a pass reads the waiting tickets, decides its groups, then locks each
group's tickets (in id order, so two passes never deadlock) and matches it only if every one of
them still waits — a ticket left, expired or matched by another pass meanwhile is never matched,
and two passes never take the same ticket. Of two joins at once, the pass that starts last sees
both tickets (each pass starts after its own ticket committed); a ticket a concurrent pass's
group left over waits for the next join's pass or the sweep's (every 2 s).

Decisions: an account has one live ticket — a waiting one, or a matched one whose match still
runs — and a second join returns it (200) whatever mode it asks for; a waiting ticket expires
``QUEUE_TICKET_TTL_S`` (default 120 s) after joining (the client joins again); expiry is applied
on read, by a task at the expiry instant and by the beat sweeper. R-42: a group's seats are in
the order its players joined.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from rivals.errors import Invalid, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from rivals.locks import advisory_lock
from rivals.matches import pairing
from rivals.matches.events import queue_expired, queue_joined, queue_left, queue_matched
from rivals.matches.models import QueueTicket
from rivals.matches.pairing import Waiting
from rivals.matches.services.matches import matches_create
from rivals.models import Account
from rivals.projections import LiveRows
from rivals.ratings.selectors import pairing_ratings
from rivals.rawsql import execute_prepared, models_from_rows, select_list

GROUP = {"quick": 2, "arena": 4}  # two players; R-20: four
STREAM_TYPE = "queue"


def _append(
    ticket_id, event: NewEvent, *, expected: int, actor: str, now: datetime, locked: QueueTicket | None = None
) -> QueueTicket | None:
    """``locked``: the ticket's row the caller holds locked — the projection steps it, reads it no
    more. Returns the ticket as the projection left it (a join's: the new row)."""
    live = LiveRows(ticket=locked)
    event_append(
        stream_id=f"queue-{ticket_id}",
        stream_type=STREAM_TYPE,
        expected_version=expected,
        actor=actor,
        now=now,
        events=[event],
        live=live,
    )
    return live.ticket


def _expire(ticket: QueueTicket, now: datetime) -> QueueTicket:
    """``ticket``: locked by the caller — the projection steps it in place."""
    _append(
        ticket.pk, queue_expired(ticket_id=ticket.pk), expected=ticket.version, actor="system", now=now, locked=ticket
    )
    return ticket


def _live_ticket(account: Account, now: datetime) -> QueueTicket | None:
    """The account's live ticket, if any (newest first, through ``queue_account_recent``): one
    prepared statement, its match's status beside each ticket."""
    with connection.cursor() as django_cursor:
        cur = execute_prepared(django_cursor, _LIVE_SQL, [int(account.pk)])
        tickets = models_from_rows(QueueTicket, cur, cur.fetchall())
    for ticket in tickets:
        if ticket.status == "waiting":
            if ticket.expires_at <= now:
                _expire(QueueTicket.objects.select_for_update().get(pk=ticket.pk), now)
                continue
            return ticket
        if ticket.match_status == "running":
            return ticket
    return None


_LIVE_SQL = (
    f"SELECT {select_list(QueueTicket, 't')}, m.status AS match_status FROM matches_queue_ticket t "
    "LEFT JOIN matches_match m ON m.id = t.match_id WHERE t.account_id = %s AND t.status IN ('waiting', 'matched') "
    "ORDER BY t.created_at DESC LIMIT 5"
)


def queue_join(*, account: Account, mode: str, now: datetime | None = None) -> tuple[QueueTicket, bool]:
    """Join the queue of ``mode``; returns (ticket, created) — a ticket this join's own pass
    matched knows its match's first round (``current_round_id``). The join that completes a group
    creates the match at once (its pairing pass, after the ticket is committed), with the waiting
    tickets in the order they joined. The answer is the ticket as the pass left it (issue 35: not
    read again); a pass of another join that matches it a moment later is what the next poll tells."""
    if mode not in GROUP:
        raise Invalid(f"unknown queue mode {mode!r}", details={"mode": [f"one of {sorted(GROUP)}"]})
    now = now or timezone.now()
    with transaction.atomic():
        advisory_lock(f"queue-account:{account.pk}")
        live = _live_ticket(account, now)
        if live is not None:
            return live, False
        ticket_id = uuid.uuid4()
        ttl = timedelta(seconds=settings.RIVALS["QUEUE_TICKET_TTL_S"])
        ticket = _append(
            ticket_id,
            queue_joined(ticket_id=ticket_id, account_id=account.pk, mode=mode, expires_at=now + ttl),
            expected=0,
            actor=f"account:{account.pk}",
            now=now,
        )
        assert ticket is not None  # the projection hands the new ticket back
    with transaction.atomic():
        made = _pass(mode=mode, now=now, actor=f"account:{account.pk}")
    for group, round_id in made:
        for matched in group:
            if matched.pk == ticket.pk:
                matched.current_round_id = round_id
                return matched, True
    from rivals.matches.tasks import schedule_ticket_expiry

    schedule_ticket_expiry(ticket_id=ticket.pk, at=ticket.expires_at)
    return ticket, True


def _waiting(mode: str, now: datetime) -> list[Waiting]:
    """The queue's state for pairing: the tickets that still wait, with their players' μ and last
    opponents (R-38: a suspended or closed account is matched with nobody). Ticket ids as text:
    pairing compares them to break ties, and text compares fast."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT t.id::text, t.account_id, t.created_at FROM matches_queue_ticket t "
            "JOIN rivals_account a ON a.id = t.account_id WHERE t.mode = %s AND t.status = 'waiting' "
            "AND t.expires_at > %s AND a.suspended_at IS NULL AND a.closed_at IS NULL",
            [mode, now],
        )
        rows = cur.fetchall()
    ratings = pairing_ratings([a for _, a, _ in rows])
    return [
        Waiting(ticket=pk, account=a, mu=ratings[a][0], joined_at=joined, last=frozenset(ratings[a][1]))
        for pk, a, joined in rows
    ]


def _pass(*, mode: str, now: datetime, actor: str) -> list[tuple[list[QueueTicket], uuid.UUID]]:
    """One pairing pass over the waiting tickets of ``mode`` (in the caller's transaction): the
    groups ``pairing.groups`` chooses become matches — those whose tickets all still wait once
    locked. Returns the matches made: each group's tickets (matched, as the projection left them)
    and its match's first round."""
    chosen = pairing.groups(_waiting(mode, now), size=GROUP[mode], now=now, window=queue_window())
    if not chosen:
        return []
    ids = sorted(str(t.ticket) for group in chosen for t in group)
    # locked in one order (ORDER BY pk): two passes over overlapping tickets wait for each other,
    # they never deadlock — unordered, the rows were locked in whatever order the scan met them
    locked = {
        str(t.pk): t
        for t in QueueTicket.objects.select_for_update()
        .filter(pk__in=ids, status="waiting", expires_at__gt=now)
        .order_by("pk")
    }
    groups = [[locked[str(t.ticket)] for t in group] for group in chosen if all(str(t.ticket) in locked for t in group)]
    if not groups:
        return []
    # the tickets hear of their match before its first round starts (API.md: a match's match_found
    # comes before its round_started): QueueMatched first, then the matches
    match_ids = [uuid.uuid4() for _ in groups]
    for group, match_id in zip(groups, match_ids, strict=True):
        for t in group:
            matched = queue_matched(ticket_id=t.pk, match_id=match_id, account_id=t.account_id)
            _append(t.pk, matched, expected=t.version, actor=actor, now=now, locked=t)
    made = matches_create(
        mode=mode,
        tables=[([t.account_id for t in group], None) for group in groups],
        now=now,
        match_ids=match_ids,
        accounts_known=True,  # the tickets' own accounts (a foreign key), not a caller's list
    )
    return [(group, round_id) for group, (_, round_id) in zip(groups, made, strict=True)]


def queue_window() -> pairing.Window:
    """R-42's window, from the settings (read at each pass)."""
    return pairing.Window(
        start=settings.RIVALS["QUEUE_WINDOW_START"],
        growth=settings.RIVALS["QUEUE_WINDOW_GROWTH_PER_S"],
        anyone_after_s=settings.RIVALS["QUEUE_WINDOW_ANYONE_S"],
    )


@transaction.atomic
def queue_pair(*, mode: str, now: datetime | None = None) -> int:
    """A pairing pass of ``mode`` (the beat's sweep): the windows widened since the last join."""
    now = now or timezone.now()
    if QueueTicket.objects.filter(mode=mode, status="waiting", expires_at__gt=now).count() < GROUP[mode]:
        return 0
    return len(_pass(mode=mode, now=now, actor="system"))


def queue_pair_due(*, now: datetime | None = None) -> int:
    """Beat sweeper: a pairing pass of each mode."""
    now = now or timezone.now()
    return sum(queue_pair(mode=mode, now=now) for mode in GROUP)


def _ticket_of(account: Account, ticket_id, *, lock: bool = False) -> QueueTicket:
    """The account's ticket (locked if asked): one prepared statement (a waiting player polls)."""
    ticket = None
    if is_uuid(ticket_id):
        with connection.cursor() as django_cursor:
            sql = _TICKET_SQL + (" FOR UPDATE" if lock else "")
            cur = execute_prepared(django_cursor, sql, [str(ticket_id), int(account.pk)])
            ticket = next(iter(models_from_rows(QueueTicket, cur, cur.fetchall())), None)
    if ticket is None:
        raise NotFound("no such queue ticket")
    return ticket


_TICKET_SQL = f"SELECT {select_list(QueueTicket)} FROM matches_queue_ticket WHERE id = %s AND account_id = %s"


def queue_ticket_read(*, account: Account, ticket_id, now: datetime | None = None) -> QueueTicket:
    """A ticket as its owner polls it: an expiry that is due is applied first.

    Decision (issue 21): a ticket that was left (``DELETE``, or ended by the server for a
    suspension, R-38) is gone — 404, as HTTP reads a deleted resource; an expired or matched
    ticket stays readable, since the client polls to learn just that. ``DELETE`` again still answers
    the left ticket (a retried leave must not look like a failure). A poll is one prepared
    statement and no transaction (issue 35: a waiting player polls); only a due expiry takes one."""
    now = now or timezone.now()
    ticket = _ticket_of(account, ticket_id)
    if ticket.status == "left":
        raise NotFound("this queue ticket was left")
    if ticket.status == "waiting" and ticket.expires_at <= now:
        with transaction.atomic():
            ticket = _ticket_of(account, ticket_id, lock=True)
            if ticket.status == "waiting":
                ticket = _expire(ticket, now)
    return ticket


@transaction.atomic
def queue_leave(*, account: Account, ticket_id, now: datetime | None = None) -> QueueTicket:
    """Leave the queue. Leaving twice is a no-op; a matched ticket cannot leave (its match runs)."""
    now = now or timezone.now()
    advisory_lock(f"queue-account:{account.pk}")
    ticket = _ticket_of(account, ticket_id, lock=True)
    if ticket.status == "matched":
        raise NotAllowed("the ticket is already matched: play the match", details={"match": str(ticket.match_id)})
    if ticket.status != "waiting":
        return ticket
    if ticket.expires_at <= now:
        return _expire(ticket, now)
    _append(
        ticket.pk,
        queue_left(ticket_id=ticket.pk),
        expected=ticket.version,
        actor=f"account:{account.pk}",
        now=now,
        locked=ticket,  # stepped in place by the projection
    )
    return ticket


def queue_tickets_end(*, account_id: int, reason: str, now: datetime) -> int:
    """R-38: the account's waiting tickets end at once (``QueueLeft`` with the reason, by the
    server) — a suspended or closed account is matched with nobody. In the caller's transaction."""
    advisory_lock(f"queue-account:{account_id}")
    tickets = QueueTicket.objects.select_for_update().filter(account_id=account_id, status="waiting").order_by("pk")
    for ticket in tickets:
        _append(
            ticket.pk,
            queue_left(ticket_id=ticket.pk, reason=reason),
            expected=ticket.version,
            actor="system",
            now=now,
            locked=ticket,
        )
    return len(tickets)


@transaction.atomic
def queue_ticket_expire_if_due(*, ticket_id, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    ticket = QueueTicket.objects.select_for_update().filter(pk=ticket_id).first()
    if ticket is None or ticket.status != "waiting" or ticket.expires_at > now:
        return False
    _expire(ticket, now)
    return True


def queue_expire_due(*, now: datetime | None = None) -> int:
    """Beat sweeper: expire waiting tickets whose time is up."""
    now = now or timezone.now()
    due = QueueTicket.objects.filter(status="waiting", expires_at__lte=now).values_list("pk", flat=True)
    return sum(queue_ticket_expire_if_due(ticket_id=pk, now=now) for pk in list(due[:1000]))
