"""R-24 / R-25 table points, R-26 final places and R-23 seating as pure functions (exact numbers)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import final_places, shared_split, table_points
from tournaments.seating import seat, table_sizes


def tp(results, multiplier=1):
    return [(p.account_id, p.place, p.points) for p in table_points(results, multiplier)]


# --- every cell of the table (players × first completed / not) ------------------------------


def test_r24_four_players_first_completed():
    assert tp([(1, True, 2000), (2, False, 900), (3, False, 600), (4, False, 300)]) == [
        (1, 1, 40),
        (2, 2, 20),
        (3, 3, 10),
        (4, 4, 0),
    ]


def test_r24_four_players_first_not_completed():
    assert tp([(1, False, 1500), (2, False, 900), (3, False, 600), (4, False, 300)]) == [
        (1, 1, 30),
        (2, 2, 20),
        (3, 3, 10),
        (4, 4, 0),
    ]


def test_r24_three_players_first_completed():
    assert tp([(1, True, 1000), (2, False, 1200), (3, False, 100)]) == [(1, 1, 30), (2, 2, 15), (3, 3, 0)]


def test_r24_three_players_first_not_completed():
    assert tp([(1, False, 1200), (2, False, 700), (3, False, 100)]) == [(1, 1, 20), (2, 2, 15), (3, 3, 0)]


def test_r24_two_players_first_completed():
    assert tp([(1, False, 5000), (2, True, 300)]) == [(2, 1, 20), (1, 2, 0)]  # completion first, then score


def test_r24_two_players_first_not_completed():
    assert tp([(1, False, 400), (2, False, 900)]) == [(2, 1, 10), (1, 2, 0)]


def test_r24_all_scores_zero_nobody_gets_tp():
    assert tp([(1, False, 0), (2, False, 0)], 3) == [(1, 1, 0), (2, 1, 0)]
    assert [p for _, _, p in tp([(1, False, 0), (2, False, 0), (3, False, 0), (4, False, 0)], 6)] == [0, 0, 0, 0]


def test_r24_not_all_zero_a_negative_score_still_scores():
    assert tp([(1, False, 0), (2, False, -100)]) == [(1, 1, 10), (2, 2, 0)]


def test_r24_r12_one_reading_every_score_zero_and_nobody_completed():
    """A player who completed the board has played, whatever the taps cost: "every score is 0"
    means every score 0 *and* nobody completed (R-12's reading, shared)."""
    assert tp([(1, True, 0), (2, False, 0)]) == [(1, 1, 20), (2, 2, 0)]
    assert tp([(1, True, 0), (2, False, 0), (3, False, 0)], 2) == [
        (1, 1, 60),
        (2, 2, 14),
        (3, 2, 14),
    ]  # (15 + 0) / 2 = 7, ×2
    assert tp([(1, False, 0), (2, False, 0)], 3) == [(1, 1, 0), (2, 1, 0)]


def test_r24_r18a_idle_players_get_no_tp_and_their_share_is_not_passed_on():
    """EXAMPLES.md R-24: 2 players, 0 (one pair, one blocked tap) and −100 → 10, 0; the same with
    neither removing a pair → 0, 0 (the 10 is not paid: idle)."""
    assert [(a, pl, p) for a, pl, p in tp2([(1, False, 0), (2, False, -100)], idle={2})] == [(1, 1, 10), (2, 2, 0)]
    assert tp2([(1, False, 0), (2, False, -100)], idle={1, 2}) == [(1, 1, 0), (2, 2, 0)]
    # a 4-player table: the idle third's 10 is not passed to the fourth
    assert tp2([(1, True, 2000), (2, False, 900), (3, False, 0), (4, False, -100)], 2, idle={3}) == [
        (1, 1, 80),
        (2, 2, 40),
        (3, 3, 0),
        (4, 4, 0),
    ]


def tp2(results, multiplier=1, idle=()):
    return [(p.account_id, p.place, p.points) for p in table_points(results, multiplier, idle=idle)]


def test_r24_table_sizes_outside_two_to_four_are_refused():
    with pytest.raises(ValueError):
        table_points([(1, False, 10)])
    with pytest.raises(ValueError):
        table_points([(i, False, 10) for i in range(5)])
    with pytest.raises(ValueError):
        table_points([(1, False, 10), (2, False, 5)], 7)


# --- the worked examples of EXAMPLES.md -------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "multiplier", "expected"),
    [
        ([(1, True, 1800), (2, False, 900), (3, False, 900), (4, False, 300)], 3, [120, 45, 45, 0]),
        ([(1, False, 1200), (2, False, 1200), (3, False, 500)], 2, [34, 34, 0]),
        ([(1, False, 0), (2, False, -100)], 1, [10, 0]),
        ([(1, False, 0), (2, False, 0)], 1, [0, 0]),
        ([(1, False, 800), (2, False, 600), (3, False, 600), (4, False, 600)], 1, [30, 10, 10, 10]),
    ],
)
def test_r25_worked_examples(results, multiplier, expected):
    by_account = {a: p for a, _, p in tp(results, multiplier)}
    assert [by_account[a] for a, _, _ in results] == expected


# Tie splits with odd remainders: the share is rounded down *before* the multiplier.
# (20 + 15) / 2 = 17.5 → 17; (40 + 20 + 10) / 3 = 23.33 → 23; (15 + 0) / 2 = 7.5 → 7;
# (20 + 10 + 0) / 3 = 10; (10 + 0) / 2 = 5; (30 + 20 + 10 + 0) / 4 = 15.
@pytest.mark.parametrize("multiplier", [1, 2, 3, 4, 5, 6])
def test_r25_tie_splits_with_odd_remainders_under_each_multiplier(multiplier):
    m = multiplier
    three = tp([(1, False, 1200), (2, False, 1200), (3, False, 500)], m)
    assert [p for _, _, p in three] == [17 * m, 17 * m, 0]
    assert [pl for _, pl, _ in three] == [1, 1, 3]
    four_first = tp([(1, True, 1400), (2, False, 600), (3, False, 600), (4, False, 100)], m)
    assert [p for _, _, p in four_first] == [40 * m, 15 * m, 15 * m, 0]
    three_way = tp([(1, False, 700), (2, False, 700), (3, False, 700), (4, False, 100)], m)
    assert [p for _, _, p in three_way] == [20 * m, 20 * m, 20 * m, 0]  # (30+20+10)/3 = 20
    four_way_completed_first = tp([(1, True, 900), (2, False, 800), (3, False, 800), (4, False, 800)], m)
    assert [p for _, _, p in four_way_completed_first] == [40 * m, 10 * m, 10 * m, 10 * m]
    top_three = tp([(1, False, 500), (2, False, 500), (3, False, 500), (4, False, 200)], m)
    assert [p for _, _, p in top_three][:3] == [20 * m] * 3
    last_two = tp([(1, False, 900), (2, False, 100), (3, False, 100)], m)
    assert [p for _, _, p in last_two] == [20 * m, 7 * m, 7 * m]  # (15 + 0) / 2 = 7.5 → 7
    all_four = tp([(i, False, 300) for i in range(1, 5)], m)
    assert [p for _, _, p in all_four] == [15 * m] * 4  # (30+20+10+0)/4
    two = tp([(1, False, 300), (2, False, 300)], m)
    assert [p for _, _, p in two] == [5 * m, 5 * m]  # (10 + 0) / 2
    first_three_completed = tp([(1, True, 1000), (2, True, 1000), (3, True, 1000), (4, False, 50)], m)
    assert [p for _, _, p in first_three_completed] == [23 * m] * 3 + [0]  # 70 / 3 = 23.3 → 23


@given(st.lists(st.tuples(st.booleans(), st.integers(-500, 3000)), min_size=2, max_size=4), st.integers(1, 6))
def test_r25_shares_never_exceed_the_places_and_ties_are_equal(rows, multiplier):
    placed = table_points([(i, c, s) for i, (c, s) in enumerate(rows)], multiplier)
    total = sum(p.points for p in placed)
    assert total <= max(sum(v) for v in ((40, 20, 10, 0), (30, 20, 10, 0))) * multiplier
    assert all(p.points % multiplier == 0 for p in placed)
    by_key = {}
    for p in placed:
        by_key.setdefault(rows[p.account_id], set()).add(p.points)
    assert all(len(v) == 1 for v in by_key.values())


# --- R-20 split (pots reuse it) ---------------------------------------------------------------------


def test_r20_arena_split_examples():
    prizes = [80, 40, 20, 0]
    cases = [
        ([2400, 2400, 1800, 1800], [60, 60, 10, 10]),
        ([3000, 2000, 2000, 2000], [80, 20, 20, 20]),
        ([2500, 2500, 2500, 1000], [46, 46, 46, 0]),
        ([1000] * 4, [35] * 4),
    ]
    for scores, expected in cases:
        placed = {p.account_id: p.points for p in shared_split([(i, (s,)) for i, s in enumerate(scores)], prizes)}
        assert [placed[i] for i in range(4)] == expected


# --- R-26 final places --------------------------------------------------------------------------------


def test_r26_equal_tp_earlier_registration_is_placed_above():
    # A and B both have 120 TP; B registered at 10:00:01, A at 10:00:05 → B above A
    assert final_places([(1, 120, "10:00:05"), (2, 120, "10:00:01"), (3, 130, "10:00:09")]) == [
        (3, 1, 130),
        (2, 2, 120),
        (1, 3, 120),
    ]


def test_r26_same_instant_lower_account_id_is_placed_above():
    assert final_places([(9, 120, "10:00:01"), (4, 120, "10:00:01")]) == [(4, 1, 120), (9, 2, 120)]


# --- R-23 seating -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (0, []),
        (1, []),
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_r23_table_sizes(n, sizes):
    assert table_sizes(n) == sizes


@given(st.integers(2, 20_000))
def test_r23_ceil_n_over_4_tables_of_2_to_4_differing_by_at_most_one(n):
    sizes = table_sizes(n)
    assert len(sizes) == -(-n // 4) and sum(sizes) == n
    assert 2 <= min(sizes) and max(sizes) <= 4 and max(sizes) - min(sizes) <= 1


def test_r23_a_single_player_waits():
    plan = seat([(7, 30)], seed=1, wave=2)
    assert plan.tables == [] and plan.waiting == [7]


def test_r23_seating_follows_tp_standings_with_a_seeded_reproducible_tie_order():
    players = [(a, tp) for a, tp in [(1, 0), (2, 90), (3, 0), (4, 60), (5, 0), (6, 90), (7, 0), (8, 0)]]
    plan = seat(players, seed=42, wave=3)
    assert [len(t) for t in plan.tables] == [4, 4]
    assert set(plan.tables[0][:2]) == {2, 6} and plan.tables[0][2] == 4  # the leaders meet
    assert plan == seat(list(reversed(players)), seed=42, wave=3)  # input order does not matter
    zeros = list(plan.tables[0][3:] + plan.tables[1])
    other_waves = {
        tuple(a for t in seat(players, seed=42, wave=w).tables for a in t if a in zeros) for w in range(1, 9)
    }
    assert len(other_waves) > 1  # ties are reshuffled from wave to wave, reproducibly
