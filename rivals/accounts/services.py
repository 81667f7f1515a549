"""Account services (R-36): guest sign-in from a device, profile changes, joker balance changes,
closing an account. Email and password credentials: ``rivals.accounts.credentials``."""

from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone

from rivals import personal
from rivals.accounts.events import (
    ACCOUNT_CLOSED,
    ACCOUNT_DATA_EXPORTED,
    DISPLAY_NAME_RESET,
    account_closed,
    account_created,
    account_data_exported,
    display_name_changed,
    display_name_reset,
    jokers_changed,
    signed_in,
)
from rivals.errors import Forbidden, Invalid, NotAllowed, Throttled, Unauthenticated
from rivals.eventstore import ANY_VERSION, NewEvent, event_append, stream_filter
from rivals.models import AccessToken, Account, Event
from rivals.names import name_skeleton, visible_text
from rivals.player_notice import notice_clean
from rivals.replica import acted_for
from rivals.romanian_time import iso_z
from rivals.secrets import secret_digest, token_ref
from rivals.signals import account_restricted
from rivals.text import clean_text

DISPLAY_NAME_MAX = 32
DEVICE_ID_MAX = 200
# Each guest sign-in mints a token (a stored token cannot be given back: it is kept hashed); an
# account keeps its newest device tokens only.
DEVICE_TOKENS_KEPT = 20
# a name an operator reset is refused to the same player for this long
NAME_RESET_HOLD = timedelta(days=7)
UNLINKED = "this device no longer signs in to its account: sign in with the account's email and password"


def _guest_username(device_hash: str) -> str:
    return "guest-" + device_hash[:24]


def token_issue(*, account: Account, kind: str) -> tuple[AccessToken, str]:
    """A new token of ``account``: the row (its key is the token's digest) and the token itself,
    which only the caller's answer carries."""
    key = secrets.token_hex(20)
    acted_for(account.pk)  # a sign-in: the new token's account reads its own writes (rivals.replica)
    return AccessToken.objects.create(key=secret_digest(key), account=account, kind=kind), key


def tokens_revoke(*, account: Account, keep: str | None = None) -> int:
    """Delete every token of the account but ``keep`` (a token as the client holds it)."""
    qs = AccessToken.objects.filter(account=account)
    if keep:
        qs = qs.exclude(key=secret_digest(keep))
    deleted, _ = qs.delete()
    return deleted


def account_device_unlink(*, account: Account, now: datetime | None = None) -> bool:
    """The account's device id no longer signs in (issue 19: a credential change or a reset).
    Only for an account that can sign in with a verified email — never a way to lock a guest out.
    Inside the caller's transaction, the account row locked."""
    if account.device_id is None or account.device_unlinked_at is not None or not account.email_verified:
        return False
    account.device_unlinked_at = now or timezone.now()
    account.save(update_fields=["device_unlinked_at"])
    return True


def _device_id_checked(device_id: str) -> None:
    """A device id signs in to its guest account: it is a secret (docs/security.md). A new one
    must be at least ``RIVALS_DEVICE_ID_MIN_LENGTH`` long and not a run of a few characters;
    clients should send 128 random bits or more. Ids of existing accounts keep signing in."""
    least, distinct = settings.RIVALS["DEVICE_ID_MIN_LENGTH"], settings.RIVALS["DEVICE_ID_MIN_DISTINCT"]
    if len(device_id) < least or len(set(device_id)) < distinct:
        message = (
            f"a new device id must be at least {least} characters with at least "
            f"{distinct} different ones (send 128 random bits, e.g. a random UUID)"
        )
        raise Invalid(f"device_id: {message}", details={"device_id": [message]})


def account_event(account: Account, event: NewEvent, *, actor: str | None = None, now: datetime | None = None):
    """Append one event (``rivals.accounts.events``, or another feature's about the account) to
    the account's stream (actor: the account itself unless given; ``now``: the server clock, for
    jobs and the demo world's simulated clock)."""
    if event.data.get("account_id") != account.pk:
        raise ValueError(f"{event.type} is about account {event.data.get('account_id')}, not {account.pk}")
    return event_append(
        stream_id=account.stream_id,
        stream_type="account",
        expected_version=ANY_VERSION,
        actor=actor or f"account:{account.pk}",
        now=now,
        events=[event],
    )


@transaction.atomic
def account_guest_signin(*, device_id: str, now: datetime | None = None) -> tuple[Account, str, bool]:
    """Create or return the account of a device, with a new device token. Creation is an event
    (``AccountCreated``), a returning device a ``SignedIn``. The account row keeps the device id's
    digest only (``rivals.secrets``); no event carries it (``rivals.personal``). A device id that
    a credential change or a reset unlinked is refused (401): that account signs in by email."""
    device_id = clean_text(device_id, field="device_id", max_length=DEVICE_ID_MAX, collapse_spaces=False)
    device_hash = secret_digest(device_id)
    # locked: a closure committing meanwhile unlinks the device, and the row no longer
    # matches — the device then signs in as a new guest, nothing is appended to the closed account
    account = Account.objects.select_for_update(no_key=True).filter(device_id=device_hash).first()
    created = False
    if account is None:
        _device_id_checked(device_id)
        try:
            with transaction.atomic():
                account = Account.objects.create_user(_guest_username(device_hash), None, device_id=device_hash)
                personal.account_key_create(account_id=account.pk)
                account_event(
                    account, account_created(account_id=account.pk, display_name=neutral_name(account.pk)), now=now
                )
                created = True
        except IntegrityError:  # the same device signed in concurrently: return that account
            account = Account.objects.get(device_id=device_hash)
    account.refresh_from_db()
    if account.device_unlinked_at is not None:
        raise Unauthenticated(UNLINKED, details={"sign_in": "password"})
    token, key = token_issue(account=account, kind="device")
    stale = AccessToken.objects.filter(account=account, kind="device").order_by("-created_at", "-key")
    AccessToken.objects.filter(pk__in=stale.values("pk")[DEVICE_TOKENS_KEPT:]).delete()
    if not created:
        account_event(account, signed_in(account_id=account.pk, method="device", token=token_ref(key)), now=now)
    return account, key, created


SUSPENDED_FACE = (
    "this account is suspended: it cannot change its display name, found or join a club or file a report "
    "until an operator lifts the suspension"
)


def account_public_face_guard(*, account: Account, doing: str) -> None:
    """R-38: a suspended account can sign in, read, and add or change its own credentials, but
    cannot change its public face — no display-name change, no club founded, joined or renamed, no
    report filed: 403 ``forbidden`` (``details.doing`` names the refused act). Read from the row
    (not the caller's copy, loaded when the request was authenticated)."""
    suspended_at = Account.objects.filter(pk=account.pk).values_list("suspended_at", flat=True).first()
    if suspended_at is not None:
        raise Forbidden(SUSPENDED_FACE, details={"doing": doing, "suspended_at": iso_z(suspended_at)})


def neutral_name(account_id: int) -> str:
    """The name a new account starts with, and the one an operator's reset gives (R-39)."""
    return f"Player {account_id}"


def _reset_name_held_until(account: Account, name: str, now: datetime) -> datetime | None:
    """R-39: when ``name`` was reset by an operator less than ``NAME_RESET_HOLD`` ago (compared
    as a reader sees it: case, width and look-alikes folded), the end of that hold."""
    key = name_skeleton(name)
    resets = Event.objects.filter(
        stream_id=account.stream_id, type=DISPLAY_NAME_RESET, recorded_at__gt=now - NAME_RESET_HOLD
    ).order_by("-version")
    for data, at in resets.values_list("data", "recorded_at"):
        previous = personal.unseal(data, account_id=account.pk, field="previous_name")
        if previous is not None and name_skeleton(previous) == key:
            return at + NAME_RESET_HOLD
    return None


@transaction.atomic
def account_rename(*, account: Account, display_name: str, now: datetime | None = None) -> Account:
    """A name the player chose is personal data: sealed in the event with the account's key. A
    name an operator reset is refused for ``NAME_RESET_HOLD`` (R-39, 422 ``not_allowed``); a
    suspended account changes none (R-38, 403 ``forbidden``)."""
    name = visible_text(
        clean_text(display_name, field="display_name", max_length=DISPLAY_NAME_MAX), field="display_name"
    )
    account_public_face_guard(account=account, doing="display_name_change")
    if name != account.display_name:
        held = _reset_name_held_until(account, name, now or timezone.now())
        if held is not None:
            message = "an operator reset this name: it cannot be chosen again yet"
            raise NotAllowed(message, details={"display_name": name, "until": iso_z(held)})
        sealed = personal.seal(account_id=account.pk, field="display_name", value=name)["display_name_sealed"]
        account_event(account, display_name_changed(account_id=account.pk, display_name_sealed=sealed), now=now)
        account.refresh_from_db(fields=["display_name"])
    return account


@transaction.atomic
def account_name_reset(
    *,
    account: Account,
    reason: str,
    actor: str,
    report_id: str | None = None,
    now: datetime | None = None,
    reason_code: str = "abusive_name",
    message: str = "",
) -> Account:
    """R-39: an operator resets a display name to the neutral one (``DisplayNameReset`` on the
    account's stream, so the player is told ``reason_code`` and ``message`` — never ``reason``,
    the operator's note: ``rivals.player_notice``); the name reset is kept sealed for the hold."""
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    if account.closed_at is not None:
        raise NotAllowed("the account is closed")
    reason = clean_text(reason, field="reason", max_length=300)
    reason_code, message = notice_clean(reason_code, message)
    neutral = neutral_name(account.pk)
    if account.display_name == neutral:
        raise NotAllowed("the name is already the neutral one", details={"display_name": neutral})
    sealed = personal.seal(account_id=account.pk, field="previous_name", value=account.display_name)
    reset = display_name_reset(
        account_id=account.pk,
        display_name=neutral,
        previous_name_sealed=sealed["previous_name_sealed"],
        reason=reason,
        report_id=report_id,
        reason_code=reason_code,
        message=message,
    )
    account_event(account, reset, actor=actor, now=now)
    account.refresh_from_db(fields=["display_name", "search_name"])
    return account


@transaction.atomic
def account_jokers_change(
    *,
    account: Account,
    delta: int,
    reason: str,
    actor: str,
    ref: dict | None = None,
    now: datetime | None = None,
    **by_operator,
) -> Account:
    """Every change of a joker balance is a ``JokersChanged`` event (R-11); ``by_operator``: an
    operator's ``note``, ``reason_code`` and ``message`` (``account_jokers_grant``)."""
    if delta == 0:
        raise Invalid("a joker change must not be zero")
    changed = jokers_changed(account_id=account.pk, delta=delta, reason=reason, ref=ref, **by_operator)
    account_event(account, changed, actor=actor, now=now)
    account.refresh_from_db(fields=["jokers"])
    return account


def _jokers_by_operator(
    account: Account, delta: int, kind: str, note: str, actor: str, reason_code: str, message: str
) -> Account:
    """An operator's joker change: the note for operators, the code and message for the player."""
    note = clean_text(note, field="reason", max_length=300)
    reason_code, message = notice_clean(reason_code, message)
    return account_jokers_change(
        account=account, delta=delta, reason=kind, actor=actor, note=note, reason_code=reason_code, message=message
    )


@transaction.atomic
def account_jokers_grant(
    *, account: Account, amount: int, reason: str, actor: str, reason_code: str = "goodwill", message: str = ""
) -> Account:
    """An operator grants jokers (R-11, ``operator_grant``): ``reason`` is the operator's note,
    kept from the player, who is told ``reason_code`` and ``message`` (``rivals.player_notice``)."""
    if not 1 <= amount <= 1000:
        raise Invalid("a grant gives 1–1000 jokers")
    return _jokers_by_operator(account, amount, "operator_grant", reason, actor, reason_code, message)


@transaction.atomic
def account_jokers_correct(
    *, account: Account, amount: int, reason: str, actor: str, reason_code: str = "correction", message: str = ""
) -> Account:
    """An operator takes back jokers granted by mistake (issue 22): a compensating
    ``JokersChanged`` (``operator_correction``, negative, with the operator's note and what the
    player is told) — never an edit of the grant. Jokers the player already spent cannot be taken
    back: the balance never goes below 0."""
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    if amount < 1:
        raise Invalid("a correction takes back at least one joker")
    if amount > account.jokers:
        raise NotAllowed(
            f"the player has {account.jokers} joker(s): spent jokers cannot be taken back",
            details={"jokers": account.jokers},
        )
    return _jokers_by_operator(account, -amount, "operator_correction", reason, actor, reason_code, message)


@transaction.atomic
def account_close(*, account: Account, reason: str, actor: str, erase: bool = True) -> Account:
    """Close an account (an operator's act, or the player's erasure request): ``AccountClosed``.

    What the rules need stays: its games, rounds, points ledger and the results other players'
    places depend on (they name the account by id only). The account can no longer sign in (its
    tokens are deleted, its password unusable), leaves its club and every ranking and
    leaderboard. With ``erase`` its personal data goes: email, device id and username are blanked
    in the row and its key is destroyed, so the names sealed in its events are unreadable —
    no event is rewritten (``rivals.personal``). Erased or not, its device is unlinked (R-36): the
    same device id then signs in as a new guest account, and nothing is appended to this one."""
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    if account.closed_at is not None:
        raise NotAllowed("the account is already closed", details={"closed_at": iso_z(account.closed_at)})
    if account.is_staff:
        raise NotAllowed("an operator's account is not closed: remove the operator (the Operators page)")
    reason = clean_text(reason, field="reason", max_length=300)
    account_event(account, account_closed(account_id=account.pk, reason=reason, erased=erase), actor=actor)
    # its club, queue tickets and duels (the features that hold them listen)
    account_restricted.send(
        sender=Account, account_id=account.pk, reason="account_closed", actor=actor, now=timezone.now()
    )
    AccessToken.objects.filter(account=account).delete()
    account.is_active = False
    account.password = make_password(None)
    fields = ["is_active", "password", "device_id", "device_unlinked_at", "username"]
    if account.device_id is not None and account.username == _guest_username(account.device_id):
        account.username = f"closed-{account.pk}"  # the guest's username is its device's: it goes with it
    account.device_id = account.device_unlinked_at = None  # the device is free for a new guest
    if erase:
        from rivals.accounts.models import OutboundEmail

        OutboundEmail.objects.filter(account=account).delete()
        account.email = account.pending_email = None
        account.email_verified = False
        account.username = f"closed-{account.pk}"
        account.last_login = None
        fields += ["email", "pending_email", "email_verified", "last_login"]
        personal.account_key_destroy(account_id=account.pk)
    account.save(update_fields=fields)
    account.refresh_from_db()
    return account


EXPORT_EVERY = timedelta(hours=1)  # API.md: at most one export an hour (the player's own)


@transaction.atomic
def account_export(*, account: Account, actor: str | None = None, now: datetime | None = None):
    """Begin an export of the account's data (API.md Accounts; ``rivals.accounts.export``): for
    the player (at most one an hour, else 429 ``throttled`` with ``retry_after_s``) or for an
    operator answering a subject access request (``actor`` ``operator:…``, not limited). Either is
    recorded as ``AccountDataExported`` with its actor, in this transaction; the document is
    streamed after it (``export_document`` of the returned ``Subject``). A closed account's export
    is an operator's; an erased one's holds nothing personal."""
    from rivals.accounts.export import Subject

    now = now or timezone.now()
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    by = "operator" if actor and actor.startswith("operator:") else "player"
    stream = stream_filter(account.stream_id)
    if by == "player":
        last = (
            Event.objects.filter(**stream, type=ACCOUNT_DATA_EXPORTED, data__by="player")
            .filter(recorded_at__gt=now - EXPORT_EVERY)
            .order_by("-recorded_at")
            .values_list("recorded_at", flat=True)
            .first()
        )
        if last is not None:
            wait = math.ceil((last + EXPORT_EVERY - now).total_seconds())
            raise Throttled("your data can be exported once an hour: ask again later", retry_after_s=max(1, wait))
    account_event(account, account_data_exported(account_id=account.pk, by=by), actor=actor, now=now)
    erased = account.closed_at is not None and bool(
        Event.objects.filter(**stream, type=ACCOUNT_CLOSED, data__erased=True).exists()
    )
    return Subject(account=account, now=now, erased=erased)
