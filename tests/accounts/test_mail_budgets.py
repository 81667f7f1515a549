"""Issue 31, "abuse that still works": a stranger must not be able to keep the owner's reset code
from reaching the owner. Each kind of email has its own budget per mailbox (``rivals.accounts.emails``):
notices of an existing account one a day, verification codes and reset codes five an hour each;
``name+tag@`` is its mailbox ``name@``, whatever the case. What a caller sees stays the same."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rivals.accounts.emails import mailbox
from rivals.accounts.models import OutboundEmail
from tests.accounts.conftest import code_in

PASSWORD = "tile-matcher-77"
OWNER = "owner31@example.org"


def _credentials(client, email, ip):
    return client.post(
        "/api/v1/account/credentials", {"email": email, "password": PASSWORD}, format="json", REMOTE_ADDR=ip
    )


def _reset(email, ip):
    return APIClient().post("/api/v1/auth/password-reset", {"email": email}, format="json", REMOTE_ADDR=ip)


def _owner(guest, console_email, capture) -> int:
    client, account_id = guest("owner-31")
    console_email()
    with capture(execute=True):
        assert _credentials(client, OWNER, "10.31.0.1").status_code == 202
    assert client.post("/api/v1/account/verify", {"token": code_in(console_email())}, format="json").status_code == 200
    return account_id


def _outbox() -> list[tuple[str, str]]:
    return list(OutboundEmail.objects.order_by("pk").values_list("kind", "to"))


def test_issue31_a_mailbox_is_the_address_without_its_tag_in_any_case():
    assert mailbox("Name+Tag@Example.org") == mailbox(" name@EXAMPLE.ORG ") == "name@example.org"
    assert mailbox("name+a+b@example.org") == "name@example.org"
    assert mailbox("+tag@example.org") == "+tag@example.org"  # no name before the tag: the address itself
    assert mailbox("first.last-x@example.org") == "first.last-x@example.org"  # only "+" separates a tag


@pytest.mark.django_db
def test_issue31_four_strangers_naming_the_owners_address_do_not_block_the_owners_reset(
    guest, console_email, django_capture_on_commit_callbacks
):
    """The attack as reported: the owner's verification email, then four ``POST
    /account/credentials`` by strangers naming the owner's verified address used to fill the
    address's hourly cap of 5 with four "already has an account" notices, and the owner's reset
    then sent nothing. Now one notice a day reaches the owner, and the reset code is sent."""
    account_id = _owner(guest, console_email, django_capture_on_commit_callbacks)
    free, _ = guest("free-31")
    with django_capture_on_commit_callbacks() as strangers:  # not run yet: the outbox rows stay
        answers = [_credentials(guest(f"stranger-31-{i}")[0], OWNER, f"203.0.113.{i}") for i in range(4)]
        unknown = _credentials(free, "nobody31@example.org", "203.0.113.99")
    assert {(a.status_code, str(a.json())) for a in answers} == {(202, str(unknown.json()))}  # no enumeration
    assert _outbox() == [("already_registered", OWNER), ("verification", "nobody31@example.org")]

    with django_capture_on_commit_callbacks() as reset:
        res = _reset(OWNER, "10.31.0.1")  # the owner, from home
    assert res.status_code == 202
    assert OutboundEmail.objects.filter(kind="password_reset", to=OWNER, account_id=account_id).count() == 1

    console_email()
    for callback in strangers + reset:  # the worker sends them
        callback()
    mail = console_email()
    assert mail.count("already has an account") == 1 and mail.count("reset your password") == 1
    res = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": code_in(mail[mail.index("reset your password") :]), "password": "owner-new-3131"},
        format="json",
    )
    assert res.status_code == 200
    login = {"email": OWNER, "password": "owner-new-3131"}
    assert APIClient().post("/api/v1/auth/login", login, format="json").json()["account_id"] == account_id


@pytest.mark.django_db
def test_issue31_notices_of_an_existing_account_are_one_a_day_per_mailbox(
    guest, console_email, settings, django_capture_on_commit_callbacks
):
    import time

    from rivals.accounts import emails

    _owner(guest, console_email, django_capture_on_commit_callbacks)
    now = [time.time()]
    original = emails.time.time
    emails.time.time = lambda: now[0]
    try:
        with django_capture_on_commit_callbacks():
            for i in range(3):
                _credentials(guest(f"notice-31-{i}")[0], OWNER.upper(), f"198.51.100.{i}")
            assert OutboundEmail.objects.filter(kind="already_registered").count() == 1
            now[0] += 86_400 - 60  # a minute short of a day: still the day's one notice
            _credentials(guest("notice-31-late")[0], OWNER, "198.51.100.50")
            assert OutboundEmail.objects.filter(kind="already_registered").count() == 1
            now[0] += 61  # a day after the first: a second notice
            _credentials(guest("notice-31-next")[0], OWNER, "198.51.100.51")
            assert OutboundEmail.objects.filter(kind="already_registered").count() == 2
    finally:
        emails.time.time = original


@pytest.mark.django_db
def test_issue31_name_plus_tag_is_one_mailbox_for_the_budget_and_codes_of_another_kind_still_go(
    guest, console_email, django_capture_on_commit_callbacks
):
    """Verification codes to ``owner31+N@`` — addresses nobody verified, added by strangers to
    guests of their own — are counted as the owner's mailbox: five an hour, whatever the tags and
    the case. They spend the verification budget only: the owner's reset code still goes."""
    account_id = _owner(guest, console_email, django_capture_on_commit_callbacks)
    OutboundEmail.objects.all().delete()
    with django_capture_on_commit_callbacks():
        for i in range(7):
            tagged = f"Owner31+{i}@Example.ORG"
            assert _credentials(guest(f"tagger-31-{i}")[0], tagged, f"192.0.2.{i}").status_code == 202
        # one mailbox: the owner's own verification code of this hour, then 4 of the 7
        assert OutboundEmail.objects.filter(kind="verification").count() == 4
        assert _credentials(guest("other-31")[0], "someone31@example.org", "192.0.2.50").status_code == 202
        assert _reset("OWNER31@example.org", "10.31.0.1").status_code == 202
    kinds = [kind for kind, _ in _outbox()]
    assert kinds.count("verification") == 5  # the other mailbox has a budget of its own
    assert OutboundEmail.objects.filter(kind="password_reset", account_id=account_id).count() == 1


@pytest.mark.django_db
def test_issue31_requests_for_one_mailbox_from_one_client_are_throttled_whatever_the_tag(guest, rates):
    """``THROTTLE_EMAIL_SEND`` counts per mailbox and client address: tags do not dodge it."""
    rates(email_send="3/hour")
    answers = [
        _credentials(guest(f"throttled-31-{i}")[0], f"Victim31+{i}@example.org", "192.0.2.77").status_code
        for i in range(4)
    ]
    assert answers == [202, 202, 202, 429]
    other = _credentials(guest("throttled-31-x")[0], "victim31+x@example.org", "192.0.2.78")
    assert other.status_code == 202  # another client address
