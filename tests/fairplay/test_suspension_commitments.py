"""R-38 decision: a suspension (or a closure) reaches commitments made before it — waiting queue
tickets and pending duels end at once (events with the reason), the account is not seated in
later waves and receives no prize, trophy or points while suspended; and a suspended account
starts no solo game, no Sichuan table and claims no daily bonus (403 ``forbidden``)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from rivals.accounts.services import account_close
from rivals.errors import NotAllowed
from rivals.fairplay.services import account_suspend
from rivals.matches import services as svc
from rivals.matches.models import Duel, QueueTicket
from rivals.models import Account, Event
from rivals.points.models import PointsLedgerEntry
from tests.matches.helpers import accounts, at, first_round, match, reload, steady
from tests.tournaments.helpers import at as t_at
from tests.tournaments.helpers import new_tournament, players, register_all, score_tables, seat_ids, tables
from tournaments.services.play import tournament_start, tournament_tick

pytestmark = pytest.mark.django_db


def _commitments(a, b, c):
    """A waiting Quick Match ticket of A, A's challenge to B and C's challenge to A."""
    ticket, _ = svc.queue_join(account=a, mode="quick", now=at(0))
    mine, _ = svc.duel_challenge(account=a, opponent=b.pk, now=at(1))
    theirs, _ = svc.duel_challenge(account=c, opponent=a.pk, now=at(2))
    return ticket, mine, theirs


@pytest.mark.parametrize(
    ("restrict", "reason"),
    [
        (lambda a: account_suspend(account=a, reason="bot play", actor="operator:1"), "account_suspended"),
        (lambda a: account_close(account=a, reason="asked to", actor="operator:1"), "account_closed"),
    ],
)
def test_r38_a_suspension_or_closure_ends_waiting_tickets_and_pending_duels_with_the_reason(restrict, reason):
    a, b, c = accounts(3)
    ticket, mine, theirs = _commitments(a, b, c)
    restrict(a)
    ticket.refresh_from_db()
    assert ticket.status == "left"
    (left,) = Event.objects.filter(stream_id=f"queue-{ticket.pk}", type="QueueLeft")
    assert left.data["reason"] == reason and left.metadata["actor"] == "system"
    for duel in (mine, theirs):
        duel.refresh_from_db()
        assert duel.status == "cancelled"
        (ended,) = Event.objects.filter(stream_id=f"duel-{duel.pk}", type="DuelDeclined")
        assert ended.data == {"duel_id": str(duel.pk), "by": "system", "reason": reason}
    with pytest.raises(NotAllowed, match="cancelled"):  # B can no longer accept A's challenge
        svc.duel_accept(account=b, duel_id=mine.pk, now=at(3))
    # B's join finds nobody waiting: A's ticket is gone
    ticket_b, _ = svc.queue_join(account=b, mode="quick", now=at(4))
    assert ticket_b.status == "waiting"


def test_r38_commitments_that_predate_the_rule_are_never_matched_nor_accepted():
    """A ticket or a challenge left over from before suspensions ended them (the account row says
    suspended, the commitment is still open): pairing skips the ticket, accepting is refused."""
    a, b, c = accounts(3)
    ticket, mine, _ = _commitments(a, b, c)
    Account.objects.filter(pk=a.pk).update(suspended_at=timezone.now())  # as an older release left it
    ticket_b, _ = svc.queue_join(account=b, mode="quick", now=at(5))
    ticket.refresh_from_db()
    assert (ticket.status, ticket_b.status) == ("waiting", "waiting")
    with pytest.raises(NotAllowed, match="challenger can no longer play"):
        svc.duel_accept(account=b, duel_id=mine.pk, now=at(6))
    with pytest.raises(NotAllowed, match="suspended"):
        svc.duel_challenge(account=c, opponent=a.pk, now=at(7))
    assert Duel.objects.get(pk=mine.pk).status == "pending"
    assert QueueTicket.objects.filter(account=b, status="waiting").exists()


def test_r38_a_player_suspended_during_a_quick_match_earns_no_points():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    steady(rnd, a, 3, start_s=1)  # A leads 300 to 0
    account_suspend(account=a, reason="bot play", actor="operator:1")
    assert svc.round_end_if_due(round_id=rnd.pk, now=at(60))
    m = reload(rnd).match
    assert [(s["account_id"], s["place"]) for s in m.standings] == [(a.pk, 1), (b.pk, 2)]
    assert [p["points"] for p in m.prizes] == [0, 0]  # A's 15 not paid, nor passed on to B
    assert not PointsLedgerEntry.objects.exists()


def test_r38_a_suspended_account_is_not_seated_in_later_waves():
    t = new_tournament(multipliers=[1, 2])
    accounts_ = players(5)
    register_all(t, accounts_)
    assert tournament_start(tournament_id=t.pk, now=t_at(10)) == "started"
    score_tables(t, 1, {x.pk: 100 * i for i, x in enumerate(accounts_)})
    suspended = accounts_[4]  # the leader
    account_suspend(account=suspended, reason="bot play", actor="operator:1")
    assert tournament_tick(tournament_id=t.pk, now=t_at(20)) == "seated"
    seated = {a for table in tables(t, 2) for a in seat_ids(table)}
    assert seated == {x.pk for x in accounts_[:4]}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/games", {"mode": "classic"}),
        ("/api/v1/games", {"mode": "single", "level": 1}),
        ("/api/v1/sichuan", {}),
        ("/api/v1/daily-bonus/claim", None),
        ("/api/v1/daily-bonus/double", None),
    ],
)
def test_r38_a_suspended_account_starts_no_game_no_sichuan_table_and_claims_no_bonus(guest, path, body):
    client, account_id = guest("suspended-device")
    account_suspend(account=Account.objects.get(pk=account_id), reason="bot play", actor="operator:1")
    res = client.post(path, body, format="json")
    assert res.status_code == 403 and res.json()["error"]["code"] == "forbidden", res.content
    assert not Event.objects.filter(stream_type__in=("game", "sichuan", "points")).exists()
    assert client.get("/api/v1/sichuan").status_code == 200  # reading stays open
