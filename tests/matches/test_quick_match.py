"""R-12 Quick Match: the queue pairs two players; one round; only the winner earns points —
20 completed, 15 not, 0 on tied top scores, nobody when every score is 0 — exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rivals.errors import Invalid, NotAllowed, NotFound
from rivals.matches import services as svc
from rivals.matches import tasks
from rivals.matches.models import Match, QueueTicket
from rivals.models import Event
from rivals.points.models import PointsLedgerEntry
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
    steady,
)
from tests.statements import statements_sent

pytestmark = pytest.mark.django_db


def _points(*players) -> list[int]:
    return [
        sum(PointsLedgerEntry.objects.filter(account=p, source="quick_match").values_list("amount", flat=True))
        for p in players
    ]


def test_r12_the_winner_completed_20_the_loser_0():
    a, b = accounts(2)
    m = match("quick", [a, b])
    rnd = first_round(m)
    steady(rnd, b, 14, start_s=1, step_s=1)
    assert board(rnd, b).score == 1400
    complete(rnd, a, start_s=15.5, step_s=1)
    m.refresh_from_db()
    assert m.status == "finished"
    assert _points(a, b) == [20, 0]
    assert [(p["account_id"], p["points"]) for p in m.prizes] == [(a.pk, 20), (b.pk, 0)]
    entry = PointsLedgerEntry.objects.get(account=a, source="quick_match")
    assert entry.counts is True and entry.award_key == f"quick_match:{m.pk}:{a.pk}"


def test_r12_nobody_completed_the_higher_score_earns_15():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    steady(rnd, a, 9, start_s=1)
    steady(rnd, b, 7, start_s=1.5)
    assert (board(rnd, a).score, board(rnd, b).score) == (900, 700)
    svc.round_end_if_due(round_id=rnd.pk, now=at(60))
    assert _points(a, b) == [15, 0]


def test_r12_tied_top_scores_earn_nobody_anything():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    steady(rnd, a, 9, start_s=1)
    steady(rnd, b, 9, start_s=1.5)
    assert board(rnd, a).score == board(rnd, b).score == 900
    svc.round_end_if_due(round_id=rnd.pk, now=at(60))
    assert _points(a, b) == [0, 0]
    assert PointsLedgerEntry.objects.count() == 0


def test_r12_every_score_zero_nobody_earns():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    svc.round_end_if_due(round_id=rnd.pk, now=at(20))
    m = Match.objects.get(pk=rnd.match_id)
    assert [p["points"] for p in m.prizes] == [0, 0] and PointsLedgerEntry.objects.count() == 0


def test_r12_r18a_a_negative_score_loses_to_zero_but_an_idle_winner_earns_nothing():
    """0 against −100 is not "every score 0": the 0 wins 15 — if it removed a pair (R-18a)."""
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 1)  # +100
    play(rnd, a, "click_blocked", 2, tile=blocked_tile(rnd, a))  # −100: A's score is 0
    play(rnd, b, "click_blocked", 3, tile=blocked_tile(rnd, b))  # B −100, idle
    svc.round_end_if_due(round_id=rnd.pk, now=at(30))
    assert [r["score"] for r in reload(rnd).result["results"]] == [0, -100]
    assert _points(a, b) == [15, 0]
    c, d = accounts(2, prefix="q")
    rnd = first_round(match("quick", [c, d]))
    play(rnd, d, "click_blocked", 1, tile=blocked_tile(rnd, d))  # C 0 idle, D −100 idle
    svc.round_end_if_due(round_id=rnd.pk, now=at(30))
    assert _points(c, d) == [0, 0]  # R-18a: nobody


def test_r12_points_are_awarded_exactly_once():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    steady(rnd, a, 2, start_s=1)
    for _ in range(3):
        svc.round_end_if_due(round_id=rnd.pk, now=at(60))
        tasks.round_end_check(round_id=str(rnd.pk))
        svc.rounds_end_due(now=at(61))
    assert _points(a, b) == [15, 0]
    assert Event.objects.filter(type="PointsAwarded").count() == 1


def test_r12_the_winner_s_award_writes_its_ledger_row_and_notification_in_its_append():
    """Issue 35: R-12's 20 points to the winner. The ledger's row and the ``prize_awarded``
    notification name the award's position, which only the INSERT gives: the award's append writes
    both in its own statement (the position read from the INSERT's rows), no round trip after it;
    the ranking boards, which read their own rows first, follow it. The award key's lock and its
    read are one round trip, as are the ranking clock's lock and its read."""
    from rivals.live.models import Notification

    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    with statements_sent() as sent:
        complete(rnd, a, start_s=1)
    assert _points(a, b) == [20, 0]
    award = [q for q in sent if q.startswith("WITH RECURSIVE v") and "INSERT INTO rivals_points_ledger" in q]
    assert len(award) == 1 and "INSERT INTO live_notification" in award[0]
    assert not [q for q in sent if q.startswith(("INSERT INTO rivals_points_ledger", "INSERT INTO live_notification"))]
    locks = [q for q in sent if q.startswith("SELECT pg_advisory_xact_lock")]
    assert any("FROM rivals_points_ledger WHERE award_key" in q for q in locks)
    assert any("FROM rankings_rankingclock" in q for q in locks)
    assert all(";" in q for q in locks if "hashtext" in q or "_shared" in q)
    (event,) = Event.objects.filter(type="PointsAwarded")
    entry = PointsLedgerEntry.objects.get(award_key=event.data["key"])
    assert entry.event_position == event.position and entry.account_id == a.pk and entry.amount == 20
    told = Notification.objects.get(position=event.position)
    assert told.account_id == a.pk and told.type == "prize_awarded" and told.data["amount"] == 20


def test_r9_no_jokers_in_quick_match():
    a, b = accounts(2, jokers=3)
    rnd = first_round(match("quick", [a, b]))
    with pytest.raises(NotAllowed):
        play(rnd, a, "joker", 1, tile=0)
    a.refresh_from_db()
    assert a.jokers == 3


# --- the queue ---------------------------------------------------------------------------------------


def test_queue_the_join_that_completes_a_pair_matches_at_once_first_come_first_served():
    a, b, c = accounts(3)
    ta, created = svc.queue_join(account=a, mode="quick", now=at(0))
    assert created and ta.status == "waiting" and ta.match_id is None
    tb, _ = svc.queue_join(account=b, mode="quick", now=at(1))
    tc, _ = svc.queue_join(account=c, mode="quick", now=at(2))
    ta.refresh_from_db()
    assert ta.status == tb.status == "matched" and ta.match_id == tb.match_id
    assert tc.status == "waiting"
    m = Match.objects.get(pk=ta.match_id)
    assert list(m.players.order_by("seat").values_list("account_id", flat=True)) == [a.pk, b.pk]
    assert m.mode == "quick" and m.rounds.count() == 1


def test_queue_a_match_found_rides_in_its_queue_matched_append():
    """Issue 35: a ``match_found`` names its ``QueueMatched``'s position, which only the INSERT
    gives: the pairing join writes it in that append's own statement (the position read from the
    INSERT's rows), with the ticket's row — one statement per ticket, no round trip after it."""
    from rivals.live.models import Notification

    a, b = accounts(2)
    svc.queue_join(account=a, mode="quick", now=at(0))
    with statements_sent() as sent:
        tb, _ = svc.queue_join(account=b, mode="quick", now=at(1))
    assert tb.status == "matched"
    appends = [q for q in sent if q.startswith("WITH RECURSIVE v")]
    told = [q for q in appends if "INSERT INTO live_notification" in q and "UPDATE matches_queue_ticket" in q]
    assert len(told) == 2  # the two tickets' appends, each with its notification and its row
    assert not [q for q in sent if q.startswith("UPDATE matches_queue_ticket")]
    # the one notification statement of its own: the new match's (its round_started), in bulk
    assert len([q for q in sent if q.startswith("INSERT INTO live_notification")]) == 1
    events = Event.objects.filter(type="QueueMatched", data__match_id=str(tb.match_id))
    assert events.count() == 2
    for event in events:
        row = Notification.objects.get(position=event.position, type="match_found")
        assert row.account_id == event.data["account_id"] and row.at == event.recorded_at
        assert row.data == {"ticket_id": event.data["ticket_id"], "match_id": str(tb.match_id)}


def test_queue_a_join_s_ticket_is_written_by_its_queue_joined_append():
    """Issue 35: the new ticket's row is inserted by its ``QueueJoined``'s own statement, not by a
    statement of its own before it; the join answers the ticket as written, and it reads back the
    same."""
    (a,) = accounts(1)
    with statements_sent() as sent:
        ticket, created = svc.queue_join(account=a, mode="quick", now=at(0))
    assert created and ticket.status == "waiting" and not ticket._state.adding
    assert not [q for q in sent if q.startswith("INSERT INTO matches_queue_ticket")]
    (append,) = [q for q in sent if q.startswith("WITH RECURSIVE v")]
    assert "INSERT INTO matches_queue_ticket" in append
    stored = QueueTicket.objects.get(pk=ticket.pk)
    assert (stored.account_id, stored.mode, stored.status, stored.version) == (a.pk, "quick", "waiting", 1)
    assert stored.created_at == at(0) and stored.expires_at == ticket.expires_at and stored.match_id is None


def test_queue_joining_twice_returns_the_live_ticket():
    a, b = accounts(2)
    t1, created1 = svc.queue_join(account=a, mode="quick", now=at(0))
    t2, created2 = svc.queue_join(account=a, mode="arena", now=at(1))
    assert (created1, created2) == (True, False) and t1.pk == t2.pk
    svc.queue_join(account=b, mode="quick", now=at(2))
    t3, created3 = svc.queue_join(account=a, mode="quick", now=at(3))  # matched, match running
    assert not created3 and t3.pk == t1.pk and t3.status == "matched"
    assert QueueTicket.objects.filter(account=a).count() == 1


def test_queue_leave_and_leaving_after_being_matched():
    a, b, c = accounts(3)
    ta, _ = svc.queue_join(account=a, mode="quick", now=at(0))
    left = svc.queue_leave(account=a, ticket_id=ta.pk, now=at(1))
    assert left.status == "left"
    assert svc.queue_leave(account=a, ticket_id=ta.pk, now=at(2)).status == "left"  # twice: a no-op
    tb, _ = svc.queue_join(account=b, mode="quick", now=at(3))
    tc, _ = svc.queue_join(account=c, mode="quick", now=at(4))
    assert tc.status == "matched"  # b and c, not a who left
    with pytest.raises(NotAllowed) as exc:
        svc.queue_leave(account=b, ticket_id=tb.pk, now=at(5))
    assert exc.value.details == {"match": str(tc.match_id)}
    with pytest.raises(NotFound):
        svc.queue_leave(account=a, ticket_id=tb.pk, now=at(5))  # another account's ticket


def test_queue_tickets_expire_three_ways_and_are_never_matched_after():
    a, b, c, d = accounts(4)
    ttl = timedelta(seconds=120)
    ta, _ = svc.queue_join(account=a, mode="quick", now=at(0))
    assert ta.expires_at == at(0) + ttl
    tb, _ = svc.queue_join(account=b, mode="arena", now=at(0))
    tc, _ = svc.queue_join(account=c, mode="arena", now=at(1))
    # read: the owner's poll applies the expiry
    assert svc.queue_ticket_read(account=a, ticket_id=ta.pk, now=at(120)).status == "expired"
    # the task at the expiry instant
    assert tasks.queue_ticket_expire(ticket_id=str(tb.pk)) is True  # real clock: long past
    # the sweeper
    assert svc.queue_expire_due(now=at(500)) == 1
    assert QueueTicket.objects.get(pk=tc.pk).status == "expired"
    # a new join does not pair with an expired ticket
    td, _ = svc.queue_join(account=d, mode="quick", now=at(130))
    assert td.status == "waiting"


def test_queue_unknown_mode_is_invalid():
    (a,) = accounts(1)
    with pytest.raises(Invalid):
        svc.queue_join(account=a, mode="duel")
