"""R-42: the Quick Match and Arena queues pair the closest ratings inside a window that widens with
each ticket's wait — narrow at once, anyone at 30 s — without pairing the same two accounts twice
in a row while another candidate waits; the same queue state always gives the same groups.
``rivals.matches.pairing`` is pinned on its own, then the queue's service with real tickets."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from rivals.matches import services as svc
from rivals.matches.models import Match, QueueTicket
from rivals.matches.pairing import Waiting, Window, groups
from rivals.ratings.services import ratings_update
from tests.matches.helpers import accounts, at

T0 = datetime(2026, 6, 1, 9, 0, 0, tzinfo=UTC)


def _t(name: str, mu: float, joined_s: float = 0, last: tuple[int, ...] = ()) -> Waiting:
    account = int(name[1:]) if name[1:].isdigit() else sum(map(ord, name))
    return Waiting(
        ticket=name, account=account, mu=mu, joined_at=T0 + timedelta(seconds=joined_s), last=frozenset(last)
    )


def _names(out) -> list[list[str]]:
    return [[t.ticket for t in group] for group in out]


def test_r42_the_window_widens_with_the_wait_and_is_anyone_at_30_s():
    w = Window()
    assert (w.width(0), w.width(10), w.width(29)) == (2.0, 7.0, 16.5)
    assert math.isinf(w.width(30)) and math.isinf(w.width(300))


def test_r42_the_closest_rating_inside_the_window_is_paired():
    tickets = [_t("a1", 25.0, 0), _t("b2", 30.0, 1), _t("c3", 26.5, 2), _t("d4", 24.0, 3)]
    # a1 (oldest) takes the closest: d4 (1.0) before c3 (1.5); c3 and b2 are 3.5 apart: too far at once
    assert _names(groups(tickets, size=2, now=T0 + timedelta(seconds=3))) == [["a1", "d4"]]
    # three seconds later c3's window is 2 + 0.5·4 = 4 (b2's 4.5): they are paired
    assert _names(groups(tickets, size=2, now=T0 + timedelta(seconds=6))) == [["a1", "d4"], ["b2", "c3"]]


def test_r42_a_far_ticket_waits_for_the_window_and_anyone_at_30_s():
    tickets = [_t("a1", 10.0, 0), _t("b2", 40.0, 0)]
    for waited in (0, 10, 29.9):
        assert groups(tickets, size=2, now=T0 + timedelta(seconds=waited)) == []
    assert _names(groups(tickets, size=2, now=T0 + timedelta(seconds=30))) == [["a1", "b2"]]


def test_r42_the_oldest_ticket_is_served_first_and_takes_a_newcomer_within_its_wider_window():
    old, new, near = _t("a1", 20.0, 0), _t("b2", 27.0, 10), _t("c3", 27.5, 10)
    # a1 waited 10 s: its window is 7, b2 is 7 away; b2 and c3 are closer to each other but younger
    assert _names(groups([old, new, near], size=2, now=T0 + timedelta(seconds=10))) == [["a1", "b2"]]


def test_r42_no_immediate_repeat_while_another_candidate_waits():
    a = _t("a1", 25.0, 0, last=(2,))
    b = _t("b2", 25.0, 0, last=(1,))
    c = _t("c3", 33.0, 0)
    # a1 and b2 just played each other: while c3 waits they wait too, until a window reaches c3
    assert groups([a, b, c], size=2, now=T0) == []
    assert groups([a, b, c], size=2, now=T0 + timedelta(seconds=11)) == []  # window 7.5 < 8
    assert _names(groups([a, b, c], size=2, now=T0 + timedelta(seconds=12))) == [["a1", "c3"]]
    # nobody else waits: the rematch is the only game, at once
    assert _names(groups([a, b], size=2, now=T0)) == [["a1", "b2"]]
    # a repeat named on one side only is a repeat (the other's last result was a later one)
    assert groups([a, _t("b2", 25.0, 0), c], size=2, now=T0) == []


def test_r42_an_arena_of_four_with_the_smallest_spread_the_window_allows():
    tickets = [
        _t("a1", 25.0, 0),
        _t("b2", 23.0, 1),
        _t("c3", 26.0, 1),
        _t("d4", 25.5, 1),
        _t("e5", 24.5, 1),
        _t("f6", 27.0, 1),
    ]
    # a1's window at 1 s is 2.5: every other ticket is inside; the four with the smallest spread
    # around a1's 25 are 24.5, 25, 25.5, 26 (1.5: 23 … 25.5 is 2.5, 25 … 27 is 2.0)
    assert _names(groups(tickets, size=4, now=T0 + timedelta(seconds=1))) == [["a1", "c3", "d4", "e5"]]
    # fewer than three candidates in the window: the arena waits
    assert groups([_t("a1", 25.0), _t("b2", 30.0), _t("c3", 35.0), _t("d4", 40.0)], size=4, now=T0) == []


def test_r42_an_arena_avoids_two_players_of_one_last_result_while_others_wait():
    tickets = [
        _t("a1", 25.0, 0, last=(2,)),
        _t("b2", 25.1, 0, last=(1,)),
        _t("c3", 25.2, 0),
        _t("d4", 25.3, 0),
        _t("e5", 25.4, 0),
    ]
    assert _names(groups(tickets, size=4, now=T0)) == [["a1", "c3", "d4", "e5"]]


def test_r42_the_same_queue_state_gives_the_same_groups_in_any_order():
    rng = random.Random(42)
    tickets = [_t(f"t{i}", rng.gauss(25, 8), rng.uniform(0, 40)) for i in range(300)]
    now = T0 + timedelta(seconds=45)
    for size in (2, 4):
        pinned = _names(groups(tickets, size=size, now=now))
        assert pinned and all(len(g) == size for g in pinned)
        for _ in range(3):
            shuffled = tickets[:]
            rng.shuffle(shuffled)
            assert _names(groups(shuffled, size=size, now=now)) == pinned
        taken = [name for group in pinned for name in group]
        assert len(taken) == len(set(taken))  # a ticket in one group at most


# --- the queue's service: real tickets, ratings and matches -------------------------------------------


def _strong_and_weak(strong, weak, wins: int = 12) -> None:
    for n in range(wins):
        ratings_update(
            result=f"sw-{strong.pk}-{n}", mode="duel", players=[(strong.pk, 1, False), (weak.pk, 2, False)], at=at(n)
        )


@pytest.mark.django_db
def test_r42_the_queue_pairs_close_ratings_and_the_sweep_applies_the_widened_window():
    strong, weak, other_strong, other_weak = accounts(4)
    _strong_and_weak(strong, weak)
    _strong_and_weak(other_strong, other_weak)
    t_strong, created = svc.queue_join(account=strong, mode="quick", now=at(100))
    t_weak, _ = svc.queue_join(account=weak, mode="quick", now=at(101))
    assert created and (t_strong.status, t_weak.status) == ("waiting", "waiting")  # far apart: both wait
    t_other, _ = svc.queue_join(account=other_weak, mode="quick", now=at(102))
    t_weak.refresh_from_db()
    assert t_other.status == "matched" and t_weak.match_id == t_other.match_id  # the two weak players
    assert list(Match.objects.get(pk=t_other.match_id).players.values_list("account_id", flat=True)) == [
        weak.pk,
        other_weak.pk,
    ]  # seats in the order they joined
    svc.queue_join(account=other_strong, mode="quick", now=at(103))  # strong and other strong: a match
    assert QueueTicket.objects.filter(status="waiting").count() == 0


@pytest.mark.django_db
def test_r42_a_lone_pair_far_apart_is_matched_by_the_sweep_once_it_waited_30_s():
    strong, weak = accounts(2)
    _strong_and_weak(strong, weak)
    svc.queue_join(account=strong, mode="quick", now=at(100))
    svc.queue_join(account=weak, mode="quick", now=at(101))
    assert svc.queue_pair_due(now=at(120)) == 0
    assert svc.queue_pair_due(now=at(130)) == 1  # strong's ticket waited 30 s: anyone
    assert set(QueueTicket.objects.values_list("status", flat=True)) == {"matched"}


@pytest.mark.django_db
def test_r42_the_queue_avoids_a_repeat_while_another_candidate_waits():
    a, b, c = accounts(3)
    ratings_update(result="last", mode="quick", players=[(a.pk, 1, False), (b.pk, 2, False)], at=at(0))
    svc.queue_join(account=c, mode="quick", now=at(5))
    svc.queue_join(account=a, mode="quick", now=at(11))  # c's window (5 after 6 s) reaches a: no repeat
    ticket_b, _ = svc.queue_join(account=b, mode="quick", now=at(12))
    assert ticket_b.status == "waiting"
    match = Match.objects.get()
    assert sorted(match.players.values_list("account_id", flat=True)) == sorted([a.pk, c.pk])


@pytest.mark.django_db(transaction=True)
def test_r42_concurrent_joins_leaves_and_sweeps_match_each_ticket_once():
    """Eight players with spread ratings join at the same instant, while one of them leaves and
    the beat's sweep runs: every ticket ends in one state, no account plays two matches, every
    match has its two players — and the sweep after 30 s pairs whoever still waits."""
    from rivals.models import Event
    from tests.matches.helpers import race

    players = accounts(9)
    for n, p in enumerate(players[1:]):  # eight different ratings
        ratings_update(
            result=f"spread-{n}",
            mode="duel",
            players=[(p.pk, 1 + n % 2, False), (players[0].pk, 2 - n % 2, False)],
            at=at(n),
        )
    leaver = players[1]
    early, _ = svc.queue_join(account=leaver, mode="quick", now=at(100))
    outcomes = race(
        *[lambda p=p: svc.queue_join(account=p, mode="quick", now=at(101)) for p in players[2:]],
        lambda: svc.queue_leave(account=leaver, ticket_id=early.pk, now=at(101)),
        lambda: svc.queue_pair_due(now=at(101)),
    )
    *joins, leave, sweep = outcomes
    assert all(kind == "ok" for kind, _ in [*joins, sweep]), outcomes
    early.refresh_from_db()
    # the leave won (left), or a pass matched the ticket first and the leave was refused (422)
    assert (leave[0], early.status) == ("ok", "left") or (getattr(leave[1], "code", None), early.status) == (
        "not_allowed",
        "matched",
    ), (leave, early.status)
    svc.queue_pair_due(now=at(140))
    tickets = list(QueueTicket.objects.all())
    assert [t.status for t in tickets].count("waiting") <= 1
    matched = [t for t in tickets if t.status == "matched"]
    per_match: dict = {}
    for t in matched:
        per_match.setdefault(t.match_id, []).append(t.account_id)
    assert all(len(set(accounts_)) == 2 for accounts_ in per_match.values())
    assert len({a for accounts_ in per_match.values() for a in accounts_}) == len(matched)  # nobody twice
    for t in tickets:  # one closing event per ticket, at most
        closing = Event.objects.filter(stream_id=f"queue-{t.pk}").exclude(type="QueueJoined").count()
        assert closing == (0 if t.status == "waiting" else 1)
