"""R-17: the round clock belongs to the server — the four end conditions, intents outside the
round's time (R-38), what rounds refuse (T-12, R-9), and the every-player-stuck decision."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rivals.errors import Conflict, NotAllowed, NotFound
from rivals.matches import services as svc
from rivals.matches.models import Round
from tests.matches.helpers import (
    accounts,
    at,
    blocked_tile,
    board,
    complete,
    first_round,
    match,
    pair,
    play,
    reload,
)

pytestmark = pytest.mark.django_db


def test_r17_first_completion_ends_the_round_at_once():
    a, b = accounts(2)
    rnd = first_round(match("duel", [a, b]))
    pair(rnd, b, 1)
    result = complete(rnd, a, start_s=2, step_s=1)
    rnd = reload(rnd)
    assert rnd.status == "ended" and rnd.end_reason == "completed"
    assert rnd.ended_at == at(2 + 17)  # the 18th pair of the Diamond, 1 s apart
    assert result.game.status == "won" and board(rnd, b).status == "ended"
    places = {r["account_id"]: r["place"] for r in rnd.result["results"]}
    assert places == {a.pk: 1, b.pk: 2}
    with pytest.raises(NotAllowed):
        pair(rnd, b, 20)


def test_r17_five_minutes_end_the_round():
    a, b = accounts(2)
    rnd = first_round(match("duel", [a, b]))
    for t in range(10, 300, 15):  # a pair every 15 s keeps the round alive…
        player = a if (t // 15) % 2 else b
        if board(rnd, player).present_mask.bit_count() > 4:
            pair(rnd, player, t)
    assert not svc.round_end_if_due(round_id=rnd.pk, now=at(299.999))
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(300))  # …but not past 5 minutes
    rnd = reload(rnd)
    assert (rnd.end_reason, rnd.ended_at) == ("time_limit", at(300))


def test_r17_twenty_seconds_without_a_pair_end_the_round():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    assert reload(rnd).ends_at == at(20)  # nobody has removed a pair: 20 s from the start
    pair(rnd, a, 7)
    play(rnd, b, "click_blocked", 26, tile=blocked_tile(rnd, b))  # a blocked tap is not a pair
    assert reload(rnd).ends_at == at(27)
    assert not svc.round_end_if_due(round_id=rnd.pk, now=at(26.999))
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(27))
    rnd = reload(rnd)
    assert (rnd.end_reason, rnd.ended_at) == ("idle", at(27))


def test_r17_twenty_seconds_without_any_pair_from_the_start():
    a, b = accounts(2)
    rnd = first_round(match("duel", [a, b]))
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(20))
    rnd = reload(rnd)
    assert rnd.end_reason == "idle"
    assert [r["score"] for r in rnd.result["results"]] == [0, 0]
    assert [r["place"] for r in rnd.result["results"]] == [1, 1]


def test_r17_the_tournament_end_time_cuts_the_round():
    a, b, c = accounts(3)
    rnd = first_round(match("tournament", [a, b, c], cutoff_at=at(12)))
    assert reload(rnd).ends_at == at(12)
    pair(rnd, a, 5)
    assert reload(rnd).ends_at == at(12)  # a pair never moves the deadline past the cutoff
    result = play(rnd, b, "remove_pair", 12.5, tiles=[0, 1])
    assert result.refused is not None and result.refused.code == "not_allowed"
    rnd = reload(rnd)
    assert (rnd.end_reason, rnd.ended_at) == ("cutoff", at(12))
    assert [(r["account_id"], r["place"], r["score"]) for r in rnd.result["results"]] == [
        (a.pk, 1, 100),
        (b.pk, 2, 0),
        (c.pk, 2, 0),
    ]


def test_r17_a_read_applies_a_due_end_before_answering():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 4)
    rnd, _ = svc.round_read(account=b, round_id=rnd.pk, now=at(24))
    assert rnd.status == "ended" and rnd.end_reason == "idle" and rnd.ended_at == at(24)


def test_r38_an_intent_after_the_end_ends_the_round_and_is_refused():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 4)
    result = pair(rnd, b, 24.5)  # 0.5 s after the idle deadline
    assert result.refused.code == "not_allowed" and result.events == []
    rnd = reload(rnd)
    assert rnd.status == "ended" and rnd.ended_at == at(24)
    assert board(rnd, b).score == 0  # the late pair was not applied
    with pytest.raises(NotAllowed, match="over"):  # and afterwards: the round is over
        pair(rnd, b, 25)


def test_rounds_refuse_pause_undo_hint_shuffle_restart_and_end():
    a, b = accounts(2, jokers=5)
    rnd = first_round(match("arena", [a, b, *accounts(2, prefix="q")]))
    for kind in ("pause", "resume", "undo", "hint", "shuffle", "restart", "end"):
        with pytest.raises(NotAllowed):
            play(rnd, a, kind, 1)
    assert board(rnd, a).seq == 0


def test_round_intent_errors_not_a_player_stale_seq_before_the_start():
    a, b, stranger = accounts(3)
    m = match("duel", [a, b], start_s=0, starts_at=at(10))
    rnd = first_round(m)
    with pytest.raises(NotFound):
        svc.round_intent_apply(account=stranger, round_id=rnd.pk, intent={"seq": 0, "type": "remove_pair"}, now=at(11))
    with pytest.raises(NotFound):
        svc.round_read(account=stranger, round_id=rnd.pk, now=at(11))
    with pytest.raises(NotAllowed, match="not started"):
        pair(rnd, a, 5)
    assert rnd.shown_status(at(5)) == "scheduled" and rnd.shown_status(at(10)) == "running"
    pair(rnd, a, 11)
    with pytest.raises(Conflict) as exc:
        svc.round_intent_apply(
            account=a, round_id=rnd.pk, intent={"seq": 0, "type": "click_blocked", "tile": 0}, now=at(12)
        )
    assert exc.value.details == {"seq": 1}


def test_r17_a_player_who_never_calls_never_blocks_the_others():
    a, b = accounts(2)
    rnd = first_round(match("duel", [a, b]))
    for i in range(5):  # a plays on; b never calls again
        pair(rnd, a, 3 + i * 10)
    assert reload(rnd).status == "running"
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(63))
    rnd = reload(rnd)
    assert rnd.result["results"][0] == {
        "account_id": a.pk,
        "place": 1,
        "score": rnd.result["results"][0]["score"],
        "completed": False,
        "pairs_left": 13,
        "pairs_removed": 5,
    }
    assert rnd.result["results"][1]["score"] == 0 and board(rnd, b).status == "ended"


def test_r17_decision_every_player_stuck_ends_the_round_at_once():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    _make_stuck(rnd, a, 1)
    assert reload(rnd).status == "running"  # b can still play
    last = _make_stuck(rnd, b, 2)
    rnd = reload(rnd)
    assert rnd.status == "ended" and rnd.end_reason == "all_stuck" and rnd.ended_at < at(3)
    assert rnd.ended_at == last.now  # at the pair that left the last board stuck
    # the pair that left the last board stuck answers with the end (issue 35: ended after its commit)
    assert (last.round.status, last.game.status, last.round.ended_at) == ("ended", "ended", rnd.ended_at)


def test_r17_decision_a_stuck_player_with_a_joker_keeps_the_round_open():
    a, b = accounts(2)
    (c,) = accounts(1, jokers=1, prefix="j")
    rnd = first_round(match("duel", [a, c]))
    _make_stuck(rnd, a, 1)
    _make_stuck(rnd, c, 2)
    assert reload(rnd).status == "running"  # c may still use a joker


def _make_stuck(rnd: Round, acc, t: float):
    """Remove pairs that lead to a stuck board (seeded random playouts on the engine's board);
    returns the last pair's result."""
    import random

    from rivals.games.services import game_board

    start = game_board(board(rnd, acc))
    rng = random.Random(7)
    for _ in range(5000):
        b, path = start.copy(), []
        while pairs := b.removable_pairs():
            p = rng.choice(pairs)
            b.remove(*p)
            path.append(p)
        if not pairs and b.present:
            break
    else:
        raise AssertionError("no stuck position reached")
    for i, p in enumerate(path):
        result = play(rnd, acc, "remove_pair", t + i * 0.01, tiles=list(p))
    assert board(rnd, acc).status in ("stuck", "ended")  # ended: the last one stuck ended the round
    return result


def test_r17_deadline_is_the_earliest_of_the_three():
    a, b = accounts(2)
    rnd = first_round(match("tournament", [a, b], cutoff_at=at(400)))
    for t in range(9, 300, 9):  # 33 pairs, alternating: the round is never idle for 20 s
        pair(rnd, a if (t // 9) % 2 else b, t)
    rnd = reload(rnd)
    assert rnd.deadline() == (at(300), "time_limit") and rnd.ends_at == at(300)
    assert rnd.hard_ends_at - rnd.starts_at == timedelta(minutes=5)
