"""R-36's decision on closing: closing an account unlinks its devices — the same device id then
signs in as a new guest account (``created: true``) and nothing is appended to the closed one."""

from __future__ import annotations

import pytest

from rivals.accounts.services import account_close
from rivals.models import AccessToken, Account, Event
from tests.factories import device_id_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("erase", [False, True])
def test_r36_closing_an_account_unlinks_its_device_which_then_signs_in_as_a_new_guest(api, erase):
    device = device_id_for("r36-closing")
    first = api.post("/api/v1/auth/guest", {"device_id": device}, format="json")
    assert first.status_code == 201 and first.json()["created"] is True
    closed_id = first.json()["account_id"]
    again = api.post("/api/v1/auth/guest", {"device_id": device}, format="json")
    assert (again.status_code, again.json()["account_id"], again.json()["created"]) == (200, closed_id, False)

    account_close(account=Account.objects.get(pk=closed_id), reason="asked to", actor="operator:test", erase=erase)
    closed = Account.objects.get(pk=closed_id)
    assert (closed.device_id, closed.device_unlinked_at, closed.is_active) == (None, None, False)
    stream = list(Event.objects.filter(stream_id=f"account-{closed_id}").values_list("version", "type"))
    assert stream[-1][1] == "AccountClosed"

    after = api.post("/api/v1/auth/guest", {"device_id": device}, format="json")
    assert after.status_code == 201
    body = after.json()
    assert body["created"] is True and body["account_id"] != closed_id
    # nothing appended to the closed account, no token of it; the new guest is a fresh account
    assert list(Event.objects.filter(stream_id=f"account-{closed_id}").values_list("version", "type")) == stream
    assert not AccessToken.objects.filter(account_id=closed_id).exists()
    api.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = api.get("/api/v1/account")
    assert me.status_code == 200 and me.json()["account_id"] == body["account_id"]
    returning = api.post("/api/v1/auth/guest", {"device_id": device}, format="json")
    assert (returning.json()["account_id"], returning.json()["created"]) == (body["account_id"], False)
    # the old account's tokens were deleted with the closure: a token of it answers 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {first.json()['token']}")
    assert api.get("/api/v1/account").status_code == 401


def test_r36_accounts_closed_before_the_decision_are_unlinked_by_the_migration(api):
    """Migration 0015: an account closed without erasure before R-36's decision kept its device
    (and the guest username made of it); the migration's statement unlinks it as a closure now
    does, and the device then signs in as a new guest."""
    from importlib import import_module

    from django.db import connection

    from rivals.secrets import secret_digest

    device = device_id_for("r36-legacy")
    signed = api.post("/api/v1/auth/guest", {"device_id": device}, format="json").json()
    closed_id = signed["account_id"]
    account_close(account=Account.objects.get(pk=closed_id), reason="before", actor="operator:test", erase=False)
    digest = secret_digest(device)
    Account.objects.filter(pk=closed_id).update(device_id=digest, username="guest-" + digest[:24])  # as it was
    migration = import_module("rivals.migrations.0015_closed_accounts_unlink_devices").Migration
    with connection.cursor() as cur:
        cur.execute(migration.operations[0].sql)
    legacy = Account.objects.get(pk=closed_id)
    assert (legacy.device_id, legacy.username) == (None, f"closed-{closed_id}")
    versions = Event.objects.filter(stream_id=f"account-{closed_id}").count()
    after = api.post("/api/v1/auth/guest", {"device_id": device}, format="json")
    assert after.status_code == 201 and after.json()["created"] is True and after.json()["account_id"] != closed_id
    assert Event.objects.filter(stream_id=f"account-{closed_id}").count() == versions
