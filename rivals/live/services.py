"""Writes of the live room: the single-use socket tickets (API.md "Live updates")."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.db import transaction

from rivals.live.models import LiveTicket
from rivals.models import Account
from rivals.secrets import secret_digest

TICKET_TTL = timedelta(seconds=30)  # API.md: valid 30 s


@transaction.atomic
def live_ticket_issue(*, account: Account, now: datetime) -> tuple[str, datetime]:
    """A new ticket for ``account`` (its text once; only its digest is kept) and its expiry.
    Expired tickets are pruned here: tickets are few, and this keeps the table small."""
    LiveTicket.objects.filter(expires_at__lt=now - TICKET_TTL).delete()
    ticket = secrets.token_urlsafe(24)
    expires_at = now + TICKET_TTL
    LiveTicket.objects.create(digest=secret_digest(ticket), account=account, expires_at=expires_at)
    return ticket, expires_at


def live_ticket_redeem(*, ticket: str, now: datetime) -> Account | None:
    """The account a ticket opens a socket for — once: redeeming deletes it (a second use, an
    expired or unknown ticket: ``None``). A suspended or closed account opens none (R-38)."""
    if not ticket or len(ticket) > 200:
        return None
    with transaction.atomic():
        row = LiveTicket.objects.filter(digest=secret_digest(ticket)).select_for_update().first()
        if row is None:
            return None
        row.delete()
    if row.expires_at <= now:
        return None
    account = Account.objects.filter(pk=row.account_id, is_active=True).first()
    if account is None or account.suspended_at is not None or account.closed_at is not None:
        return None
    return account
