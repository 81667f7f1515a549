"""Issue 19, finding 6: races and outages answer 409 or the idempotent result, never 500 or 503."""

from __future__ import annotations

import socket
import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from rivals.accounts.models import OutboundEmail
from tests.accounts.conftest import code_in
from tests.factories import device_id_for

PASSWORD = "tile-matcher-77"


def _guest(label: str) -> APIClient:
    client = APIClient()
    token = client.post("/api/v1/auth/guest", {"device_id": device_id_for(label)}, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _together(calls) -> list:
    """Run the calls at the same instant, each on its own connection; their answers."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            answers[i] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_finding6_two_accounts_verifying_one_address_at_once_one_wins_one_409(console_email):
    codes = []
    for label in ("race-a", "race-b"):
        client = _guest(label)
        console_email()
        client.post("/api/v1/account/credentials", {"email": "same@example.org", "password": PASSWORD}, format="json")
        codes.append(code_in(console_email()))
    answers = _together(
        [lambda c=c: APIClient().post("/api/v1/account/verify", {"token": c}, format="json").status_code for c in codes]
    )
    assert sorted(answers) == [200, 409]


@pytest.mark.django_db
def test_finding6_a_mail_server_that_is_down_changes_no_answer(
    guest, settings, eager_tasks, django_capture_on_commit_callbacks
):
    with socket.socket() as s:  # a port nobody listens on: the SMTP server is down
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 1
    client, _ = guest("smtp-down")
    with django_capture_on_commit_callbacks(execute=True):
        added = client.post(
            "/api/v1/account/credentials", {"email": "k@example.org", "password": PASSWORD}, format="json"
        )
    assert added.status_code == 202
    from rivals.models import Account

    Account.objects.filter(pending_email="k@example.org").update(email="k@example.org", email_verified=True)
    with django_capture_on_commit_callbacks(execute=True):
        known = APIClient().post("/api/v1/auth/password-reset", {"email": "k@example.org"}, format="json")
        unknown = APIClient().post("/api/v1/auth/password-reset", {"email": "nobody@example.org"}, format="json")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json()) == (202, unknown.json())
    waiting = list(OutboundEmail.objects.order_by("pk").values_list("kind", "status", "attempts"))
    assert waiting == [("verification", "pending", 1), ("password_reset", "pending", 1)]
    assert all(e.last_error for e in OutboundEmail.objects.all())  # what operators see


@pytest.mark.django_db(transaction=True)
def test_finding6_an_owner_leaving_while_members_join_and_hand_over_never_deadlocks():
    seen = []
    for n in range(6):
        owner, heir, joiner = _guest(f"dl-o{n}"), _guest(f"dl-h{n}"), _guest(f"dl-j{n}")
        club = owner.post("/api/v1/clubs", {"name": f"Deadlock {n}"}, format="json").json()["id"]
        heir.post(f"/api/v1/clubs/{club}/join")
        heir_id = heir.get("/api/v1/account").json()["account_id"]
        seen += _together(
            [
                lambda: owner.post(f"/api/v1/clubs/{club}/leave").status_code,
                lambda: heir.post(f"/api/v1/clubs/{club}/join").status_code,
                lambda: joiner.post(f"/api/v1/clubs/{club}/join").status_code,
                lambda: owner.post(f"/api/v1/clubs/{club}/owner", {"owner": heir_id}, format="json").status_code,
            ]
        )
    assert all(s < 500 for s in seen), seen
