"""R-20 Arena: 4 players, 3 rounds with 10-second breaks, places by the sum of the round scores,
prizes 80 / 40 / 20 / 0 shared by tied players (rounded down), exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rivals.engine.scoring import arena_prizes
from rivals.errors import NotAllowed
from rivals.matches import services as svc
from rivals.matches.models import Match, MatchPlayer, QueueTicket
from rivals.points.models import PointsLedgerEntry
from tests.matches.helpers import (
    accounts,
    at,
    blocked_tile,
    board,
    first_round,
    match,
    play,
    reload,
    seconds,
    steady_all,
)


def test_r20_two_tied_for_first_and_two_tied_for_third():
    assert arena_prizes([2400, 2400, 1800, 1800]) == [60, 60, 10, 10]


def test_r20_three_tied_for_second():
    assert arena_prizes([3000, 2000, 2000, 2000]) == [80, 20, 20, 20]


def test_r20_three_tied_for_first_odd_remainder_rounded_down():
    assert arena_prizes([2500, 2500, 2500, 1000]) == [46, 46, 46, 0]  # 140 / 3 = 46.67


def test_r20_all_four_tied():
    assert arena_prizes([1000, 1000, 1000, 1000]) == [35, 35, 35, 35]


def test_r20_no_ties():
    assert arena_prizes([900, 100, 700, -100]) == [80, 20, 40, 0]


def test_r20_two_tied_for_third_odd_remainder():
    assert arena_prizes([3000, 2000, 500, 500]) == [80, 40, 10, 10]
    assert arena_prizes([900, 500, 500, 100]) == [80, 30, 30, 0]


def test_r20_r18a_idle_players_get_no_arena_prize_and_their_shares_are_not_passed_on():
    """EXAMPLES.md R-20: 0, 0, 0, −100 with nobody removing a pair → nobody; 500, 0, 0, −100 where
    only the first removed pairs → 80, 0, 0, 0 (the idle shares (40 + 20) / 2 are not paid)."""
    nobody = [False] * 4
    assert arena_prizes([0, 0, 0, -100], nobody) == [0, 0, 0, 0]
    assert arena_prizes([500, 0, 0, -100], [True, False, False, False]) == [80, 0, 0, 0]
    assert arena_prizes([500, 0, 0, -100], [True, True, True, True]) == [80, 30, 30, 0]


def test_r20_decision_no_every_score_zero_clause_four_players_who_played_and_total_0_share_35():
    """R-20's decision: the Arena has no "every score 0" clause (R-12/R-24 do), only R-18a's idle
    rule — four players who all removed pairs and all total 0 share (80 + 40 + 20 + 0) / 4 = 35."""
    assert arena_prizes([0, 0, 0, 0], [True] * 4) == [35, 35, 35, 35]
    assert arena_prizes([0, 0, 0, 0]) == [35, 35, 35, 35]
    assert arena_prizes([0, 0, 0, 0], [True, True, False, False]) == [35, 35, 0, 0]
    assert arena_prizes([0, 0, 0, 0], [False] * 4) == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("totals", "played", "prizes"),
    [
        ([2400, 2400, 1800, 1800], None, [60, 60, 10, 10]),
        ([3000, 2000, 2000, 2000], None, [80, 20, 20, 20]),
        ([2500, 2500, 2500, 1000], None, [46, 46, 46, 0]),
        ([1000, 1000, 1000, 1000], None, [35, 35, 35, 35]),
        ([0, 0, 0, -100], [False] * 4, [0, 0, 0, 0]),
        ([500, 0, 0, -100], [True, False, False, False], [80, 0, 0, 0]),
        ([0, 0, 0, 0], [True] * 4, [35, 35, 35, 35]),
    ],
)
def test_r20_every_row_of_the_examples(totals, played, prizes):
    """EXAMPLES.md R-20, row by row (``played``: who removed a pair; None: everyone)."""
    assert arena_prizes(totals, played) == prizes


@pytest.mark.django_db
def test_r20_an_arena_whose_four_players_all_removed_pairs_and_total_0_pays_35_each():
    """EXAMPLES.md R-20's last row through the services: in each round every player removes one
    pair (+100) and taps one blocked tile (−100); nobody completes, every total is 0 → 35 each."""
    players = accounts(4)
    m = match("arena", players)
    for index in (1, 2, 3):
        rnd = m.rounds.get(index=index)
        steady_all(rnd, dict.fromkeys(players, 1))
        start = seconds(rnd.starts_at)
        for k, p in enumerate(players):
            play(rnd, p, "click_blocked", start + 2 + k * 0.1, tile=blocked_tile(rnd, p))
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(start + 25))
    m.refresh_from_db()
    assert m.status == "finished"
    assert [(s["score"], s["place"], s["pairs_removed"], s["completed"]) for s in m.standings] == [(0, 1, 3, False)] * 4
    assert [p["points"] for p in m.prizes] == [35, 35, 35, 35]
    prizes = dict(PointsLedgerEntry.objects.filter(source="arena").values_list("account_id", "amount"))
    assert prizes == {p.pk: 35 for p in players}


@pytest.mark.django_db
def test_r20_an_arena_of_three_rounds_with_breaks_to_its_prizes():
    a, b, c, d = players = accounts(4)
    m = match("arena", players)
    assert m.rounds_total == 3
    counts = {a: 8, b: 8, c: 6, d: 6}  # 800 + 800 + 600 + 600 per round
    rnd = first_round(m)
    for index in (1, 2, 3):
        assert rnd.index == index
        steady_all(rnd, counts)
        last = max(board(rnd, p).last_pair_ms for p in players) / 1000 + seconds(rnd.starts_at)
        end = last + 20
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(end))
        rnd = reload(rnd)
        assert rnd.end_reason == "idle"
        if index < 3:  # the next round starts by itself after the 10-second break
            nxt = m.rounds.get(index=index + 1)
            assert nxt.starts_at == at(end) + timedelta(seconds=10)
            assert nxt.shown_status(at(end + 5)) == "scheduled"
            with pytest.raises(NotAllowed, match="not started"):
                play(nxt, a, "remove_pair", end + 5, tiles=[0, 1])
            assert nxt.shown_status(at(end + 10)) == "running"
            rnd = nxt
    m.refresh_from_db()
    assert m.status == "finished"
    assert [(s["account_id"], s["place"], s["score"]) for s in m.standings] == [
        (a.pk, 1, 2400),
        (b.pk, 1, 2400),
        (c.pk, 3, 1800),
        (d.pk, 3, 1800),
    ]
    prizes = dict(PointsLedgerEntry.objects.filter(source="arena").values_list("account_id", "amount"))
    assert prizes == {a.pk: 60, b.pk: 60, c.pk: 10, d.pk: 10}
    assert list(MatchPlayer.objects.filter(match=m).order_by("seat").values_list("total_score", "place", "prize")) == [
        (2400, 1, 60),
        (2400, 1, 60),
        (1800, 3, 10),
        (1800, 3, 10),
    ]
    svc.rounds_end_due(now=at(10_000))  # nothing left to end, nothing awarded twice
    assert PointsLedgerEntry.objects.filter(source="arena").count() == 4


@pytest.mark.django_db
def test_r20_decision_an_arena_where_nobody_played_awards_nothing():
    players = accounts(4)
    m = match("arena", players)
    now = 0.0
    for index in (1, 2, 3):
        rnd = m.rounds.get(index=index)
        now = seconds(rnd.starts_at) + 20
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(now))
    m.refresh_from_db()
    assert m.status == "finished" and [p["points"] for p in m.prizes] == [0, 0, 0, 0]
    assert PointsLedgerEntry.objects.count() == 0


@pytest.mark.django_db
def test_r18a_one_blocked_tap_by_an_idle_player_pays_the_other_idle_players_nothing():
    """Four idle accounts cannot farm points: one blocked tap (−100) by one of them used to make the
    three others share 140 points. Nobody removed a pair: nobody is paid; a player who removed a
    pair in any round is paid its share, the idle ones' shares are not passed on."""
    players = accounts(4)
    tapper = players[3]
    m = match("arena", players)
    for index in (1, 2, 3):
        rnd = m.rounds.get(index=index)
        if index == 1:
            play(rnd, tapper, "click_blocked", seconds(rnd.starts_at) + 1, tile=blocked_tile(rnd, tapper))
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(seconds(rnd.starts_at) + 25))
    m.refresh_from_db()
    assert [(s["score"], s["place"], s["pairs_removed"]) for s in m.standings] == [(0, 1, 0)] * 3 + [(-100, 4, 0)]
    assert [p["points"] for p in m.prizes] == [0, 0, 0, 0]
    assert not PointsLedgerEntry.objects.exists()

    a, b, c, d = accounts(4, prefix="q")
    m = match("arena", [a, b, c, d])
    for index in (1, 2, 3):
        rnd = m.rounds.get(index=index)
        start = seconds(rnd.starts_at)
        if index == 2:
            steady_all(rnd, {a: 5}, after_s=1)  # A alone removes pairs
            play(rnd, d, "click_blocked", start + 2, tile=blocked_tile(rnd, d))
        last = max([start, *(seconds(rnd.starts_at) + (board(rnd, p).last_pair_ms or 0) / 1000 for p in (a,))])
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(last + 25))
    m.refresh_from_db()
    assert m.standings[0]["account_id"] == a.pk and m.standings[0]["score"] > 0
    assert [(s["account_id"], s["score"], s["place"]) for s in m.standings[1:]] == [
        (b.pk, 0, 2),
        (c.pk, 0, 2),
        (d.pk, -100, 4),
    ]
    prizes = dict(PointsLedgerEntry.objects.filter(source="arena").values_list("account_id", "amount"))
    assert prizes == {a.pk: 80}  # B's and C's (40 + 20) / 2 are not paid (EXAMPLES.md R-20)


@pytest.mark.django_db
def test_r20_the_arena_queue_groups_four():
    players = accounts(5)
    tickets = [svc.queue_join(account=p, mode="arena", now=at(i))[0] for i, p in enumerate(players)]
    for t in tickets:
        t.refresh_from_db()
    assert [t.status for t in tickets] == ["matched"] * 4 + ["waiting"]
    m = Match.objects.get(pk=tickets[0].match_id)
    assert m.mode == "arena" and m.players.count() == 4
    assert QueueTicket.objects.filter(match=m).count() == 4
