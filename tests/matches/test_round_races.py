"""Issue 35: the players of a round share no lock on a pair — R-17's idle deadline comes from the
boards' own last pairs — and the round still ends exactly once, whoever races whom."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection, transaction

from rivals.errors import OutsideRoundTime
from rivals.games.models import Game
from rivals.matches import services as svc
from rivals.matches.models import Round
from rivals.romanian_time import iso_z
from tests.matches.helpers import accounts, at, board, first_round, match, pair, plan, play, race, reload
from tests.matches.helpers import round_ended_events as ended_events
from tests.statements import statements_sent


def _pair_body(rnd: Round, acc, k: int = 0) -> dict:
    return {"seq": board(rnd, acc).seq, "type": "remove_pair", "tiles": list(plan(rnd, acc)[k])}


@contextlib.contextmanager
def _held_elsewhere(rnd: Round, **boards):
    """While the body runs, another transaction holds the round's row and its boards (those of
    ``boards``' filter, e.g. ``account=a``; every one by default) locked, and a statement of the
    body that waits 3 s for a lock fails."""
    held, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Round.objects.select_for_update().get(pk=rnd.pk)
                list(Game.objects.select_for_update().filter(round_id=rnd.pk, **boards))
                held.set()
                release.wait(20)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '3s'")
        yield
    finally:
        release.set()
        holder.join(20)
        with connection.cursor() as cur:
            cur.execute("RESET lock_timeout")


def _refusal(outcome):
    """None for an accepted intent; else the refusal — the end it applied itself (``refused``), or
    the one another path had recorded (raised)."""
    kind, value = outcome
    if kind == "error":
        assert isinstance(value, OutsideRoundTime), value
        return value
    return value.refused


@pytest.mark.django_db(transaction=True)
def test_r17_four_players_pairing_at_once_are_all_accepted_and_the_last_pair_sets_the_deadline():
    for attempt in range(3):
        players = accounts(4, prefix=f"four{attempt}")
        rnd = first_round(match("tournament", players))
        bodies = [_pair_body(rnd, p) for p in players]
        times = [at(5), at(5.25), at(5.5), at(5.75)]
        outcomes = race(
            *[
                (
                    lambda p=p, body=body, t=t, r=rnd.pk: svc.round_intent_apply(
                        account=p, round_id=r, intent=body, now=t
                    )
                )
                for p, body, t in zip(players, bodies, times, strict=True)
            ]
        )
        assert all(kind == "ok" and value.refused is None for kind, value in outcomes), outcomes
        assert [board(rnd, p).seq for p in players] == [1, 1, 1, 1]
        clock = reload(rnd)
        assert clock.status == "running" and clock.last_pair_at == at(5.75)
        assert clock.deadline() == (at(25.75), "idle") and clock.ends_at == at(25.75)  # the latest + 20 s
        assert not svc.round_end_if_due(round_id=rnd.pk, now=at(25.7), via="task")
        assert svc.round_end_if_due(round_id=rnd.pk, now=at(26), via="task")
        (event,) = ended_events(rnd)
        assert (event.data["reason"], event.data["ended_at"]) == ("idle", at(25.75).isoformat())
        assert all(row["pairs_removed"] == 1 for row in event.data["results"])


@pytest.mark.django_db(transaction=True)
def test_r17_a_pair_waits_for_no_other_players_lock():
    """While another transaction holds the round's row and a rival's board (a rival's pair in
    flight, an end being decided), a player's pair still goes through: it locks its own board only."""
    a, b = accounts(2, prefix="nolock")
    rnd = first_round(match("quick", [a, b]))
    body = _pair_body(rnd, b)
    with _held_elsewhere(rnd, account=a):  # a wait for either lock fails the pair
        result = svc.round_intent_apply(account=b, round_id=rnd.pk, intent=body, now=at(4))
        assert result.refused is None and result.game.seq == 1
        assert result.round.ends_at == at(24)  # its answer tells the deadline its pair moved
    assert reload(rnd).ends_at == at(24)


@pytest.mark.django_db(transaction=True)
def test_r38_an_intent_after_the_end_is_refused_from_its_read_waiting_for_no_lock():
    """A round ended (final, committed): a late player's intent is refused with R-38's figures from
    the pair's one read — it waits for no lock, not even its own board's, held here by another."""
    a, b = accounts(2, prefix="late")
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 2)
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(23), via="task")  # idle at 22 s
    body = _pair_body(rnd, b)
    with _held_elsewhere(rnd), pytest.raises(OutsideRoundTime) as refused:  # every board: b's too
        svc.round_intent_apply(account=b, round_id=rnd.pk, intent=body, now=at(24.5))
    mine = board(rnd, b)
    assert refused.value.details == {
        "status": "ended",
        "ended_at": iso_z(at(22)),
        "late_ms": 2500,
        "round": str(rnd.pk),
        "game_id": str(mine.pk),
    }
    assert mine.seq == 0 and len(ended_events(rnd)) == 1


@pytest.mark.django_db(transaction=True)
def test_r17_a_pair_arriving_as_the_idle_deadline_passes_either_moves_it_or_is_refused():
    for attempt in range(4):
        a, b = accounts(2, prefix=f"edge{attempt}")
        rnd = first_round(match("quick", [a, b]))
        pair(rnd, a, 2)  # the idle deadline: 22 s
        body = _pair_body(rnd, b)
        outcomes = race(
            lambda b=b, r=rnd.pk, body=body: svc.round_intent_apply(account=b, round_id=r, intent=body, now=at(21.5)),
            lambda r=rnd.pk: svc.round_end_if_due(round_id=r, now=at(22), via="task"),
            lambda: svc.rounds_end_due(now=at(22)),
        )
        assert all(kind == "ok" for kind, _ in outcomes[1:]), outcomes
        refused = _refusal(outcomes[0])
        (_, by_task), (_, by_sweeper) = outcomes[1:]
        events = ended_events(rnd)
        if refused is None:  # the pair came first: the deadline moved, nothing ended
            assert not by_task and by_sweeper == 0 and events == []
            assert reload(rnd).ends_at == at(41.5) and board(rnd, b).seq == 1
        else:  # the end came first: idle at 22 s, the pair refused and not in the result
            assert isinstance(refused, OutsideRoundTime)
            assert len(events) == 1 and events[0].data["ended_at"] == at(22).isoformat()
            assert events[0].data["reason"] == "idle" and board(rnd, b).seq == 0


@pytest.mark.django_db
def test_r17_a_pair_at_the_idle_deadline_itself_ends_the_round_and_is_refused():
    a, b = accounts(2, prefix="at")
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 2)
    result = svc.round_intent_apply(account=b, round_id=rnd.pk, intent=_pair_body(rnd, b), now=at(22))
    assert isinstance(result.refused, OutsideRoundTime) and result.refused.details["late_ms"] == 0
    (event,) = ended_events(rnd)
    assert (event.data["reason"], event.data["ended_at"]) == ("idle", at(22).isoformat())


@pytest.mark.django_db(transaction=True)
def test_r17_the_first_finish_racing_the_five_minute_end_ends_the_round_once():
    for attempt in range(3):
        a, b = accounts(2, prefix=f"five{attempt}")
        rnd = first_round(match("tournament", [a, b]))
        steps = plan(rnd, a)
        times = [10 + i * 17 for i in range(len(steps) - 1)]  # never idle for 20 s
        for t, p in zip(times, steps[:-1], strict=True):
            play(rnd, a, "remove_pair", t, tiles=list(p))
        assert reload(rnd).deadline() == (at(300), "time_limit")
        seq = board(rnd, a).seq
        last = {"seq": seq, "type": "remove_pair", "tiles": list(steps[-1])}
        outcomes = race(
            lambda a=a, r=rnd.pk, last=last: svc.round_intent_apply(account=a, round_id=r, intent=last, now=at(299.5)),
            lambda r=rnd.pk: svc.round_end_if_due(round_id=r, now=at(300), via="task"),
            lambda: svc.rounds_end_due(now=at(300)),
        )
        assert all(kind == "ok" for kind, _ in outcomes[1:]), outcomes
        refused = _refusal(outcomes[0])
        (_, by_task), (_, by_sweeper) = outcomes[1:]
        (event,) = ended_events(rnd)
        if refused is None:  # the completion came first
            assert board(rnd, a).status == "won" and not by_task and by_sweeper == 0
            assert (event.data["reason"], event.data["ended_at"]) == ("completed", at(299.5).isoformat())
        else:  # the 5 minutes came first
            assert isinstance(refused, OutsideRoundTime) and int(by_task) + by_sweeper == 1
            assert (event.data["reason"], event.data["ended_at"]) == ("time_limit", at(300).isoformat())
            assert board(rnd, a).status == "ended"


@pytest.mark.django_db
def test_r17_the_timer_task_rearms_at_the_deadline_the_boards_moved_it_to(monkeypatch):
    from rivals.matches import tasks

    sent = []
    monkeypatch.setattr(tasks, "task_send", lambda task, eta, **kw: sent.append((eta, kw)))
    a, b = accounts(2, prefix="rearm")
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 3)
    pair(rnd, b, 7.5)
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(20))  # the task's first run
    assert tasks.round_end_check(round_id=str(rnd.pk)) is False
    assert sent == [(at(27.5), {"round_id": str(rnd.pk)})]
    assert Round.objects.get(pk=rnd.pk).ends_at == at(20)  # the row is never written by a pair
    assert svc.rounds_end_due(now=at(27.4)) == 0 and svc.rounds_end_due(now=at(27.5)) == 1
    ended = reload(rnd)  # idle: 20 s after the last pair (7.5 s)
    assert ended.ended_at == at(27.5) and ended.end_reason == "idle"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode, size", [("quick", 2), ("arena", 4)])
def test_queue_joins_at_once_without_a_queue_lock_make_one_match_of_every_ticket(mode, size):
    """No lock is held across the queue (issue 35): joins at once each commit their ticket and run
    a pass of their own; the last pass sees every ticket, two passes never take one ticket."""
    from rivals.matches.models import QueueTicket

    for attempt in range(3):
        players = accounts(size, prefix=f"q{mode}{attempt}")
        outcomes = race(*[(lambda p=p: svc.queue_join(account=p, mode=mode)) for p in players])
        assert all(kind == "ok" for kind, _ in outcomes), outcomes
        tickets = QueueTicket.objects.filter(account__in=players)
        assert tickets.count() == size and {t.status for t in tickets} == {"matched"}
        assert len({t.match_id for t in tickets}) == 1
        match_ = tickets[0].match
        assert sorted(match_.players.values_list("account_id", flat=True)) == sorted(p.pk for p in players)


@pytest.mark.django_db
def test_r17_a_round_pair_sends_its_read_and_its_append_only():
    """Issue 35: a pair that cannot end the round is one read (the round, the caller's board
    locked, the other boards' latest pair) and one append (its projections ride in the append's
    statement)."""
    a, b = accounts(2, prefix="count")
    rnd = first_round(match("quick", [a, b]))
    body = _pair_body(rnd, b)
    with statements_sent() as sent:
        result = svc.round_intent_apply(account=b, round_id=rnd.pk, intent=body, now=at(4))
    assert result.refused is None and result.game.seq == 1
    assert len(sent) == 2, sent
    assert sent[0].startswith("WITH r AS") and sent[1].startswith("WITH RECURSIVE v")


@pytest.mark.django_db
def test_r17_a_pair_answers_the_deadline_of_the_latest_pair_of_any_player():
    """R-17: the idle deadline runs from the latest pair of any player. A pair reads its own board
    alone (issue 35) and the others' latest pair as an instant: a rival's later pair still sets the
    deadline the pair's answer tells (the rival at 10 s, this player at 8 s: 10 + 20 = 30 s)."""
    a, b = accounts(2, prefix="latest")
    rnd = first_round(match("quick", [a, b]))
    first = svc.round_intent_apply(account=a, round_id=rnd.pk, intent=_pair_body(rnd, a), now=at(10))
    assert first.refused is None and first.round.ends_at == at(30)
    late = svc.round_intent_apply(account=b, round_id=rnd.pk, intent=_pair_body(rnd, b), now=at(8))
    assert late.refused is None and late.game.seq == 1
    assert late.round.last_pair_at == at(10) and late.round.ends_at == at(30)
    again = svc.round_intent_apply(account=b, round_id=rnd.pk, intent=_pair_body(rnd, b, 1), now=at(12))
    assert again.round.last_pair_at == at(12) and again.round.ends_at == at(32)  # now its own pair is the latest


@pytest.mark.django_db
def test_r17_a_round_end_writes_its_match_players_and_statistics_with_its_appends():
    """Issue 35: the pair that ends a Quick Match (R-17: the first completion) writes the players'
    totals and places, the match's standings and the round counters (R-37) inside the appends'
    own statements — none is a statement of its own — and they are what R-12 and R-18 say."""
    from rivals.matches.models import Match, MatchPlayer
    from rivals.statistics.models import PlayerStats

    a, b = accounts(2, prefix="endw")
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, b, 1)  # b played: not idle (R-18a)
    steps = plan(rnd, a)
    for k, p in enumerate(steps[:-1]):
        play(rnd, a, "remove_pair", 2 + k, tiles=list(p))
    with statements_sent() as sent:
        last = play(rnd, a, "remove_pair", 2 + len(steps) - 1, tiles=list(steps[-1]))
    assert last.refused is None and reload(rnd).status == "ended"
    alone = [
        q for q in sent if q.startswith(("UPDATE matches_player", "UPDATE matches_match", "INSERT INTO statistics"))
    ]
    assert alone == [], alone
    finished = Match.objects.get(pk=rnd.match_id)
    assert finished.status == "finished"
    players = {p.account_id: p for p in MatchPlayer.objects.filter(match_id=rnd.match_id)}
    scores = {r["account_id"]: r["score"] for r in reload(rnd).result["results"]}
    assert scores[a.pk] >= 100 * len(steps) and scores[b.pk] >= 100  # 100 a pair, at least
    # the winner who completed the board earns 20, the loser 0; the totals are the round's
    assert (players[a.pk].place, players[a.pk].prize, players[a.pk].total_score) == (1, 20, scores[a.pk])
    assert (players[b.pk].place, players[b.pk].prize, players[b.pk].total_score) == (2, 0, scores[b.pk])
    assert [s["account_id"] for s in finished.standings] == [a.pk, b.pk]
    stats = {s.account_id: s for s in PlayerStats.objects.filter(account_id__in=[a.pk, b.pk])}
    assert (stats[a.pk].rounds_played, stats[a.pk].rounds_won) == (1, 1)
    assert (stats[b.pk].rounds_played, stats[b.pk].rounds_won) == (1, 0)
