"""R-19 Duel (a challenge, one round, no ranking points) and R-9 jokers in rounds."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rivals.errors import Invalid, LimitReached, NoJokers, NotAllowed, NotFound
from rivals.matches import services as svc
from rivals.matches import tasks
from rivals.matches.models import Duel, Match
from rivals.models import Event
from rivals.points.models import PointsLedgerEntry
from tests.matches.helpers import accounts, at, board, complete, first_round, match, play, reload, seconds, steady

pytestmark = pytest.mark.django_db


def test_r19_a_challenge_accepted_is_one_round_recorded_and_shown_without_points():
    a, b = accounts(2)
    duel, created = svc.duel_challenge(account=a, opponent=b.pk, now=at(0))
    assert created and duel.status == "pending" and duel.expires_at == at(0) + timedelta(minutes=10)
    again, created_again = svc.duel_challenge(account=a, opponent=b.pk, now=at(1))
    assert again.pk == duel.pk and not created_again
    duel = svc.duel_accept(account=b, duel_id=duel.pk, now=at(2))
    assert duel.status == "accepted" and duel.match is not None
    m = duel.match
    assert m.mode == "duel" and m.rounds.count() == 1
    rnd = first_round(m)
    complete(rnd, b, start_s=3, step_s=1)
    m.refresh_from_db()
    assert m.status == "finished"
    assert [(s["account_id"], s["place"]) for s in m.standings] == [(b.pk, 1), (a.pk, 2)]
    assert m.prizes == [] and PointsLedgerEntry.objects.count() == 0  # no ranking points
    from rivals.matches.selectors import duel_view

    shown = duel_view(Duel.objects.get(pk=duel.pk))
    assert shown["result"]["winner"]["id"] == b.pk and shown["match"] == str(m.pk)


def test_r19_decline_withdraw_and_who_may_accept():
    a, b, c = accounts(3)
    d1, _ = svc.duel_challenge(account=a, opponent=b.pk, now=at(0))
    with pytest.raises(NotAllowed, match="only the challenged"):
        svc.duel_accept(account=a, duel_id=d1.pk, now=at(1))
    with pytest.raises(NotFound):
        svc.duel_accept(account=c, duel_id=d1.pk, now=at(1))
    assert svc.duel_decline(account=b, duel_id=d1.pk, now=at(2)).status == "declined"
    with pytest.raises(NotAllowed):
        svc.duel_accept(account=b, duel_id=d1.pk, now=at(3))
    d2, _ = svc.duel_challenge(account=a, opponent=b.pk, now=at(4))
    assert svc.duel_decline(account=a, duel_id=d2.pk, now=at(5)).status == "cancelled"
    assert Match.objects.count() == 0


def test_r19_bad_challenges():
    (a,) = accounts(1)
    with pytest.raises(NotAllowed):
        svc.duel_challenge(account=a, opponent=a.pk)
    with pytest.raises(NotFound):
        svc.duel_challenge(account=a, opponent=999_999)
    with pytest.raises(Invalid):
        svc.duel_challenge(account=a, opponent="2")


def test_r19_challenges_expire_on_read_by_task_and_by_the_sweeper():
    a, b, c, d = accounts(4)
    d1, _ = svc.duel_challenge(account=a, opponent=b.pk, now=at(0))
    d2, _ = svc.duel_challenge(account=a, opponent=c.pk, now=at(0))
    d3, _ = svc.duel_challenge(account=a, opponent=d.pk, now=at(0))
    assert svc.duel_read(account=b, duel_id=d1.pk, now=at(600)).status == "expired"
    with pytest.raises(NotAllowed, match="expired"):
        svc.duel_accept(account=c, duel_id=d2.pk, now=at(601))  # the act sees the expiry first
    assert tasks.duel_expire(duel_id=str(d3.pk)) is True
    # the refused accept wrote nothing (a refusal never writes): the sweeper records d2's expiry
    assert svc.duels_expire_due(now=at(700)) == 1
    assert set(Duel.objects.values_list("status", flat=True)) == {"expired"}
    assert Event.objects.filter(type="DuelExpired").count() == 3


def test_r9_jokers_in_a_round_spend_the_balance_at_most_two():
    a, b = accounts(2, jokers=3)
    rnd = first_round(match("duel", [a, b]))
    for t in (1, 2):
        result = play(rnd, a, "joker", t, tile=_free_tile(rnd, a))
        assert result.events[0].type == "JokerUsed" and result.events[0].data["points"] == 0
    a.refresh_from_db()
    assert a.jokers == 1 and board(rnd, a).jokers_used == 2
    assert Event.objects.filter(stream_id=f"account-{a.pk}", type="JokersChanged", data__delta=-1).count() == 2
    with pytest.raises(LimitReached):
        play(rnd, a, "joker", 3, tile=_free_tile(rnd, a))
    assert reload(rnd).last_pair_at == at(2)  # a joker pair keeps the round alive


def test_r14_a_joker_first_then_a_hand_pair_at_8_s_sets_the_record_to_3_s():
    """EXAMPLES.md R-14 (with R-9), in a round: a joker at 5.0 s scores 0 and sets no record; the
    first hand pair at 8.0 s has an interval of 3.0 s (from the joker): record 3.0, 100 points; a
    pair 6.0 s later is not shorter: 100 (not 200)."""
    a, b = accounts(2, jokers=1)
    rnd = first_round(match("duel", [a, b]))
    start = seconds(rnd.starts_at)
    joker = play(rnd, a, "joker", start + 5.0, tile=_free_tile(rnd, a))
    assert joker.events[0].type == "JokerUsed" and joker.events[0].data["points"] == 0
    game = board(rnd, a)
    assert (game.score, game.record_ms, game.last_pair_ms) == (0, None, 5000)
    steady(rnd, a, 1, start + 8.0)  # a pair neither decisive nor losing: its R-14 worth
    game = board(rnd, a)
    assert (game.score, game.record_ms, game.last_pair_ms) == (100, 3000, 8000)
    steady(rnd, a, 1, start + 14.0)
    game = board(rnd, a)
    assert (game.score, game.record_ms) == (200, 3000)  # 6.0 s is not shorter than 3.0 s: 100, not 200
    pairs = Event.objects.filter(stream_id=game.stream_id, type="PairRemoved").order_by("version")
    assert [(e.data["points"], e.data["record_ms"]) for e in pairs] == [(100, 3000), (100, 3000)]


def test_r9_with_an_empty_balance_the_joker_is_refused():
    a, b = accounts(2)
    rnd = first_round(match("arena", [a, b, *accounts(2, prefix="z")]))
    with pytest.raises(NoJokers):
        play(rnd, a, "joker", 1, tile=_free_tile(rnd, a))
    assert board(rnd, a).seq == 0


def _free_tile(rnd, acc) -> int:
    from rivals.games.services import game_board

    b = game_board(board(rnd, acc))
    return next(x for x in range(b.layout.size) if (b.present >> x) & 1 and b.is_free(x))
