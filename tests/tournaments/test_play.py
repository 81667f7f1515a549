"""Waves, tables on real rounds, TP events, next waves, the end (R-17, R-23…R-25)."""

from __future__ import annotations

import pytest

from rivals import engine
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches.models import Match, Round
from rivals.matches.services import round_end_if_due, round_intent_apply
from rivals.models import Event
from tests.tournaments.helpers import at, new_tournament, players, register_all, score_tables, seat_ids, tables
from tournaments.models import Registration
from tournaments.services.lifecycle import tournament_cancel
from tournaments.services.play import tournament_start, tournament_tick, tournaments_sweep

pytestmark = pytest.mark.django_db


def started(n: int, **kw):
    t = new_tournament(**kw)
    accounts = players(n)
    register_all(t, accounts)
    assert tournament_tick(tournament_id=t.pk, now=at(10)) == "started"  # seats and opens the tables
    t.refresh_from_db()
    return t, accounts


def remove_pairs(rnd: Round, account_id: int, count: int, start_s: float):
    game = Game.objects.get(round_id=rnd.pk, account_id=account_id)
    plan = engine.solve(game_board(game)).plan
    for i, pair in enumerate(plan[:count]):
        game.refresh_from_db()
        round_intent_apply(
            account=game.account,
            round_id=rnd.pk,
            now=at(10, start_s + i),
            intent={"seq": game.seq, "type": "remove_pair", "tiles": list(pair)},
        )


def test_r23_five_players_sit_at_3_plus_2_each_table_one_tournament_round():
    t, accounts = started(5)
    wave1 = tables(t, 1)
    assert [len(seat_ids(x)) for x in wave1] == [3, 2]
    assert sorted(a for x in wave1 for a in seat_ids(x)) == sorted(a.pk for a in accounts)
    for x in wave1:
        rnd = Round.objects.get(pk=x.round_id)
        match = Match.objects.get(pk=x.match_id)
        assert (match.mode, rnd.status, rnd.cutoff_at, rnd.players) == ("tournament", "running", t.ends_at, seat_ids(x))
        assert match.context == {"tournament_id": str(t.pk), "wave": 1, "table": x.number}
    seated = Event.objects.get(stream_id=t.stream_id, type="WaveSeated")
    assert seated.data["multiplier"] == 1 and seated.data["waiting"] == []
    assert tournament_start(tournament_id=t.pk, now=at(10, 1)) == "nothing"  # the second run does nothing
    assert len(tables(t)) == 2


def test_r24_r18a_a_round_end_appends_the_tables_tp_in_its_transaction_and_silent_players_get_0():
    t, accounts = started(5)
    three, two = tables(t, 1)
    rnd = Round.objects.get(pk=three.round_id)
    first = seat_ids(three)[0]
    remove_pairs(rnd, first, 2, start_s=1)  # the other two never play: 0 each
    assert round_end_if_due(round_id=rnd.pk, now=at(10, 30))  # 20 s without a pair
    scored = Event.objects.get(stream_id=t.stream_id, type="TableScored")
    rows = {r["account_id"]: r for r in scored.data["results"]}
    assert rows[first]["tp"] == 20 and rows[first]["place"] == 1  # 3 players, first did not complete
    others = [rows[a] for a in seat_ids(three)[1:]]
    # R-18a: their share (15 + 0) / 2 = 7 each is computed and not paid: they removed no pair
    assert [(r["score"], r["place"], r["tp"]) for r in others] == [(0, 2, 0), (0, 2, 0)]
    assert dict(Registration.objects.filter(tournament=t).values_list("account_id", "tp"))[first] == 20
    # the table of two where nobody played: every score 0, nobody gets TP
    assert round_end_if_due(round_id=two.round_id, now=at(10, 30))
    empty = Event.objects.filter(stream_id=t.stream_id, type="TableScored").last()
    assert [r["tp"] for r in empty.data["results"]] == [0, 0]


def test_r23_the_next_wave_is_seated_when_every_table_ended_by_tp_standings_with_its_multiplier():
    t, accounts = started(5, multipliers=[1, 3])
    ids = [a.pk for a in accounts]
    score_tables(t, 1, {ids[0]: 900, ids[1]: 800, ids[2]: 100, ids[3]: 700, ids[4]: 600})
    assert tournament_tick(tournament_id=t.pk, now=at(21)) == "seated"
    wave2 = tables(t, 2)
    assert [len(seat_ids(x)) for x in wave2] == [3, 2]
    tp = dict(Registration.objects.filter(tournament=t).values_list("account_id", "tp"))
    ordered = [a for x in wave2 for a in seat_ids(x)]
    assert [tp[a] for a in ordered] == sorted(tp.values(), reverse=True)  # similar TP meet
    assert wave2[0].wave.multiplier == 3
    assert tournament_tick(tournament_id=t.pk, now=at(21, 1)) == "playing"  # not before wave 2 ends


def test_r17_at_the_end_time_running_rounds_are_cut_scored_and_the_tournament_finalized():
    t, accounts = started(4, prize_table=[100, 50])
    (table,) = tables(t, 1)
    remove_pairs(Round.objects.get(pk=table.round_id), accounts[2].pk, 1, start_s=1)
    rnd = Round.objects.get(pk=table.round_id)
    # keep the round alive past the tournament's end: it is cut there, not at the idle rule
    assert rnd.cutoff_at == t.ends_at
    assert tournament_tick(tournament_id=t.pk, now=at(70, 1)) == "finalized"
    rnd.refresh_from_db()
    assert rnd.status == "ended"
    t.refresh_from_db()
    assert t.status == "finished"
    assert Registration.objects.get(tournament=t, account=accounts[2]).place == 1


def test_r23_the_sweeper_seats_and_finalizes_what_is_due_and_a_second_sweep_does_nothing():
    t, accounts = started(2, prize_table=[10])
    score_tables(t, 1, {accounts[0].pk: 300})
    assert tournaments_sweep(now=at(30)) == {"seated": 1}
    score_tables(t, 2, {accounts[1].pk: 300}, now=at(40))
    assert tournaments_sweep(now=at(71)) == {"finalized": 1}
    assert tournaments_sweep(now=at(72)) == {}


def test_cancelled_running_tournament_gives_no_tp():
    t, accounts = started(2)
    tournament_cancel(tournament_id=t.pk, actor="operator:1", now=at(12))
    (table,) = tables(t, 1)
    remove_pairs(Round.objects.get(pk=table.round_id), accounts[0].pk, 1, start_s=3)
    assert round_end_if_due(round_id=table.round_id, now=at(10, 40))
    assert not Event.objects.filter(stream_id=t.stream_id, type="TableScored").exists()
    assert tournament_tick(tournament_id=t.pk, now=at(71)) == "nothing"


def test_r23_tables_are_opened_after_seating_and_a_reader_opens_only_their_own():
    from tournaments.services.tables import tables_open

    t = new_tournament()
    accounts = players(9)
    register_all(t, accounts)
    assert tournament_start(tournament_id=t.pk, now=at(10)) == "started"
    assert [x.round_id for x in tables(t, 1)] == [None, None, None]  # seated, rounds not yet opened
    assert tournament_tick(tournament_id=t.pk, now=at(10, 1)) == "playing"  # the tick keeps them playing
    t2 = new_tournament(title="Reader")
    register_all(t2, players(9, prefix="r"))
    tournament_start(tournament_id=t2.pk, now=at(10))
    reader = seat_ids(tables(t2, 1)[2])[0]
    assert tables_open(tournament_id=t2.pk, now=at(10, 1), account_id=reader) == 1
    assert [x.round_id is not None for x in tables(t2, 1)] == [False, False, True]
    assert tables_open(tournament_id=t2.pk, now=at(10, 2)) == 2 and tables_open(tournament_id=t2.pk) == 0
    opened = Event.objects.filter(stream_id=t2.stream_id, type="TablesOpened")
    assert [len(e.data["tables"]) for e in opened] == [1, 2]


def test_r17_tables_not_opened_before_the_end_are_closed_unplayed_and_the_tournament_finalized():
    t = new_tournament(prize_table=[10])
    register_all(t, players(2))
    tournament_start(tournament_id=t.pk, now=at(10))
    assert tournament_tick(tournament_id=t.pk, now=at(71)) == "finalized"
    scored = Event.objects.get(stream_id=t.stream_id, type="TableScored")
    assert scored.data["reason"] == "cutoff" and [r["tp"] for r in scored.data["results"]] == [0, 0]
    assert not Round.objects.exists()
