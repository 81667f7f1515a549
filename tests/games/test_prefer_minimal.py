"""``Prefer: return=minimal`` (RFC 7240, rivals.api.prefer): the compact answer of an intent.

Applied to the board a client holds, each compact answer gives exactly the board the full answer
(and the game's read) shows — through whole games of every kind of intent that changes tiles: pairs,
undo and shuffle (classic), a joker, a restart, and a round's board. Without the preference the
answer stays the whole game."""

from __future__ import annotations

import pytest

from rivals import engine
from rivals.matches.models import Round

pytestmark = pytest.mark.django_db

MINIMAL = {"HTTP_PREFER": "return=minimal"}


def _tiles(view) -> dict[int, dict]:
    return {t["id"]: t for t in view["tiles"]}


def _apply(held: dict[int, dict], answer: dict) -> dict[int, dict]:
    """What a client does with a compact answer."""
    for tile_id in answer["removed"]:
        del held[tile_id]
    for tile in answer["tiles"]:
        held[tile["id"]] = tile
    return held


def _send(client, url, body, **headers):
    res = client.post(url, body, format="json", **headers)
    assert res.status_code == 200, res.content
    return res


def test_a_level_played_with_compact_answers_keeps_the_clients_board_exact(guest):
    client, _ = guest("compact-phone")
    game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
    url = f"/api/v1/games/{game['id']}/intents"
    held, seq = _tiles(game), 0
    while True:
        hint = _send(client, url, {"seq": seq, "type": "hint"}, **MINIMAL).json()
        assert hint["tiles"] == [] and hint["removed"] == [] and hint["events"][0]["type"] == "HintGiven"
        seq += 1
        tiles = hint["events"][0]["data"]["tiles"]
        res = _send(client, url, {"seq": seq, "type": "remove_pair", "tiles": tiles}, **MINIMAL)
        seq += 1
        answer = res.json()
        assert res["Preference-Applied"] == "return=minimal" and "Prefer" in res["Vary"]
        assert "game" not in answer and answer["accepted"] is True and answer["seq"] == seq
        assert sorted(answer["removed"]) == sorted(tiles)
        assert [e["type"] for e in answer["events"]][0] == "PairRemoved"
        read = client.get(f"/api/v1/games/{game['id']}").json()
        assert _apply(held, answer) == _tiles(read)
        assert (answer["score"], answer["status"], answer["tiles_left"]) == (read["score"], read["status"], len(held))
        if answer["status"] == "won":
            break
    assert answer["awarded"]["points"] == 20 and [e["type"] for e in answer["events"]] == ["PairRemoved", "GameWon"]


def test_without_the_preference_the_answer_is_the_whole_game(guest):
    client, _ = guest("full-phone")
    game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
    url = f"/api/v1/games/{game['id']}/intents"
    for seq, headers in enumerate(({}, {"HTTP_PREFER": "return=representation"}, {"HTTP_PREFER": "wait=5"})):
        res = _send(client, url, {"seq": seq, "type": "hint"}, **headers)
        assert "Preference-Applied" not in res and "Prefer" in res["Vary"]
        body = res.json()
        assert set(body) == {"accepted", "event", "events", "game", "awarded"}
        assert _tiles(body["game"]) == _tiles(client.get(f"/api/v1/games/{game['id']}").json())


def test_several_preferences_and_parameters_are_read_as_rfc_7240_writes_them(guest):
    client, _ = guest("rfc-phone")
    game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
    url = f"/api/v1/games/{game['id']}/intents"
    for seq, prefer in enumerate(("respond-async, wait=10, return=minimal", 'RETURN="minimal"; foo=bar')):
        res = _send(client, url, {"seq": seq, "type": "hint"}, HTTP_PREFER=prefer)
        assert res["Preference-Applied"] == "return=minimal" and "game" not in res.json()


def test_undo_shuffle_joker_and_restart_in_compact_answers(guest):
    """The intents that put tiles back, change faces or restore the deal (a single-player game
    has them all): the delta still gives the board exactly."""
    from rivals.models import Account

    client, account_id = guest("single-phone")
    Account.objects.filter(pk=account_id).update(jokers=3)
    game = client.post("/api/v1/games", {"mode": "single", "level": 1}, format="json").json()
    url = f"/api/v1/games/{game['id']}/intents"
    held, seq = _tiles(game), 0

    def step(body):
        nonlocal seq
        answer = _send(client, url, {"seq": seq, **body}, **MINIMAL).json()
        seq += 1
        assert _apply(held, answer) == _tiles(client.get(f"/api/v1/games/{game['id']}").json())
        return answer

    plan = engine.deal_from_code(game["code"]).plan
    step({"type": "remove_pair", "tiles": list(plan[0])})
    step({"type": "remove_pair", "tiles": list(plan[1])})
    undone = step({"type": "undo"})
    assert set(plan[1]) <= {t["id"] for t in undone["tiles"]} and undone["removed"] == []
    shuffled = step({"type": "shuffle"})
    assert shuffled["events"][0]["type"] == "TilesShuffled"
    free = next(t for t in held.values() if t["free"])
    step({"type": "joker", "tile": free["id"]})
    restarted = step({"type": "restart"})
    assert restarted["tiles_left"] == len(game["tiles"]) and restarted["removed"] == []


def test_a_round_board_with_compact_answers(guest):
    alice, _ = guest("alice-compact")
    bob, _ = guest("bob-compact")
    first = alice.post("/api/v1/queue", {"mode": "quick"}, format="json").json()
    bob.post("/api/v1/queue", {"mode": "quick"}, format="json")
    ticket = alice.get(f"/api/v1/queue/{first['id']}").json()
    (round_ref,) = alice.get(f"/api/v1/matches/{ticket['match']}").json()["rounds"]
    view = alice.get(f"/api/v1/rounds/{round_ref['id']}").json()
    held, url = _tiles(view), f"/api/v1/rounds/{round_ref['id']}/intents"
    code = Round.objects.get(pk=round_ref["id"]).code  # secret to the player until the round is over
    for seq, pair in enumerate(engine.deal_from_code(code).plan):
        res = _send(alice, url, {"seq": seq, "type": "remove_pair", "tiles": list(pair)}, **MINIMAL)
        answer = res.json()
        assert res["Preference-Applied"] == "return=minimal" and "game" not in answer and "opponents" not in answer
        read = alice.get(f"/api/v1/rounds/{round_ref['id']}").json()
        assert _apply(held, answer) == _tiles(read)
        assert {k: answer[k] for k in ("seq", "score", "board_status", "status")} == {
            k: read[k] for k in ("seq", "score", "board_status", "status")
        }
        assert answer["ends_at"] == read["ends_at"]
    assert answer["status"] == "ended" and answer["board_status"] == "won" and answer["time_left_ms"] is None
