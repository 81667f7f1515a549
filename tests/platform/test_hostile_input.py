"""No 500 for any input (API.md): each family that once answered 500 is sent here, and hostile
JSON is thrown at every intent endpoint. A refused intent keeps its (sanitised) fair-play record."""

from __future__ import annotations

import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import strategies as st

from rivals.api.intents import IntentEndpoint
from rivals.games.models import RejectedIntent
from rivals.models import Account, Event
from tests.platform.fuzz import fuzz

NUL = '"a\\u0000b"'
SURROGATE = '"\\ud800"'


@pytest.fixture
def player(guest):
    client, account_id = guest("hostile-device")
    game = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()["id"]
    table = client.post("/api/v1/sichuan", {"seed": 7}, format="json").json()["id"]
    return client, {"games": game, "sichuan": table, "account": account_id}


def _post(client, path, raw: str | bytes):
    return client.post(path, data=raw, content_type="application/json")


def _assert_invalid(res):
    assert res.status_code == 400, res.content
    assert res.json()["error"]["code"] == "invalid"


REFUSED_INTENT_BODIES = {
    "nul in a string": '{"seq": 99, "type": "hint", "note": ' + NUL + "}",
    "nul in a key": '{"seq": 99, "type": "hint", ' + NUL + ": 1}",
    "lone surrogate in a string": '{"seq": 99, "type": "hint", "note": ' + SURROGATE + "}",
    "lone surrogate in a key": '{"seq": 99, "type": "hint", ' + SURROGATE + ": 1}",
    "nul in the type": '{"seq": 0, "type": ' + NUL + "}",
    "seq 1e400": '{"seq": 1e400, "type": "hint"}',
    "tile 1e400": '{"seq": 0, "type": "click_blocked", "tile": 1e400}',
    "NaN": '{"seq": NaN, "type": "hint"}',
    "-Infinity": '{"seq": -Infinity, "type": "pass"}',
}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["games", "sichuan"])
@pytest.mark.parametrize("name", sorted(REFUSED_INTENT_BODIES))
def test_hostile_intent_bodies_are_400_and_keep_a_sanitised_record(player, kind, name):
    client, ids = player
    events = Event.objects.count()
    res = _post(client, f"/api/v1/{kind}/{ids[kind]}/intents", REFUSED_INTENT_BODIES[name])
    _assert_invalid(res)
    record = RejectedIntent.objects.latest("pk")
    assert record.code == "invalid" and record.target.endswith(ids[kind])
    assert record.account_id is not None
    stored = json.dumps(record.intent)
    assert "\\u0000" not in stored and "\\ud800" not in stored
    assert Event.objects.count() == events  # nothing else written


@pytest.mark.django_db
def test_the_sanitised_record_keeps_what_was_sent_readably(player):
    client, ids = player
    _post(client, f"/api/v1/games/{ids['games']}/intents", '{"seq": 1e400, "type": "hint", "note": ' + NUL + "}")
    assert RejectedIntent.objects.latest("pk").intent == {"seq": "inf", "type": "hint", "note": "a\ufffdb"}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["games", "sichuan"])
def test_nul_in_an_object_id_is_400_with_a_record(player, kind):
    client, _ = player
    res = _post(client, f"/api/v1/{kind}/%00/intents", '{"seq": 0, "type": "hint"}')
    _assert_invalid(res)
    assert RejectedIntent.objects.latest("pk").target.endswith("\ufffd")
    for path in (f"/api/v1/{kind}/%00", f"/api/v1/{kind}/%00/events", f"/api/v1/{kind}/a%01b"):
        _assert_invalid(client.get(path))


DEEP = "[" * 5000 + "]" * 5000


def body_ids(bodies: list[str]) -> list[str | None]:
    """A parameter's test id: its value, but a body of 10,000 brackets is ``body<index>`` (as every
    pytest names it, not only the releases that shorten long ids)."""
    return [f"body{i}" if b is DEEP else None for i, b in enumerate(bodies)]


@pytest.mark.django_db
def test_deeply_nested_json_is_400_everywhere_unauthenticated_too(api, player):
    client, ids = player
    _assert_invalid(_post(api, "/api/v1/auth/guest", DEEP))
    for path in (
        "/api/v1/games",
        "/api/v1/sichuan",
        f"/api/v1/games/{ids['games']}/intents",
        f"/api/v1/sichuan/{ids['sichuan']}/intents",
    ):
        _assert_invalid(_post(client, path, DEEP))
    _assert_invalid(client.patch("/api/v1/account", data=DEEP, content_type="application/json"))
    _assert_invalid(_post(client, "/api/v1/games", '{"mode": ' + "[" * 40 + "]" * 40 + "}"))


@pytest.mark.django_db
def test_offsets_past_bigint_and_negative_are_400(player):
    client, _ = player
    for path in ("/api/v1/sichuan", "/api/v1/rankings/amr"):
        _assert_invalid(client.get(path + "?offset=999999999999999999999999999999"))
        _assert_invalid(client.get(path + "?offset=-1"))
    _assert_invalid(client.get("/api/v1/records?mode=xclassic"))
    _assert_invalid(client.get("/api/v1/records?mode=%00"))
    assert client.get("/api/v1/rankings/xweeklyx").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bad", ["a\u0007b", "\ufeffname", "evil\u202egnp.exe", "x\u2066y\u2069", "a\u0085b", "a\u2028b", "\u200f\u200f"]
)
def test_display_names_and_device_ids_refuse_controls_boms_and_bidi_overrides(api, player, bad):
    client, _ = player
    res = client.patch("/api/v1/account", {"display_name": bad}, format="json")
    _assert_invalid(res)
    assert "display_name" in res.json()["error"]["details"]
    res = api.post("/api/v1/auth/guest", {"device_id": bad}, format="json")
    _assert_invalid(res)
    assert "device_id" in res.json()["error"]["details"]


@pytest.mark.django_db
def test_names_are_nfc_normalised_and_measured_after_normalisation(player):
    client, _ = player
    decomposed = "Ame\u0301lie"  # é as e + combining acute
    res = client.patch("/api/v1/account", {"display_name": decomposed}, format="json")
    assert res.status_code == 200 and res.json()["display_name"] == "Am\u00e9lie"
    assert client.patch("/api/v1/account", {"display_name": "e\u0301" * 32}, format="json").status_code == 200
    _assert_invalid(client.patch("/api/v1/account", {"display_name": "x" * 33}, format="json"))


@pytest.mark.django_db
def test_patch_with_nothing_to_change_is_200_and_changes_nothing(player):
    client, _ = player
    before = client.get("/api/v1/account").json()
    events = Event.objects.count()
    res = client.patch("/api/v1/account", {}, format="json")
    assert res.status_code == 200 and res.json() == before
    assert Event.objects.count() == events


@pytest.mark.django_db
def test_a_malformed_token_is_401_not_a_query(api):
    for header in ("Token a\u0000b", "Token " + "z" * 40, "Token " + "0" * 41):
        res = api.get("/api/v1/account", HTTP_AUTHORIZATION=header)
        assert res.status_code == 401 and res.json()["error"]["code"] == "unauthenticated"


# --- hypothesis: hostile JSON at every intent endpoint ------------------------------------------


def _intent_routes(resolver=None, prefix=""):
    """Every URL pattern whose view is an IntentEndpoint (endpoints added later included)."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _intent_routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            view = getattr(entry.callback, "view_class", None)
            if isinstance(view, type) and issubclass(view, IntentEndpoint):
                yield prefix + str(entry.pattern), view


_hostile_text = st.text(st.characters(codec=None, categories=["Cc", "Cs", "Cf", "Co", "Lu", "Nd", "Zs"]), max_size=8)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    _hostile_text,
    st.sampled_from(["remove_pair", "hint", "discard", "pass", "\x00", "\ud800", "\ufeff"]),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_hostile_text, inner, max_size=4)),
    max_leaves=12,
)


def _as_text(value) -> str:
    return json.dumps(value, allow_nan=True)  # escapes lone surrogates as \ud800, writes Infinity/NaN


_bodies = st.one_of(
    _json.map(_as_text),
    st.builds(
        lambda seq, extra: _as_text({"seq": seq, "type": "hint", **extra}),
        st.one_of(st.integers(-5, 5), st.floats(), st.text(max_size=3)),
        st.dictionaries(_hostile_text, _scalars, max_size=3),
    ),
    st.sampled_from(
        [
            "1e400",
            '{"seq": 1e400}',
            "[" * 3000,
            DEEP,
            '{"a": "\\u0000"}',
            "",
            "nul",
            '"\\udfff"',
            '{"seq": 0, "type": "hint", "tiles": [1e999, -1e999]}',
        ]
    ),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)


def test_the_intent_endpoints_are_found():
    routes = {pattern for pattern, _ in _intent_routes()}
    assert {"api/v1/games/<str:game_id>/intents", "api/v1/sichuan/<str:table_id>/intents"} <= routes


@pytest.mark.django_db
@fuzz(examples=150, share=0.1, body=_bodies, which=st.integers(min_value=0, max_value=99))
def test_hostile_json_at_every_intent_endpoint_is_never_a_5xx_and_refusals_are_recorded(player, body, which):
    client, ids = player
    routes = sorted(_intent_routes(), key=lambda r: r[0])
    pattern, view = routes[which % len(routes)]
    target = ids["sichuan" if "sichuan" in pattern else "games"]
    path = "/" + pattern.replace(f"<str:{view.target_kwarg}>", target)
    records = RejectedIntent.objects.count()
    res = _post(client, path, body.encode("utf-8", "surrogatepass"))
    assert res.status_code < 500, (res.status_code, body[:200], res.content[:300])
    assert "error" in res.json() or res.status_code == 200
    if res.status_code >= 400:
        assert RejectedIntent.objects.count() == records + 1
    assert Account.objects.filter(pk=ids["account"]).exists()


# --- issue 24: the community endpoints -------------------------------------------------------------

SIGNED_SECRET = "hostile-store-secret"


def _signed(client, raw: bytes):
    import hashlib
    import hmac

    signature = "sha256=" + hmac.new(SIGNED_SECRET.encode(), raw, hashlib.sha256).hexdigest()
    return client.post("/api/v1/purchases", data=raw, content_type="application/json", HTTP_X_SIGNATURE=signature)


@pytest.mark.django_db
@pytest.mark.parametrize("q", ["%00ab", "ab%01", "a%1bb", "%ef%bb%bfab", "ab%e2%80%ae", "a%c2%85b", "ab%e2%80%a8"])
def test_a_player_search_with_control_characters_is_400(api, q):
    res = api.get(f"/api/v1/players?q={q}")
    _assert_invalid(res)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", ["q=a", "q=" + "x" * 65, "q=ab&limit=0", "q=ab&offset=-1", "q=ab&offset=" + "9" * 30, "q=ab&sort=name"]
)
def test_a_player_search_out_of_its_bounds_is_400(api, query):
    _assert_invalid(api.get(f"/api/v1/players?{query}"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    REPORT_BODIES := [NUL, SURROGATE, DEEP, "1e400", '{"subject": "player:1", "reason": NaN}'],
    ids=body_ids(REPORT_BODIES),
)
def test_hostile_report_bodies_are_400_and_record_nothing(player, body):
    client, _ = player
    events = Event.objects.count()
    _assert_invalid(_post(client, "/api/v1/reports", body))
    _assert_invalid(_post(client, "/api/v1/reports", '{"subject": ' + body + ', "reason": "name"}'))
    assert Event.objects.count() == events


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    PURCHASE_BODIES := [NUL, SURROGATE, DEEP, "1e400", '{"jokers": 1e400}', '{"transaction_id": ' + NUL + "}"],
    ids=body_ids(PURCHASE_BODIES),
)
def test_hostile_purchase_bodies_are_401_unsigned_and_400_signed_and_record_nothing(api, settings, body):
    settings.PURCHASES_WEBHOOK_SECRET = SIGNED_SECRET
    events = Event.objects.count()
    res = _post(api, "/api/v1/purchases", body)
    assert res.status_code == 401 and res.json()["error"]["code"] == "unauthenticated"  # not even read
    _assert_invalid(_signed(api, body.encode("utf-8", "surrogatepass")))  # signed: read, and refused
    assert Event.objects.count() == events
