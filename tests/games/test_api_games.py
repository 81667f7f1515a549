"""Games through the HTTP API: a full level won, the clock, bad input, races (API.md)."""

from __future__ import annotations

import threading

import pytest

from rivals import engine
from rivals.errors import NotAllowed
from rivals.games import services as svc
from rivals.games.models import Game, RejectedIntent
from rivals.models import Event
from rivals.points.models import PointsLedgerEntry


def post_intent(client, game_id, body, **headers):
    return client.post(f"/api/v1/games/{game_id}/intents", body, format="json", **headers)


@pytest.mark.django_db
def test_full_game_of_level_1_won_through_the_http_api(guest):
    client, account_id = guest("phone")
    res = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json")
    assert res.status_code == 201, res.content
    game = res.json()
    assert game["status"] == "playing" and game["seq"] == 0 and game["mode"] == "single"
    assert game["ruleset"] == "rivals" and game["level"] == 1
    assert all({"id", "x", "y", "z", "face", "free"} <= set(t) for t in game["tiles"])
    seq = 0
    while True:
        hint = post_intent(client, game["id"], {"seq": seq, "type": "hint"})
        assert hint.status_code == 200, hint.content
        seq += 1
        tiles = hint.json()["event"]["data"]["tiles"]
        res = post_intent(client, game["id"], {"seq": seq, "type": "remove_pair", "tiles": tiles})
        assert res.status_code == 200, res.content
        seq += 1
        body = res.json()
        assert body["accepted"] is True and body["game"]["seq"] == seq
        if body["game"]["status"] == "won":
            break
        assert body["awarded"] == {"points": 0, "sources": []}
    # the winning intent says what it awarded (R-3 first completion, R-5 first place), and its
    # last pair says "won" like the GameWon after it
    assert body["awarded"] == {
        "points": 20,
        "sources": [
            {"source": "single_player", "award": "first_completion", "points": 10, "place": None},
            {"source": "single_player", "award": "first_place", "points": 10, "place": 1},
        ],
    }
    assert [(e["type"], e["data"]["status"]) for e in body["events"]] == [("PairRemoved", "won"), ("GameWon", "won")]
    final = client.get(f"/api/v1/games/{game['id']}").json()
    assert final["tiles"] == [] and final["status"] == "won" and final["hints_used"] == seq // 2
    types = [e["type"] for e in client.get(f"/api/v1/games/{game['id']}/events").json()]
    assert types[0] == "GameStarted" and types[-1] == "GameWon"
    assert types.count("PairRemoved") == len(game["tiles"]) // 2
    assert sorted(PointsLedgerEntry.objects.filter(account_id=account_id).values_list("amount", flat=True)) == [10, 10]
    lb = client.get("/api/v1/levels/1/leaderboard").json()
    assert lb[0]["place"] == 1 and lb[0]["player"]["id"] == account_id
    assert client.get("/api/v1/levels/2").json()["unlocked"] is True


@pytest.mark.django_db
def test_levels_and_layouts_are_public(api):
    res = api.get("/api/v1/levels/1")
    assert res.status_code == 200
    body = res.json()
    assert body["level"] == 1 and body["code"].startswith("MJ1-") and body["hard"] is False
    assert api.get("/api/v1/levels/11001").status_code == 404
    assert api.get("/api/v1/levels/0").status_code == 404
    layouts = api.get("/api/v1/layouts").json()
    assert {"id": "L00", "name": layouts[0]["name"], "tiles": 144} in layouts and len(layouts) >= 8


@pytest.mark.django_db
def test_t9_classic_game_from_a_code_is_case_insensitive_and_bad_codes_are_400(guest):
    client, _ = guest()
    res = client.post("/api/v1/games", {"mode": "classic", "code": "mj1-l00-aaaaaab"}, format="json")
    assert res.status_code == 201 and res.json()["code"] == "MJ1-L00-AAAAAAB"
    assert res.json()["ruleset"] == "classic"
    for bad in ("MJ2-L00-AAAAAAA", "MJ1-L77-AAAAAAA", "MJ1-L00-AAAA1AA", "garbage"):
        res = client.post("/api/v1/games", {"mode": "classic", "code": bad}, format="json")
        assert res.status_code == 400, bad
        assert res.json()["error"]["code"] == "invalid"
    res = client.post("/api/v1/games", {"mode": "classic"}, format="json")
    assert res.status_code == 201 and res.json()["code"].startswith("MJ1-L")


@pytest.mark.django_db
def test_t12_pause_stops_the_clock():
    from tests.games.helpers import account, at, intent, new_game

    acc = account("p")
    game = new_game(acc, "classic", created_s=0)
    intent(game, acc, "pause", now=at(10))
    game.refresh_from_db()
    assert game.status == "paused" and game.elapsed_before_ms == 10_000
    with pytest.raises(NotAllowed):
        intent(game, acc, "hint", now=at(50))
    intent(game, acc, "resume", now=at(100))
    game.refresh_from_db()
    from rivals.games.state import play_ms

    assert play_ms(game, at(105)) == 15_000  # the 90 paused seconds do not count


@pytest.mark.django_db
def test_t11_undo_restores_the_last_pair_and_t13_records_list_best_classic_times(guest):
    from tests.games.helpers import account, at, intent, new_game, play_to_win

    acc = account("r")
    game = new_game(acc, "classic", created_s=0)
    before = game.present_mask
    pair = svc.game_board(game).removable_pairs()[0]
    intent(game, acc, "remove_pair", now=at(1), tiles=list(pair))
    intent(game, acc, "undo", now=at(2))
    game.refresh_from_db()
    assert game.present_mask == before and game.undos_used == 1 and game.removed == []
    play_to_win(game, acc, 2, 300)
    other = new_game(acc, "classic", created_s=1000)
    play_to_win(other, acc, 1000, 1200)
    records = svc_records(acc)
    assert [r["time_ms"] for r in records] == [200_000, 300_000]
    assert records[0]["code"] == other.code and records[0]["layout"] == other.layout


def svc_records(acc):
    from rivals.games.selectors import personal_records

    return personal_records(account=acc)


@pytest.mark.django_db
def test_t14_shuffle_keeps_the_remaining_faces_and_a_free_pair(guest):
    from tests.games.helpers import account, at, intent, new_game

    acc = account("s")
    game = new_game(acc, "classic")
    before = sorted(game.faces)
    r = intent(game, acc, "shuffle", now=at(1))
    assert sorted(r.game.faces) == before
    assert svc.game_board(r.game).removable_pairs()
    assert r.game.shuffles_used == 1 and isinstance(r.events[0].data["solvable"], bool)


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["single", "classic", "pool_practice"])
def test_t11_t14_undo_after_a_shuffle_restores_the_pair_with_its_own_faces(mode):
    """Found by the intent fuzz: a shuffle left no face on the removed positions, so undoing a
    pair removed before it put two faceless tiles back — and every later intent of the game
    answered 500. Removed tiles keep their faces through a shuffle."""
    from tests.games.helpers import account, at, intent, new_game

    acc = account(f"u-{mode}")
    game = new_game(acc, mode, **({"level": 1} if mode == "single" else {}))
    a, b = svc.game_board(game).removable_pairs()[0]
    faces = [game.faces[a], game.faces[b]]
    intent(game, acc, "remove_pair", now=at(1), tiles=[a, b])
    shuffled = intent(game, acc, "shuffle", now=at(2))
    assert [shuffled.game.faces[a], shuffled.game.faces[b]] == faces
    intent(game, acc, "undo", now=at(3))
    game.refresh_from_db()
    assert (game.present_mask >> a) & 1 and (game.present_mask >> b) & 1
    assert [game.faces[a], game.faces[b]] == faces and None not in game.faces
    hint = intent(game, acc, "hint", now=at(4))  # the board still builds: the game goes on
    assert hint.events[0].type == "HintGiven"


@pytest.mark.django_db
def test_bad_intents_are_4xx_recorded_and_change_nothing(guest):
    client, _ = guest("a")
    other, _ = guest("b")
    game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
    gid = game["id"]
    version = Game.objects.get(pk=gid).version
    blocked = next(t for t in game["tiles"] if not t["free"])
    free = [t for t in game["tiles"] if t["free"]]
    mismatch = next(
        (a, b)
        for a in free
        for b in free
        if a["face"] != b["face"] and not engine.faces_match(a["face"], b["face"], "rivals")
    )
    cases = [
        (client, gid, {"seq": 5, "type": "hint"}, 409, "conflict"),
        (client, gid, {"seq": 0, "type": "fly"}, 400, "invalid"),
        (client, gid, {"type": "hint"}, 400, "invalid"),
        (client, gid, {"seq": 0, "type": "remove_pair", "tiles": [0]}, 400, "invalid"),
        (client, gid, {"seq": 0, "type": "remove_pair", "tiles": [9999, 1]}, 400, "invalid"),
        (
            client,
            gid,
            {"seq": 0, "type": "remove_pair", "tiles": [mismatch[0]["id"], mismatch[1]["id"]]},
            422,
            "not_allowed",
        ),
        (client, gid, {"seq": 0, "type": "click_blocked", "tile": free[0]["id"]}, 422, "not_allowed"),
        (client, gid, {"seq": 0, "type": "joker", "tile": blocked["id"]}, 422, "not_allowed"),
        (other, gid, {"seq": 0, "type": "hint"}, 404, "not_found"),  # another account's game
        (client, "00000000-0000-0000-0000-000000000000", {"seq": 0, "type": "hint"}, 404, "not_found"),
        (client, "not-a-uuid", {"seq": 0, "type": "hint"}, 404, "not_found"),
    ]
    for who, target, body, status, code in cases:
        res = post_intent(who, target, body)
        assert res.status_code == status, (body, res.content)
        assert res.json()["error"]["code"] == code, body
    res = client.post(f"/api/v1/games/{gid}/intents", data="[1, 2", content_type="application/json")
    assert res.status_code == 400
    res = client.post(
        f"/api/v1/games/{gid}/intents",
        data='{"seq": 0, "type": "hint", "pad": "' + "x" * 100_000 + '"}',
        content_type="application/json",
    )
    assert res.status_code == 413
    assert post_intent(client, gid, {"seq": 5, "type": "hint"}).json()["error"]["details"]["seq"] == 0
    assert Game.objects.get(pk=gid).version == version  # nothing written to the game
    assert RejectedIntent.objects.count() >= len(cases)
    assert other.get(f"/api/v1/games/{gid}").status_code == 404
    assert other.get(f"/api/v1/games/{gid}/events").status_code == 404


@pytest.mark.django_db
def test_intents_on_a_finished_game_are_refused(guest):
    client, _ = guest()
    gid = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()["id"]
    assert post_intent(client, gid, {"seq": 0, "type": "end"}).status_code == 200
    res = post_intent(client, gid, {"seq": 1, "type": "hint"})
    assert res.status_code == 422 and res.json()["error"]["details"]["status"] == "ended"


@pytest.mark.django_db
def test_idempotent_intent_replay_applies_once(guest):
    client, _ = guest()
    gid = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()["id"]
    first = post_intent(client, gid, {"seq": 0, "type": "hint"}, HTTP_IDEMPOTENCY_KEY="i-1")
    again = post_intent(client, gid, {"seq": 0, "type": "hint"}, HTTP_IDEMPOTENCY_KEY="i-1")
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert Event.objects.filter(stream_id=f"game-{gid}", type="HintGiven").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_devices_racing_on_one_game_exactly_one_wins(guest):
    from django.db import connections
    from rest_framework.test import APIClient

    client, _ = guest("racer")
    token = client._credentials["HTTP_AUTHORIZATION"]
    gid = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()["id"]
    pair = svc.game_board(Game.objects.get(pk=gid)).removable_pairs()[0]
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def device():
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=token)
        barrier.wait(timeout=10)
        res = post_intent(c, gid, {"seq": 0, "type": "remove_pair", "tiles": list(pair)})
        codes.append(res.status_code)
        connections.close_all()

    threads = [threading.Thread(target=device) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(codes) == [200, 409]
    assert Event.objects.filter(stream_id=f"game-{gid}", type="PairRemoved").count() == 1


@pytest.mark.django_db
def test_rebuild_projections_reproduces_games_leaderboards_ledger_and_balances():
    from django.core.management import call_command

    from rivals.games.models import LevelBest
    from rivals.models import Account
    from tests.games.helpers import account, at, intent, new_game, play_to_win

    acc = account("x", jokers=2)
    game = new_game(acc, level=1, created_s=0)
    intent(game, acc, "joker", now=at(1), tile=svc.game_board(game).free_tiles()[0])
    intent(
        game,
        acc,
        "click_blocked",
        now=at(2),
        tile=next(
            i for i in range(144) if (svc.game_board(game).present >> i) & 1 and not svc.game_board(game).is_free(i)
        ),
    )
    play_to_win(game, acc, 2, 100)
    pool = new_game(acc, "pool_practice", created_s=0)
    intent(pool, acc, "hint", now=at(1))
    fields = [f.name for f in Game._meta.fields if f.name != "plan"]

    def snapshot():
        return (
            sorted(Game.objects.values_list(*fields)),
            sorted(LevelBest.objects.values_list("level", "account_id", "best_ms", "achieved_at", "completions")),
            sorted(PointsLedgerEntry.objects.values_list("account_id", "amount", "source", "award_key", "awarded_at")),
            sorted(Account.objects.values_list("id", "display_name", "jokers")),
        )

    live = snapshot()
    call_command("rebuild_projections")
    assert snapshot() == live


@pytest.mark.django_db
def test_t7_selection_reaches_the_server_as_remove_pair_and_click_blocked_only(guest):
    """T-7: selecting/deselecting is client-side; the server sees a matching free pair removed,
    a blocked tap (nothing removed), and refuses a non-matching pair without changing the board."""
    client, _ = guest()
    game = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()
    free = [t for t in game["tiles"] if t["free"]]
    blocked = next(t for t in game["tiles"] if not t["free"])
    res = post_intent(client, game["id"], {"seq": 0, "type": "click_blocked", "tile": blocked["id"]})
    assert res.status_code == 200 and res.json()["event"]["type"] == "BlockedTileClicked"
    assert len(res.json()["game"]["tiles"]) == len(game["tiles"])  # nothing removed
    a, b = next(
        (a, b)
        for a in free
        for b in free
        if a["id"] < b["id"] and not engine.faces_match(a["face"], b["face"], "classic")
    )
    res = post_intent(client, game["id"], {"seq": 1, "type": "remove_pair", "tiles": [a["id"], b["id"]]})
    assert res.status_code == 422
    pair = svc.game_board(Game.objects.get(pk=game["id"])).removable_pairs()[0]
    res = post_intent(client, game["id"], {"seq": 1, "type": "remove_pair", "tiles": list(pair)})
    assert res.status_code == 200 and len(res.json()["game"]["tiles"]) == len(game["tiles"]) - 2
