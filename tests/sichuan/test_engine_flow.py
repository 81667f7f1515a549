"""S-1 .. S-9: deal, missing suit, turns, claims, kongs, robbing, bloody battle, end; replay."""

import json

import pytest

import rivals.sichuan.engine as E
from rivals.sichuan.engine import IllegalAction, Rules, new_table, replay, tile_face
from rivals.sichuan.engine.tiles import SplitMix64

from .helpers import discard, make_table, pays, settled, tile_of, types


def _declare_all(t, suits="BBBB"):
    evs = []
    for s in range(4):
        evs += E.apply(t, s, {"type": "declare_missing", "suit": suits[s]})
    return evs


# ---------------------------------------------------------------- S-1, S-2
def test_s1_108_distinct_tiles_and_faces():
    assert tile_face(0) == "1C" and tile_face(4 * 13) == "5D" and tile_face(107) == "9B"
    assert len({tile_face(i) for i in range(108)}) == 27
    assert all(sum(1 for i in range(108) if tile_face(i) == f) == 4 for f in {tile_face(i) for i in range(108)})
    with pytest.raises(ValueError):
        tile_face(108)


def test_s2_deal_14_13_13_13_dealer_from_seed():
    t = new_table(42)
    sizes = [len(h) for h in t.hands]
    assert sizes[t.dealer] == 14 and sorted(sizes) == [13, 13, 13, 14]
    assert len(t.wall) == 108 - 53
    assert sorted(t.tile_locations()) == list(range(108))
    assert {new_table(s).dealer for s in range(40)} == {0, 1, 2, 3}
    assert new_table(42).events == t.events  # deterministic from the seed
    assert new_table(43).events[0]["wall"] != t.events[0]["wall"]
    assert new_table(42, Rules(dealer_from_seed=False)).dealer == 0


def test_s2_prng_is_splitmix64():
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


# ---------------------------------------------------------------- S-3
def test_s3_all_four_declare_before_play_and_hidden_until_all_declared():
    t = new_table(7)
    assert [E.legal_actions(t, s) for s in range(4)] == [[{"type": "declare_missing", "suit": x} for x in "CDB"]] * 4
    E.apply(t, 2, {"type": "declare_missing", "suit": "D"})
    assert E.legal_actions(t, 2) == []
    assert E.seat_view(t, 0).missing == (None, None, None, None)
    assert E.seat_view(t, 2).missing == (None, None, "D", None)
    with pytest.raises(IllegalAction):
        E.apply(t, t.dealer, {"type": "discard", "tile": t.hands[t.dealer][0]})
    evs = E.apply(t, 0, {"type": "declare_missing", "suit": "C"})
    evs += E.apply(t, 1, {"type": "declare_missing", "suit": "B"})
    evs += E.apply(t, 3, {"type": "declare_missing", "suit": "C"})
    assert evs[-1] == {"type": "MissingSuitsRevealed", "suits": ["C", "B", "D", "C"], "dealer": t.dealer}
    assert E.seat_view(t, 0).missing == ("C", "B", "D", "C")
    red = E.events_for_seat(t.events, 0)
    assert [e["suit"] for e in red if e["type"] == "MissingSuitDeclared"] == [None, "C", None, None]


def test_s3_missing_suit_tiles_discarded_first():
    t = make_table(
        ["123C 456C 789C 11D 2B 3B 4B", "123456789C 11D 22D", "2468D 39D 1346789B", "2366C 9C 2468B 1357B"],
        missing="BBCD",
    )
    acts = t.legal_actions(0)
    assert {tile_face(a["tile"]) for a in acts} == {"2B", "3B", "4B"}
    assert all(a["type"] == "discard" for a in acts)


def test_s3_no_pong_no_win_of_missing_suit_and_no_win_while_holding_it():
    # seat 1 holds 55D but D is its missing suit: no pong; seat 2 would be complete with 5D
    # but holds a bamboo tile of its missing suit B: no win.
    t = make_table(
        [
            "5D 123C 456C 789C 11B 22B",
            "55D 123C 456C 789C 1B 3B",
            "123C 456C 789C 99D 4D 6D 5B"[:0] + "123C 456C 78C 99D 46D 5B",
            "2468B 1357B 1D 3D 6D 8D 9D",
        ],
        missing="DDBC",
    )
    evs = discard(t, 0, "5D")
    assert "ClaimWindowOpened" not in types(evs)
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 1


# ---------------------------------------------------------------- S-4
def test_s4_dealer_first_turn_no_draw_then_next_draws_no_chow():
    t = make_table(
        ["4D 123C 456C 789C 11B 22B", "56D 12C 45C 78C 11D 22D 3D", "2468D 39D 1346789B", "2366C 9C 2468B 1357B"],
        missing="DBCD",
    )
    assert t.phase == "turn" and t.turn == 0 and t.drawn is None and len(t.hands[0]) == 14
    evs = discard(t, 0, "4D")
    # seat 1 holds 5D6D: a run is no claim (S-4, no chow)
    assert types(evs) == ["TileDiscarded", "TileDrawn"] and evs[1]["seat"] == 1
    assert len(t.hands[1]) == 14


# ---------------------------------------------------------------- S-5
def test_s5_win_beats_pong_and_claims_wait_for_all_decisions():
    t = make_table(
        [
            "5D 123C 456C 789C 11B 22B",
            "55D 12C 45C 78C 11D 22D 3D",
            "123C 456C 789C 99D 46D",
            "2468B 1357B 1D 3D 6D 8D 9D",
        ],
        missing="DBBC",
    )
    discard(t, 0, "5D")
    assert t.claim["options"] == {1: ["pong"], 2: ["win"]}
    assert E.legal_actions(t, 1) == [{"type": "pong"}, {"type": "pass"}]
    evs = t.apply(1, {"type": "pong"})
    assert types(evs) == ["ClaimDeclared"] and t.phase == "claims"
    evs = t.apply(2, {"type": "win"})
    assert types(evs)[:3] == ["ClaimDeclared", "HandWon", "Settled"]
    assert "Ponged" not in types(evs) and t.melds[1] == []
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 3  # S-8


def test_s5_after_pong_discard_without_draw_and_no_kong():
    t = make_table(
        ["5D 123B 456B 789B 11C 22C", "55D 7777C 12C 45C 11D 3D", "2468D 39D 1346789B", "2366C 9C 2468B 1357B"],
        missing="DBCD",
    )
    wall = len(t.wall)
    discard(t, 0, "5D")
    t.apply(1, {"type": "pong"})
    assert len(t.wall) == wall and t.after_pong
    assert {a["type"] for a in t.legal_actions(1)} == {"discard"}  # no concealed 7C kong yet


def test_s5_three_winners_on_one_discard_end_the_deal():
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "123B 456B 789B 99D 46D", "234B 567B 888B 99D 34D"],
        missing="DBCC",
    )
    discard(t, 0, "5D")
    for s in (3, 1, 2):
        evs = t.apply(s, {"type": "win"})
    assert [e["seat"] for e in evs if e["type"] == "HandWon"] == [1, 2, 3]
    assert pays(settled(evs)) == [(0, 1, 1), (0, 2, 1), (0, 3, 1)]
    assert t.over and t.end_reason == "three_won" and types(evs)[-1] == "DealEnded"  # S-9
    assert E.is_over(t) and E.legal_actions(t, 0) == []


def test_s8_decision_first_winner_setting():
    hands = ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "13579B 68B 1379D 3D 8D", "234B 567B 888B 99D 46D"]
    t = make_table(hands, missing="DBCC", rules=Rules(turn_after_discard_win="first_winner"))
    discard(t, 0, "5D")
    t.apply(1, {"type": "win"})
    evs = t.apply(3, {"type": "win"})
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 2


# ---------------------------------------------------------------- S-6, S-7
def test_s6_kong_needs_a_tile_left_in_the_wall():
    t = make_table(
        ["7777D 123C 456C 89C 11D", "123456789C 11B 22B", "234568D 1357B 9B 6B 8B", "3456B 1289D 99D 1B 2B 7B"],
        missing="BDCC",
        fill=False,
    )
    assert t.wall == []
    assert "kong" not in {a["type"] for a in t.legal_actions(0)}


def test_s6_win_on_kong_replacement_tile():
    t = make_table(
        ["7777D 123C 456C 789C 1D", "123456789C 11B 22B", "234568D 1357B 9B 6B 8B", "3456B 289D 99D 1B 2B 7B 6D"],
        back="1D",
        missing="BDCC",
    )
    evs = t.apply(0, {"type": "kong", "tile": tile_of(t, 0, "7D")})
    assert {"type": "win"} in t.legal_actions(0)
    evs = t.apply(0, {"type": "win"})
    won = evs[0]
    assert sorted(won["fans"]) == ["kong_replacement", "root"] and won["value"] == 4
    assert pays(settled(evs)) == [(1, 0, 5), (2, 0, 5), (3, 0, 5)]
    assert t.scores == [6 + 15, -7, -7, -7]


def test_s7_concealed_kong_cannot_be_robbed():
    t = make_table(
        ["7777D 123C 456C 89C 11D", "123C 456C 789C 11B 68D", "234568D 1357B 9B 6B 8B", "3456B 129D 99D 1B 2B 7B 3D"],
        back="3D",
        missing="BBCC",
    )
    evs = t.apply(0, {"type": "kong", "tile": tile_of(t, 0, "7D")})
    assert types(evs) == ["Konged", "Settled", "TileDrawn"]


# ---------------------------------------------------------------- S-8, S-9
def test_s8_winner_leaves_play_no_draw_no_claim_no_pay():
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "123B 456B 789B 999D 5B", "159C 1357D 28C 4C 6C 8D 9D"],
        front="5B",
        missing="DBCB",
    )
    discard(t, 0, "5D")
    t.apply(1, {"type": "win"})
    assert t.active == [True, False, True, True]
    assert E.legal_actions(t, 1) == []
    evs = t.apply(2, {"type": "win"})
    assert 1 not in {p["payer"] for p in settled(evs)}
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 3  # after the self-drawer


def test_s9_last_tile_self_draw_and_empty_wall_discard_claimable_only_for_a_win():
    t = make_table(
        ["8C 123B 456B 789B 11D 22D", "123C 456C 789C 999D 5D", "55C 2468D 9D 1C 3C 7C 6C", "1357D 68B 1357B 9B 3D 4D"],
        front="5D",
        missing="CBBC",
        fill=False,
    )
    discard(t, 0, "8C")
    evs = t.apply(1, {"type": "win"})
    assert "last_tile" in evs[0]["fans"]
    assert t.over and t.end_reason == "wall_exhausted"


def test_s9_empty_wall_discard_no_pong():
    t = make_table(
        [
            "8C 123B 456B 789B 11D 22D",
            "123C 456C 789C 99D 5C",
            "55C 2468D 9D 1C 3C 7C 2D 6C",
            "1357D 68B 1357B 9B 3D 4D",
        ],
        front="3D",
        missing="CBBC",
        fill=False,
    )
    discard(t, 0, "8C")
    assert t.turn == 1 and t.wall == []
    evs = t.apply(1, {"type": "discard", "tile": tile_of(t, 1, "5C")})  # seat 2 holds 55C
    assert "ClaimWindowOpened" not in types(evs)
    assert types(evs)[1] == "WallExhausted" and t.over


# ---------------------------------------------------------------- replay, facade, views
def _play_random(seed, policies=None):
    t = new_table(seed)
    E.run_ai_turns(t, human_seat=None, policies=policies)
    return t


def test_replay_reproduces_state_after_every_event():
    t = _play_random(11)
    stored = json.loads(json.dumps(t.events))
    r = replay(stored)
    assert r.snapshot() == t.snapshot() and r.over
    for n in (1, 5, 20, len(stored) // 2):
        part = replay(stored[:n])
        assert part.events == stored[:n]
    # continuing from a replayed prefix gives the same deal
    half = replay(stored[: len(stored) // 2])
    E.run_ai_turns(half, human_seat=None)
    assert half.snapshot() == t.snapshot()


def test_run_ai_turns_stops_for_the_human():
    t = new_table(5)
    assert E.run_ai_turns(t, human_seat=0) != []
    assert t.pending_seats() == [0] and t.missing[0] is None
    E.apply(t, 0, {"type": "declare_missing", "suit": "B"})
    while not t.over:
        E.run_ai_turns(t, human_seat=0)
        if t.over:
            break
        assert 0 in t.pending_seats()
        acts = E.legal_actions(t, 0)
        a = next((x for x in acts if x["type"] in ("win", "pass")), acts[0])
        E.apply(t, 0, a)
    assert sum(t.scores) == 0


def test_seat_view_hides_other_hands_until_the_end():
    t = new_table(9)
    E.run_ai_turns(t, human_seat=0)
    E.apply(t, 0, {"type": "declare_missing", "suit": "C"})
    E.run_ai_turns(t, human_seat=0)
    v = E.seat_view(t, 0)
    assert v.hand == tuple(sorted(t.hands[0])) and v.revealed_hands is None
    assert v.hand_sizes == tuple(len(h) for h in t.hands) and v.wall_count == len(t.wall)
    dumped = json.dumps(v.to_dict())
    assert 'wall"' not in dumped
    red = E.events_for_seat(t.events, 0)
    assert red[0]["wall"] is None and red[0]["hands"][1] is None
    assert all(e["tile"] is None for e in red if e["type"] == "TileDrawn" and e["seat"] != 0)
    E.run_ai_turns(t, human_seat=None)
    assert E.seat_view(t, 0).revealed_hands == tuple(tuple(sorted(h)) for h in t.hands)


def test_illegal_actions_are_refused_without_state_change():
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "13579B 68B 1379D 3D 8D", "234B 567B 888B 99D 46D"],
        missing="DBCC",
    )
    snap = t.snapshot()
    for seat, a in (
        (1, {"type": "discard", "tile": t.hands[1][0]}),
        (0, {"type": "pong"}),
        (0, {"type": "discard", "tile": 999}),
        (0, {"type": "win"}),
        (0, {"type": "kong", "tile": 0}),
    ):
        with pytest.raises(IllegalAction):
            t.apply(seat, a)
    assert t.snapshot() == snap
