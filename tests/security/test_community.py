"""Issue 24's endpoints as a stranger would try them: who may report what, who may report
purchases, and that the search shows no more than a public profile."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from rest_framework.test import APIClient

from rivals.accounts.services import account_close
from rivals.models import Account, Event
from rivals.purchases.models import Purchase
from rivals.reports.models import Report
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db
SECRET = "security-store-secret"


@pytest.fixture(autouse=True)
def _secret(settings):
    settings.PURCHASES_WEBHOOK_SECRET = SECRET


def _signed(raw: bytes, secret: str = SECRET, **headers):
    signature = "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    return APIClient().post(
        "/api/v1/purchases", data=raw, content_type="application/json", HTTP_X_SIGNATURE=signature, **headers
    )


def test_a_report_needs_a_signed_in_player_and_never_oneself(guest):
    target = AccountFactory.create(device_id="sec-target", display_name="Target")
    anonymous = APIClient().post("/api/v1/reports", {"subject": f"player:{target.pk}", "reason": "name"}, format="json")
    assert anonymous.status_code == 401
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert forged.post("/api/v1/reports", {"subject": f"player:{target.pk}", "reason": "name"}).status_code == 401
    client, me = guest("sec-reporter")
    res = client.post("/api/v1/reports", {"subject": f"player:{me}", "reason": "cheating"}, format="json")
    assert res.status_code == 422 and not Report.objects.exists()
    operator = Account.objects.create_superuser("sec-operator", "op-password-1")
    res = client.post("/api/v1/reports", {"subject": f"player:{operator.pk}", "reason": "name"}, format="json")
    assert res.status_code == 404  # an operator is not a player with a public page


def test_a_purchase_replayed_answers_once_forged_changes_nothing_a_closed_account_gets_none():
    buyer = AccountFactory.create(device_id="sec-buyer")
    raw = json.dumps(
        {"transaction_id": "sec-1", "account_id": buyer.pk, "product": "jokers_10", "jokers": 10, "kind": "purchase"}
    ).encode()
    assert _signed(raw).json() == {"account_id": buyer.pk, "jokers": 10}
    for _ in range(3):  # replayed: the first answer, nothing more
        assert _signed(raw).json() == {"account_id": buyer.pk, "jokers": 10}
    assert Account.objects.get(pk=buyer.pk).jokers == 10
    more = raw.replace(b'"jokers": 10', b'"jokers": 1000').replace(b"sec-1", b"sec-2")
    assert _signed(more, "guessed").status_code == 401  # forged: another secret
    assert _signed(more, "").status_code == 401
    assert APIClient().post("/api/v1/purchases", data=more, content_type="application/json").status_code == 401
    assert not Purchase.objects.filter(pk="sec-2").exists() and Account.objects.get(pk=buyer.pk).jokers == 10
    account_close(account=buyer, reason="closed", actor="operator:test")
    events = Event.objects.count()
    closed = raw.replace(b"sec-1", b"sec-3")
    assert _signed(closed).status_code == 422 and Event.objects.count() == events
    # the signature covers the body only: a token or an account's header grants nothing
    token = APIClient().post("/api/v1/auth/guest", {"device_id": "sec-someone-0123456789"}, format="json").json()
    assert (
        APIClient()
        .post(
            "/api/v1/purchases",
            data=more,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token['token']}",
        )
        .status_code
        == 401
    )


def test_the_search_shows_no_personal_data_and_hides_unlisted_accounts(guest, api):
    client, me = guest("sec-searched")
    client.patch("/api/v1/account", {"display_name": "Secret Agent"}, format="json")
    account = Account.objects.get(pk=me)
    account.email, account.email_verified = "agent@example.org", True
    account.save()
    body = api.get("/api/v1/players", {"q": "agent"}).json()
    assert body["results"] == [{"id": me, "display_name": "Secret Agent", "club": None}]
    assert api.get("/api/v1/players", {"q": "example.org"}).json()["count"] == 0  # not by email
    assert api.get("/api/v1/players", {"q": "guest-"}).json()["count"] == 0  # nor by username
    account_close(account=account, reason="erasure", actor="operator:test", erase=True)
    assert api.get("/api/v1/players", {"q": "agent"}).json()["count"] == 0
    assert api.get("/api/v1/players", {"q": "closed account"}).json()["count"] == 0
