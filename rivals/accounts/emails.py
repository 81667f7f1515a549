"""The emails accounts send (R-36), through an outbox: a service decides an email inside its
transaction (an ``OutboundEmail`` row), and a worker sends it after the commit
(``rivals.email_deliver``, enqueued on commit). A failure to send never changes the API's
answer: the row is retried with backoff (also by the ``emails-retry`` job, should the enqueue
itself have failed) and is marked ``failed`` after ``ATTEMPTS`` tries, for operators (admin:
Outbound emails; logged as an error). Django's backend does the sending: the console by
default, SMTP when ``EMAIL_URL`` says so (settings).

Codes are made when the email is sent (a signed, expiring token): the outbox holds no secret.

No mail bombing, and a reset code that always reaches its owner (issues 19 and 31): each kind
of email has a budget of its own per *mailbox* (``mailbox``: case-insensitive, ``name+tag@`` is
``name@``), whoever asked; beyond it the request is answered alike and nothing is sent:

- reset codes: ``RIVALS["EMAILS_PER_ADDRESS_HOUR"]`` (5) in any sliding hour. Every one reaches
  the address's verified owner, so when strangers' requests filled the hour, the owner's inbox
  holds a code sent less than an hour ago — still valid (reset codes last an hour), and a new one
  can be sent as soon as the oldest of the hour's codes expires;
- verification codes: the same number, a budget of their own (a stranger adding ``owner+x@`` to
  guests of their own spends this budget, never the reset codes');
- notices that someone tried to add an address that already has an account:
  ``RIVALS["NOTICES_PER_ADDRESS_DAY"]`` (1) in any sliding 24 hours — the owner needs to hear it
  once, and a stranger repeating the attempt must not fill anyone's inbox.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from rivals.secrets import fingerprint
from rivals.text import mailbox

log = logging.getLogger(__name__)

_PRODUCT = "Mahjong Rivals"
VERIFY_SALT = "rivals.credentials.verify-email"
RESET_SALT = "rivals.credentials.password-reset"
ATTEMPTS = 8  # then failed: backoff 30 s, 1, 2, 4 … 64 min (about two hours in all)


def _enqueue(email_id: int) -> None:
    from rivals.accounts.tasks import email_deliver

    try:
        email_deliver.delay(email_id=email_id)
    except Exception:  # a broker outage: the emails-retry job sends it
        log.warning("email %s: could not enqueue its delivery; the retry job will send it", email_id, exc_info=True)


def _budget(kind: str) -> tuple[int, int]:
    """(emails, seconds): how many emails of ``kind`` one mailbox receives in a sliding window."""
    if kind == "already_registered":
        return settings.RIVALS["NOTICES_PER_ADDRESS_DAY"], 86_400
    return settings.RIVALS["EMAILS_PER_ADDRESS_HOUR"], 3600


def _mailbox_allows(kind: str, to: str) -> bool:
    """One more email of ``kind`` to the mailbox of ``to`` within its budget? (Counted in the
    shared cache, under a keyed fingerprint of the mailbox: the cache never holds the address.)"""
    limit, seconds = _budget(kind)
    key = f"emails-to:{kind}:" + fingerprint(mailbox(to), purpose="email-address")
    now = time.time()
    sent = [t for t in cache.get(key, []) if t > now - seconds]
    if len(sent) >= limit:
        log.info("%s email to a mailbox (%s) not sent: its budget is spent", kind, key[-8:])
        return False
    cache.set(key, [*sent, now], timeout=seconds)
    return True


def email_queue(*, kind: str, to: str, account_id: int | None) -> bool:
    """Decide an email inside the caller's transaction; it is sent after the commit. False when
    the mailbox had its emails of this kind (nothing is queued)."""
    from rivals.accounts.models import OutboundEmail

    if not _mailbox_allows(kind, to):
        return False
    row = OutboundEmail.objects.create(kind=kind, to=to, account_id=account_id)
    transaction.on_commit(partial(_enqueue, row.pk), robust=True)
    return True


def verification_email(*, to: str, account_id: int) -> None:
    email_queue(kind="verification", to=to, account_id=account_id)


def already_registered_email(*, to: str) -> None:
    """Someone added this address to another account: say so to its owner, and nothing to the
    caller (the API's answer is the same either way: no enumeration)."""
    email_queue(kind="already_registered", to=to, account_id=None)


def password_reset_email(*, to: str, account_id: int) -> None:
    email_queue(kind="password_reset", to=to, account_id=account_id)


def _verification(email) -> tuple[str, str] | None:
    from rivals.models import Account

    account = Account.objects.filter(pk=email.account_id, pending_email=email.to, closed_at__isnull=True).first()
    if account is None:  # another address was added since, or the account closed: nothing to verify
        return None
    token = signing.dumps({"a": account.pk, "e": email.to}, salt=VERIFY_SALT, compress=True)
    link = f"{settings.RIVALS['PUBLIC_URL']}/verify?token={token}"
    hours = settings.RIVALS["EMAIL_TOKEN_MAX_AGE_S"] // 3600
    return (
        "confirm your email",
        (
            "Confirm this address to sign in to your account on other devices.\n\n"
            f"Open {link}\n\nor enter this code in the game:\n\n{token}\n\n"
            f"The code is valid for {hours} hours. If you did not ask for it, ignore this email.\n"
        ),
    )


def _already_registered(email) -> tuple[str, str]:
    return (
        "this address already has an account",
        (
            "Someone tried to add this email address to a game account, but it already signs in to "
            "one. If that was you, sign in with it, or reset its password from the sign-in screen.\n"
            "If it was not you, nothing has changed.\n"
        ),
    )


def _password_reset(email) -> tuple[str, str] | None:
    from django.contrib.auth.tokens import default_token_generator

    from rivals.models import Account

    account = Account.objects.filter(
        pk=email.account_id, email=email.to, email_verified=True, is_active=True, closed_at__isnull=True
    ).first()
    if account is None:
        return None
    token = signing.dumps({"a": account.pk, "t": default_token_generator.make_token(account)}, salt=RESET_SALT)
    link = f"{settings.RIVALS['PUBLIC_URL']}/reset-password?token={token}"
    minutes = settings.PASSWORD_RESET_TIMEOUT // 60
    return (
        "reset your password",
        (
            f"Open {link}\n\nor enter this code in the game with your new password:\n\n{token}\n\n"
            f"The code is valid for {minutes} minutes and only once. If you did not ask for it, "
            "ignore this email: your password stays as it is.\n"
        ),
    )


_BUILDERS = {
    "verification": _verification,
    "already_registered": _already_registered,
    "password_reset": _password_reset,
}


def _backoff(attempts: int) -> timedelta:
    return timedelta(seconds=30 * 2 ** min(attempts - 1, 7))


def email_deliver(*, email_id: int, now: datetime | None = None) -> str:
    """Send one outbox email (a worker; idempotent: a sent email's row is gone, a row another
    worker is sending is skipped)."""
    from rivals.accounts.models import OutboundEmail

    now = now or timezone.now()
    with transaction.atomic():
        email = OutboundEmail.objects.select_for_update(skip_locked=True).filter(pk=email_id, status="pending").first()
        if email is None:
            return "nothing to send"
        built = _BUILDERS[email.kind](email)
        if built is None:
            email.delete()
            return "superseded"
        subject, body = built
        try:
            send_mail(f"{_PRODUCT}: {subject}", body, settings.DEFAULT_FROM_EMAIL, [email.to])
        except Exception as exc:  # SMTP down, refused, timed out: retried later, never the API's answer
            email.attempts += 1
            email.last_error = f"{type(exc).__name__}: {exc}"[:300]
            email.next_attempt_at = now + _backoff(email.attempts)
            if email.attempts >= ATTEMPTS:
                email.status = "failed"
                log.error("email %s (%s) failed %s times: %s", email.pk, email.kind, email.attempts, email.last_error)
            else:
                log.warning("email %s (%s) not sent (attempt %s): %s", email.pk, email.kind, email.attempts, exc)
            email.save(update_fields=["attempts", "last_error", "next_attempt_at", "status"])
            return "failed" if email.status == "failed" else "retry"
        email.delete()
        return "sent"


def emails_retry_due(*, now: datetime | None = None, limit: int = 200) -> int:
    """The ``emails-retry`` job: send the pending emails whose next attempt is due."""
    from rivals.accounts.models import OutboundEmail

    now = now or timezone.now()
    due = list(
        OutboundEmail.objects.filter(status="pending", next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(email_deliver(email_id=pk, now=now) == "sent" for pk in due)
