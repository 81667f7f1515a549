"""Operators' accounts (issues 22 and 40): the admin's staff are accounts, but not players — no
public profile, no ranking presence, never listed (``selectors.LISTED``). Each holds one role
(``rivals.accounts.roles``: Administrator, Game operations, Support, Viewer). Their life is
events on their account stream, with the acting operator as actor, like every account's:
``OperatorCreated`` (read by the account profile projection, so ``rebuild_projections --verify``
holds on any database with operators), ``OperatorRoleChanged``, ``OperatorRemoved``.

Every way an operator account comes to exist goes through ``operator_create``: the Operators
page's "Add", ``manage.py operator_add``, ``manage.py createsuperuser`` (the platform's
``AccountManager.create_superuser``, to which this room registers it: an Administrator) and
``make run``'s development superuser (``dev_operator_ensure``). There is always an
Administrator: the last one can be neither removed nor given another role.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.hashers import make_password
from django.db import transaction

from rivals.accounts.events import (
    ACCOUNT_CREATED,
    OPERATOR_CREATED,
    operator_created,
    operator_removed,
    operator_role_changed,
)
from rivals.accounts.roles import ADMINISTRATOR, ROLES, role_assign, role_label, role_of
from rivals.accounts.services import account_event
from rivals.errors import Conflict, Invalid, NotAllowed
from rivals.locks import advisory_lock
from rivals.models import AccessToken, Account, Event
from rivals.text import clean_text

RESERVED_PREFIXES = ("guest-", "closed-")  # the usernames the services give players' accounts
CREATED = (ACCOUNT_CREATED, OPERATOR_CREATED)
ROLES_LOCK = "operators:roles"  # serialises the changes that could leave no Administrator


def _role_checked(role: str) -> str:
    if role not in ROLES:
        text = f"role: one of {', '.join(ROLES)}"
        raise Invalid(text, details={"role": [text]})
    return role


def _reason(reason: str) -> str:
    return clean_text(reason, field="reason", max_length=300)


@transaction.atomic
def operator_create(
    *, username: str, password: str | None, actor: str, role: str = ADMINISTRATOR, now: datetime | None = None
) -> Account:
    """A new operator's account: the row (its password hashed; ``None``: unusable), its role
    (``rivals.accounts.roles``) and its ``OperatorCreated`` event. ``createsuperuser`` makes an
    Administrator (the default)."""
    role = _role_checked(role)
    username = clean_text(username, field="username", max_length=150, collapse_spaces=False)
    if username.startswith(RESERVED_PREFIXES):
        message = f"an operator's username cannot start with {' or '.join(RESERVED_PREFIXES)} (players' names)"
        raise Invalid(f"username: {message}", details={"username": [message]})
    if Account.objects.filter(username=username).exists():
        raise Conflict("an account with this username exists", details={"username": ["taken"]})
    account = Account(username=username, is_staff=True)
    account.set_password(password)
    account.save()
    role_assign(account, role)
    account_event(
        account, operator_created(account_id=account.pk, display_name=username, role=role), actor=actor, now=now
    )
    account.refresh_from_db()
    return account


def _operator_locked(account: Account) -> Account:
    advisory_lock(ROLES_LOCK)
    account = Account.objects.select_for_update().get(pk=account.pk)
    if not account.is_staff:
        raise NotAllowed("not an operator: a player's account")
    if not account.is_active:
        raise NotAllowed("the operator was removed")
    return account


def _other_administrators(account: Account) -> int:
    return Account.objects.filter(is_staff=True, is_active=True, is_superuser=True).exclude(pk=account.pk).count()


@transaction.atomic
def operator_role_change(*, account: Account, role: str, actor: str, reason: str = "") -> Account:
    """An Administrator gives the operator another role (``OperatorRoleChanged``); the last
    Administrator keeps theirs. ``reason``: a note for operators (may be empty)."""
    role = _role_checked(role)
    account = _operator_locked(account)
    previous = role_of(account)
    if previous == role:
        raise NotAllowed(f"the operator is already {role_label(role)}")
    if previous == ADMINISTRATOR and not _other_administrators(account):
        raise NotAllowed("the last Administrator cannot be given another role: make another Administrator first")
    reason = clean_text(reason or "", field="reason", max_length=300, min_length=0)
    role_assign(account, role)
    changed = operator_role_changed(account_id=account.pk, role=role, previous_role=previous, reason=reason)
    account_event(account, changed, actor=actor)
    account.refresh_from_db()
    return account


@transaction.atomic
def operator_remove(*, account: Account, reason: str, actor: str) -> Account:
    """Offboarding (``OperatorRemoved``): the person can no longer sign in — the account made
    inactive (its admin sessions end at their next request), its password unusable, its API
    tokens deleted, its role taken away. The account stays: its past actions stay attributed to
    it by name. The last Administrator cannot be removed."""
    account = _operator_locked(account)
    role = role_of(account)
    if role == ADMINISTRATOR and not _other_administrators(account):
        raise NotAllowed("the last Administrator cannot be removed: make another Administrator first")
    reason = _reason(reason)
    account.is_active, account.is_superuser, account.password = False, False, make_password(None)
    account.save(update_fields=["is_active", "is_superuser", "password"])
    account.groups.clear()
    AccessToken.objects.filter(account=account).delete()
    account_event(account, operator_removed(account_id=account.pk, role=role, reason=reason), actor=actor)
    account.refresh_from_db()
    return account


def operator_actor(username: str | None) -> str:
    """The actor of a script's act: ``operator:<id>`` of the active operator named (``--by``),
    else ``operator:cli`` (someone at the server's shell)."""
    if not username:
        return "operator:cli"
    by = Account.objects.filter(username=username, is_staff=True, is_active=True).first()
    if by is None:
        raise NotAllowed(f"--by: no active operator is named {username!r}")
    return f"operator:{by.pk}"


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
        event = operator_created(account_id=account.pk, display_name=name, role=role_of(account) or "viewer")
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
