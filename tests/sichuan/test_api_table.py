"""Sichuan table through the HTTP API (API.md "Sichuan table"; SICHUAN.md S-1…S-17)."""

from __future__ import annotations

import random

import pytest

from rivals.games.models import RejectedIntent
from rivals.models import Event
from rivals.points.models import PointsLedgerEntry
from rivals.sichuan.models import SichuanTable

pytestmark = pytest.mark.django_db

SEED = 20240601


def create(client, **body):
    res = client.post("/api/v1/sichuan", body, format="json")
    assert res.status_code == 201, res.content
    return res.json()


def choose(view: dict, rng: random.Random) -> dict:
    """A legal action of seat 0: always a win, else a random legal action."""
    legal = view["legal_actions"]
    assert legal, view
    wins = [a for a in legal if a["type"] == "win"]
    action = wins[0] if wins else rng.choice(legal)
    return {k: v for k, v in action.items() if k in ("type", "tile", "suit")}


def send(client, table_id, intent, **headers):
    return client.post(f"/api/v1/sichuan/{table_id}/intents", intent, format="json", **headers)


def play_to_end(client, view: dict, rng: random.Random, max_intents: int = 200) -> tuple[dict, int]:
    """Play seat 0 through the API until the deal is over; returns (final view, intents sent)."""
    sent = 0
    while view["status"] == "playing":
        assert sent < max_intents
        res = send(client, view["id"], {"seq": view["seq"], **choose(view, rng)})
        assert res.status_code == 200, res.content
        body = res.json()
        assert body["accepted"] is True
        assert body["table"]["seq"] == view["seq"] + 1
        view = body["table"]
        sent += 1
        if view["status"] == "playing":
            assert view["to_act"] and view["legal_actions"], "the AIs run until the human must act"
    return view, sent


def test_create_table_deals_seat0_a_hand_and_hides_the_ai_hands(guest):
    client, _ = guest("sc-create")
    view = create(client, seed=SEED)
    assert view["status"] == "playing" and view["seq"] == 0 and view["seat"] == 0
    assert len(view["hand"]) in (13, 14) and all(set(t) == {"id", "face"} for t in view["hand"])  # S-2
    assert view["seed"] is None  # the seed would tell every hand and the wall
    assert [s["player"] for s in view["seats"]] == ["you", "ai", "ai", "ai"]
    assert all(s["hand"] is None for s in view["seats"][1:])
    assert sum(s["hand_size"] for s in view["seats"]) + view["wall_count"] == 108  # S-1
    assert view["to_act"] and {a["type"] for a in view["legal_actions"]} == {"declare_missing"}
    assert view["result"] is None
    table = SichuanTable.objects.get(pk=view["id"])
    assert table.seed == SEED and table.version == Event.objects.filter(stream_id=table.stream_id).count()
    assert client.get(f"/api/v1/sichuan/{view['id']}").json() == view


def test_s2_same_seed_same_deal_and_missing_seed_drawn_by_server(guest):
    client, _ = guest("sc-seed")
    a, b = create(client, seed=7), create(client, seed=7)
    assert a["hand"] == b["hand"] and a["dealer"] == b["dealer"]
    c, d = create(client), create(client)
    seeds = list(SichuanTable.objects.filter(pk__in=[c["id"], d["id"]]).values_list("seed", flat=True))
    assert all(s is not None for s in seeds) and seeds[0] != seeds[1]


def test_s3_ai_missing_suits_stay_hidden_until_all_four_declared(guest):
    client, _ = guest("sc-s3")
    view = create(client, seed=SEED)
    assert view["missing"] == [None, None, None, None]  # the AIs declared, but nobody sees it yet
    events = client.get(f"/api/v1/sichuan/{view['id']}/events").json()
    declared = [e["data"] for e in events if e["type"] == "MissingSuitDeclared"]
    assert [d["seat"] for d in declared] == [1, 2, 3] and all(d["suit"] is None for d in declared)
    res = send(client, view["id"], {"seq": 0, "type": "declare_missing", "suit": "B"})
    assert res.status_code == 200, res.content
    after = res.json()
    assert after["table"]["missing"][0] == "B" and all(after["table"]["missing"])
    types = [e["type"] for e in after["events"]]
    assert types[:3] == ["SichuanIntentAccepted", "MissingSuitDeclared", "MissingSuitsRevealed"]


def test_play_a_whole_deal_through_the_api_to_the_end(guest):
    client, _ = guest("sc-whole")
    view = create(client, seed=SEED)
    final, sent = play_to_end(client, view, random.Random(1))
    assert final["status"] == "finished" and final["phase"] == "over"
    assert final["seq"] == sent and final["legal_actions"] == [] and not final["to_act"]
    assert final["seed"] == SEED  # revealed once the deal is over
    result = final["result"]
    assert result["reason"] in ("three_won", "wall_exhausted")  # S-9
    # AI hands are revealed at the end
    assert all(s["hand"] is not None for s in final["seats"])
    assert [len(h) for h in result["hands"]] == [s["hand_size"] for s in final["seats"]]
    assert sum(final["scores"]) == 0
    # after the end every intent is refused
    res = send(client, final["id"], {"seq": final["seq"], "type": "pass"})
    assert res.status_code == 422 and res.json()["error"]["code"] == "not_allowed"
    table = SichuanTable.objects.get(pk=final["id"])
    assert table.status == "finished" and table.finished_at is not None and table.seq == sent


@pytest.mark.parametrize("seed", [3, 11, 12345])
def test_several_deals_end_with_zero_sum_scores_and_a_stored_result(guest, seed):
    client, _ = guest(f"sc-deal-{seed}")
    final, _ = play_to_end(client, create(client, seed=seed), random.Random(seed))
    table = SichuanTable.objects.get(pk=final["id"])
    ended = Event.objects.get(stream_id=table.stream_id, type="DealEnded")
    assert table.scores == ended.data["scores"] == final["scores"]
    assert sum(table.scores) == 0  # S-13…S-16: all payments are between the four players


def test_settlement_sums_to_zero_in_the_stored_result(guest):
    client, _ = guest("sc-zero")
    final, _ = play_to_end(client, create(client, seed=99), random.Random(99))
    table = SichuanTable.objects.get(pk=final["id"])
    totals = [0, 0, 0, 0]
    for e in Event.objects.filter(stream_id=table.stream_id, type="Settled"):
        for p in e.data["payments"]:
            assert p["amount"] >= 0 and p["payer"] != p["payee"]
            totals[p["payer"]] -= p["amount"]
            totals[p["payee"]] += p["amount"]
    assert totals == table.scores and sum(totals) == 0
    assert final["result"]["payments"] == final["payments"]


def test_stale_seq_is_409_conflict_with_the_current_seq_and_nothing_written(guest):
    client, _ = guest("sc-seq")
    view = create(client, seed=SEED)
    assert send(client, view["id"], {"seq": 0, "type": "declare_missing", "suit": "C"}).status_code == 200
    before = Event.objects.count()
    res = send(client, view["id"], {"seq": 0, "type": "declare_missing", "suit": "C"})
    assert res.status_code == 409
    err = res.json()["error"]
    assert err["code"] == "conflict" and err["details"]["seq"] == 1
    assert Event.objects.count() == before and SichuanTable.objects.get(pk=view["id"]).seq == 1
    assert RejectedIntent.objects.filter(code="conflict").count() == 1


def test_illegal_action_is_422_recorded_as_rejected_intent_and_nothing_written(guest):
    client, account_id = guest("sc-illegal")
    view = create(client, seed=SEED)
    not_mine = next(t for t in range(108) if t not in {h["id"] for h in view["hand"]})

    def refused(intent):
        before = Event.objects.count()
        snapshot = client.get(f"/api/v1/sichuan/{view['id']}").json()
        res = send(client, view["id"], intent)
        assert res.status_code == 422, res.content
        err = res.json()["error"]
        assert err["code"] == "not_allowed" and err["details"]["legal_actions"]
        assert Event.objects.count() == before
        assert client.get(f"/api/v1/sichuan/{view['id']}").json() == snapshot

    refused({"seq": 0, "type": "discard", "tile": view["hand"][0]["id"]})  # S-3: declare first
    refused({"seq": 0, "type": "pong"})
    refused({"seq": 0, "type": "win"})
    assert send(client, view["id"], {"seq": 0, "type": "declare_missing", "suit": "C"}).status_code == 200
    refused({"seq": 1, "type": "discard", "tile": not_mine})
    rejected = RejectedIntent.objects.filter(account_id=account_id, code="not_allowed")
    assert rejected.count() == 4 and all(r.target == f"sichuan:{view['id']}" for r in rejected)
    assert rejected.filter(intent__type="pong").exists()


@pytest.mark.parametrize(
    "body",
    [
        ["not", "an", "object"],
        {"type": "pass"},
        {"seq": "0", "type": "pass"},
        {"seq": True, "type": "pass"},
        {"seq": -1, "type": "pass"},
        {"seq": 0, "type": "chow"},
        {"seq": 0, "type": "declare_missing"},
        {"seq": 0, "type": "declare_missing", "suit": "W"},
        {"seq": 0, "type": "discard"},
        {"seq": 0, "type": "discard", "tile": "5"},
        {"seq": 0, "type": "discard", "tile": True},
        {"seq": 0, "type": "discard", "tile": 108},
        {"seq": 0, "type": "kong", "tile": 3.5},
    ],
)
def test_bad_intent_shape_is_400_invalid_and_nothing_written(guest, body):
    client, _ = guest("sc-shape")
    view = create(client, seed=SEED)
    before = Event.objects.count()
    res = send(client, view["id"], body)
    assert res.status_code == 400, res.content
    assert res.json()["error"]["code"] == "invalid"
    assert Event.objects.count() == before and SichuanTable.objects.get(pk=view["id"]).seq == 0


def test_bad_json_and_bad_seed_are_400(guest):
    client, _ = guest("sc-json")
    view = create(client, seed=SEED)
    res = client.post(f"/api/v1/sichuan/{view['id']}/intents", "{not json", content_type="application/json")
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"
    for seed in ("abc", -1, 2**63, 1.5):
        res = client.post("/api/v1/sichuan", {"seed": seed}, format="json")
        assert res.status_code == 400 and res.json()["error"]["code"] == "invalid", seed
    res = client.post("/api/v1/sichuan", [1, 2], format="json")
    assert res.status_code == 400
    assert SichuanTable.objects.count() == 1


def test_another_accounts_table_is_404_not_403(guest):
    owner, _ = guest("sc-owner")
    other, _ = guest("sc-other")
    view = create(owner, seed=SEED)
    for res in (
        other.get(f"/api/v1/sichuan/{view['id']}"),
        other.get(f"/api/v1/sichuan/{view['id']}/events"),
        send(other, view["id"], {"seq": 0, "type": "declare_missing", "suit": "C"}),
        other.get("/api/v1/sichuan/not-a-uuid"),
        other.get("/api/v1/sichuan/00000000-0000-0000-0000-000000000000"),
    ):
        assert res.status_code == 404 and res.json()["error"]["code"] == "not_found"
    assert SichuanTable.objects.get(pk=view["id"]).seq == 0
    assert other.get("/api/v1/sichuan").json() == {"count": 0, "results": []}
    listed = owner.get("/api/v1/sichuan").json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == view["id"]


def test_unauthenticated_is_401(api):
    assert api.post("/api/v1/sichuan", {}, format="json").status_code == 401


def test_events_endpoint_hides_ai_hands_draws_and_claim_choices_until_the_end(guest):
    client, _ = guest("sc-events")
    view = create(client, seed=SEED)
    rng = random.Random(5)
    for _ in range(8):
        if view["status"] != "playing":
            break
        body = send(client, view["id"], {"seq": view["seq"], **choose(view, rng)}).json()
        view = body["table"]
        listed = client.get(f"/api/v1/sichuan/{view['id']}/events").json()
        assert listed[-len(body["events"]) :] == body["events"]  # an intent answers the tail of the list
    events = client.get(f"/api/v1/sichuan/{view['id']}/events").json()
    # numbered among the visible events only: no gaps that would count hidden ones
    assert [e["index"] for e in events] == list(range(1, len(events) + 1))
    stream = Event.objects.filter(stream_id=f"sichuan-{view['id']}")
    assert stream.filter(type__in=["Passed", "ClaimDeclared"]).exclude(data__seat=0).exists()
    assert stream.count() > len(events)  # the AIs' claim decisions are not shown
    dealt = next(e["data"] for e in events if e["type"] == "TableDealt")
    assert dealt["hands"][0] and dealt["hands"][1:] == [None, None, None]
    assert dealt["wall"] is None and dealt["seed"] is None
    for e in events:
        d = e["data"]
        if e["type"] == "TileDrawn" and d["seat"] != 0:
            assert d["tile"] is None
        assert not (e["type"] in ("Passed", "ClaimDeclared") and d["seat"] != 0)
        if e["type"] == "ClaimWindowOpened":
            assert [c["seat"] for c in d["claims"]] == [0]
    final, _ = play_to_end(client, view, rng)
    events = client.get(f"/api/v1/sichuan/{final['id']}/events").json()
    ended = events[-1]
    assert ended["type"] == "DealEnded" and all(h is not None for h in ended["data"]["hands"])
    assert next(e["data"] for e in events if e["type"] == "TableDealt")["seed"] == SEED


def test_idempotency_key_replays_an_accepted_intent_once(guest):
    client, _ = guest("sc-idem")
    view = create(client, seed=SEED)
    intent = {"seq": 0, "type": "declare_missing", "suit": "D"}
    first = send(client, view["id"], intent, HTTP_IDEMPOTENCY_KEY="k-1")
    count = Event.objects.count()
    again = send(client, view["id"], intent, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Event.objects.count() == count and SichuanTable.objects.get(pk=view["id"]).seq == 1


def test_s17_results_are_events_not_ranking_points(guest):
    client, account_id = guest("sc-s17")
    final, _ = play_to_end(client, create(client, seed=SEED), random.Random(2))
    events = client.get(f"/api/v1/sichuan/{final['id']}/events").json()
    types = {e["type"] for e in events}
    assert "DealEnded" in types and ("Settled" in types or final["scores"] == [0, 0, 0, 0])
    assert events[-1]["data"]["scores"] == final["result"]["scores"]  # shown to the player
    assert not PointsLedgerEntry.objects.filter(account_id=account_id).exists()
    assert not Event.objects.filter(type="PointsAwarded").exists()
    assert client.get("/api/v1/account").json()["points"] == {"amr": 0, "weekly": 0, "daily": 0}


def test_admin_shows_tables_read_only_with_a_link_to_their_events(guest, admin_client):
    client, _ = guest("sc-admin")
    view = create(client, seed=SEED)
    stream = f"sichuan-{view['id']}"
    res = admin_client.get("/admin/sichuan/sichuantable/")
    assert res.status_code == 200 and stream in res.content.decode()
    page = admin_client.get(f"/admin/sichuan/sichuantable/{view['id']}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "TableDealt" in html and f"q={stream}" in html
    assert admin_client.get("/admin/sichuan/sichuantable/add/").status_code == 403
    assert admin_client.get(f"/admin/sichuan/sichuantable/{view['id']}/delete/").status_code == 403
    events = admin_client.get(f"/admin/rivals/event/?q={stream}")
    assert events.status_code == 200 and "MissingSuitDeclared" in events.content.decode()
