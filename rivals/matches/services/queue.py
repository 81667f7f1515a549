"""The matchmaking queue (R-12 Quick Match, R-20 Arena): tickets, paired by the request that
completes a group — first come, first served, no worker needed.

A ticket is the stream ``queue-<id>``: ``QueueJoined``, then one of ``QueueMatched``,
``QueueLeft``, ``QueueExpired``. Joins of one account are serialised on an advisory lock, and
pairing of one mode on another, so two requests can never take the same waiting ticket.

Decisions: an account has one live ticket — a waiting one, or a matched one whose match still
runs — and a second join returns it (200) whatever mode it asks for; a waiting ticket expires
``QUEUE_TICKET_TTL_S`` (default 120 s) after joining (the client joins again); expiry is applied
on read, by a task at the expiry instant and by the beat sweeper.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rivals.errors import Invalid, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from rivals.locks import advisory_lock
from rivals.matches.events import queue_expired, queue_joined, queue_left, queue_matched
from rivals.matches.models import QueueTicket
from rivals.matches.services.matches import match_create
from rivals.models import Account

GROUP = {"quick": 2, "arena": 4}  # two players; R-20: four
STREAM_TYPE = "queue"


def _append(ticket_id, event: NewEvent, *, expected: int, actor: str, now: datetime) -> None:
    event_append(
        stream_id=f"queue-{ticket_id}",
        stream_type=STREAM_TYPE,
        expected_version=expected,
        actor=actor,
        now=now,
        events=[event],
    )


def _expire(ticket: QueueTicket, now: datetime) -> QueueTicket:
    _append(
        ticket.pk,
        queue_expired(ticket_id=ticket.pk),
        expected=ticket.version,
        actor="system",
        now=now,
    )
    ticket.refresh_from_db()
    return ticket


def _live_ticket(account: Account, now: datetime) -> QueueTicket | None:
    for ticket in (
        QueueTicket.objects.select_related("match")
        .filter(account=account, status__in=("waiting", "matched"))
        .order_by("-created_at")[:5]
    ):
        if ticket.status == "waiting":
            if ticket.expires_at <= now:
                _expire(QueueTicket.objects.select_for_update().get(pk=ticket.pk), now)
                continue
            return ticket
        if ticket.match.status == "running":
            return ticket
    return None


@transaction.atomic
def queue_join(*, account: Account, mode: str, now: datetime | None = None) -> tuple[QueueTicket, bool]:
    """Join the queue of ``mode``; returns (ticket, created). The join that completes a group
    creates the match at once, with the waiting tickets in the order they joined."""
    if mode not in GROUP:
        raise Invalid(f"unknown queue mode {mode!r}", details={"mode": [f"one of {sorted(GROUP)}"]})
    now = now or timezone.now()
    advisory_lock(f"queue-account:{account.pk}")
    live = _live_ticket(account, now)
    if live is not None:
        return live, False
    advisory_lock(f"queue:{mode}")
    waiting = list(
        QueueTicket.objects.select_for_update()
        .filter(mode=mode, status="waiting", expires_at__gt=now)
        .filter(account__suspended_at__isnull=True, account__closed_at__isnull=True)
        .exclude(account=account)
        .order_by("created_at", "pk")[: GROUP[mode] - 1]
    )
    ticket_id = uuid.uuid4()
    ttl = timedelta(seconds=settings.RIVALS["QUEUE_TICKET_TTL_S"])
    _append(
        ticket_id,
        queue_joined(ticket_id=ticket_id, account_id=account.pk, mode=mode, expires_at=now + ttl),
        expected=0,
        actor=f"account:{account.pk}",
        now=now,
    )
    ticket = QueueTicket.objects.get(pk=ticket_id)
    if len(waiting) == GROUP[mode] - 1:
        group = [*waiting, ticket]
        # the tickets hear of the match before its first round starts (API.md: a match's
        # match_found comes before its round_started): QueueMatched first, then the match
        match_id = uuid.uuid4()
        for t in group:
            _append(
                t.pk,
                queue_matched(ticket_id=t.pk, match_id=match_id),
                expected=t.version,
                actor=f"account:{account.pk}",
                now=now,
            )
        match_create(mode=mode, account_ids=[t.account_id for t in group], now=now, match_id=match_id)
        ticket.refresh_from_db()
    else:
        from rivals.matches.tasks import schedule_ticket_expiry

        schedule_ticket_expiry(ticket_id=ticket.pk, at=ticket.expires_at)
    return ticket, True


def _ticket_of(account: Account, ticket_id, *, lock: bool = False) -> QueueTicket:
    qs = QueueTicket.objects.select_for_update() if lock else QueueTicket.objects
    ticket = qs.filter(pk=ticket_id, account=account).first() if is_uuid(ticket_id) else None
    if ticket is None:
        raise NotFound("no such queue ticket")
    return ticket


@transaction.atomic
def queue_ticket_read(*, account: Account, ticket_id, now: datetime | None = None) -> QueueTicket:
    """A ticket as its owner polls it: an expiry that is due is applied first.

    Decision (issue 21): a ticket that was left (``DELETE``, or ended by the server for a
    suspension, R-38) is gone — 404, as HTTP reads a deleted resource; an expired or matched
    ticket stays readable, since the client polls to learn just that. ``DELETE`` again still answers
    the left ticket (a retried leave must not look like a failure)."""
    now = now or timezone.now()
    ticket = _ticket_of(account, ticket_id)
    if ticket.status == "left":
        raise NotFound("this queue ticket was left")
    if ticket.status == "waiting" and ticket.expires_at <= now:
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
    )
    ticket.refresh_from_db()
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
