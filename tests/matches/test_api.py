"""The "Matches and rounds" contract of API.md, end to end through HTTP on the real clock."""

from __future__ import annotations

import pytest

from rivals import engine
from rivals.games.models import RejectedIntent
from rivals.matches.models import Round
from rivals.points.models import PointsLedgerEntry

pytestmark = pytest.mark.django_db


def _join(client, mode="quick", **headers):
    return client.post("/api/v1/queue", {"mode": mode}, format="json", **headers)


def test_a_quick_match_between_two_api_clients_to_its_points(guest):
    alice, alice_id = guest("alice-device")
    bob, bob_id = guest("bob-device")
    first = _join(alice)
    assert first.status_code == 201 and first.json()["status"] == "waiting" and first.json()["match"] is None
    second = _join(bob)
    assert second.status_code == 201 and second.json()["status"] == "matched"
    ticket = alice.get(f"/api/v1/queue/{first.json()['id']}").json()
    assert ticket["status"] == "matched" and ticket["match"] == second.json()["match"]

    match = alice.get(f"/api/v1/matches/{ticket['match']}").json()
    assert match["mode"] == "quick" and match["status"] == "running"
    assert [p["id"] for p in match["players"]] == [alice_id, bob_id]
    (round_ref,) = match["rounds"]
    assert set(round_ref) >= {"id", "status", "starts_at", "ends_at"} and round_ref["status"] == "running"

    view = alice.get(f"/api/v1/rounds/{round_ref['id']}").json()
    assert view["status"] == "running" and view["board_status"] == "playing" and view["mode"] == "quick"
    assert view["seq"] == 0 and view["score"] == 0 and view["tiles"]
    assert view["opponents"] == [
        {
            "player": {"id": bob_id, "display_name": f"Player {bob_id}"},
            "score": 0,
            "pairs_left": len(view["tiles"]) // 2,
            "finished": False,
            "stuck": False,
        }
    ]
    assert view["ends_at"] and view["starts_at"]

    assert view["code"] is None and view["commitment"]  # the deal is secret while the round runs
    # a winning plan of the deal (T-9), as the server knows it
    plan = engine.deal_from_code(Round.objects.get(pk=round_ref["id"]).code).plan
    res = None
    for seq, pair in enumerate(plan):
        res = alice.post(
            f"/api/v1/rounds/{round_ref['id']}/intents",
            {"seq": seq, "type": "remove_pair", "tiles": list(pair)},
            format="json",
        )
        assert res.status_code == 200, res.json()
    final = res.json()["game"]
    assert final["status"] == "ended" and final["board_status"] == "won" and final["end_reason"] == "completed"
    assert final["result"]["places"][0]["player"]["id"] == alice_id

    bob_view = bob.get(f"/api/v1/rounds/{round_ref['id']}").json()
    assert bob_view["status"] == "ended" and bob_view["opponents"][0]["finished"] is True
    assert bob_view["opponents"][0]["pairs_left"] == 0
    late = bob.post(
        f"/api/v1/rounds/{round_ref['id']}/intents", {"seq": 0, "type": "remove_pair", "tiles": [0, 1]}, format="json"
    )
    assert late.status_code == 422 and late.json()["error"]["code"] == "not_allowed"
    assert RejectedIntent.objects.filter(account_id=bob_id, target=f"round:{round_ref['id']}").count() == 1

    done = alice.get(f"/api/v1/matches/{ticket['match']}").json()
    assert done["status"] == "finished"
    assert done["prizes"] == [
        {"player": {"id": alice_id, "display_name": f"Player {alice_id}"}, "points": 20},
        {"player": {"id": bob_id, "display_name": f"Player {bob_id}"}, "points": 0},
    ]
    assert PointsLedgerEntry.objects.get(account_id=alice_id).amount == 20
    assert alice.get("/api/v1/account").json()["points"] == {"amr": 20, "weekly": 20, "daily": 20}
    assert alice.get("/api/v1/rankings/daily/me").json()["points"] == 20


def test_a_matched_ticket_names_the_round_to_play_and_none_once_the_match_is_over(guest):
    """An addition to API.md's ticket: ``round``, the round of its match to play now — a client goes
    from the ticket straight to the round (null while waiting, and once the match is over)."""
    alice, _ = guest("ticket-round-a")
    bob, _ = guest("ticket-round-b")
    first = _join(alice).json()
    assert first["status"] == "waiting" and first["round"] is None
    second = _join(bob).json()
    (round_id,) = [r["id"] for r in alice.get(f"/api/v1/matches/{second['match']}").json()["rounds"]]
    assert second["round"] == round_id
    assert alice.get(f"/api/v1/queue/{first['id']}").json()["round"] == round_id
    plan = engine.deal_from_code(Round.objects.get(pk=round_id).code).plan
    for seq, pair in enumerate(plan):
        res = alice.post(
            f"/api/v1/rounds/{round_id}/intents",
            {"seq": seq, "type": "remove_pair", "tiles": list(pair)},
            format="json",
        )
        assert res.status_code == 200, res.json()
    ticket = alice.get(f"/api/v1/queue/{first['id']}").json()
    assert ticket["status"] == "matched" and ticket["match"] == second["match"] and ticket["round"] is None


def test_round_errors_in_the_api_format(guest):
    alice, _ = guest("a1")
    bob, _ = guest("b1")
    stranger, _ = guest("s1")
    _join(alice)
    match_id = _join(bob).json()["match"]
    round_id = alice.get(f"/api/v1/matches/{match_id}").json()["rounds"][0]["id"]
    url = f"/api/v1/rounds/{round_id}/intents"

    for who in (
        stranger.get(f"/api/v1/rounds/{round_id}"),
        stranger.post(url, {"seq": 0, "type": "hint"}, format="json"),
        stranger.get(f"/api/v1/matches/{match_id}"),
        alice.get("/api/v1/rounds/not-a-uuid"),
    ):
        assert who.status_code == 404 and who.json()["error"]["code"] == "not_found"
    hint = alice.post(url, {"seq": 0, "type": "hint"}, format="json")
    assert hint.status_code == 422 and hint.json()["error"]["code"] == "not_allowed"
    stale = alice.post(url, {"seq": 5, "type": "click_blocked", "tile": 0}, format="json")
    assert stale.status_code == 409 and stale.json()["error"]["details"] == {"seq": 0}
    bad = alice.post(url, {"seq": 0, "type": "remove_pair", "tiles": "x"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    joker = alice.post(url, {"seq": 0, "type": "joker", "tile": 0}, format="json")
    assert joker.status_code == 422  # never in Quick Match
    assert RejectedIntent.objects.filter(target=f"round:{round_id}").count() == 5
    # a matched ticket cannot leave
    tickets = alice.get(f"/api/v1/matches/{match_id}")
    assert tickets.status_code == 200


def test_queue_api_join_twice_leave_and_idempotency(guest):
    alice, _ = guest("a2")
    t1 = _join(alice, HTTP_IDEMPOTENCY_KEY="k-1")
    replay = _join(alice, HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay.json() == t1.json() and replay["Idempotent-Replayed"] == "true"
    again = _join(alice, "arena")
    assert again.status_code == 200 and again.json()["id"] == t1.json()["id"]
    left = alice.delete(f"/api/v1/queue/{t1.json()['id']}")
    assert left.status_code == 200 and left.json()["status"] == "left"
    # a left ticket is gone (404); leaving again answers it again (a retried DELETE)
    gone = alice.get(f"/api/v1/queue/{t1.json()['id']}")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
    assert alice.delete(f"/api/v1/queue/{t1.json()['id']}").json() == left.json()
    assert _join(alice, "duel").status_code == 400
    bob, _ = guest("b2")
    carol, _ = guest("c2")
    tb = _join(bob).json()
    _join(carol)
    refused = bob.delete(f"/api/v1/queue/{tb['id']}")
    assert refused.status_code == 422 and refused.json()["error"]["details"]["match"]
    assert alice.get(f"/api/v1/queue/{tb['id']}").status_code == 404


def test_duel_api(guest):
    alice, alice_id = guest("a3")
    bob, bob_id = guest("b3")
    made = alice.post("/api/v1/duels", {"opponent": bob_id}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "pending" and made.json()["match"] is None
    duel_id = made.json()["id"]
    assert bob.get("/api/v1/duels").json()["count"] == 1
    assert alice.post(f"/api/v1/duels/{duel_id}/accept").status_code == 422
    accepted = bob.post(f"/api/v1/duels/{duel_id}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    match = bob.get(f"/api/v1/matches/{accepted.json()['match']}").json()
    assert match["mode"] == "duel" and len(match["rounds"]) == 1
    assert alice.get(f"/api/v1/duels/{duel_id}").json()["match"] == match["id"]
    # challenging oneself: well formed, refused by the rules (422 not_allowed; was 400 before issue 21)
    self_challenge = alice.post("/api/v1/duels", {"opponent": alice_id}, format="json")
    assert self_challenge.status_code == 422 and self_challenge.json()["error"]["code"] == "not_allowed"
    assert alice.post("/api/v1/duels", {"opponent": 10**9}, format="json").status_code == 404
    assert alice.get("/api/v1/matches").json()["count"] == 1
