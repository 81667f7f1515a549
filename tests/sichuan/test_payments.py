"""S-13 .. S-16 payments, with the exact numbers of EXAMPLES.md "Sichuan"."""

from rivals.sichuan.engine import payments as P
from rivals.sichuan.engine.rules import Rules

from .helpers import discard, make_table, pays, settled, tile_of, types


def _pass_all(t):
    evs = []
    while t.phase == "claims":
        s = t.pending_seats()[0]
        evs += t.apply(s, {"type": "pass"})
    return evs


# ---------------------------------------------------------------- S-13
def test_s13_example_all_pongs_full_flush_paid_8_by_discarder():
    t = make_table(
        ["123456789D 11D 33B 9C", "111C 333C 555C 777C 9C", "2468D 2468B 2D 4B 6B", "3579D 3579B 3D 5B 7B"],
        missing="CBCC",
    )
    evs = discard(t, 0, "9C")
    evs += t.apply(1, {"type": "win"})
    won = [e for e in evs if e["type"] == "HandWon"][0]
    assert won["fans"] == ["all_pongs", "full_flush"] and won["fan"] == 3 and won["value"] == 8
    assert pays(settled(evs, "win_discard")) == [(0, 1, 8)]
    assert t.scores == [-8, 8, 0, 0]


def test_s13_double_winner_discarder_pays_each():
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "13579B 68B 1379D 3D 8D", "234B 567B 888B 99D 46D"],
        missing="DBCC",
    )
    evs = discard(t, 0, "5D")
    assert t.phase == "claims" and sorted(t.claim["options"]) == [1, 3]
    evs += t.apply(3, {"type": "win"})
    assert t.phase == "claims"  # S-5: all decisions collected before resolving
    evs += t.apply(1, {"type": "win"})
    won = [e for e in evs if e["type"] == "HandWon"]
    assert [(e["seat"], e["takes_tile"]) for e in won] == [(1, True), (3, False)]
    assert pays(settled(evs, "win_discard")) == [(0, 1, 1), (0, 3, 1)]
    assert t.scores == [-2, 1, 0, 1]
    # S-8 Decision: turn to the first active player after the last winner (3) -> seat 0
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 0


# ---------------------------------------------------------------- S-14
def test_s14_example_seven_pairs_root_self_drawn_three_active_opponents():
    t = make_table(
        ["123456789B 1234D 8C", "5555D 11C 33C 77C 99C 2C", "2468B 2468D 13579B", "1379D 1379B 678D 2B 4B"],
        front="2C",
        missing="CBCC",
    )
    evs = discard(t, 0, "8C")
    assert t.phase == "turn"  # nobody may claim 8C
    assert evs[-1] == {"type": "TileDrawn", "seat": 1, "tile": evs[-1]["tile"], "replacement": False}
    evs = t.apply(1, {"type": "win"})
    won = evs[0]
    assert sorted(won["fans"]) == ["root", "seven_pairs"] and won["value"] == 8
    assert pays(settled(evs)) == [(2, 1, 9), (3, 1, 9), (0, 1, 9)]
    assert t.scores == [-9, 27, -9, -9]


def test_s14_self_draw_three_active_opponents():
    assert pays(P.self_draw(2, 4, [3, 0, 1])) == [(3, 2, 5), (0, 2, 5), (1, 2, 5)]


def test_s14_self_draw_two_active_opponents():
    # seat 1 wins on seat 0's discard, then seat 2 self-draws: only seats 3 and 0 pay (S-8)
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "123C 456C 789C 11D 46D", "123B 456B 789B 999D 5B", "159C 1357D 28C 4C 6C 8D 9D"],
        front="5B",
        missing="DBCB",
    )
    evs = discard(t, 0, "5D") + t.apply(1, {"type": "win"})
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 2
    evs = t.apply(2, {"type": "win"})
    # 123C 456C 789C 99D 55B: basic hand, value 1 -> each active opponent pays 2
    assert pays(settled(evs)) == [(3, 2, 2), (0, 2, 2)]
    assert t.scores == [-1 - 2, 1, 4, -2]


# ---------------------------------------------------------------- S-15
def test_s15_example_concealed_kong_three_active_plus_6():
    t = make_table(
        ["7777D 123C 456C 89C 11D", "123456789C 11B 22B", "234568D 1357B 9B 6B 8B", "3456B 1289D 99D 1B 2B 7B"],
        back="3D",
        missing="BDCC",
    )
    evs = t.apply(0, {"type": "kong", "tile": tile_of(t, 0, "7D")})
    assert types(evs) == ["Konged", "Settled", "TileDrawn"]
    assert evs[0]["kind"] == "concealed"
    assert pays(settled(evs)) == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert t.scores == [6, -2, -2, -2]
    assert evs[2]["replacement"] is True and evs[2]["tile"] >> 2 == 9 + 2  # 3D from the back


def test_s15_example_added_kong_two_active_plus_2():
    assert pays(P.kong("added", 0, [2, 3])) == [(2, 0, 1), (3, 0, 1)]
    assert sum(p["amount"] for p in P.kong("added", 0, [2, 3])) == 2


def test_s15_example_exposed_kong_plus_2_from_discarder():
    t = make_table(
        ["5D 123C 456C 789C 11B 22B", "555D 12C 45C 78C 11D 22D", "2468D 39D 1346789B", "2366C 9C 2468B 1357B"],
        back="3C",
        missing="DBCD",
    )
    evs = discard(t, 0, "5D")
    assert t.claim["options"] == {1: ["pong", "kong"]}
    evs += t.apply(1, {"type": "kong"})
    assert [e["type"] for e in evs][-3:] == ["Konged", "Settled", "TileDrawn"]
    assert pays(settled(evs)) == [(0, 1, 2)]
    assert t.scores == [-2, 2, 0, 0]


def _added_kong_table():
    """Seat 1 pongs seat 0's 5D, later draws the 4th 5D; seat 2 waits on 5D (4-6D)."""
    t = make_table(
        [
            "5D 123C 456C 789C 11B 22B",
            "55D 12C 45C 78C 11D 22D 3D",
            "123C 456C 789C 99D 46D",
            "2468B 1357B 1D 3D 6D 8D 9D",
        ],
        front="9B 9B 8D 5D",
        missing="DBBC",
    )
    discard(t, 0, "5D")
    assert t.claim["options"] == {1: ["pong"], 2: ["win"]}
    t.apply(2, {"type": "pass"})
    evs = t.apply(1, {"type": "pong"})
    assert types(evs) == ["ClaimDeclared", "Ponged"]
    assert [a["type"] for a in t.legal_actions(1)] == ["discard"] * 11  # S-5 no draw, discard
    discard(t, 1, "3D")
    t.apply(2, {"type": "discard", "tile": t.drawn})  # 9B, its missing suit
    t.apply(3, {"type": "discard", "tile": t.drawn})  # 9B
    t.apply(0, {"type": "discard", "tile": t.drawn})  # 8D, its missing suit
    assert t.turn == 1 and t.drawn >> 2 == 9 + 4  # the 4th 5D
    return t


def test_s15_added_kong_three_active_plus_3():
    t = _added_kong_table()
    evs = t.apply(1, {"type": "kong", "tile": t.drawn})
    assert types(evs) == ["AddedKongDeclared", "ClaimWindowOpened"]
    evs = t.apply(2, {"type": "pass"})
    assert types(evs) == ["Passed", "Konged", "Settled", "TileDrawn"]
    assert pays(settled(evs)) == [(2, 1, 1), (3, 1, 1), (0, 1, 1)]
    assert t.scores == [-1, 3, -1, -1]
    assert t.melds[1][0]["kong"] == "added" and len(t.melds[1][0]["tiles"]) == 4


def test_s7_s15_example_robbed_added_kong_earns_nothing():
    t = _added_kong_table()
    evs = t.apply(1, {"type": "kong", "tile": t.drawn})
    evs = t.apply(2, {"type": "win"})
    assert types(evs)[:4] == ["ClaimDeclared", "KongRobbed", "HandWon", "Settled"]
    won = evs[2]
    assert won["by"] == "rob" and "robbing_kong" in won["fans"] and won["value"] == 2
    assert settled(evs, "kong_added") == [] and "Konged" not in types(evs)
    assert pays(settled(evs)) == [(1, 2, 2)]
    assert t.scores == [0, -2, 2, 0]
    assert t.melds[1][0]["type"] == "pong"  # the added kong does not stand
    assert t.won_tiles[2] >> 2 == 9 + 4
    assert evs[-1]["type"] == "TileDrawn" and evs[-1]["seat"] == 3  # S-8


def test_s15_kong_from_active_only():
    assert pays(P.kong("concealed", 1, [3])) == [(3, 1, 2)]


# ---------------------------------------------------------------- S-16
def test_s16_example_exhausted_wall_pig_ready_not_ready_refunds_pure():
    ledger = [P.pay("kong_concealed", s, 2, 2) for s in (3, 0, 1)]
    steps = P.exhaustion(active=[1, 2, 3], pigs=[3], ready_values={1: 4, 2: 0}, ledger=ledger)
    assert pays(steps["flower_pig"]) == [(3, 1, 32), (3, 2, 32)]
    assert pays(steps["ready_check"]) == [(2, 1, 4)]
    assert pays(steps["kong_refund"]) == [(2, 3, 2), (2, 0, 2), (2, 1, 2)]
    allp = ledger + [p for v in steps.values() for p in v]
    assert sum(P.totals(allp)) == 0


def test_s16_example_exhausted_wall_full_deal():
    """EXAMPLES: seat 0 won earlier; seat 1 ready (best 2 fan = 4); seat 2 not ready; seat 3 a
    flower pig.  Seat 2 holds a concealed kong paid by seats 3, 0, 1 before seat 0 won."""
    t = make_table(
        [
            "123C 456C 789C 234D 5D",
            "11C 55C 99C 22D 66D 88D 3D",
            "7777D 1D 4D 99D 5C 6C 7C 8C 2C 3C",
            "2C 3C 4C 1B 4B 7B 2B 5B 8B 3B 6D 9D 1D",
        ],
        front="6B 5D 7C 2B 8B",
        back="5B",
        dealer=2,
        missing="BBBC",
        fill=False,
    )
    evs = t.apply(2, {"type": "kong", "tile": tile_of(t, 2, "7D")})  # +6 for seat 2
    evs += t.apply(2, {"type": "discard", "tile": t.drawn})  # 5B (missing)
    evs += t.apply(3, {"type": "discard", "tile": tile_of(t, 3, "2C")})  # S-3 obligation
    evs += t.apply(0, {"type": "win"})  # self-draw 5D
    evs += t.apply(1, {"type": "discard", "tile": t.drawn})  # 7C
    evs += t.apply(2, {"type": "discard", "tile": t.drawn})  # 2B
    evs += t.apply(3, {"type": "discard", "tile": tile_of(t, 3, "3C")})  # wall now empty
    assert t.over and t.end_reason == "wall_exhausted"
    ex = [e for e in evs if e["type"] == "WallExhausted"][0]
    assert ex["active"] == [1, 2, 3] and ex["pigs"] == [3]
    assert dict(ex["ready"]) == {1: 4, 2: 0}
    assert pays(settled(evs, "flower_pig")) == [(3, 1, 32), (3, 2, 32)]
    assert pays(settled(evs, "ready_check")) == [(2, 1, 4)]
    assert pays(settled(evs, "kong_refund")) == [(2, 3, 2), (2, 0, 2), (2, 1, 2)]
    assert pays(settled(evs, "win_self_draw")) == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert t.scores == [6, 34, 26, -66] and sum(t.scores) == 0
    assert types(evs)[-1] == "DealEnded"


def test_s16_decision_refund_by_ready_setting():
    ledger = [P.pay("kong_concealed", s, 1, 2) for s in (0, 2)]
    steps = P.exhaustion([1, 2], [], {1: 2}, ledger, Rules(refund_by="ready"))
    assert pays(steps["kong_refund"]) == [(1, 0, 2), (1, 2, 2)]
    steps = P.exhaustion([1, 2], [], {1: 2}, ledger)
    assert steps["kong_refund"] == []


def test_s16_decision_pig_pays_active_only_setting():
    steps = P.exhaustion([2, 3], [3], {}, [], Rules(pig_pays_active_only=False), all_seats=(0, 1, 2, 3))
    assert pays(steps["flower_pig"]) == [(3, 0, 32), (3, 1, 32), (3, 2, 32)]
    steps = P.exhaustion([2, 3], [3], {}, [])
    assert pays(steps["flower_pig"]) == [(3, 2, 32)]


def test_s16_pig_is_never_ready_and_pays_no_ready_check():
    steps = P.exhaustion([0, 1], [0], {1: 8}, [])
    assert pays(steps["ready_check"]) == []
    assert pays(steps["flower_pig"]) == [(0, 1, 32)]
