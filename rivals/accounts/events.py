"""The events of accounts (R-36, R-37, R-11): one typed constructor each.

Stream ``account-<id>`` (stream type ``account``), appended through
``rivals.accounts.services.account_event``; every event names its ``account_id``. No event
carries an email, a password, a device id or a token (``token``: its reference,
``rivals.secrets.token_ref``); a name the player typed is sealed with the account's key
(``display_name_sealed``, ``rivals.personal``) — the events of schema version 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
ACCOUNT_CLOSED = "AccountClosed"
ACCOUNT_CREATED = "AccountCreated"
ACCOUNT_DATA_EXPORTED = "AccountDataExported"
ADMIN_SIGN_IN_FAILED = "AdminSignInFailed"
ADMIN_SIGNED_IN = "AdminSignedIn"
CREDENTIALS_ADDED = "CredentialsAdded"
DISPLAY_NAME_CHANGED = "DisplayNameChanged"
DISPLAY_NAME_RESET = "DisplayNameReset"
EMAIL_VERIFIED = "EmailVerified"
JOKERS_CHANGED = "JokersChanged"
OPERATOR_CREATED = "OperatorCreated"
OPERATOR_REMOVED = "OperatorRemoved"
OPERATOR_ROLE_CHANGED = "OperatorRoleChanged"
PASSWORD_CHANGED = "PasswordChanged"
PASSWORD_RESET = "PasswordReset"
PASSWORD_RESET_REQUESTED = "PasswordResetRequested"
SIGN_IN_FAILED = "SignInFailed"
SIGNED_IN = "SignedIn"
SIGNED_OUT = "SignedOut"

ACCOUNT_EVENTS = frozenset(
    {
        ACCOUNT_CREATED,
        OPERATOR_CREATED,
        DISPLAY_NAME_CHANGED,
        DISPLAY_NAME_RESET,
        JOKERS_CHANGED,
        ACCOUNT_CLOSED,
        CREDENTIALS_ADDED,
        EMAIL_VERIFIED,
        SIGNED_IN,
        SIGN_IN_FAILED,
        SIGNED_OUT,
        PASSWORD_CHANGED,
        PASSWORD_RESET_REQUESTED,
        PASSWORD_RESET,
        ADMIN_SIGNED_IN,
        ADMIN_SIGN_IN_FAILED,
        OPERATOR_ROLE_CHANGED,
        OPERATOR_REMOVED,
        ACCOUNT_DATA_EXPORTED,
    }
)
# AccountCreated, DisplayNameChanged version 2: no personal data in the clear (version 1 had the
# display name and the device id). Issue 40: OperatorCreated version 2 names the operator's role
# (version 1: ``superuser``); DisplayNameReset and JokersChanged version 2 keep what the player is
# told (``reason_code``, ``message``) apart from the operator's note (``reason`` / ``note``).
SCHEMA_VERSIONS = {
    ACCOUNT_CREATED: 2,
    DISPLAY_NAME_CHANGED: 2,
    OPERATOR_CREATED: 2,
    DISPLAY_NAME_RESET: 2,
    JOKERS_CHANGED: 2,
}


def _event(type_: str, data: Mapping[str, Any]) -> NewEvent:
    return NewEvent(type_, data, SCHEMA_VERSIONS.get(type_, 1))


# --- profile -----------------------------------------------------------------------------------


class AccountCreatedData(TypedDict):
    """Version 2: no personal data in the clear (version 1 had the display name and the device id)."""

    account_id: int
    display_name: str


def account_created(*, account_id: int, display_name: str) -> NewEvent:
    """A guest account of a new device; ``display_name``: the default one (``Player <id>``)."""
    data: AccountCreatedData = {"account_id": account_id, "display_name": display_name}
    return _event(ACCOUNT_CREATED, data)


class OperatorCreatedData(TypedDict):
    """Version 2: ``role`` (version 1 had ``superuser`` instead)."""

    account_id: int
    display_name: str
    role: str


def operator_created(*, account_id: int, display_name: str, role: str) -> NewEvent:
    """An operator's account (the admin's staff, not a player: no public profile, no ranking):
    ``display_name`` is its username, the name it goes by in the admin — an identifier chosen at
    work, not a player's name, so in the clear; ``role``: ``administrator``, ``game_ops``,
    ``support`` or ``viewer`` (``rivals.accounts.roles``). Every way an operator comes to exist
    writes it (the Operators page, ``manage.py operator_add`` and ``createsuperuser``, ``make
    run``'s development superuser). Version 1 had ``superuser`` instead of the role."""
    data: OperatorCreatedData = {"account_id": account_id, "display_name": display_name, "role": role}
    return _event(OPERATOR_CREATED, data)


class OperatorRoleChangedData(TypedDict):
    account_id: int
    role: str
    previous_role: str | None
    reason: str


def operator_role_changed(*, account_id: int, role: str, previous_role: str | None, reason: str) -> NewEvent:
    """An Administrator gave the operator another role (``previous_role`` None: it had none)."""
    data: OperatorRoleChangedData = {
        "account_id": account_id,
        "role": role,
        "previous_role": previous_role,
        "reason": reason,
    }
    return _event(OPERATOR_ROLE_CHANGED, data)


class OperatorRemovedData(TypedDict):
    account_id: int
    role: str | None
    reason: str


def operator_removed(*, account_id: int, role: str | None, reason: str) -> NewEvent:
    """Offboarding: the operator can no longer sign in (its sessions and tokens end); the account
    stays, so its past actions stay attributed to it by name."""
    data: OperatorRemovedData = {"account_id": account_id, "role": role, "reason": reason}
    return _event(OPERATOR_REMOVED, data)


class DisplayNameChangedData(TypedDict):
    """Version 2: the name sealed, ``display_name_sealed`` (version 1 had the display name in the clear)."""

    account_id: int
    display_name_sealed: str


def display_name_changed(*, account_id: int, display_name_sealed: str) -> NewEvent:
    """The name the player chose, sealed with the account's key (``rivals.personal.seal``)."""
    data: DisplayNameChangedData = {"account_id": account_id, "display_name_sealed": display_name_sealed}
    return _event(DISPLAY_NAME_CHANGED, data)


class DisplayNameResetData(TypedDict):
    """Version 2: ``reason_code`` and ``message`` (version 1 had the operator's note, ``reason``, only)."""

    account_id: int
    display_name: str
    previous_name_sealed: str
    reason: str
    report_id: str | None
    reason_code: str
    message: str


def display_name_reset(
    *,
    account_id: int,
    display_name: str,
    previous_name_sealed: str,
    reason: str,
    report_id: str | None = None,
    reason_code: str,
    message: str,
) -> NewEvent:
    """R-39: an operator reset the name to a neutral one (``display_name``, in the clear: it is not
    the player's); the name reset is sealed with the account's key (``previous_name_sealed``: the
    same name is refused to the player for a while, and erasure makes it unreadable). On the
    account's stream: the player is told (the ``display_name_reset`` notification) the
    ``reason_code`` and the ``message`` written for them ("" for none) — never ``reason``, the
    operator's note (version 2; version 1 had the note only)."""
    data: DisplayNameResetData = {
        "account_id": account_id,
        "display_name": display_name,
        "previous_name_sealed": previous_name_sealed,
        "reason": reason,
        "report_id": report_id,
        "reason_code": reason_code,
        "message": message,
    }
    return _event(DISPLAY_NAME_RESET, data)


class JokersRef(TypedDict, total=False):
    """What a joker change was for (its keys join the event's data): a game (``game_id``: R-9), a
    day's bonus (``day``, ``streak``: R-31), a store's purchase (``transaction_id``, ``product``:
    R-11)."""

    game_id: str
    day: str
    streak: int
    transaction_id: str
    product: str


class JokersChangedData(TypedDict):
    """``ref``'s keys join the data; an operator's change has ``note``, ``reason_code`` and ``message`` (version 2:
    version 1 had the note only)."""

    account_id: int
    delta: int
    reason: str
    game_id: NotRequired[str]
    day: NotRequired[str]
    streak: NotRequired[int]
    transaction_id: NotRequired[str]
    product: NotRequired[str]
    note: NotRequired[str]
    reason_code: NotRequired[str]
    message: NotRequired[str]


def jokers_changed(
    *,
    account_id: int,
    delta: int,
    reason: str,
    ref: JokersRef | None = None,
    note: str | None = None,
    reason_code: str | None = None,
    message: str | None = None,
) -> NewEvent:
    """R-11: every change of a joker balance; ``ref``'s keys join the data (``game_id``, ``day``
    and ``streak`` …). An operator's grant or correction (version 2) has ``note`` (the operator's,
    never shown to the player), ``reason_code`` and ``message`` (what the player is told, "" for
    nothing more than the code); version 1 had the note only."""
    data: JokersChangedData = {"account_id": account_id, "delta": delta, "reason": reason, **(ref or {})}
    if reason_code is not None:
        data["note"], data["reason_code"], data["message"] = note or "", reason_code, message or ""
    return _event(JOKERS_CHANGED, data)


class AccountDataExportedData(TypedDict):
    account_id: int
    by: str


def account_data_exported(*, account_id: int, by: str) -> NewEvent:
    """The account's data was exported (GDPR Art. 15, 20): ``by`` the player (``player``: at most
    one an hour) or, on a subject access request, an ``operator`` (the event's actor)."""
    data: AccountDataExportedData = {"account_id": account_id, "by": by}
    return _event(ACCOUNT_DATA_EXPORTED, data)


class AccountClosedData(TypedDict):
    account_id: int
    reason: str
    erased: bool


def account_closed(*, account_id: int, reason: str, erased: bool) -> NewEvent:
    """``erased``: its personal data went with it (its key destroyed)."""
    data: AccountClosedData = {"account_id": account_id, "reason": reason, "erased": erased}
    return _event(ACCOUNT_CLOSED, data)


# --- credentials and sign-in -----------------------------------------------------------------------


class CredentialsAddedData(TypedDict):
    account_id: int
    changed: NotRequired[bool]
    tokens_revoked: NotRequired[int]
    device_unlinked: NotRequired[bool]


def credentials_added(
    *, account_id: int, changed: bool = False, tokens_revoked: int = 0, device_unlinked: bool = False
) -> NewEvent:
    """An email (to verify) and a password; ``changed`` when they replace existing ones (then
    the other tokens revoked and whether the device id was unlinked)."""
    data: CredentialsAddedData = {"account_id": account_id}
    if changed:
        data["changed"], data["tokens_revoked"], data["device_unlinked"] = True, tokens_revoked, device_unlinked
    return _event(CREDENTIALS_ADDED, data)


class EmailVerifiedData(TypedDict):
    account_id: int


def email_verified(*, account_id: int) -> NewEvent:
    data: EmailVerifiedData = {"account_id": account_id}
    return _event(EMAIL_VERIFIED, data)


class SignedInData(TypedDict):
    account_id: int
    method: str
    token: str


def signed_in(*, account_id: int, method: str, token: str) -> NewEvent:
    """``method``: ``device`` or ``password``; ``token``: the new token's reference."""
    data: SignedInData = {"account_id": account_id, "method": method, "token": token}
    return _event(SIGNED_IN, data)


class SignInFailedData(TypedDict):
    account_id: int
    method: str


def sign_in_failed(*, account_id: int, method: str) -> NewEvent:
    data: SignInFailedData = {"account_id": account_id, "method": method}
    return _event(SIGN_IN_FAILED, data)


class SignedOutData(TypedDict):
    account_id: int
    token: str


def signed_out(*, account_id: int, token: str) -> NewEvent:
    data: SignedOutData = {"account_id": account_id, "token": token}
    return _event(SIGNED_OUT, data)


class PasswordChangedData(TypedDict):
    account_id: int
    tokens_revoked: int
    device_unlinked: bool


def password_changed(*, account_id: int, tokens_revoked: int, device_unlinked: bool) -> NewEvent:
    data: PasswordChangedData = {
        "account_id": account_id,
        "tokens_revoked": tokens_revoked,
        "device_unlinked": device_unlinked,
    }
    return _event(PASSWORD_CHANGED, data)


class PasswordResetRequestedData(TypedDict):
    account_id: int


def password_reset_requested(*, account_id: int) -> NewEvent:
    data: PasswordResetRequestedData = {"account_id": account_id}
    return _event(PASSWORD_RESET_REQUESTED, data)


class PasswordResetData(TypedDict):
    account_id: int
    tokens_revoked: int
    device_unlinked: bool


def password_reset(*, account_id: int, tokens_revoked: int, device_unlinked: bool) -> NewEvent:
    data: PasswordResetData = {
        "account_id": account_id,
        "tokens_revoked": tokens_revoked,
        "device_unlinked": device_unlinked,
    }
    return _event(PASSWORD_RESET, data)


class AdminSignedInData(TypedDict):
    account_id: int
    via: str


def admin_signed_in(*, account_id: int) -> NewEvent:
    """An operator signed in to the admin site."""
    data: AdminSignedInData = {"account_id": account_id, "via": "admin"}
    return _event(ADMIN_SIGNED_IN, data)


class AdminSignInFailedData(TypedDict):
    account_id: int
    via: str


def admin_sign_in_failed(*, account_id: int) -> NewEvent:
    data: AdminSignInFailedData = {"account_id": account_id, "via": "admin"}
    return _event(ADMIN_SIGN_IN_FAILED, data)
