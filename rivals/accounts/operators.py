"""Operators' accounts (issue 22): the admin's staff are accounts, but not players — no public
profile, no ranking presence, never listed (``selectors.LISTED``). Their creation is an event like
every account's (``OperatorCreated``, read by the account profile projection), so that
``rebuild_projections --verify`` holds on any database with operators.

Every way an operator account comes to exist goes through ``operator_create``: the admin's "Add
operator", ``manage.py createsuperuser`` (the platform's ``AccountManager.create_superuser``, to
which this room registers it) and ``make run``'s development superuser (``dev_operator_ensure``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from rivals.accounts.events import operator_created
from rivals.accounts.services import account_event
from rivals.errors import Conflict, Invalid
from rivals.models import Account, Event
from rivals.text import clean_text

RESERVED_PREFIXES = ("guest-", "closed-")  # the usernames the services give players' accounts
CREATED = ("AccountCreated", "OperatorCreated")


@transaction.atomic
def operator_create(
    *, username: str, password: str | None, actor: str, superuser: bool = True, now: datetime | None = None
) -> Account:
    """A new operator's account: the row (its password hashed; ``None``: unusable) and its
    ``OperatorCreated`` event. Decision: operators are superusers — the admin has no per-model
    permissions to hand out (and shows no permission widgets)."""
    username = clean_text(username, field="username", max_length=150, collapse_spaces=False)
    if username.startswith(RESERVED_PREFIXES):
        message = f"an operator's username cannot start with {' or '.join(RESERVED_PREFIXES)} (players' names)"
        raise Invalid(f"username: {message}", details={"username": [message]})
    if Account.objects.filter(username=username).exists():
        raise Conflict("an account with this username exists", details={"username": ["taken"]})
    account = Account(username=username, is_staff=True, is_superuser=superuser)
    account.set_password(password)
    account.save()
    event = operator_created(account_id=account.pk, display_name=username, superuser=superuser)
    account_event(account, event, actor=actor, now=now)
    account.refresh_from_db()
    return account


def operators_recorded(*, actor: str = "system") -> int:
    """Operators made before their creation was an event (a ``createsuperuser`` of an older
    version, the old development superuser) get their ``OperatorCreated`` now, with their name as
    it stands — what the rebuild then reproduces. Returns how many were recorded."""
    staff = list(Account.objects.filter(is_staff=True).order_by("pk"))
    known = set(
        Event.objects.filter(stream_id__in=[a.stream_id for a in staff], type__in=CREATED).values_list(
            "stream_id", flat=True
        )
    )
    recorded = 0
    for account in staff:
        if account.stream_id in known:
            continue
        name = account.display_name or account.username
        event = operator_created(account_id=account.pk, display_name=name, superuser=account.is_superuser)
        with transaction.atomic():
            account_event(account, event, actor=actor)
        recorded += 1
    return recorded


@dataclass(frozen=True)
class DevOperator:
    username: str
    password: str | None  # the password to print (None: unchanged)
    created: bool


def dev_operator_ensure(*, username: str, password: str | None) -> DevOperator:
    """``make run``'s development superuser: created with ``password`` (else a random one, printed
    once) if missing; if it exists, its password becomes ``password`` when one is given
    (``RIVALS_ADMIN_PASSWORD``: how a forgotten one is set again) and is otherwise left alone."""
    operators_recorded()
    account = Account.objects.filter(username=username).first()
    if account is None:
        password = password or secrets.token_urlsafe(12)
        operator_create(username=username, password=password, actor="system")
        return DevOperator(username, password, created=True)
    if password:
        account.set_password(password)
        account.save(update_fields=["password"])
        return DevOperator(username, password, created=False)
    return DevOperator(username, None, created=False)
