"""T-10 and R-37: a player's statistics on the public profile — games played and won, hints used,
rounds played and won, tournaments played, best times per layout — projections of events, rebuilt
and verified like the others."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.statistics.selectors import player_stats
from tests.games.helpers import account, at, intent, new_game, play_to_win
from tests.matches.helpers import complete, first_round, match, seconds, steady
from tests.projections import assert_live_equals_rebuild, rolled_back
from tests.tournaments.helpers import at as t_at
from tests.tournaments.helpers import new_tournament, register_all, score_tables
from tournaments.services.play import tournament_tick

pytestmark = pytest.mark.django_db

ZERO = {
    "games_played": 0,
    "games_won": 0,
    "hints_used": 0,
    "rounds_played": 0,
    "rounds_won": 0,
    "tournaments_played": 0,
    "best_times": [],
}


def test_t10_hints_used_are_counted_in_the_statistics_and_a_restart_gives_none_back():
    ann = account("t10-ann")
    level = new_game(ann, "single", level=1)
    intent(level, ann, "hint", now=at(1))
    intent(level, ann, "hint", now=at(2))
    intent(level, ann, "restart", now=at(3))  # the board's own counter starts again ...
    intent(level, ann, "hint", now=at(4))
    level.refresh_from_db()
    assert level.hints_used == 1
    assert player_stats(account_id=ann.pk)["hints_used"] == 3  # ... the player's does not
    practice = new_game(ann, "pool_practice")
    intent(practice, ann, "hint", now=at(5))
    # hints alone do not make a game played (no pair removed in either)
    assert player_stats(account_id=ann.pk) | {"best_times": []} == ZERO | {"hints_used": 4}
    assert_live_equals_rebuild()


def test_r37_best_times_per_layout_are_the_best_winning_times_of_solo_games(api):
    bob = account("r37-bob")
    first = new_game(bob, "single", level=1)
    play_to_win(first, bob, 0, 95)  # 95.0 s
    again = new_game(bob, "single", level=1, created_s=200)
    play_to_win(again, bob, 200, 280)  # 80.0 s on the same layout
    slower = new_game(bob, "single", level=1, created_s=400)
    play_to_win(slower, bob, 400, 520)  # 120.0 s: not better
    layout = first.layout
    stats = api.get(f"/api/v1/players/{bob.pk}").json()["stats"]
    assert stats == ZERO | {"games_played": 3, "games_won": 3, "best_times": [{"layout": layout, "time_ms": 80_000}]}
    assert_live_equals_rebuild()


def test_r37_rounds_played_and_won_a_shared_first_place_is_nobody_s_win():
    """R-37: a round counts as played for a player who removed a pair in it (Bob, idle, played
    none); R-18: a shared first place is nobody's win."""
    from rivals.matches.services import round_end_if_due

    ann, bob = account("rounds-ann"), account("rounds-bob")
    won = match("quick", [ann, bob])
    complete(first_round(won), ann, 1)  # Ann completes: her round
    tied = match("quick", [ann, bob], start_s=1000)
    steady(first_round(tied), ann, 1, 1001)
    steady(first_round(tied), bob, 1, 1001.5)
    round_end_if_due(round_id=first_round(tied).pk, now=at(1000 + 400))  # 100 and 100: a tie
    idle = match("quick", [ann, bob], start_s=2000)
    round_end_if_due(round_id=first_round(idle).pk, now=at(2000 + 400))  # nobody played: counts nothing
    for who, played, wins in ((ann, 2, 1), (bob, 1, 0)):
        stats = player_stats(account_id=who.pk)
        assert (stats["rounds_played"], stats["rounds_won"], stats["games_played"]) == (played, wins, 0)
    assert_live_equals_rebuild()


def test_r37_a_tournament_is_played_once_a_table_of_the_player_was_scored():
    t = new_tournament()
    accounts = [account(f"cup-{i}") for i in range(5)]  # with their events (a rebuild has their names)
    register_all(t, accounts)
    assert tournament_tick(tournament_id=t.pk, now=t_at(10)) == "started"
    score_tables(t, 1, {a.pk: 100 * i for i, a in enumerate(accounts)}, now=t_at(20))
    tournament_tick(tournament_id=t.pk, now=t_at(21))  # the second wave
    score_tables(t, 2, {a.pk: 10 for a in accounts}, now=t_at(30))
    assert [player_stats(account_id=a.pk)["tournaments_played"] for a in accounts] == [1] * 5
    other = new_tournament(title="Second Cup")
    register_all(other, accounts[:2])
    tournament_tick(tournament_id=other.pk, now=t_at(10))
    score_tables(other, 1, {}, now=t_at(20))
    assert [player_stats(account_id=a.pk)["tournaments_played"] for a in accounts] == [2, 2, 1, 1, 1]
    assert_live_equals_rebuild()


def test_r37_a_game_counts_as_played_once_a_pair_is_removed_by_hand_or_with_a_joker():
    """Dealt and hinted: not played; the first pair (a joker's here) makes it played, once —
    further pairs, an undo and a restart do not count it again; a round's board is a round."""
    from tests.games.helpers import board_of, non_decisive_pair

    ann = account("r37-games", jokers=1)
    first = new_game(ann, "single", level=1)
    intent(first, ann, "hint", now=at(1))
    assert player_stats(account_id=ann.pk)["games_played"] == 0
    intent(first, ann, "joker", now=at(2), tile=board_of(first).free_tiles()[0])
    assert player_stats(account_id=ann.pk)["games_played"] == 1
    intent(first, ann, "remove_pair", now=at(4), tiles=list(non_decisive_pair(first)))
    intent(first, ann, "restart", now=at(5))
    intent(first, ann, "remove_pair", now=at(7), tiles=list(non_decisive_pair(first)))
    assert player_stats(account_id=ann.pk)["games_played"] == 1
    second = new_game(ann, "classic", created_s=10, code="MJ1-L08-AAAAAAD")
    assert player_stats(account_id=ann.pk)["games_played"] == 1
    intent(second, ann, "remove_pair", now=at(12), tiles=list(non_decisive_pair(second)))
    intent(second, ann, "undo", now=at(13))
    intent(second, ann, "remove_pair", now=at(14), tiles=list(non_decisive_pair(second)))
    new_game(ann, "classic", created_s=20, code="MJ1-L08-AAAAAAD")  # dealt, never played
    bob = account("r37-games-bob")
    steady(first_round(match("quick", [ann, bob], start_s=100)), ann, 2, 101)
    assert player_stats(account_id=ann.pk) | {"best_times": []} == ZERO | {"games_played": 2, "hints_used": 1}
    assert_live_equals_rebuild()


def test_r37_a_table_closed_unplayed_counts_nothing():
    """A tournament whose table was never opened before its end is closed unplayed: no
    tournament, no round, no table played (statistics and the standings' ``tables_played``); a
    player idle at an opened table played neither; one who removed a pair there played both."""
    from rivals.matches.models import Round
    from rivals.matches.services import round_end_if_due
    from tests.tournaments.helpers import tables
    from tournaments.models import Registration
    from tournaments.services.play import tournament_start

    closed = new_tournament(prize_table=[10])
    pair = [account(f"r37-closed-{i}") for i in range(2)]
    register_all(closed, pair)
    tournament_start(tournament_id=closed.pk, now=t_at(10))  # seated; its table not opened yet
    assert tournament_tick(tournament_id=closed.pk, now=t_at(71)) == "finalized"  # closed unplayed
    for a in pair:
        stats = player_stats(account_id=a.pk)
        assert (stats["tournaments_played"], stats["rounds_played"]) == (0, 0)
    assert list(Registration.objects.filter(tournament=closed).values_list("tables_played", flat=True)) == [0, 0]

    cup = new_tournament(title="Played Cup")
    ann, bob = account("r37-cup-ann"), account("r37-cup-bob")
    register_all(cup, [ann, bob])
    assert tournament_tick(tournament_id=cup.pk, now=t_at(10)) == "started"
    (table,) = tables(cup, 1)
    rnd = Round.objects.get(pk=table.round_id)
    steady(rnd, ann, 1, seconds(rnd.starts_at) + 1)  # Bob stays idle
    assert round_end_if_due(round_id=rnd.pk, now=rnd.starts_at + timedelta(seconds=30))
    got = {a: player_stats(account_id=a.pk) for a in (ann, bob)}
    assert [(got[a]["tournaments_played"], got[a]["rounds_played"]) for a in (ann, bob)] == [(1, 1), (0, 0)]
    played = dict(Registration.objects.filter(tournament=cup).values_list("account_id", "tables_played"))
    assert played == {ann.pk: 1, bob.pk: 0}
    assert_live_equals_rebuild()


def test_r37_a_player_who_has_not_played_has_zeros(api, guest):
    _, player_id = guest("stats-new")
    assert api.get(f"/api/v1/players/{player_id}").json()["stats"] == ZERO


OPS = st.lists(
    st.tuples(st.sampled_from(["start", "hint", "restart", "win", "round"]), st.integers(0, 1)),
    min_size=1,
    max_size=8,
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_t10_r37_any_play_gives_the_counted_statistics_and_live_equals_rebuild(ops):
    """Games started, hints, restarts, wins and Quick Matches of two players in any order: the
    statistics are the counts of what happened, and the projection equals its rebuild."""
    with rolled_back():
        people = [account("prop-a"), account("prop-b")]
        games: dict[int, object] = {}
        want = [
            dict.fromkeys(("games_played", "games_won", "hints_used", "rounds_played", "rounds_won"), 0) for _ in people
        ]
        clock = 0.0
        for op, who in ops:
            clock += 500
            player, mine = people[who], want[who]
            game = games.get(who)
            if op == "round":
                m = match("quick", people, start_s=clock)
                steady(first_round(m), player, 1, clock + 1)  # one pair: the other is idle (R-37: not played)
                from rivals.matches.services import round_end_if_due

                round_end_if_due(round_id=first_round(m).pk, now=at(clock + 400))
                mine["rounds_played"] += 1
                mine["rounds_won"] += 1
            elif op == "start" or game is None or game.status == "won":
                games[who] = new_game(player, "classic", created_s=clock, code="MJ1-L08-AAAAAAD")
            elif op == "hint":
                intent(game, player, "hint", now=at(clock))
                mine["hints_used"] += 1
            elif op == "restart":
                intent(game, player, "end", now=at(clock))
                games.pop(who)
            else:
                play_to_win(game, player, clock, clock + 60)
                mine["games_played"] += 1  # played at its first pair (a restart ended the others)
                mine["games_won"] += 1
            for p, w in zip(people, want, strict=True):
                got = player_stats(account_id=p.pk)
                assert {k: got[k] for k in w} == w
        assert_live_equals_rebuild()
