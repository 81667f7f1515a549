"""Accounts (R-36 first part), the error body, idempotency, health and schema."""

from __future__ import annotations

import pytest

from rivals.models import Event, IdempotencyRecord
from tests.factories import device_id_for


@pytest.mark.django_db
def test_r36_guest_signin_creates_account_once_per_device(api):
    first = api.post("/api/v1/auth/guest", {"device_id": device_id_for("phone-1")}, format="json")
    assert first.status_code == 201
    body = first.json()
    assert body["created"] is True and body["token"]
    again = api.post("/api/v1/auth/guest", {"device_id": device_id_for("phone-1")}, format="json")
    assert again.status_code == 200
    # the same account and a new token (tokens are kept hashed: the first cannot be given again)
    assert again.json() == {**body, "created": False, "token": again.json()["token"]}
    assert again.json()["token"] != body["token"]
    for token in (body["token"], again.json()["token"]):
        assert api.get("/api/v1/account", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    created = Event.objects.filter(type="AccountCreated")
    assert created.count() == 1
    assert created.get().data["account_id"] == body["account_id"]


@pytest.mark.django_db
def test_r36_account_profile_get_and_patch(guest):
    client, account_id = guest("phone-2")
    res = client.get("/api/v1/account")
    assert res.status_code == 200
    profile = res.json()
    assert profile["account_id"] == account_id
    assert profile["display_name"] == f"Player {account_id}"
    assert profile["jokers"] == 0
    assert profile["points"] == {"amr": 0, "weekly": 0, "daily": 0}
    assert set(profile["daily_bonus"]) == {"streak", "claimed_today", "doubled_today"}
    res = client.patch("/api/v1/account", {"display_name": "  Lucky   Tiger "}, format="json")
    assert res.status_code == 200 and res.json()["display_name"] == "Lucky Tiger"
    assert Event.objects.filter(type="DisplayNameChanged", stream_id=f"account-{account_id}").count() == 1


@pytest.mark.django_db
def test_errors_use_the_api_error_body(api, guest):
    res = api.get("/api/v1/account")
    assert res.status_code == 401
    assert res.json()["error"]["code"] == "unauthenticated"
    res = api.post("/api/v1/auth/guest", {}, format="json")
    assert res.status_code == 400
    err = res.json()["error"]
    assert err["code"] == "invalid" and "device_id" in err["details"]
    res = api.post("/api/v1/auth/guest", data="{not json", content_type="application/json")
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"
    res = api.post("/api/v1/auth/guest", data="device_id=x", content_type="text/plain")
    assert res.status_code == 415 and res.json()["error"]["code"] == "invalid"
    res = api.get("/api/v1/no-such-thing")
    assert res.status_code == 404 and res.json()["error"]["code"] == "not_found"
    client, _ = guest()
    res = client.patch("/api/v1/account", {"display_name": "x" * 100}, format="json")
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"
    res = client.delete("/api/v1/account")
    assert res.status_code == 405 and "error" in res.json()


@pytest.mark.django_db
def test_huge_body_is_413_in_the_error_format(api):
    res = api.post("/api/v1/auth/guest", data='{"device_id": "' + "x" * 200_000 + '"}', content_type="application/json")
    assert res.status_code == 413
    assert res.json()["error"]["code"] == "invalid"


@pytest.mark.django_db
def test_idempotent_replay_returns_stored_response_and_executes_once(guest):
    client, _ = guest("tab-1")
    headers = {"HTTP_IDEMPOTENCY_KEY": "key-123"}
    first = client.post("/api/v1/games", {"mode": "classic"}, format="json", **headers)
    assert first.status_code == 201
    replay = client.post("/api/v1/games", {"mode": "classic"}, format="json", **headers)
    assert replay.status_code == 201
    assert replay.json() == first.json()
    assert replay["Idempotent-Replayed"] == "true"
    assert Event.objects.filter(type="GameStarted").count() == 1
    assert IdempotencyRecord.objects.count() == 1


@pytest.mark.django_db
def test_a_replayed_guest_signin_is_the_first_answer_with_a_fresh_token(api):
    """API.md: a repeated key with the same body returns the first response. The sign-in's token is
    not kept (issue 19), so the replay is the first answer (status, account, ``created``) with a
    token minted afresh — the device signing in again, as it could without the key."""
    headers = {"HTTP_IDEMPOTENCY_KEY": "key-123"}
    first = api.post("/api/v1/auth/guest", {"device_id": device_id_for("tab-1")}, format="json", **headers)
    assert first.status_code == 201
    replay = api.post("/api/v1/auth/guest", {"device_id": device_id_for("tab-1")}, format="json", **headers)
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    body = replay.json()
    assert (body["account_id"], body["created"]) == (first.json()["account_id"], True)
    assert body["token"] != first.json()["token"]
    assert Event.objects.filter(type="AccountCreated").count() == 1
    assert Event.objects.filter(type="SignedIn").count() == 1  # the replay's sign-in


@pytest.mark.django_db
def test_anonymous_idempotency_keys_are_scoped_to_the_request(api):
    """Two devices that pick the same key for their sign-ins do not collide (no 201-then-409)."""
    headers = {"HTTP_IDEMPOTENCY_KEY": "same-key"}
    one = api.post("/api/v1/auth/guest", {"device_id": device_id_for("tab-1")}, format="json", **headers)
    two = api.post("/api/v1/auth/guest", {"device_id": device_id_for("tab-2")}, format="json", **headers)
    assert (one.status_code, two.status_code) == (201, 201)
    assert one.json()["account_id"] != two.json()["account_id"]
    assert Event.objects.filter(type="AccountCreated").count() == 2
    assert IdempotencyRecord.objects.count() == 2


@pytest.mark.django_db
def test_an_accounts_key_reused_for_another_request_is_409_conflict(guest):
    client, _ = guest("tab-3")
    headers = {"HTTP_IDEMPOTENCY_KEY": "game-1"}
    first = client.post("/api/v1/games", {"mode": "classic"}, format="json", **headers)
    assert first.status_code == 201
    other = client.post("/api/v1/games", {"mode": "pool_practice"}, format="json", **headers)
    assert other.status_code == 409 and other.json()["error"]["code"] == "conflict"
    assert Event.objects.filter(type="GameStarted").count() == 1


@pytest.mark.django_db
def test_event_metadata_carries_the_servers_request_id_and_the_keys_fingerprint(api):
    """Only server-made values (issue 19): the client's X-Request-ID is not stored, the key is a
    keyed fingerprint (the same one the idempotency record keeps)."""
    res = api.post(
        "/api/v1/auth/guest",
        {"device_id": device_id_for("tab-9")},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-9",
        HTTP_X_REQUEST_ID="req-42",
    )
    event = Event.objects.get(type="AccountCreated")
    assert event.metadata["request_id"] == res["X-Request-ID"] != "req-42"
    assert len(event.metadata["request_id"]) == 32
    assert event.metadata["idempotency_key"] == IdempotencyRecord.objects.get().key != "k-9"


@pytest.mark.django_db
def test_healthz_reports_database_broker_and_the_last_heartbeat(client):
    from datetime import timedelta

    from django.utils import timezone

    from rivals.system import system_heartbeat

    res = client.get("/healthz")
    body = res.json()
    assert body["database"] == "ok"
    assert body["broker"] == "ok"
    assert body["heartbeat"]["status"] == "none"
    assert res.status_code == 200
    system_heartbeat(source="celery", now=timezone.now() - timedelta(seconds=30))
    assert client.get("/healthz").json()["heartbeat"]["status"] == "ok"
    system_heartbeat(source="celery", now=timezone.now() - timedelta(minutes=10))
    beat = client.get("/healthz").json()["heartbeat"]
    assert beat["status"] == "stale" and beat["age_s"] >= 600
    assert client.get("/healthz").status_code == 200  # a stopped worker does not fail the web
    assert not Event.objects.exists()  # a liveness probe is not a domain fact


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client):
    res = client.get("/api/schema/")
    assert res.status_code == 200
    assert b"/api/v1/auth/guest" in res.content
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_admin_events_are_read_only_even_for_superusers(admin_client, guest):
    _, account_id = guest("admin-view")
    event = Event.objects.get(type="AccountCreated")
    res = admin_client.get("/admin/rivals/event/")
    assert res.status_code == 200 and b"AccountCreated" in res.content
    res = admin_client.get(f"/admin/rivals/event/?q=account-{account_id}")
    assert res.status_code == 200 and b"AccountCreated" in res.content
    assert admin_client.get("/admin/rivals/event/add/").status_code == 403
    assert admin_client.get(f"/admin/rivals/event/{event.pk}/delete/").status_code == 403
    res = admin_client.post(f"/admin/rivals/event/{event.pk}/change/", {"type": "Forged"})
    assert res.status_code == 403
    event.refresh_from_db()
    assert event.type == "AccountCreated"


@pytest.mark.django_db
def test_r38_clients_are_rate_limited_with_429_in_the_error_format():
    from django.core.cache import cache
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.test import APIRequestFactory
    from rest_framework.views import APIView

    from rivals.api.throttling import AnonThrottle

    class ThreePerMinute(AnonThrottle):
        rate = "3/minute"

    class Ping(APIView):
        permission_classes = [AllowAny]
        authentication_classes: list = []
        throttle_classes = [ThreePerMinute]

        def get(self, request):
            return Response({"ok": True})

    cache.clear()
    view = Ping.as_view()
    factory = APIRequestFactory()
    codes = [view(factory.get("/ping")).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    res = view(factory.get("/ping"))
    res.render()
    assert res.status_code == 429 and res.data["error"]["code"] == "throttled" and "Retry-After" in res
    cache.clear()


@pytest.mark.django_db
def test_the_landing_page_says_what_this_is_and_links_docs_admin_and_health(client, admin_client):
    res = client.get("/")
    assert res.status_code == 200
    page = res.content.decode()
    for link in ('href="/api/docs/"', 'href="/admin/"', 'href="/healthz"', "make run", "make test"):
        assert link in page
    admin = admin_client.get("/admin/").content.decode()
    assert 'href="/"' in admin  # "View site" leads to the landing page


def test_the_fixed_window_on_redis_counts_with_one_script_and_always_expires(tmp_path, settings):
    """The production path of the rate limit (``CACHE_URL`` on Redis): one script per hit —
    counts per bucket, the window's key expires (set on its first hit), and a Redis that lost
    its scripts (a restart, ``SCRIPT FLUSH``) is sent the script again."""
    import redis
    from django.core.cache import caches

    from rivals.api.throttling import window_hit
    from tests.perf.stack import OwnRedis

    try:
        server = OwnRedis(tmp_path)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    url = "unix://" + server.url.removeprefix("redis+socket://")
    try:
        # the setting's change makes Django's caches anew (its test signals)
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}
        assert type(caches["default"]).__name__ == "RedisCache"
        assert [window_hit("throttle_user_7:1", 61) for _ in range(3)] == [1, 2, 3]
        assert window_hit("throttle_user_8:1", 61) == 1
        direct = redis.Redis.from_url(url)
        (key,) = [k for k in direct.keys() if k.endswith(b"throttle_user_7:1")]
        assert 0 < direct.ttl(key) <= 61
        direct.script_flush()
        assert window_hit("throttle_user_7:1", 61) == 4
    finally:
        server.stop()
