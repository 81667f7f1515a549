"""Email and password credentials (R-36): add, verify, sign in and out, change and reset.

Adding an email and a password to a (guest) account and confirming the email lets the same
account sign in on another device: ``credentials_add`` → verification email with a signed,
expiring code → ``email_verify`` → ``login`` returns a new token of that account.

No answer tells whether an email is registered: adding an address that another account already
verified answers like any other (its owner is told by email instead), a login with an unknown
email fails like a wrong password — after the same password hashing — and a reset request is
accepted for any address. Every step is an event on the account's stream; none carries the
email, the password or a token (``rivals.personal``).

Takeover (issue 19): adding credentials to a guest needs only its token; changing an account's
existing password or email needs the current password (``current_password``) — or a reset code
(``password_reset_confirm``). A change or a reset revokes the account's other tokens and unlinks
its device id (``account_device_unlink``: the device then signs in with email and password).
Emails leave through the outbox after the commit (``rivals.accounts.emails``): a mail server that is down
changes no answer.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from rivals.accounts import emails, events
from rivals.accounts.services import account_device_unlink, account_event, token_issue, tokens_revoke
from rivals.concurrency import retry_on_conflict
from rivals.errors import Conflict, Invalid, Unauthenticated
from rivals.models import AccessToken, Account
from rivals.secrets import secret_digest, token_ref

VERIFY_SALT = emails.VERIFY_SALT
RESET_SALT = emails.RESET_SALT
WRONG = "email or password is wrong (or the email is not verified yet)"
BAD_TOKEN = "the code is invalid or has expired"
TAKEN = "this address already signs in to another account"
CURRENT_WRONG = "the current password is wrong or missing"


def email_normalised(email: str) -> str:
    """Decision: addresses compare case-insensitively (``Ann@X.org`` is ``ann@x.org``)."""
    return email.strip().lower()


def _password_checked(password: str, account: Account | None, field: str = "password") -> str:
    try:
        validate_password(password, user=account)
    except ValidationError as exc:
        raise Invalid(f"{field}: {exc.messages[0]}", details={field: exc.messages}) from None
    return password


def has_credentials(account: Account) -> bool:
    """An account with a password (or an email) already: changing them needs the current password."""
    return account.has_usable_password() or bool(account.email)


@retry_on_conflict
@transaction.atomic
def credentials_add(
    *, account: Account, email: str, password: str, current_password: str | None = None, keep_token: str | None = None
) -> None:
    """Set the password and send a verification code for ``email`` (``CredentialsAdded``).

    A guest (no password yet) needs nothing more than its token. An account that has credentials
    must give its ``current_password``, else 400 (issue 19: a device token alone must not take an
    account over); the change revokes every other token (``keep_token`` is the caller's) and
    unlinks the device id. The email becomes the account's sign-in only once verified; until then
    a verified email the account already had keeps working."""
    email = email_normalised(email)
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    changing = has_credentials(account)
    if changing and not (current_password and account.check_password(current_password)):
        raise Invalid(CURRENT_WRONG, details={"current_password": [CURRENT_WRONG]})
    _password_checked(password, account)
    account.set_password(password)
    account.pending_email = email
    account.save(update_fields=["password", "pending_email"])
    if changing:
        added = events.credentials_added(
            account_id=account.pk,
            changed=True,
            tokens_revoked=tokens_revoke(account=account, keep=keep_token),
            device_unlinked=account_device_unlink(account=account),
        )
    else:
        added = events.credentials_added(account_id=account.pk)
    account_event(account, added)
    if Account.objects.filter(email=email).exclude(pk=account.pk).exists():
        emails.already_registered_email(to=email)
        return
    emails.verification_email(to=email, account_id=account.pk)


@retry_on_conflict
@transaction.atomic
def email_verify(*, token: str) -> Account:
    """Confirm the pending email of the token's account (``EmailVerified``). An address that
    another account verified first (also at the same instant) is 409 ``conflict``."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.RIVALS["EMAIL_TOKEN_MAX_AGE_S"])
    except signing.BadSignature:  # SignatureExpired included
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]}) from None
    account = Account.objects.select_for_update(no_key=True).filter(pk=data.get("a"), closed_at__isnull=True).first()
    email = data.get("e")
    if account is None or account.pending_email != email:
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]})
    if Account.objects.filter(email=email).exclude(pk=account.pk).exists():
        raise Conflict(TAKEN, details={"token": [TAKEN]})
    account.email, account.email_verified, account.pending_email = email, True, None
    try:
        with transaction.atomic():  # two accounts verifying one address at once: one wins, one 409
            account.save(update_fields=["email", "email_verified", "pending_email"])
    except IntegrityError:
        raise Conflict(TAKEN, details={"token": [TAKEN]}) from None
    account_event(account, events.email_verified(account_id=account.pk))
    return account


_DUMMY_HASH = None


def _burn_hash(password: str) -> None:
    """The work of checking a password, for an unknown email: timing says nothing either."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = make_password("not the password of anyone")
    check_password(password, _DUMMY_HASH)


def login(*, email: str, password: str) -> tuple[Account, str]:
    """A new token of the account whose verified email this is (``SignedIn``); one 401 for an
    unknown email, an unverified one, a closed account or a wrong password. A wrong password
    for a known account is kept as ``SignInFailed`` (committed, then refused)."""
    account = Account.objects.filter(
        email=email_normalised(email), email_verified=True, is_active=True, closed_at__isnull=True
    ).first()
    if account is None:
        _burn_hash(password)
        raise Unauthenticated(WRONG)
    if not account.check_password(password):
        with transaction.atomic():
            account_event(account, events.sign_in_failed(account_id=account.pk, method="password"), actor="anonymous")
        raise Unauthenticated(WRONG)
    with transaction.atomic():
        _, key = token_issue(account=account, kind="password")
        account.last_login = timezone.now()
        account.save(update_fields=["last_login"])
        account_event(account, events.signed_in(account_id=account.pk, method="password", token=token_ref(key)))
    return account, key


@transaction.atomic
def logout(*, account: Account, token_key: str) -> None:
    """Revoke the calling token (``SignedOut``); the account's other devices stay signed in."""
    deleted, _ = AccessToken.objects.filter(key=secret_digest(token_key), account=account).delete()
    if deleted:
        account_event(account, events.signed_out(account_id=account.pk, token=token_ref(token_key)))


@retry_on_conflict
@transaction.atomic
def password_change(*, account: Account, old_password: str, new_password: str, keep_token: str | None) -> int:
    """Change the password (``PasswordChanged``); every other token is revoked and the device id
    unlinked. Returns how many tokens were revoked."""
    account = Account.objects.select_for_update(no_key=True).get(pk=account.pk)
    if not account.has_usable_password() or not account.check_password(old_password):
        raise Invalid("the current password is wrong", details={"old_password": ["wrong password"]})
    _password_checked(new_password, account, "new_password")
    account.set_password(new_password)
    account.save(update_fields=["password"])
    revoked = tokens_revoke(account=account, keep=keep_token)
    unlinked = account_device_unlink(account=account)
    changed = events.password_changed(account_id=account.pk, tokens_revoked=revoked, device_unlinked=unlinked)
    account_event(account, changed)
    return revoked


@transaction.atomic
def password_reset_request(*, email: str) -> None:
    """Queue a reset code if the address signs in to an account (``PasswordResetRequested``);
    the caller's answer is the same either way, and whether the mail server is up."""
    account = Account.objects.filter(
        email=email_normalised(email), email_verified=True, is_active=True, closed_at__isnull=True
    ).first()
    if account is None:
        return
    account_event(account, events.password_reset_requested(account_id=account.pk), actor="anonymous")
    emails.password_reset_email(to=account.email, account_id=account.pk)


@retry_on_conflict
@transaction.atomic
def password_reset_confirm(*, token: str, password: str) -> Account:
    """Set a new password with a reset code (``PasswordReset``): single use (the code is bound to
    the old password's hash); every token of the account is revoked and its device id unlinked."""
    try:
        data = signing.loads(token, salt=RESET_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]}) from None
    account = (
        Account.objects.select_for_update(no_key=True)
        .filter(pk=data.get("a"), is_active=True, closed_at__isnull=True)
        .first()
    )
    if account is None or not default_token_generator.check_token(account, data.get("t", "")):
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]})
    _password_checked(password, account)
    account.set_password(password)
    account.save(update_fields=["password"])
    revoked = tokens_revoke(account=account)
    unlinked = account_device_unlink(account=account)
    reset = events.password_reset(account_id=account.pk, tokens_revoked=revoked, device_unlinked=unlinked)
    account_event(account, reset, actor="anonymous")
    return account
