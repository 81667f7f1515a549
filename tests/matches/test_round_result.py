"""R-18: the round result — completion first, then score, shared places — written exactly once,
whichever of the timer task, the sweeper, a read and a final intent gets there first."""

from __future__ import annotations

import pytest

from rivals.matches import services as svc
from rivals.matches import tasks
from rivals.matches.models import Round
from rivals.models import Event
from tests.matches.helpers import (
    accounts,
    at,
    blocked_tile,
    board,
    complete,
    first_round,
    match,
    pair,
    plan,
    play,
    race,
    reload,
    round_ended_events,
)


def _results(rnd: Round) -> list[tuple]:
    return [(r["account_id"], r["place"], r["score"], r["completed"]) for r in reload(rnd).result["results"]]


@pytest.mark.django_db
def test_r18_completion_first_then_score_equal_results_share_a_place():
    a, b, c, d = accounts(4)
    rnd = first_round(match("tournament", [a, b, c, d]))
    # b and c: 3 pairs each; d: one pair and a blocked tap; a completes last of all
    for i in range(3):
        pair(rnd, b, 1 + i * 2)
        pair(rnd, c, 1.5 + i * 2)
    pair(rnd, d, 2)
    play(rnd, d, "click_blocked", 3, tile=blocked_tile(rnd, d))
    b_score, c_score = board(rnd, b).score, board(rnd, c).score
    complete(rnd, a, start_s=7, step_s=1)
    results = _results(rnd)
    assert results[0][:2] == (a.pk, 1) and results[0][3] is True
    assert b_score == c_score  # same intervals → same score → shared 2nd place, 4th next
    assert results[1:] == [(b.pk, 2, b_score, False), (c.pk, 2, c_score, False), (d.pk, 4, 0, False)]
    assert len(round_ended_events(rnd)) == 1


@pytest.mark.django_db
def test_r18_a_completed_board_beats_a_higher_score():
    """Completion first: a player who completed is first even with fewer points."""
    a, b = accounts(2)
    rnd = first_round(match("duel", [a, b]))
    t = 0.0
    for i in range(17):  # b collects speed records: ever shorter intervals, 200 each
        t += 3.0 / (i + 1)
        pair(rnd, b, t)
    b_score = board(rnd, b).score
    assert b_score >= 100 + 16 * 200 and board(rnd, b).status == "playing"  # one pair left
    complete(rnd, a, start_s=t + 0.5, step_s=1.1)
    results = _results(rnd)
    assert results[0][0] == a.pk and results[0][1] == 1 and results[1][:2] == (b.pk, 2)
    assert results[0][2] < b_score  # a completed with fewer points and is still first


@pytest.mark.django_db
def test_r18_the_timer_task_run_twice_ends_the_round_once():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b], start_s=-30))  # its idle deadline passed 10 s ago
    assert tasks.round_end_check(round_id=str(rnd.pk)) is True
    assert tasks.round_end_check(round_id=str(rnd.pk)) is False
    assert svc.rounds_end_due() == 0
    assert len(round_ended_events(rnd)) == 1


@pytest.mark.django_db
def test_r17_the_worker_down_at_the_end_the_sweeper_gives_the_result_at_the_deadline():
    """Nobody ran the task at the deadline; the sweeper ends the round 40 s later with the result
    as it stood at the deadline."""
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 2)
    pair(rnd, b, 3)
    pair(rnd, a, 4)
    assert svc.rounds_end_due(now=at(64)) == 1
    rnd = reload(rnd)
    assert (rnd.status, rnd.ended_at, rnd.end_reason) == ("ended", at(24), "idle")
    assert _results(rnd) == [(a.pk, 1, 200, False), (b.pk, 2, 100, False)]  # 2 s, then 2 s again: no record
    assert Event.objects.get(stream_id=rnd.stream_id, type="RoundEnded").metadata["via"] == "sweeper"


@pytest.mark.django_db
def test_r17_a_read_after_a_dead_worker_gives_the_same_result():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 2)
    pair(rnd, b, 3)
    rnd, _ = svc.round_read(account=b, round_id=rnd.pk, now=at(300))
    assert (rnd.ended_at, rnd.end_reason) == (at(23), "idle")
    assert _results(rnd) == [(a.pk, 1, 100, False), (b.pk, 1, 100, False)]
    assert Event.objects.get(stream_id=rnd.stream_id, type="RoundEnded").metadata["via"] == "read"


# --- real concurrent transactions -------------------------------------------------------------------


def _assert_refused(outcome) -> None:
    """An intent after the end is refused: by the end it applied itself (``refused``) or because
    another path had ended the round (``NotAllowed``)."""
    kind, value = outcome
    if kind == "ok":
        assert value.refused is not None and value.refused.code == "not_allowed" and value.events == []
    else:
        assert getattr(value, "code", None) == "not_allowed", value


@pytest.mark.django_db(transaction=True)
def test_r18_exactly_one_round_ended_when_task_sweeper_read_and_intent_race():
    for attempt in range(3):
        a, b = accounts(2, prefix=f"race{attempt}")
        rnd = first_round(match("quick", [a, b]))
        pair(rnd, a, 2)
        late = at(30)  # after the idle deadline (22 s)
        seq_b = board(rnd, b).seq
        outcomes = race(
            lambda: svc.round_end_if_due(round_id=rnd.pk, now=late, via="task"),
            lambda: svc.rounds_end_due(now=late),
            lambda: svc.round_read(account=b, round_id=rnd.pk, now=late)[0].status,
            lambda: svc.round_intent_apply(
                account=b, round_id=rnd.pk, now=late, intent={"seq": seq_b, "type": "remove_pair", "tiles": [0, 1]}
            ),
        )
        assert all(kind == "ok" for kind, _ in outcomes[:3]), outcomes
        ended_flags = [outcomes[0][1], outcomes[1][1] == 1]
        assert outcomes[2][1] == "ended"
        _assert_refused(outcomes[3])
        events = round_ended_events(rnd)
        assert len(events) == 1, f"attempt {attempt}: {len(events)} RoundEnded"
        assert events[0].data["ended_at"] == at(22).isoformat()
        assert sum(ended_flags) <= 1
        assert board(rnd, b).score == 0


@pytest.mark.django_db(transaction=True)
def test_r17_a_final_pair_racing_the_timeout_is_either_in_the_result_or_refused():
    for attempt in range(4):
        a, b = accounts(2, prefix=f"final{attempt}")
        rnd = first_round(match("duel", [a, b]))
        steps = plan(rnd, a)
        for i, p in enumerate(steps[:-1]):
            play(rnd, a, "remove_pair", 1 + i, tiles=list(p))
        last_at = 1 + len(steps) - 2
        deadline = at(last_at + 20)
        seq = board(rnd, a).seq
        outcomes = race(
            lambda: svc.round_intent_apply(
                account=a,
                round_id=rnd.pk,
                now=at(last_at + 19.999),
                intent={"seq": seq, "type": "remove_pair", "tiles": list(steps[-1])},
            ),
            lambda: svc.round_end_if_due(round_id=rnd.pk, now=deadline, via="task"),
        )
        assert outcomes[1][0] == "ok", outcomes
        ended_by_timer = outcomes[1][1]
        events = round_ended_events(rnd)
        assert len(events) == 1
        result = events[0].data
        if ended_by_timer:  # the timer came first: the pair is refused, the round ended idle
            _assert_refused(outcomes[0])
            assert result["reason"] == "idle" and result["results"][0]["completed"] is False
        else:  # the pair came first: it completed the board and ended the round
            intent = outcomes[0][1]
            assert intent.refused is None and intent.game.status == "won"
            assert result["reason"] == "completed" and result["results"][0]["completed"] is True
