"""Email and password credentials (R-36): add, verify, sign in and out, change and reset.

Adding an email and a password to a (guest) account and confirming the email lets the same
account sign in on another device: ``credentials_add`` → verification email with a signed,
expiring token → ``email_verify`` → ``login`` returns a new token of that account.

No answer tells whether an email is registered: adding an address that another account already
verified answers like any other (its owner is told by email instead), a login with an unknown
email fails like a wrong password — after the same password hashing — and a reset request is
accepted for any address. Every step is an event on the account's stream; none carries the
email, the password or a token (``rivals.personal``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from rivals import emails
from rivals.errors import Invalid, Unauthenticated
from rivals.models import AccessToken, Account
from rivals.services.accounts import account_event, token_issue, token_ref

VERIFY_SALT = "rivals.credentials.verify-email"
RESET_SALT = "rivals.credentials.password-reset"
WRONG = "email or password is wrong (or the email is not verified yet)"
BAD_TOKEN = "the code is invalid or has expired"


def email_normalised(email: str) -> str:
    """Decision: addresses compare case-insensitively (``Ann@X.org`` is ``ann@x.org``)."""
    return email.strip().lower()


def _password_checked(password: str, account: Account | None, field: str = "password") -> str:
    try:
        validate_password(password, user=account)
    except ValidationError as exc:
        raise Invalid(f"{field}: {exc.messages[0]}", details={field: exc.messages}) from None
    return password


@transaction.atomic
def credentials_add(*, account: Account, email: str, password: str) -> None:
    """Set the password and send a verification code for ``email`` (``CredentialsAdded``).

    The email becomes the account's sign-in only once verified; until then a verified email the
    account already had keeps working."""
    email = email_normalised(email)
    account = Account.objects.select_for_update().get(pk=account.pk)
    _password_checked(password, account)
    account.set_password(password)
    account.pending_email = email
    account.save(update_fields=["password", "pending_email"])
    account_event(account, "CredentialsAdded")
    if Account.objects.filter(email=email).exclude(pk=account.pk).exists():
        emails.already_registered_email(to=email)
        return
    token = signing.dumps({"a": account.pk, "e": email}, salt=VERIFY_SALT, compress=True)
    emails.verification_email(to=email, token=token, hours=settings.RIVALS["EMAIL_TOKEN_MAX_AGE_S"] // 3600)


@transaction.atomic
def email_verify(*, token: str) -> Account:
    """Confirm the pending email of the token's account (``EmailVerified``)."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.RIVALS["EMAIL_TOKEN_MAX_AGE_S"])
    except signing.BadSignature:  # SignatureExpired included
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]}) from None
    account = Account.objects.select_for_update().filter(pk=data.get("a"), closed_at__isnull=True).first()
    email = data.get("e")
    if (
        account is None
        or account.pending_email != email
        or Account.objects.filter(email=email).exclude(pk=account.pk).exists()
    ):
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]})
    account.email, account.email_verified, account.pending_email = email, True, None
    account.save(update_fields=["email", "email_verified", "pending_email"])
    account_event(account, "EmailVerified")
    return account


_DUMMY_HASH = None


def _burn_hash(password: str) -> None:
    """The work of checking a password, for an unknown email: timing says nothing either."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = make_password("not the password of anyone")
    from django.contrib.auth.hashers import check_password

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
            account_event(account, "SignInFailed", {"method": "password"}, actor="anonymous")
        raise Unauthenticated(WRONG)
    with transaction.atomic():
        token = token_issue(account=account, kind="password")
        account.last_login = timezone.now()
        account.save(update_fields=["last_login"])
        account_event(account, "SignedIn", {"method": "password", "token": token_ref(token.key)})
    return account, token.key


@transaction.atomic
def logout(*, account: Account, token_key: str) -> None:
    """Revoke the calling token (``SignedOut``); the account's other devices stay signed in."""
    deleted, _ = AccessToken.objects.filter(key=token_key, account=account).delete()
    if deleted:
        account_event(account, "SignedOut", {"token": token_ref(token_key)})


@transaction.atomic
def password_change(*, account: Account, old_password: str, new_password: str, keep_token: str | None) -> int:
    """Change the password (``PasswordChanged``); every other token is revoked. Returns how many."""
    account = Account.objects.select_for_update().get(pk=account.pk)
    if not account.has_usable_password() or not account.check_password(old_password):
        raise Invalid("the current password is wrong", details={"old_password": ["wrong password"]})
    _password_checked(new_password, account, "new_password")
    account.set_password(new_password)
    account.save(update_fields=["password"])
    revoked, _ = AccessToken.objects.filter(account=account).exclude(key=keep_token or "").delete()
    account_event(account, "PasswordChanged", {"tokens_revoked": revoked})
    return revoked


@transaction.atomic
def password_reset_request(*, email: str) -> None:
    """Send a reset code if the address signs in to an account (``PasswordResetRequested``);
    the caller's answer is the same either way."""
    account = Account.objects.filter(
        email=email_normalised(email), email_verified=True, is_active=True, closed_at__isnull=True
    ).first()
    if account is None:
        return
    token = signing.dumps({"a": account.pk, "t": default_token_generator.make_token(account)}, salt=RESET_SALT)
    account_event(account, "PasswordResetRequested", actor="anonymous")
    emails.password_reset_email(to=account.email, token=token, minutes=settings.PASSWORD_RESET_TIMEOUT // 60)


@transaction.atomic
def password_reset_confirm(*, token: str, password: str) -> Account:
    """Set a new password with a reset code (``PasswordReset``): single use (the code is bound to
    the old password's hash), and every token of the account is revoked."""
    try:
        data = signing.loads(token, salt=RESET_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]}) from None
    account = (
        Account.objects.select_for_update().filter(pk=data.get("a"), is_active=True, closed_at__isnull=True).first()
    )
    if account is None or not default_token_generator.check_token(account, data.get("t", "")):
        raise Invalid(BAD_TOKEN, details={"token": [BAD_TOKEN]})
    _password_checked(password, account)
    account.set_password(password)
    account.save(update_fields=["password"])
    revoked, _ = AccessToken.objects.filter(account=account).delete()
    account_event(account, "PasswordReset", {"tokens_revoked": revoked}, actor="anonymous")
    return account
