"""T-1, T-2, T-3 (tiles, matching) and T-9 (game codes, deals)."""

from __future__ import annotations

import collections

import pytest

from rivals.engine import (
    FACES,
    RULESETS,
    Board,
    CodeError,
    all_layouts,
    deal_from_code,
    faces_match,
    format_code,
    parse_code,
    random_code,
    solve,
)
from rivals.engine.prng import SplitMix64
from rivals.engine.tiles import GROUPS


def test_t1_tile_set_has_42_faces_144_tiles():
    assert len(FACES) == 42 and len(set(FACES)) == 42
    assert FACES[:9] == ("1B", "2B", "3B", "4B", "5B", "6B", "7B", "8B", "9B")
    for code in ("1C", "9C", "1D", "9D", "N", "S", "E", "W", "R", "G", "Wh", "F1", "F4", "S1", "S4"):
        assert code in FACES
    counts = collections.Counter(f for g in GROUPS for f in g)
    assert sum(counts.values()) == 144
    assert all(counts[f] == 4 for f in FACES if not f.startswith(("F", "S")) or f == "S")
    assert all(counts[f] == 1 for f in ("F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"))


@pytest.mark.parametrize("ruleset", ["classic", "rivals"])
def test_t2_matching_same_face_flowers_seasons(ruleset):
    assert faces_match("5D", "5D", ruleset)
    assert not faces_match("5D", "5C", ruleset)
    assert not faces_match("5D", "6D", ruleset)
    assert faces_match("N", "N", ruleset) and not faces_match("N", "S", ruleset)
    assert faces_match("Wh", "Wh", ruleset)
    assert not faces_match("R", "G", ruleset)  # red never matches green
    assert faces_match("F1", "F3", ruleset)  # any flower with any flower
    assert faces_match("S2", "S4", ruleset)  # any season with any season
    assert not faces_match("F1", "S1", ruleset)  # a flower never matches a season
    assert not faces_match("S", "S1", ruleset)  # south wind is not a season


def test_t3_pool_any_bonus_matches_any_bonus():
    assert faces_match("F1", "S3", "pool")
    assert faces_match("F2", "F4", "pool") and faces_match("S1", "S2", "pool")
    assert not faces_match("F1", "1B", "pool")
    assert not faces_match("R", "G", "pool")
    assert faces_match("7C", "7C", "pool")


def test_t2_t3_unknown_ruleset_or_face_rejected():
    assert RULESETS == ("classic", "rivals", "pool")
    with pytest.raises(ValueError):
        faces_match("1B", "1B", "chess")
    with pytest.raises(ValueError):
        faces_match("1B", "0B", "classic")


def test_t9_code_format_and_roundtrip():
    assert format_code("L00", 0) == "MJ1-L00-AAAAAAA"
    assert format_code("L00", 1) == "MJ1-L00-AAAAAAB"
    assert format_code("L03", 2**35 - 1) == "MJ1-L03-7777777"
    assert format_code("L00", 32) == "MJ1-L00-AAAAABA"  # big-endian
    assert parse_code("MJ1-L00-AAAAABA") == ("L00", 32)
    assert parse_code("  mj1-l07-7777777 ") == ("L07", 2**35 - 1)  # case-insensitive
    for n in (0, 1, 31, 32, 12345678, 2**35 - 1):
        assert parse_code(format_code("L05", n)) == ("L05", n)


@pytest.mark.parametrize(
    "code,part",
    [
        ("MJ2-L00-AAAAAAA", "version"),
        ("MJ1-X00-AAAAAAA", "layout"),
        ("MJ1-L0-AAAAAAA", "layout"),
        ("MJ1-L98-AAAAAAA", "layout"),
        ("MJ1-L00-AAAAAA", "deal"),
        ("MJ1-L00-AAAAAAAA", "deal"),
        ("MJ1-L00-AAAAAA1", "deal"),
        ("MJ1-L00-AAAAAA8", "deal"),
        ("MJ1L00AAAAAAA", "code"),
        ("MJ1-L00-AAA-AAAA", "code"),
        ("", "code"),
    ],
)
def test_t9_malformed_codes_name_the_bad_part(code, part):
    with pytest.raises(CodeError) as exc:
        parse_code(code)
    assert exc.value.part == part
    assert isinstance(exc.value, ValueError)
    assert str(exc.value)


def test_t9_format_code_rejects_out_of_range():
    with pytest.raises(CodeError) as exc:
        format_code("L00", 2**35)
    assert exc.value.part == "deal"
    with pytest.raises(CodeError):
        format_code("L00", -1)


def test_t9_splitmix64_reference_values():
    # Vigna's splitmix64.c with seed 0: first outputs
    r = SplitMix64(0)
    assert [r.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


GOLDEN = {
    "MJ1-L08-AAAAAAA": "1B 3C 7B N 3B 1B S 7C 5D 5D 6D 7B 3C N 7B 3B 5D 3B 3C 7C 6D 3B S 6D 7C 7C 1B S 6D 1B 7B 5D N S 3C N",
    "MJ1-L08-777777A": "4C 1B 8D Wh 3B S3 9B 9B 1D 9B 1D 5C Wh 5C 3B 9B 8D 5C 5C 8D 1D Wh 1B S1 S4 8D 3B 1B S2 Wh 4C 1B 3B 4C 1D 4C",
    "MJ1-L05-ABCDEFG": "W 3B 7D 9C G G W E E N 2C 3C 9D G N Wh N N 3B 7D G E W 9C 9C 3B 8C 2C 2C 3D W 3C 3B 3D 9D 2C 3D 3C 8C 9C 3C Wh 7D Wh 9D E 3D Wh 7D 9D",
    "MJ1-L06-RIVALS2": "9C 6D 2C 5B G 7C 7B 7C 3D 5D 2B 3C 9C 3B 9C 7B 6B 2B 6D 2D 6B 4D 3C 4C 8D 8D 3B 1D 1D 3D 3C 4D 6B 3B 8D 6D 5D 2C 3D 4C 3C 2D 2C G 2B 7C 7C 3B 8D 5B 5D 6D 2B 4D 3D 1D 9C 2D 1D G 5D 4C 4D 7B 5B 6B 7B 2D 4C 2C G 5B",
    "MJ1-L00-AAAAAAA": "1D E G 1D 1C 7B 9B 9B 8D 7D 2C Wh S 4C F1 4D 4B 5C 9B E 3D 2D 3D 2B 3D 8B 5D S1 2D 1D 4C 7D 1C 2B 7C N 6C 1B W W 1B 6B S 3D 9D Wh 3B 8C G R 3C 6D 6C N 8B R 9C 6B S4 7C 9C 4D 8B 2C 4B 5D 9D 1B 2B 7B 5C 4D 9B E 5B 5C 9C 6B 4B 5B 2C 8B F3 6D 8D 5B S3 G E 5B 5C 2B S 9D 3C R 3B 7D 8C 7C 2D 4D R 2D G 2C 7B 6B 7B 1C 1B 4C 7C 8D 6D F2 9D N 4C Wh F4 6C 3B 8C Wh 1C S W 5D 6D W N 1D 3B S2 8C 3C 8D 5D 3C 4B 6C 7D 9C",
    "MJ1-L00-TURTLE7": "4B 7B 6C 3C 6C 3C 6D 4C 8D 5B 6D Wh 4D F2 2D 9C S 4B E 2C 1B G R 4C 2C 3D 6D 5C 1B 9B E 8C S4 8B 5D 3D 4B G 2C 1B 9C R Wh S1 1C 3B W 6C G 6B 8C 5D 9C 8B 7D 9D 9D 5B 6B F1 7C G 1D S 8B 2D 1C 5B 1D R 3C 3C 3D 7C 7B 5C 8C 2B 1D 4C 7C 2B W F4 5C 7B W 5C 7D 7B 3D 3B 1C 5B 6B 9B 1D 6C N 1B 9D 8C 6B R 9B S W 5D 2B 5D 8D S2 9D 8B F3 N 8D Wh N 7D 9C S3 4D 9B 7C 2B 4D 6D 3B N 4D S E 4C 3B 1C 2D E 4B 2C 8D 2D Wh 7D",
    "MJ1-L03-MAHJONG": "4B 4C 5D 2D 5D 2D 4B 5B R 9D 7B 9D E 9B 6B W 4C 5B 8B 4B 5D 6C 2C 7D 1B W S4 R R 8D W 7D 1C 9B 4C 1C 6B S1 F4 W F1 9D S3 8B F3 4C 8D F2 6B S 2C 7D 9C 8C 8B 5B 3B 1C 2D 6C 7B 2D 9D 6C 7D E 8B 8C 9C 8C S2 6B 1B 9B 5B 9B 7B 4B 5D 8D 2C 8D 1B 1C S 9C 9C S 7B 2C 3B 3B 8C 3B S R E 1B E 6C",
}
GOLDEN_PLAN_HEAD = {
    "MJ1-L08-AAAAAAA": ((2, 11), (12, 18), (17, 21)),
    "MJ1-L00-AAAAAAA": ((123, 135), (44, 66), (117, 131)),
    "MJ1-L00-TURTLE7": ((0, 138), (57, 93), (105, 131)),
}


@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_t9_golden_deals_are_pinned(code):
    deal = deal_from_code(code)
    assert " ".join(deal.faces) == GOLDEN[code]
    assert deal_from_code(code.lower()).faces == deal.faces
    if code in GOLDEN_PLAN_HEAD:
        assert deal.plan[:3] == GOLDEN_PLAN_HEAD[code]


@pytest.mark.parametrize("layout", [lay.id for lay in all_layouts()])
def test_t9_dealt_board_is_solvable_under_t2_t6_with_kept_plan(layout):
    for k in range(3):
        code = random_code(rng_seed=k, layout_id=layout)
        deal = deal_from_code(code)
        assert len(deal.faces) == deal.layout.size
        board = Board(deal.layout, deal.faces, "classic")
        for a, b in deal.plan:  # the kept winning plan replays under the strictest rules
            assert board.can_remove(a, b)
            board.remove(a, b)
        assert board.is_won()
        assert solve(Board(deal.layout, deal.faces, "classic"), 50_000).solvable is True


def test_t4_decision_small_layouts_get_whole_groups():
    for lay in all_layouts():
        deal = deal_from_code(format_code(lay.id, 777))
        keys = collections.Counter(
            "F" if f.startswith("F") else ("Sx" if f in ("S1", "S2", "S3", "S4") else f) for f in deal.faces
        )
        sizes = sorted(keys.values())
        if lay.size % 4 == 0:
            assert all(v == 4 for v in sizes), lay.id
            assert len(sizes) == lay.size // 4
        else:
            assert sizes[0] == 2 and all(v == 4 for v in sizes[1:]), lay.id
        assert sum(sizes) == lay.size


def test_t9_random_code_seeded_and_fresh():
    assert random_code(5) == random_code(5)
    assert random_code(5) != random_code(6)
    assert parse_code(random_code())[0] == "L00"
    assert parse_code(random_code(layout_id="L05"))[0] == "L05"
