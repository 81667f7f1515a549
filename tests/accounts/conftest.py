import re

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle


@pytest.fixture(autouse=True)
def _quick_password_hashing(request, settings):
    """PBKDF2 costs ~0.3 s per password on purpose; these tests hash dozens. One test keeps the
    production hasher (``@pytest.mark.production_hasher``): the end-to-end sign-in."""
    if "production_hasher" not in request.keywords:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def rates(monkeypatch):
    """Set throttle rates for one test (DRF binds the rates dict at import)."""

    def set_rates(**rates):
        for scope, rate in rates.items():
            monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    return set_rates


@pytest.fixture
def console_email(settings, capsys, eager_tasks):
    """Emails through Django's console backend (the default outside tests), delivered by the
    outbox's task run in place when the transaction commits; returns a reader of what was
    printed since the last call."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

    def read() -> str:
        return capsys.readouterr().out

    return read


def code_in(email_text: str) -> str:
    """The code an email carries (the line after "enter this code …")."""
    match = re.search(r"enter this code[^\n]*\n\n(\S+)\n", email_text)
    assert match, email_text
    return match.group(1)


def signed_in(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client
