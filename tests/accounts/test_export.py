"""A player's own data (API.md Accounts: ``GET /api/v1/account/export``; R-37; GDPR Art. 15, 20):
one JSON document of everything the service holds about the caller — never another player's
personal data nor any secret — streamed, at most one an hour, downloadable by an operator from
the player's admin page (an event with the operator as actor), and nothing personal after an
erasure."""

from __future__ import annotations

import json
import tracemalloc
from datetime import timedelta

import pytest
from django.urls import reverse

from rivals import engine
from rivals.accounts.export import export_document
from rivals.accounts.services import account_close, account_export, account_rename
from rivals.daily_bonus.services import daily_bonus_claim
from rivals.errors import Throttled
from rivals.games import services as games
from rivals.games.models import Game
from rivals.matches import services as matches
from rivals.models import AccessToken, Account, AccountKey, Event
from rivals.reports.services import report_file
from tests.accounts.conftest import code_in
from tests.contract import ONE_TIME_SPELLING

pytestmark = pytest.mark.django_db


def exported(client) -> tuple[dict, object]:
    res = client.get("/api/v1/account/export")
    assert res.status_code == 200, res.content
    assert res["Content-Type"] == "application/json" and res["Content-Disposition"].startswith("attachment;")
    assert res.streaming  # written as it is read
    return json.loads(b"".join(res.streaming_content)), res


def _win(account, code: str) -> Game:
    game = games.game_create(account=account, mode="classic", code=code)
    for seq, (a, b) in enumerate(engine.deal_from_code(code).plan):
        games.game_intent_apply(
            account=account, game_id=game.pk, intent={"seq": seq, "type": "remove_pair", "tiles": [a, b]}
        )
    game.refresh_from_db()
    return game


def test_the_export_holds_the_players_own_data_and_nothing_else(
    guest, console_email, django_capture_on_commit_callbacks
):
    client, account_id = guest("export-me")
    _, other_id = guest("export-other")
    me, other = Account.objects.get(pk=account_id), Account.objects.get(pk=other_id)
    account_rename(account=other, display_name="Somebody Else")
    # an email, verified: the player's own
    console_email()
    with django_capture_on_commit_callbacks(execute=True):
        body = {"email": "me@example.org", "password": "a long pass phrase"}
        assert client.post("/api/v1/account/credentials", body, format="json").status_code == 202
    assert client.post("/api/v1/account/verify", {"token": code_in(console_email())}, format="json").status_code == 200
    me.refresh_from_db()
    account_rename(account=me, display_name="Sealed Me")
    account_rename(account=me, display_name="Me Again")
    won = _win(me, engine.random_code(rng_seed=3, layout_id="L08"))
    daily_bonus_claim(account=me)
    report_file(reporter=me, subject=f"player:{other_id}", reason="name", note="my own words")
    matches.queue_join(account=me, mode="quick")
    matches.queue_join(account=other, mode="quick")

    doc, res = exported(client)
    body = json.dumps(doc)
    assert doc["format"] == "mahjong-rivals-account-export/1" and doc["account_id"] == account_id
    assert (doc["closed"], doc["erased"]) == (False, False)
    assert ONE_TIME_SPELLING.match(doc["exported_at"])
    account = doc["account"]
    assert (account["email"], account["email_verified"], account["display_name"]) == (
        "me@example.org",
        True,
        "Me Again",
    )
    assert account["status"] == "active" and account["signed_in_devices"] == 1 and account["device_linked"] is True
    # display names over time, the sealed ones opened with the account's key
    assert [n["display_name"] for n in doc["display_names"]] == [f"Player {account_id}", "Sealed Me", "Me Again"]
    # games with their events; rounds with the player's place; points; jokers; reports; notifications
    game = next(g for g in doc["games"] if g["id"] == str(won.pk))
    assert game["status"] == "won" and game["code"] == won.code and game["events"][-1]["type"] == "GameWon"
    assert [r["mode"] for r in doc["rounds"]] == ["quick"] and doc["rounds"][0]["players"] == 2
    assert {p["source"] for p in doc["points"]} >= {"daily_bonus"}
    assert doc["reports"][0]["note"] == "my own words" and doc["reports"][0]["subject"] == f"player:{other_id}"
    assert [n["type"] for n in doc["notifications"]] == ["match_found", "round_started"]
    kinds = [e["type"] for e in doc["events"]]
    assert kinds[0] == "AccountCreated" and "EmailVerified" in kinds
    assert kinds[-1] == "AccountDataExported" and doc["events"][-1]["by"] == "you"
    renamed = next(e for e in doc["events"] if e["type"] == "DisplayNameChanged")
    assert renamed["data"] == {"account_id": account_id, "display_name": "Sealed Me"}
    # never another player's personal data, never a secret
    assert "Somebody Else" not in body
    secrets = [
        *AccessToken.objects.filter(account=me).values_list("key", flat=True),  # the token's digest
        AccountKey.objects.get(account=me).key,
        me.password,
        me.device_id,  # the device id's digest
        me.username,
    ]
    assert not [s for s in secrets if s and s in body], "a secret in the export"
    assert '"token"' not in body and "_sealed" not in body


def test_at_most_one_export_an_hour(guest):
    client, account_id = guest("export-hourly")
    exported(client)
    again = client.get("/api/v1/account/export")
    assert again.status_code == 429 and again["Retry-After"] == str(again.json()["error"]["details"]["retry_after_s"])
    error = again.json()["error"]
    assert error["code"] == "throttled" and 3500 < error["details"]["retry_after_s"] <= 3600
    me = Account.objects.get(pk=account_id)
    first = Event.objects.get(stream_id=me.stream_id, type="AccountDataExported")
    with pytest.raises(Throttled):
        account_export(account=me, actor=f"account:{me.pk}", now=first.recorded_at + timedelta(minutes=59))
    later = account_export(account=me, actor=f"account:{me.pk}", now=first.recorded_at + timedelta(hours=1, seconds=1))
    assert later.account.pk == me.pk
    assert Event.objects.filter(stream_id=me.stream_id, type="AccountDataExported").count() == 2


def test_r40_a_running_rounds_deal_stays_secret_in_the_export(guest):
    client, account_id = guest("export-secret")
    _, other_id = guest("export-secret-2")
    matches.queue_join(account=Account.objects.get(pk=account_id), mode="quick")
    matches.queue_join(account=Account.objects.get(pk=other_id), mode="quick")
    doc, _ = exported(client)
    (board,) = doc["games"]
    (rnd,) = doc["rounds"]
    assert board["code"] is None and board["salt"] is None and len(board["commitment"]) == 64
    assert rnd["code"] is None and rnd["commitment"] == board["commitment"] and rnd["status"] == "running"
    started = board["events"][0]
    assert started["type"] == "GameStarted" and started["data"]["code"] is None and started["data"]["salt"] is None
    code = Game.objects.get(account_id=account_id).code
    assert code not in json.dumps(doc)


def test_the_operator_downloads_it_from_the_players_page_as_a_recorded_request(guest, operator):
    client, account_id = guest("export-sar")
    exported(client)  # the player's own: the operator's is never limited by it
    page = operator.get(reverse("admin:rivals_account_change", args=[account_id]))
    url = reverse("admin:rivals_account_export", args=[account_id])
    assert url.encode() in page.content and b"Download the player's data" in page.content
    assert operator.get(url).status_code == 405  # it records an event: a POST
    res = operator.post(url)
    assert res.status_code == 200 and res["Content-Disposition"].startswith("attachment;")
    doc = json.loads(b"".join(res.streaming_content))
    assert doc["account_id"] == account_id and doc["events"][-1] == {
        **doc["events"][-1],
        "type": "AccountDataExported",
        "by": "operator",
        "data": {"account_id": account_id, "by": "operator"},
    }
    recorded = Event.objects.filter(stream_id=f"account-{account_id}", type="AccountDataExported").last()
    assert recorded.metadata["actor"] == f"operator:{operator.user.pk}"


def test_after_an_erasure_the_export_says_the_account_is_closed_and_holds_nothing_personal(guest, operator):
    client, account_id = guest("export-erased")
    me = Account.objects.get(pk=account_id)
    account_rename(account=me, display_name="Forget Me")
    _win(me, engine.random_code(rng_seed=5, layout_id="L08"))
    account_close(account=me, reason="the player asked", actor="operator:test", erase=True)
    assert client.get("/api/v1/account/export").status_code == 401  # a closed account signs in no more
    res = operator.post(reverse("admin:rivals_account_export", args=[account_id]))
    doc = json.loads(b"".join(res.streaming_content))
    assert (doc["closed"], doc["erased"], doc["account"]["status"]) == (True, True, "closed")
    assert doc["account"]["email"] is None and doc["account"]["display_name"] is None
    parts = [k for k, v in doc.items() if isinstance(v, list)]
    assert parts and all(doc[k] == [] for k in parts)
    assert "Forget Me" not in json.dumps(doc)


def _memory_peak(account) -> tuple[int, int]:
    subject = account_export(account=account, actor="operator:test")
    tracemalloc.start()
    try:
        size = sum(len(piece) for piece in export_document(subject))
        return tracemalloc.get_traced_memory()[1], size
    finally:
        tracemalloc.stop()


def test_the_export_streams_in_flat_memory(guest):
    """Four times the games, about the same peak: the document is written as it is read, a chunk
    of rows at a time (``rivals.accounts.export.chunked``)."""
    _, account_id = guest("export-flat")
    me = Account.objects.get(pk=account_id)
    code = engine.random_code(rng_seed=7, layout_id="L08")
    pairs = engine.deal_from_code(code).plan[:3]

    def play(n: int) -> None:
        for _ in range(n):
            game = games.game_create(account=me, mode="classic", code=code)
            for seq, (a, b) in enumerate(pairs):
                games.game_intent_apply(
                    account=me, game_id=game.pk, intent={"seq": seq, "type": "remove_pair", "tiles": [a, b]}
                )

    play(60)
    small, small_size = _memory_peak(me)
    play(180)
    large, large_size = _memory_peak(me)
    assert large_size > 3.5 * small_size  # four times the data …
    assert large < small * 1.5, (small, large)  # … in about the same memory
