"""The emails accounts send (R-36). Sent after the transaction commits (``on_commit``), through
Django's backend: the console by default, SMTP when ``EMAIL_URL`` says so (settings)."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

_PRODUCT = "Mahjong Rivals"


def _send(to: str, subject: str, body: str) -> None:
    send_mail(f"{_PRODUCT}: {subject}", body, settings.DEFAULT_FROM_EMAIL, [to])


def _later(to: str, subject: str, body: str) -> None:
    transaction.on_commit(partial(_send, to, subject, body))


def verification_email(*, to: str, token: str, hours: int) -> None:
    link = f"{settings.RIVALS['PUBLIC_URL']}/verify?token={token}"
    _later(
        to,
        "confirm your email",
        (
            "Confirm this address to sign in to your account on other devices.\n\n"
            f"Open {link}\n\nor enter this code in the game:\n\n{token}\n\n"
            f"The code is valid for {hours} hours. If you did not ask for it, ignore this email.\n"
        ),
    )


def already_registered_email(*, to: str) -> None:
    """Someone added this address to another account: say so to its owner, and nothing to the
    caller (the API's answer is the same either way: no enumeration)."""
    _later(
        to,
        "this address already has an account",
        (
            "Someone tried to add this email address to a game account, but it already signs in to "
            "one. If that was you, sign in with it, or reset its password from the sign-in screen.\n"
            "If it was not you, nothing has changed.\n"
        ),
    )


def password_reset_email(*, to: str, token: str, minutes: int) -> None:
    link = f"{settings.RIVALS['PUBLIC_URL']}/reset-password?token={token}"
    _later(
        to,
        "reset your password",
        (
            f"Open {link}\n\nor enter this code in the game with your new password:\n\n{token}\n\n"
            f"The code is valid for {minutes} minutes and only once. If you did not ask for it, "
            "ignore this email: your password stays as it is.\n"
        ),
    )
