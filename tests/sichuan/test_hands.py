"""S-10 .. S-12: winning hands, fan rows, value, waits, shanten."""

from rivals.sichuan.engine import hands as H

from .helpers import counts, kinds, melds


def fans(spec, meld_spec="", events=()):
    return H.hand_fans(counts(spec), melds(meld_spec), events)


def total(spec, meld_spec="", events=()):
    return H.score(counts(spec), melds(meld_spec), events)


# ---------------------------------------------------------------- S-10
def test_s10_four_sets_and_pair():
    assert H.is_winning(counts("123C 456C 789D 222B 55D"))
    assert not H.is_winning(counts("123C 456C 789D 222B 56D"))


def test_s10_with_declared_melds():
    assert H.is_winning(counts("123C 456C 55D"), 2)  # 8 tiles + 2 melds = 14
    assert not H.is_winning(counts("123C 456C 56D"), 2)
    assert H.is_winning(counts("123C 55D"), 3)
    assert H.is_winning(counts("55D"), 4)


def test_s10_seven_pairs_and_quad_counts_as_two_pairs():
    assert H.is_winning(counts("11C 33C 55D 77D 99D 22B 44B"))
    assert H.is_winning(counts("5555D 11C 33C 77C 99C 22B"))
    assert not H.is_winning(counts("11C 33C 55D 77D 99D 22B 45B"))


def test_s10_seven_pairs_only_concealed():
    assert H.hand_fans(counts("11C 33C 55D 77D 99D 22B"), melds("444B")) is None


def test_s10_best_reading_scored():
    # 111222333C + 789C + 99C: three pongs+run (basic) or three runs (basic), flush either way;
    # 11223344556677C: seven pairs (2) beats the run reading (0).
    assert fans("11223344556677C") == ["seven_pairs", "full_flush"]
    # 111 222 333 as pongs -> all pongs reading chosen over 123 123 123
    assert fans("111222333C 999C 55D") == ["all_pongs"]


def test_s10_missing_suit_blocks_waits():
    c = counts("123C 456C 789C 234D 5D")
    assert H.waits(c, (), missing_suit=2) == kinds("2D 5D")
    c2 = counts("123C 456C 789C 234D 5B")
    assert H.waits(c2, (), missing_suit=2) == []


# ---------------------------------------------------------------- S-11 rows
def test_s11_basic_hand_0_fan():
    assert fans("123C 456C 789D 234B 55D") == ["basic"]
    assert total("123C 456C 789D 234B 55D") == (0, ["basic"], 1)


def test_s11_all_pongs_1():
    assert fans("111C 333D 666D 777B 99B") == ["all_pongs"]


def test_s11_all_pongs_with_melds():
    assert fans("333D 555D 99B", "111C 7777B") == ["all_pongs", "root"]


def test_s11_seven_pairs_2():
    assert fans("11C 33C 55D 77D 99D 22B 44B") == ["seven_pairs"]


def test_s11_outside_hand_2():
    # every set and the pair contains a 1 or a 9
    assert fans("123C 789C 111D 999B 99D") == ["outside"]


def test_s11_all_258_pongs_3_instead_of_all_pongs():
    f = fans("222C 555C 888D 555B 22B")
    assert f == ["all_258_pongs"]
    assert H.fan_total(f) == 3


def test_s11_full_flush_plus_2():
    assert fans("123C 456C 789C 234C 55C") == ["full_flush"]


def test_s11_single_wait_with_four_melds_plus_1():
    f = fans("55D", "111C 333C 777D 999D")
    assert "single_wait" in f and "all_pongs" in f
    assert H.fan_total(f) == 2


def test_s11_each_root_plus_1():
    # a quad used as two pairs, a kong, and a pong plus the fourth copy in hand all count
    assert fans("5555D 11C 33C 77C 99C 22B").count("root") == 1
    f = fans("456C 55D 123D", "444C 7777B")  # pong 444C + 4C in hand = four 4C; kong 7B
    assert f.count("root") == 2


def test_s11_win_event_fans_each_plus_1():
    for ev in ("kong_replacement", "robbing_kong", "last_tile"):
        f = fans("123C 456C 789D 234B 55D", events=(ev,))
        assert f == [ev]
        assert H.fan_total(f) == 1
    assert H.fan_total(fans("123C 456C 789D 234B 55D", events=("kong_replacement", "last_tile"))) == 2


# ---------------------------------------------------------------- S-12 and EXAMPLES
def test_s12_value_is_two_to_the_fan_capped_at_5():
    assert [H.hand_value(f) for f in range(8)] == [1, 2, 4, 8, 16, 32, 32, 32]


def test_s12_example_all_pongs_full_flush_3_fan_8():
    assert total("111C 333C 555C 777C 99C") == (3, ["all_pongs", "full_flush"], 8)


def test_s12_example_seven_pairs_with_root_3_fan_8():
    fan, f, value = total("5555D 11C 33C 77C 99C 22B")
    assert (fan, value) == (3, 8) and sorted(f) == ["root", "seven_pairs"]


def test_s12_example_full_flush_seven_pairs_two_roots_capped_32():
    fan, f, value = total("1111D 3333D 55D 77D 99D")
    assert sorted(f) == ["full_flush", "root", "root", "seven_pairs"]
    assert fan == 6 and value == 32


def test_s12_example_outside_full_flush_4_fan_16():
    fan, f, value = total("123C 123C 123C 789C 99C")
    assert sorted(f) == ["full_flush", "outside"] and (fan, value) == (4, 16)


def test_s12_example_all_258_pongs_full_flush_5_fan_32():
    # A one-suit 2/5/8 all-pongs hand needs 14 tiles of three kinds (physically impossible
    # without five copies), so the example is checked on the fan arithmetic: 3 + 2, no all-pongs.
    f = ["all_258_pongs", "full_flush"]
    assert H.fan_total(f) == 5 and H.hand_value(H.fan_total(f)) == 32
    c = [0] * 27
    for k, n in ((1, 5), (4, 3), (7, 3), (1, 0)):
        c[k] += n
    c[4] += 3  # 22222 555555 888: sets 222, 555, 555, 888 + pair 22 (counts only)
    got = H.hand_fans(c)
    assert got is not None and "all_258_pongs" in got and "all_pongs" not in got
    assert "full_flush" in got


# ---------------------------------------------------------------- waits and shanten
def test_waits_nine_gates():
    assert H.waits(counts("1112345678999C")) == list(range(9))


def test_s16_wait_with_all_four_copies_own_does_not_count():
    # a kong of 5D and a 4-6D kanchan: the 5D wait is dead (all four copies are own)
    c = counts("46D 123C 789C 11C")
    assert H.waits(c, melds("5555D"), exclude_exhausted=False) == kinds("5D")
    assert H.waits(c, melds("5555D")) == []
    assert H.best_ready_value(c, melds("5555D")) == 0


def test_best_ready_value_over_waits():
    # seven pairs single wait on 3D: 2 fan = 4
    assert H.best_ready_value(counts("11C 55C 99C 22D 66D 88D 3D"), (), 2) == 4
    # all-pong shanpon 11C/99D: either completes all pongs + outside? no: 333D is not outside
    assert H.best_ready_value(counts("111C 333D 777C 11D 99D"), (), 2) == 2


def test_shanten_values():
    assert H.shanten(counts("123C 456C 789C 234D 5D")) == 0
    assert H.shanten(counts("123C 456C 789C 234D 55D")) == -1
    assert H.shanten(counts("11C 33C 55D 77D 99D 22B 4B")) == 0
    assert H.shanten(counts("159C 159D 159B 2C 6D 3B 7B")) == 4
    assert H.shanten(counts("55D"), 4) == -1
    assert H.shanten(counts("5D"), 4) == 0
