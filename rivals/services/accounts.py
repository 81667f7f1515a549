"""Account services (R-36): guest sign-in from a device, profile changes, joker balance changes."""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from rivals.errors import Invalid
from rivals.eventstore import ANY_VERSION, NewEvent, event_append
from rivals.models import Account
from rivals.text import clean_text

DISPLAY_NAME_MAX = 32
DEVICE_ID_MAX = 200


def _guest_username(device_id: str) -> str:
    return "guest-" + hashlib.sha256(device_id.encode()).hexdigest()[:24]


@transaction.atomic
def account_guest_signin(*, device_id: str) -> tuple[Account, str, bool]:
    """Create or return the account of a device, with its token. Creation is an event."""
    device_id = clean_text(device_id, field="device_id", max_length=DEVICE_ID_MAX, collapse_spaces=False)
    account = Account.objects.filter(device_id=device_id).first()
    created = False
    if account is None:
        try:
            with transaction.atomic():
                account = Account.objects.create_user(_guest_username(device_id), None, device_id=device_id)
                display_name = f"Player {account.pk}"
                event_append(
                    stream_id=account.stream_id,
                    stream_type="account",
                    expected_version=0,
                    actor=f"account:{account.pk}",
                    events=[
                        NewEvent(
                            "AccountCreated",
                            {"account_id": account.pk, "device_id": device_id, "display_name": display_name},
                        )
                    ],
                )
                created = True
        except IntegrityError:  # the same device signed in concurrently: return that account
            account = Account.objects.get(device_id=device_id)
    account.refresh_from_db()
    token, _ = Token.objects.get_or_create(user=account)
    return account, token.key, created


@transaction.atomic
def account_rename(*, account: Account, display_name: str) -> Account:
    name = clean_text(display_name, field="display_name", max_length=DISPLAY_NAME_MAX)
    if name != account.display_name:
        event_append(
            stream_id=account.stream_id,
            stream_type="account",
            expected_version=ANY_VERSION,
            actor=f"account:{account.pk}",
            events=[NewEvent("DisplayNameChanged", {"account_id": account.pk, "display_name": name})],
        )
        account.refresh_from_db(fields=["display_name"])
    return account


@transaction.atomic
def account_jokers_change(
    *, account: Account, delta: int, reason: str, actor: str, ref: dict | None = None
) -> Account:
    """Every change of a joker balance is a ``JokersChanged`` event (R-11)."""
    if delta == 0:
        raise Invalid("a joker change must not be zero")
    event_append(
        stream_id=account.stream_id,
        stream_type="account",
        expected_version=ANY_VERSION,
        actor=actor,
        events=[NewEvent("JokersChanged", {"account_id": account.pk, "delta": delta, "reason": reason, **(ref or {})})],
    )
    account.refresh_from_db(fields=["jokers"])
    return account
