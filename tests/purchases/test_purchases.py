"""R-11 (and R-33): joker purchases reported by the store backend — signed (HMAC-SHA256 of the
raw body), recorded once per transaction id, refunds as compensating events that never take the
balance below 0 (the shortfall recorded), never counted in a ranking."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from rivals.accounts.services import account_close, account_jokers_change
from rivals.models import Account, Event
from rivals.points.models import PointsLedgerEntry
from rivals.purchases.models import Purchase
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db
SECRET = "store-shared-secret"


@pytest.fixture(autouse=True)
def _secret(settings):
    settings.PURCHASES_WEBHOOK_SECRET = SECRET


def sign(raw: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()


def report(raw: bytes | dict, signature: str | None = "sign", client: APIClient | None = None):
    raw = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
    headers = {} if signature is None else {"HTTP_X_SIGNATURE": sign(raw) if signature == "sign" else signature}
    return (client or APIClient()).post("/api/v1/purchases", data=raw, content_type="application/json", **headers)


def body(account, transaction_id="tx-1", kind="purchase", jokers=5, product="jokers_5") -> dict:
    return {
        "transaction_id": transaction_id,
        "account_id": account.pk,
        "product": product,
        "jokers": jokers,
        "kind": kind,
    }


@pytest.fixture
def buyer():
    return AccountFactory.create(device_id="buyer", jokers=2)


def test_r11_a_signed_purchase_adds_jokers_as_events_of_the_buyer_s_stream(buyer):
    res = report(body(buyer))
    assert res.status_code == 200, res.content
    assert res.json() == {"account_id": buyer.pk, "jokers": 7}
    events = list(Event.objects.filter(stream_id=f"account-{buyer.pk}").order_by("-version")[:2])[::-1]
    assert [(e.type, e.metadata["actor"]) for e in events] == [("JokersPurchased", "store"), ("JokersChanged", "store")]
    assert events[0].data == {
        "account_id": buyer.pk,
        "transaction_id": "tx-1",
        "product": "jokers_5",
        "jokers": 5,
        "balance": 7,
    }
    assert (events[1].data["delta"], events[1].data["reason"]) == (5, "purchase")
    assert Purchase.objects.get(pk="tx-1").balance == 7 and Account.objects.get(pk=buyer.pk).jokers == 7


def test_r11_a_replay_answers_the_first_result_and_changes_nothing(buyer):
    first = report(body(buyer))
    account_jokers_change(account=buyer, delta=10, reason="test", actor="test")  # the balance moves on
    events = Event.objects.count()
    raw = json.dumps(body(buyer), indent=2).encode()  # the same report, formatted otherwise
    again = report(raw)
    assert again.status_code == 200 and again.json() == first.json() == {"account_id": buyer.pk, "jokers": 7}
    assert again["Idempotent-Replayed"] == "true"
    assert Event.objects.count() == events and Account.objects.get(pk=buyer.pk).jokers == 17


@pytest.mark.parametrize("change", [{"jokers": 6}, {"kind": "refund"}, {"product": "jokers_50"}, {"account_id": 0}])
def test_r11_another_report_under_a_recorded_transaction_id_is_409(buyer, change):
    other = AccountFactory.create(device_id="other-buyer")
    report(body(buyer))
    changed = body(buyer) | change
    if change.get("account_id") == 0:
        changed["account_id"] = other.pk
    events = Event.objects.count()
    res = report(changed)
    assert res.status_code == 409 and res.json()["error"]["code"] == "conflict"
    assert Event.objects.count() == events


def test_r11_a_refund_takes_jokers_back_never_below_zero_and_records_the_shortfall(buyer):
    report(body(buyer, "tx-buy", jokers=10))  # 2 + 10 = 12
    account_jokers_change(account=buyer, delta=-9, reason="spent", actor="test")  # 3 left
    res = report(body(buyer, "tx-refund", kind="refund", jokers=10))
    assert res.status_code == 200 and res.json() == {"account_id": buyer.pk, "jokers": 0}
    refund = Purchase.objects.get(pk="tx-refund")
    assert (refund.kind, refund.jokers, refund.applied, refund.shortfall, refund.balance) == ("refund", 10, -3, 7, 0)
    refunded = Event.objects.get(stream_id=f"account-{buyer.pk}", type="JokerPurchaseRefunded")
    assert (refunded.data["taken"], refunded.data["shortfall"]) == (3, 7)
    again = report(body(buyer, "tx-refund-2", kind="refund", jokers=4))  # nothing left to take
    assert again.json()["jokers"] == 0 and Purchase.objects.get(pk="tx-refund-2").shortfall == 4
    assert Account.objects.get(pk=buyer.pk).jokers == 0


@pytest.mark.parametrize(
    "signature",
    [None, "", "sha256=", "sha256=" + "0" * 64, "md5=abc", sign(b"{}"), sign(b"x", "another-secret"), "sha256=é"],
)
def test_r11_a_missing_or_bad_signature_is_401_and_nothing_is_recorded(buyer, signature):
    events = Event.objects.count()
    res = report(body(buyer), signature=signature)
    assert res.status_code == 401 and res.json()["error"]["code"] == "unauthenticated"
    assert Event.objects.count() == events and not Purchase.objects.exists()


def test_r11_a_body_signed_with_another_secret_is_forged(buyer):
    raw = json.dumps(body(buyer)).encode()
    assert report(raw, signature=sign(raw, "guessed-secret")).status_code == 401
    tampered = json.dumps(body(buyer, jokers=500)).encode()
    assert report(tampered, signature=sign(raw)).status_code == 401  # a signature of another body
    assert not Purchase.objects.exists()


def test_r11_refused_while_the_secret_is_not_configured(buyer, settings):
    settings.PURCHASES_WEBHOOK_SECRET = ""
    res = report(body(buyer), signature=sign(json.dumps(body(buyer)).encode(), ""))
    assert res.status_code == 503 and res.json()["error"]["details"]["reason"] == "not_configured"
    assert res["Retry-After"] == "5" and not Purchase.objects.exists()


def test_r11_a_purchase_for_a_closed_account_is_422_and_records_nothing_a_refund_is_recorded(buyer):
    report(body(buyer, "tx-before"))
    account_close(account=buyer, reason="closed", actor="operator:test")
    events = Event.objects.count()
    res = report(body(buyer, "tx-after"))
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    assert Event.objects.count() == events and not Purchase.objects.filter(pk="tx-after").exists()
    assert report(body(buyer, "tx-refund", kind="refund", jokers=5)).status_code == 200  # the books balance


def test_r11_unknown_account_and_malformed_reports(buyer):
    assert report(body(buyer) | {"account_id": 999999}).status_code == 404
    for bad in ({"jokers": 0}, {"jokers": "5"}, {"kind": "gift"}, {"transaction_id": "has space"}, {"product": ""}):
        assert report(body(buyer) | bad).status_code == 400, bad
    assert report(b'{"transaction_id": "a\\u0000b"}').status_code == 400
    assert not Purchase.objects.exists()


def test_r33_purchases_never_count_in_any_ranking(buyer, api):
    report(body(buyer, jokers=50))
    report(body(buyer, "tx-2", kind="refund", jokers=10))
    assert not PointsLedgerEntry.objects.filter(account_id=buyer.pk).exists()
    profile = api.get(f"/api/v1/players/{buyer.pk}").json()
    assert profile["points"] == {"amr": 0, "weekly": 0, "daily": 0}
    assert profile["places"] == {"amr": None, "weekly": None, "daily": None}


def test_r11_the_admin_lists_purchases_and_refunds_per_player(buyer, client, django_user_model):
    report(body(buyer, "tx-a", jokers=3))
    report(body(buyer, "tx-b", kind="refund", jokers=9))
    other = AccountFactory.create(device_id="someone-else")
    report(body(other, "tx-c"))
    client.force_login(django_user_model.objects.create_superuser("purchases-op", "op-password-1"))
    page = client.get(f"/admin/purchases/purchase/?player={buyer.pk}").content.decode()
    assert "tx-a" in page and "tx-b" in page and "tx-c" not in page
    assert "tx-b" in client.get("/admin/purchases/purchase/?shortfall=yes").content.decode()
    assert client.get("/admin/purchases/purchase/add/").status_code == 403  # history: read-only


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300), signature=st.one_of(st.none(), st.text(max_size=80)))
def test_r11_forged_reports_are_401_whatever_they_hold(buyer, raw, signature):
    if signature is not None and not signature.isascii():
        signature = signature.encode("ascii", "replace").decode()
    res = report(raw, signature=signature.replace("\n", "").replace("\r", "") if signature else signature)
    assert res.status_code == 401
    assert not Purchase.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_r11_one_report_delivered_five_times_at_once_is_recorded_once():
    buyer = AccountFactory.create(device_id="racing-buyer")
    raw = json.dumps(body(buyer, "tx-race", jokers=4)).encode()
    answers: list[tuple[int, dict]] = []

    def deliver():
        try:
            res = report(raw)
            answers.append((res.status_code, res.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [(200, {"account_id": buyer.pk, "jokers": 4})] * 5
    assert Event.objects.filter(stream_id=f"account-{buyer.pk}", type="JokersPurchased").count() == 1
    assert Account.objects.get(pk=buyer.pk).jokers == 4
