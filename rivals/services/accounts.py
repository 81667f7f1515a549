"""Account services (R-36): guest sign-in from a device, profile changes, joker balance changes,
closing an account. Email and password credentials: ``rivals.services.credentials``."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone

from rivals import personal
from rivals.errors import Invalid, NotAllowed
from rivals.eventstore import ANY_VERSION, NewEvent, event_append
from rivals.models import AccessToken, Account
from rivals.signals import account_restricted
from rivals.text import clean_text

DISPLAY_NAME_MAX = 32
DEVICE_ID_MAX = 200


def _guest_username(device_id: str) -> str:
    return "guest-" + hashlib.sha256(device_id.encode()).hexdigest()[:24]


def token_ref(key: str) -> str:
    """How events name a token: a fingerprint, never the key itself."""
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def token_issue(*, account: Account, kind: str) -> AccessToken:
    return AccessToken.objects.create(key=secrets.token_hex(20), account=account, kind=kind)


def account_event(
    account: Account,
    type_: str,
    data: dict | None = None,
    *,
    actor: str | None = None,
    schema_version: int = 1,
    now: datetime | None = None,
):
    """Append one event to the account's stream (actor: the account itself unless given;
    ``now``: the server clock, for jobs and the demo world's simulated clock)."""
    return event_append(
        stream_id=account.stream_id,
        stream_type="account",
        expected_version=ANY_VERSION,
        actor=actor or f"account:{account.pk}",
        now=now,
        events=[NewEvent(type_, {"account_id": account.pk, **(data or {})}, schema_version)],
    )


@transaction.atomic
def account_guest_signin(*, device_id: str, now: datetime | None = None) -> tuple[Account, str, bool]:
    """Create or return the account of a device, with its device token. Creation is an event
    (``AccountCreated``), a returning device a ``SignedIn``. The device id stays in the account
    row: no event carries it (``rivals.personal``)."""
    device_id = clean_text(device_id, field="device_id", max_length=DEVICE_ID_MAX, collapse_spaces=False)
    account = Account.objects.filter(device_id=device_id).first()
    created = False
    if account is None:
        try:
            with transaction.atomic():
                account = Account.objects.create_user(_guest_username(device_id), None, device_id=device_id)
                personal.account_key_create(account_id=account.pk)
                account_event(
                    account, "AccountCreated", {"display_name": f"Player {account.pk}"}, schema_version=2, now=now
                )
                created = True
        except IntegrityError:  # the same device signed in concurrently: return that account
            account = Account.objects.get(device_id=device_id)
    account.refresh_from_db()
    token = AccessToken.objects.filter(account=account, kind="device").order_by("created_at").first()
    if token is None:
        token = token_issue(account=account, kind="device")
    if not created:
        account_event(account, "SignedIn", {"method": "device", "token": token_ref(token.key)}, now=now)
    return account, token.key, created


@transaction.atomic
def account_rename(*, account: Account, display_name: str, now: datetime | None = None) -> Account:
    """A name the player chose is personal data: sealed in the event with the account's key."""
    name = clean_text(display_name, field="display_name", max_length=DISPLAY_NAME_MAX)
    if name != account.display_name:
        account_event(
            account,
            "DisplayNameChanged",
            personal.seal(account_id=account.pk, field="display_name", value=name),
            schema_version=2,
            now=now,
        )
        account.refresh_from_db(fields=["display_name"])
    return account


@transaction.atomic
def account_jokers_change(
    *, account: Account, delta: int, reason: str, actor: str, ref: dict | None = None, now: datetime | None = None
) -> Account:
    """Every change of a joker balance is a ``JokersChanged`` event (R-11)."""
    if delta == 0:
        raise Invalid("a joker change must not be zero")
    account_event(account, "JokersChanged", {"delta": delta, "reason": reason, **(ref or {})}, actor=actor, now=now)
    account.refresh_from_db(fields=["jokers"])
    return account


@transaction.atomic
def account_close(*, account: Account, reason: str, actor: str, erase: bool = True) -> Account:
    """Close an account (an operator's act, or the player's erasure request): ``AccountClosed``.

    What the rules need stays: its games, rounds, points ledger and the results other players'
    places depend on (they name the account by id only). The account can no longer sign in (its
    tokens are deleted, its password unusable), leaves its club and every ranking and
    leaderboard. With ``erase`` its personal data goes: email, device id and username are blanked
    in the row and its key is destroyed, so the names sealed in its events are unreadable —
    no event is rewritten (``rivals.personal``)."""
    account = Account.objects.select_for_update().get(pk=account.pk)
    if account.closed_at is not None:
        raise NotAllowed("the account is already closed", details={"closed_at": account.closed_at.isoformat()})
    if account.is_staff:
        raise NotAllowed("an operator's account is not closed here: remove its staff status first")
    reason = clean_text(reason, field="reason", max_length=300)
    from rivals.clubs.services import club_leave_on_close

    club_leave_on_close(account=account, actor=actor)
    account_event(account, "AccountClosed", {"reason": reason, "erased": erase}, actor=actor)
    account_restricted.send(sender=Account, account_id=account.pk, reason="account_closed", now=timezone.now())
    AccessToken.objects.filter(account=account).delete()
    account.is_active = False
    account.password = make_password(None)
    fields = ["is_active", "password"]
    if erase:
        account.email = account.pending_email = account.device_id = None
        account.email_verified = False
        account.username = f"closed-{account.pk}"
        account.last_login = None
        fields += ["email", "pending_email", "device_id", "email_verified", "username", "last_login"]
        personal.account_key_destroy(account_id=account.pk)
    account.save(update_fields=fields)
    account.refresh_from_db()
    return account
