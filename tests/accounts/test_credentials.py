"""R-36: email and password credentials — multi-device sign-in end to end with the console
email, no enumeration, throttling, logout, password change and reset; every step an event."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rivals.models import Event
from tests.accounts.conftest import code_in, signed_in

PASSWORD = "tile-matcher-77"


def _credentials(client, email, password=PASSWORD):
    return client.post("/api/v1/account/credentials", {"email": email, "password": password}, format="json")


def _login(email, password=PASSWORD, ip="10.0.0.1"):
    return APIClient().post("/api/v1/auth/login", {"email": email, "password": password}, format="json", REMOTE_ADDR=ip)


def _verified(guest, device, email, console_email, capture):
    client, account_id = guest(device)
    console_email()
    with capture(execute=True):
        assert _credentials(client, email).status_code == 202
    assert client.post("/api/v1/account/verify", {"token": code_in(console_email())}, format="json").status_code == 200
    return client, account_id


@pytest.mark.production_hasher
@pytest.mark.django_db
def test_r36_multi_device_sign_in_end_to_end_with_the_console_email(
    guest, console_email, django_capture_on_commit_callbacks
):
    from rivals.accounts.services import account_jokers_change
    from rivals.models import Account
    from tests.games.helpers import new_game, play_to_win

    phone, account_id = guest("phone-ann")
    assert phone.post("/api/v1/daily-bonus/claim").status_code == 200  # points on the phone
    account_jokers_change(account=Account.objects.get(pk=account_id), delta=3, reason="test", actor="test")
    game = new_game(Account.objects.get(pk=account_id), "single", level=1)
    play_to_win(game, Account.objects.get(pk=account_id), 1, 120)  # level 2 unlocked
    before = phone.get("/api/v1/account").json()
    assert before["points"]["daily"] > 0 and before["jokers"] == 3
    console_email()

    with django_capture_on_commit_callbacks(execute=True):
        res = _credentials(phone, "Ann@Example.org")
    assert res.status_code == 202
    email = console_email()
    assert "To: Ann@example.org" in email or "To: ann@example.org" in email
    assert _login("ann@example.org").status_code == 401  # not verified yet

    res = APIClient().post("/api/v1/account/verify", {"token": code_in(email)}, format="json")
    assert res.status_code == 200 and res.json() == {"account_id": account_id, "email_verified": True}

    res = _login("ANN@example.org")  # another device; addresses compare case-insensitively
    assert res.status_code == 200 and res.json()["account_id"] == account_id
    tablet = signed_in(res.json()["token"])
    after = tablet.get("/api/v1/account").json()
    assert after["account_id"] == account_id and after["email"] == "ann@example.org"
    assert (after["jokers"], after["points"], after["display_name"]) == (
        before["jokers"],
        before["points"],
        before["display_name"],
    )
    assert tablet.get(f"/api/v1/games/{game.pk}").json()["status"] == "won"
    assert tablet.get("/api/v1/levels/2").json()["unlocked"] is True

    # logout revokes the calling token only
    assert tablet.post("/api/v1/auth/logout").status_code == 200
    assert tablet.get("/api/v1/account").status_code == 401
    assert phone.get("/api/v1/account").status_code == 200

    stream = list(Event.objects.filter(stream_id=f"account-{account_id}").values_list("type", flat=True))
    for kind in ("CredentialsAdded", "EmailVerified", "SignedIn", "SignedOut"):
        assert kind in stream
    texts = [str(e.data) + str(e.metadata) for e in Event.objects.filter(stream_id=f"account-{account_id}")]
    assert not any("example.org" in t or PASSWORD in t for t in texts)  # no personal data in events
    assert Account.objects.get(pk=account_id).password.startswith("pbkdf2_sha256$")  # Django's hasher


@pytest.mark.django_db
def test_r36_no_enumeration_same_answer_for_a_known_and_an_unknown_email(
    guest, console_email, django_capture_on_commit_callbacks
):
    _verified(guest, "d-owner", "owner@example.org", console_email, django_capture_on_commit_callbacks)
    other, _ = guest("d-other")
    third, _ = guest("d-third")

    with django_capture_on_commit_callbacks(execute=True):
        taken = _credentials(other, "owner@example.org")
        free = _credentials(third, "nobody@example.org")
    assert (taken.status_code, taken.json()) == (free.status_code, free.json()) == (202, taken.json())
    mail = console_email()
    assert "already has an account" in mail  # the owner is told, the caller is not

    unknown, wrong = _login("ghost@example.org"), _login("owner@example.org", "not-the-password")
    unverified = _login("nobody@example.org")
    assert unknown.status_code == wrong.status_code == unverified.status_code == 401
    assert unknown.json() == wrong.json() == unverified.json()

    with django_capture_on_commit_callbacks(execute=True):
        known_reset = APIClient().post("/api/v1/auth/password-reset", {"email": "owner@example.org"}, format="json")
        unknown_reset = APIClient().post("/api/v1/auth/password-reset", {"email": "ghost@example.org"}, format="json")
    assert (known_reset.status_code, known_reset.json()) == (unknown_reset.status_code, unknown_reset.json())
    assert known_reset.status_code == 202


@pytest.mark.django_db
def test_r36_login_is_throttled_per_account_and_address_and_per_ip(
    guest, console_email, rates, django_capture_on_commit_callbacks
):
    """Per account *and* client address (issue 19: a stranger's wrong passwords never lock the
    owner out), and per address whatever the account."""
    _verified(guest, "d-t", "t@example.org", console_email, django_capture_on_commit_callbacks)
    rates(login_account="3/hour", login_ip="5/minute")
    for _ in range(3):  # three wrong passwords from one address
        assert _login("t@example.org", "wrong-password", ip="10.1.0.1").status_code == 401
    res = _login("t@example.org", ip="10.1.0.1")  # that address is throttled for this account
    assert res.status_code == 429 and res.json()["error"]["code"] == "throttled"
    assert int(res["Retry-After"]) > 0
    assert _login("T@Example.org ", ip="10.1.0.1").status_code == 429  # the address normalised
    assert _login("t@example.org", ip="10.1.0.99").status_code == 200  # the owner, elsewhere
    for _ in range(3):  # an unknown address is throttled exactly alike (no enumeration)
        assert _login("ghost@example.org", ip="10.2.0.1").status_code == 401
    assert _login("ghost@example.org", ip="10.2.0.1").status_code == 429

    for i in range(5):  # per IP, whatever the address
        assert _login(f"someone{i}@example.org", ip="10.9.9.9").status_code == 401
    assert _login("fresh@example.org", ip="10.9.9.9").status_code == 429
    assert _login("fresh@example.org", ip="10.9.9.10").status_code == 401


@pytest.mark.django_db
def test_r36_password_change_and_reset_by_email(guest, console_email, django_capture_on_commit_callbacks):
    phone, account_id = _verified(guest, "d-p", "p@example.org", console_email, django_capture_on_commit_callbacks)
    tablet = signed_in(_login("p@example.org").json()["token"])

    res = tablet.post(
        "/api/v1/account/password", {"old_password": "nope", "new_password": "brand-new-99"}, format="json"
    )
    assert res.status_code == 400 and "old_password" in res.json()["error"]["details"]
    res = tablet.post("/api/v1/account/password", {"old_password": PASSWORD, "new_password": "123"}, format="json")
    assert res.status_code == 400 and "new_password" in res.json()["error"]["details"]  # Django's validators
    res = tablet.post(
        "/api/v1/account/password", {"old_password": PASSWORD, "new_password": "brand-new-99"}, format="json"
    )
    assert res.status_code == 200 and res.json()["tokens_revoked"] == 1  # the phone's token
    assert phone.get("/api/v1/account").status_code == 401 and tablet.get("/api/v1/account").status_code == 200
    assert _login("p@example.org").status_code == 401 and _login("p@example.org", "brand-new-99").status_code == 200

    console_email()
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            APIClient().post("/api/v1/auth/password-reset", {"email": "P@example.org"}, format="json").status_code
            == 202
        )
    code = code_in(console_email())
    res = APIClient().post(
        "/api/v1/auth/password-reset/confirm", {"token": code, "password": "third-one-42"}, format="json"
    )
    assert res.status_code == 200
    assert tablet.get("/api/v1/account").status_code == 401  # a reset revokes every token
    assert _login("p@example.org", "third-one-42").json()["account_id"] == account_id
    again = APIClient().post(
        "/api/v1/auth/password-reset/confirm", {"token": code, "password": "fourth-one-42"}, format="json"
    )
    assert again.status_code == 400 and again.json()["error"]["code"] == "invalid"  # single use
    types = set(Event.objects.filter(stream_id=f"account-{account_id}").values_list("type", flat=True))
    assert {"PasswordChanged", "PasswordResetRequested", "PasswordReset", "SignInFailed"} <= types


@pytest.mark.django_db
def test_r36_verification_codes_are_signed_and_expire(
    guest, console_email, settings, django_capture_on_commit_callbacks
):
    from django.core import signing

    client, account_id = guest("d-v")
    console_email()
    with django_capture_on_commit_callbacks(execute=True):
        _credentials(client, "v@example.org")
    code = code_in(console_email())
    forged = signing.dumps({"a": account_id, "e": "v@example.org"}, salt="another-salt")
    res = APIClient().post("/api/v1/account/verify", {"token": forged}, format="json")
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"
    settings.RIVALS = {**settings.RIVALS, "EMAIL_TOKEN_MAX_AGE_S": -1}  # every code has expired
    assert APIClient().post("/api/v1/account/verify", {"token": code}, format="json").status_code == 400
