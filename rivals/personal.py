"""Personal data inside events: sealed with the account's own key, so that erasure destroys the
key instead of rewriting events (crypto-shredding).

Decision (R-37, erasure requests): the event log keeps no personal data in the clear. Email
addresses, device ids, IP addresses and password hashes never enter an event (they live in the
account row's identity columns, which erasure blanks); a name the player typed (a display name)
is stored in its event as ``<field>_sealed``: Fernet (AES-128-CBC + HMAC-SHA256) under a key of
that account (``AccountKey``). Destroying the key (``account_key_destroy``) makes every sealed
value of the account unreadable — in the live log, in replicas, and in a rebuild, which then
shows the erased name (``ERASED_NAME``). Events written before this scheme (``display_name`` in
the clear, ``device_id`` in ``AccountCreated``) are legacy; docs/api.md "Personal data" says how
an operator handles them.
"""

from __future__ import annotations

from typing import Any

from cryptography.fernet import Fernet, InvalidToken

ERASED_NAME = "Closed account"


def account_key_create(*, account_id: int) -> None:
    from rivals.models import AccountKey

    AccountKey.objects.get_or_create(account_id=account_id, defaults={"key": Fernet.generate_key().decode()})


def account_key_destroy(*, account_id: int) -> bool:
    from rivals.models import AccountKey

    deleted, _ = AccountKey.objects.filter(account_id=account_id).delete()
    return bool(deleted)


def _fernet(account_id: int) -> Fernet | None:
    from rivals.models import AccountKey

    key = AccountKey.objects.filter(account_id=account_id).values_list("key", flat=True).first()
    return Fernet(key.encode()) if key else None


def seal(*, account_id: int, field: str, value: str) -> dict[str, str]:
    """``{"<field>_sealed": token}`` for an event's data (the account's key is created if missing)."""
    fernet = _fernet(account_id)
    if fernet is None:
        account_key_create(account_id=account_id)
        fernet = _fernet(account_id)
    return {f"{field}_sealed": fernet.encrypt(value.encode()).decode()}


def unseal(data: dict[str, Any], *, account_id: int, field: str) -> str | None:
    """The value of ``field`` in an event's data: sealed (None once the key is destroyed) or, in
    a legacy event, in the clear."""
    token = data.get(f"{field}_sealed")
    if token is None:
        return data.get(field)
    fernet = _fernet(account_id)
    if fernet is None:
        return None
    try:
        return fernet.decrypt(token.encode()).decode()
    except InvalidToken:
        return None
