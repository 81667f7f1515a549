"""Round scoring (R-13…R-16), jokers (R-8…R-10) and Pool scoring (P-1…P-4), exact numbers."""

from __future__ import annotations

import pytest

from rivals import engine
from rivals.engine import scoring
from rivals.errors import LimitReached, NoJokers, NotAllowed
from rivals.games import services as svc
from rivals.games.models import Game
from rivals.models import Account, Event
from tests.games.helpers import (
    account,
    at,
    board_of,
    intent,
    new_game,
    non_decisive_pair,
)


def blocked_tile(game: Game) -> int:
    board = svc.game_board(game)
    free = set(board.free_tiles())
    return next(i for i in range(board.layout.size) if (board.present >> i) & 1 and i not in free)


# --- R-13 … R-16 ---------------------------------------------------------------------------------


def test_r13_r14_r15_pair_score_function():
    first = scoring.rivals_pair_score(interval_ms=6000, record_ms=None, decisive=False)
    assert (first.points, first.record_ms) == (100, 6000)  # R-13; R-14 the first pair sets the record
    faster = scoring.rivals_pair_score(interval_ms=4000, record_ms=6000, decisive=False)
    assert (faster.points, faster.record_ms, faster.is_record) == (200, 4000, True)
    equal = scoring.rivals_pair_score(interval_ms=4000, record_ms=4000, decisive=False)
    assert (equal.points, equal.record_ms) == (100, 4000)  # equal is not shorter
    decisive_record = scoring.rivals_pair_score(interval_ms=3000, record_ms=4000, decisive=True)
    assert (decisive_record.points, decisive_record.record_ms) == (300, 3000)  # 300, record still moves
    assert scoring.rivals_pair_score(interval_ms=9000, record_ms=4000, decisive=True).points == 300


@pytest.mark.django_db
def test_r14_worked_example_speed_record_within_one_round():
    """EXAMPLES.md R-14 table: 100, 300, 400, 600, 500, 700, 800."""
    acc = account("p")
    game = new_game(acc, level=1, created_s=0)
    expected = [(6.0, 100, 6000), (10.0, 300, 4000), (15.0, 400, 4000), (18.5, 600, 3500)]
    for t, score, record in expected:
        intent(game, acc, "remove_pair", now=at(t), tiles=list(non_decisive_pair(game)))
        game.refresh_from_db()
        assert (game.score, game.record_ms) == (score, record), t
    intent(game, acc, "click_blocked", now=at(20.0), tile=blocked_tile(game))
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (500, 3500)
    intent(game, acc, "remove_pair", now=at(21.9), tiles=list(non_decisive_pair(game)))
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (700, 3400)  # 3.4 < 3.5: a blocked tap does not restart it
    intent(game, acc, "remove_pair", now=at(25.3), tiles=list(non_decisive_pair(game)))
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (800, 3400)  # 3.4 = 3.4 is not shorter


@pytest.mark.django_db
def test_r15_final_pair_is_decisive_and_worth_300():
    from tests.games.helpers import plan_of

    acc = account("p")
    game = new_game(acc, level=1, created_s=0)
    pairs = plan_of(game)
    for i, pair in enumerate(pairs[:-1], start=1):
        intent(game, acc, "remove_pair", now=at(10 * i), tiles=list(pair))
    game.refresh_from_db()
    before = game.score
    result = intent(game, acc, "remove_pair", now=at(10 * len(pairs) + 500), tiles=list(pairs[-1]))
    pair_event = result.events[0]
    assert pair_event.type == "PairRemoved" and pair_event.data["decisive"] is True
    assert pair_event.data["points"] == 300
    assert result.game.score == before + 300
    assert [e.type for e in result.events] == ["PairRemoved", "GameWon"]


@pytest.mark.django_db
def test_r16_blocked_click_subtracts_100_and_scores_may_be_negative():
    acc = account("p")
    game = new_game(acc, level=1)
    intent(game, acc, "click_blocked", now=at(1), tile=blocked_tile(game))
    intent(game, acc, "click_blocked", now=at(2), tile=blocked_tile(game))
    game.refresh_from_db()
    assert game.score == -200
    classic = new_game(acc, "classic", code=game.code)
    intent(classic, acc, "click_blocked", now=at(3), tile=blocked_tile(classic))
    classic.refresh_from_db()
    assert classic.score == 0  # classic has no score


# --- jokers R-8 … R-10 ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_r8_r9_joker_balance_limit_and_refusals():
    acc = account("j", jokers=3)
    game = new_game(acc, level=1)
    board = svc.game_board(game)
    with pytest.raises(NotAllowed):  # naming a blocked tile is refused, free of cost
        intent(game, acc, "joker", now=at(1), tile=blocked_tile(game))
    acc.refresh_from_db()
    assert acc.jokers == 3
    lifted = board.free_tiles()[0]
    result = intent(game, acc, "joker", now=at(2), tile=lifted)
    a, b = result.events[0].data["tiles"]
    assert a == lifted and engine.faces_match(board.faces[a], board.faces[b], "rivals")
    assert result.events[0].data["points"] == 0  # a joker pair scores 0
    assert result.game.score == 0 and result.game.jokers_used == 1
    acc.refresh_from_db()
    assert acc.jokers == 2  # balance 3 → 2, as a JokersChanged event
    assert Event.objects.filter(stream_id=f"account-{acc.pk}", type="JokersChanged", data__delta=-1).count() == 1
    intent(game, acc, "joker", now=at(3), tile=board_of(game).free_tiles()[0])
    with pytest.raises(LimitReached):  # a third joker in one game
        intent(game, acc, "joker", now=at(4), tile=board_of(game).free_tiles()[0])
    acc.refresh_from_db()
    assert acc.jokers == 1


@pytest.mark.django_db
def test_r9_empty_balance_is_no_jokers_and_nothing_changes():
    acc = account("z", jokers=0)
    game = new_game(acc, level=1)
    version = game.version
    with pytest.raises(NoJokers):
        intent(game, acc, "joker", now=at(1), tile=board_of(game).free_tiles()[0])
    game.refresh_from_db()
    assert game.version == version and game.jokers_used == 0


@pytest.mark.django_db
def test_r8_joker_partner_leaves_the_board_solvable():
    acc = account("j", jokers=1)
    game = new_game(acc, level=1)
    tile = board_of(game).free_tiles()[-1]
    result = intent(game, acc, "joker", now=at(1), tile=tile)
    assert engine.solve(svc.game_board(result.game)).solvable


@pytest.mark.django_db
def test_r9_joker_pair_restarts_the_interval_and_keeps_the_record():
    acc = account("j", jokers=1)
    game = new_game(acc, level=1, created_s=0)
    intent(game, acc, "remove_pair", now=at(5.0), tiles=list(non_decisive_pair(game)))  # record 5.0
    free = board_of(game).free_tiles()
    intent(game, acc, "joker", now=at(20.0), tile=free[0])
    game.refresh_from_db()
    assert (game.score, game.record_ms, game.last_pair_ms) == (100, 5000, 20000)
    intent(game, acc, "remove_pair", now=at(24.0), tiles=list(non_decisive_pair(game)))  # 4.0 < 5.0
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (300, 4000)


@pytest.mark.django_db
def test_r14_a_joker_first_then_the_first_hand_pair_sets_the_record_from_the_joker():
    """EXAMPLES.md R-14: joker at 5.0 s (0 points, no record), first hand pair at 8.0 s → interval
    3.0 (from the joker), record 3.0, 100 points; a pair 6.0 s later is not shorter → 100."""
    acc = account("j", jokers=1)
    game = new_game(acc, level=1, created_s=0)
    result = intent(game, acc, "joker", now=at(5.0), tile=board_of(game).free_tiles()[0])
    assert result.events[0].data["points"] == 0
    game.refresh_from_db()
    assert (game.score, game.record_ms, game.last_pair_ms) == (0, None, 5000)
    intent(game, acc, "remove_pair", now=at(8.0), tiles=list(non_decisive_pair(game)))
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (100, 3000)
    intent(game, acc, "remove_pair", now=at(14.0), tiles=list(non_decisive_pair(game)))
    game.refresh_from_db()
    assert (game.score, game.record_ms) == (200, 3000)  # 100, not 200


@pytest.mark.django_db
def test_r9_jokers_are_refused_outside_single_player():
    acc = account("j", jokers=2)
    game = new_game(acc, "classic")
    with pytest.raises(NotAllowed):
        intent(game, acc, "joker", now=at(1), tile=board_of(game).free_tiles()[0])


@pytest.mark.django_db
def test_r10_restart_does_not_refund_jokers():
    acc = account("r", jokers=2)
    game = new_game(acc, level=1)
    intent(game, acc, "joker", now=at(1), tile=board_of(game).free_tiles()[0])
    result = intent(game, acc, "restart", now=at(2))
    assert [e.type for e in result.events] == ["GameRestarted"] and result.game.status == "playing"
    game.refresh_from_db()
    full = sum(1 << i for i, face in enumerate(game.initial_faces) if face is not None)
    assert game.present_mask == full and game.removed == [] and game.score == 0
    assert game.jokers_used == 1  # still counts against the game's limit of 2
    assert Account.objects.get(pk=acc.pk).jokers == 1  # not refunded


# --- Pool P-1 … P-4 ---------------------------------------------------------------------------------


def test_p1_p2_set_values_times_pairs_on_the_table():
    assert scoring.pool_pair_points("3B", "3B", 72) == 216  # bamboo 3 × 72
    assert scoring.pool_pair_points("F1", "S3", 72) == 504  # flower + season: the higher, 7 × 72
    assert scoring.pool_pair_points("F1", "F4", 72) == 432  # two flowers 6 × 72
    assert scoring.pool_pair_points("7C", "7C", 72) == 72  # characters 1
    assert scoring.pool_pair_points("2D", "2D", 10) == 20  # dots 2
    assert scoring.pool_pair_points("N", "N", 1) == 4  # winds 4
    assert scoring.pool_pair_points("Wh", "Wh", 2) == 10  # dragons 5
    assert engine.faces_match("F1", "S3", "pool") and not engine.faces_match("F1", "S3", "classic")  # T-3


def _pool_game_with_free(acc, want):
    """A pool deal whose start has a removable pair of faces satisfying ``want``."""
    for n in range(200):
        code = engine.format_code("L00", n)
        game = new_game(acc, "pool_practice", code=code)
        board = svc.game_board(game)
        for a, b in board.removable_pairs():
            if want(board.faces[a], board.faces[b]):
                return game, (a, b)
    raise AssertionError("no such deal in the first 200")


@pytest.mark.django_db
def test_p2_first_removals_score_216_504_432_through_the_service():
    acc = account("pool")
    cases = [
        (lambda a, b: a.endswith("B") and len(a) == 2 and a[0].isdigit(), 216),
        (lambda a, b: {a[0], b[0]} == {"F", "S"} and a[1:].isdigit() and b[1:].isdigit(), 504),
        (lambda a, b: a.startswith("F") and b.startswith("F"), 432),
    ]
    for want, points in cases:
        game, pair = _pool_game_with_free(acc, want)
        result = intent(game, acc, "remove_pair", now=at(1), tiles=list(pair))
        assert result.events[0].data["points"] == points
        assert result.game.score == points


@pytest.mark.django_db
def test_p3_hint_costs_360_then_355_and_a_sixth_is_refused():
    acc = account("pool")
    game = new_game(acc, "pool_practice", code="MJ1-L00-AAAAAAA")
    r = intent(game, acc, "hint", now=at(1))
    assert r.events[0].data["cost"] == -360 and r.game.score == -360  # 5 × 72
    a, b = r.events[0].data["tiles"]
    board = svc.game_board(game)
    best = max(scoring.pool_set_value(board.faces[x]) for pair in board.removable_pairs() for x in pair)
    assert scoring.pool_set_value(board.faces[a]) == best  # the free pair of highest value
    intent(game, acc, "remove_pair", now=at(2), tiles=[a, b])
    r = intent(game, acc, "hint", now=at(3))
    assert r.events[0].data["cost"] == -355  # 5 × 71
    for t in range(4, 7):
        intent(game, acc, "hint", now=at(t))
    with pytest.raises(LimitReached):
        intent(game, acc, "hint", now=at(8))
    game.refresh_from_db()
    assert game.hints_used == 5


@pytest.mark.django_db
def test_p3_undo_costs_5_per_pair_and_reverts_the_pair():
    acc = account("pool")
    game = new_game(acc, "pool_practice", code="MJ1-L00-AAAAAAA")
    pair = svc.game_board(game).removable_pairs()[0]
    before = game.present_mask
    r = intent(game, acc, "remove_pair", now=at(1), tiles=list(pair))
    gained = r.events[0].data["points"]
    r = intent(game, acc, "undo", now=at(2))
    assert r.events[0].data["cost"] == -355  # 71 pairs on the table when used
    assert r.game.score == gained - gained - 355
    assert r.game.present_mask == before  # the pair is back


@pytest.mark.django_db
def test_p4_pool_game_ends_when_its_server_time_runs_out():
    acc = account("pool")
    game = new_game(acc, "pool_practice", created_s=0)
    assert game.time_limit_ms == 600_000  # 10 minutes by default
    idle = new_game(acc, "pool_practice", created_s=0)
    result = intent(game, acc, "hint", now=at(601))  # the intent is refused, the end is recorded
    assert isinstance(result.refused, NotAllowed) and [e.type for e in result.events] == ["GameEnded"]
    game.refresh_from_db()
    assert game.status == "ended" and game.elapsed_before_ms == 600_000 and game.hints_used == 0
    assert svc.games_expire_due(now=at(599)) == 0
    assert svc.games_expire_due(now=at(601)) == 1  # the beat job ends the game whose client went away
    idle.refresh_from_db()
    assert idle.status == "ended" and idle.elapsed_before_ms == 600_000
    assert svc.games_expire_due(now=at(700)) == 0  # idempotent


@pytest.mark.django_db
def test_p4_pool_practice_has_no_pause_and_has_restart_and_end():
    acc = account("pool")
    game = new_game(acc, "pool_practice")
    with pytest.raises(NotAllowed):
        intent(game, acc, "pause", now=at(1))
    intent(game, acc, "restart", now=at(2))
    r = intent(game, acc, "end", now=at(3))
    assert r.game.status == "ended"


@pytest.mark.django_db
def test_r38_pairs_faster_than_the_human_minimum_are_refused_and_recorded(settings, guest):
    from rivals.games.models import RejectedIntent

    settings.RIVALS = {**settings.RIVALS, "MIN_PAIR_INTERVAL_MS": 150}
    acc = account("bot")
    game = new_game(acc, level=1, created_s=0)
    intent(game, acc, "remove_pair", now=at(1.0), tiles=list(non_decisive_pair(game)))
    with pytest.raises(NotAllowed, match="R-38"):
        intent(game, acc, "remove_pair", now=at(1.1), tiles=list(non_decisive_pair(game)))
    intent(game, acc, "remove_pair", now=at(1.2), tiles=list(non_decisive_pair(game)))  # 200 ms: human
    client, _ = guest("bot2")
    gid = client.post("/api/v1/games", {"mode": "classic"}, format="json").json()["id"]
    board = svc.game_board(Game.objects.get(pk=gid))
    pairs = board.removable_pairs()
    client.post(
        f"/api/v1/games/{gid}/intents", {"seq": 0, "type": "remove_pair", "tiles": list(pairs[0])}, format="json"
    )
    second = next(p for p in svc.game_board(Game.objects.get(pk=gid)).removable_pairs())
    res = client.post(
        f"/api/v1/games/{gid}/intents", {"seq": 1, "type": "remove_pair", "tiles": list(second)}, format="json"
    )
    assert res.status_code == 422 and "R-38" in res.json()["error"]["message"]
    assert RejectedIntent.objects.filter(target=gid, code="not_allowed").exists()


def test_r12_quick_match_points_worked_examples():
    """EXAMPLES.md R-12: only the winner earns, 20 if completed, else 15; ties and zeros earn 0."""
    assert scoring.quick_match_points([(True, 1800), (False, 1400)]) == [20, 0]  # A completes
    assert scoring.quick_match_points([(False, 900), (False, 700)]) == [15, 0]
    assert scoring.quick_match_points([(False, 700), (False, 900)]) == [0, 15]
    assert scoring.quick_match_points([(False, 900), (False, 900)]) == [0, 0]  # tie: both 0
    assert scoring.quick_match_points([(False, 0), (False, 0)]) == [0, 0]  # nobody
    assert scoring.quick_match_points([(False, 0), (False, -100)]) == [15, 0]  # not every score is 0


def test_r12_r18a_idle_players_earn_no_quick_match_points():
    """EXAMPLES.md R-12: A 0 (no pair), B −100 (no pair, one blocked tap) → nobody; A 0 after one
    pair and one blocked tap, B −100 idle → A 15."""
    assert scoring.quick_match_points([(False, 0), (False, -100)], [False, False]) == [0, 0]
    assert scoring.quick_match_points([(False, 0), (False, -100)], [True, False]) == [15, 0]
    assert scoring.quick_match_points([(False, 900), (False, 700)], [True, True]) == [15, 0]


def test_r12_a_completed_board_is_not_every_score_zero():
    """R-12 decision (shared with R-24): A completes with a score of 0 (many blocked taps), B 0 idle → A 20."""
    assert scoring.nobody_earns([(True, 0), (False, 0)]) is False
    assert scoring.nobody_earns([(False, 0), (False, 0)]) is True
    assert scoring.quick_match_points([(True, 0), (False, 0)], [True, False]) == [20, 0]
