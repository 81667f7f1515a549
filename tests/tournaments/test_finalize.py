"""R-26 final places and prizes, R-27/R-29 trophies — exactly once, under concurrency and crashes."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from rankings.selectors import account_points
from rivals.accounts.selectors import account_profile
from rivals.errors import NotAllowed
from rivals.models import Event
from rivals.points.models import PointsLedgerEntry
from tests.tournaments.helpers import at, new_tournament, players, register_all, score_tables
from tournaments.models import Registration, Tournament, Trophy
from tournaments.services import finalize
from tournaments.services.play import tournament_start, tournament_tick
from tournaments.services.registration import tournament_register

pytestmark = pytest.mark.django_db


def played(n=4, *, scores=None, **kw):
    """A tournament of n players whose only wave ended with ``scores`` (index → score)."""
    t = new_tournament(**kw)
    accounts = players(n, prefix=kw.get("title", "p")[:1].lower() + "p")
    register_all(t, accounts)
    tournament_start(tournament_id=t.pk, now=at(10))
    score_tables(t, 1, {accounts[i].pk: s for i, s in (scores or {}).items()})
    return Tournament.objects.get(pk=t.pk), accounts


def prizes(t):
    return dict(
        PointsLedgerEntry.objects.filter(source="tournament_prize", ref__tournament_id=str(t.pk)).values_list(
            "account_id", "amount"
        )
    )


def test_r26_prizes_by_total_tp_are_points_awarded_once_after_the_end():
    t, (a, b, c, d) = played(4, scores={0: 300, 1: 900, 2: 600, 3: 0}, prize_table=[100, 50, 25])
    assert not finalize.tournament_finalize(tournament_id=t.pk, now=at(69))  # not before the end
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    assert prizes(t) == {b.pk: 100, c.pk: 50, a.pk: 25}
    entry = PointsLedgerEntry.objects.get(account=b, source="tournament_prize")
    assert entry.counts and entry.awarded_at == t.ends_at and entry.award_key == f"tournament_prize:{t.pk}:{b.pk}"
    assert [(r.account_id, r.place, r.prize) for r in Registration.objects.filter(tournament=t).order_by("place")] == [
        (b.pk, 1, 100),
        (c.pk, 2, 50),
        (a.pk, 3, 25),
        (d.pk, 4, 0),
    ]
    assert account_points(account_id=b.pk)["amr"] == 100  # final prizes count in the rankings
    assert not Event.objects.filter(type="PointsAwarded", data__source="tournament_points").exists()
    assert not finalize.tournament_finalize(tournament_id=t.pk, now=at(71))  # a second run does nothing
    assert PointsLedgerEntry.objects.filter(source="tournament_prize").count() == 3
    with pytest.raises(NotAllowed, match="finished"):  # registering for a finished tournament
        tournament_register(tournament_id=t.pk, account=players(1, prefix="late")[0], now=at(72))


def test_r26_equal_tp_earlier_registration_then_lower_account_id():
    t = new_tournament(prize_table=[100, 50, 25, 10])
    a, b, c, d = players(4)
    tournament_register(tournament_id=t.pk, account=a, now=at(1, 5))  # A at 10:00:05
    tournament_register(tournament_id=t.pk, account=b, now=at(1, 1))  # B at 10:00:01
    tournament_register(tournament_id=t.pk, account=d, now=at(2))  # d and c at the same instant
    tournament_register(tournament_id=t.pk, account=c, now=at(2))
    tournament_start(tournament_id=t.pk, now=at(10))
    # everyone equal at the table: 4 players at 500 share (30+20+10+0)/4 = 15 TP each
    score_tables(t, 1, {x.pk: 500 for x in (a, b, c, d)})
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    order = list(Registration.objects.filter(tournament=t).order_by("place").values_list("account_id", "tp"))
    low, high = sorted([c.pk, d.pk])
    assert order == [(b.pk, 15), (a.pk, 15), (low, 15), (high, 15)]


def test_r27_the_winner_gets_the_cup_and_it_shows_on_the_profile():
    t, accounts = played(2, scores={1: 500}, title="Spring Cup")
    tournament_tick(tournament_id=t.pk, now=at(70))
    trophy = Trophy.objects.get(tournament=t)
    assert (trophy.account_id, trophy.kind, trophy.title) == (accounts[1].pk, "cup", "Spring Cup")
    profile = account_profile(account=accounts[1])
    assert [(x["kind"], x["title"]) for x in profile["trophies"]] == [("cup", "Spring Cup")]
    assert account_profile(account=accounts[0])["trophies"] == []


def test_r29_each_champions_win_adds_one_counted_copy():
    from rivals.points.services import points_award

    winner = None
    for k in range(2):
        t = new_tournament(kind="champions", title=f"Champions {k}", prize_table=[300])
        accounts = players(16, prefix=f"c{k}-")
        if winner is None:
            winner = accounts[0]
        accounts[0] = winner
        for i, acc in enumerate(accounts):
            points_award(account=acc, amount=200, source="tournament_prize", key=f"test:{k}:{i}", at=at(0))
        register_all(t, accounts)
        tournament_start(tournament_id=t.pk, now=at(10))
        score_tables(t, 1, {winner.pk: 2000})
        assert tournament_tick(tournament_id=t.pk, now=at(70)) == "finalized"
    assert Trophy.objects.filter(account=winner, kind="champions").count() == 2
    (entry,) = account_profile(account=winner)["trophies"]
    assert (entry["kind"], entry["count"]) == ("champions", 2)


def test_r26_a_worker_dying_half_way_leaves_nothing_and_the_rerun_completes_once(monkeypatch):
    t, accounts = played(4, scores={0: 400, 1: 300, 2: 200, 3: 100}, prize_table=[100, 50, 25])
    real = finalize.points_award
    calls = {"n": 0}

    def dies_after_the_first_award(**kw):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("worker lost")
        return real(**kw)

    monkeypatch.setattr(finalize, "points_award", dies_after_the_first_award)
    with pytest.raises(RuntimeError):
        finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    t.refresh_from_db()
    assert t.status == "running" and not prizes(t) and not Trophy.objects.filter(tournament=t).exists()
    assert not Event.objects.filter(stream_id=t.stream_id, type="TournamentFinalized").exists()
    monkeypatch.setattr(finalize, "points_award", real)
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(71))
    assert prizes(t) == {accounts[0].pk: 100, accounts[1].pk: 50, accounts[2].pk: 25}
    assert Event.objects.filter(stream_id=t.stream_id, type="TournamentFinalized").count() == 1


@pytest.mark.django_db(transaction=True)
def test_r26_two_workers_finalizing_at_the_same_moment_give_one_set_of_prizes():
    t, accounts = played(4, scores={0: 400, 1: 300, 2: 200, 3: 100}, prize_table=[100, 50, 25])
    barrier = threading.Barrier(2)
    outcomes, errors = [], []

    def worker():
        try:
            barrier.wait(timeout=10)
            outcomes.append(finalize.tournament_finalize(tournament_id=t.pk, now=at(70)))
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors and sorted(outcomes) == [False, True]
    assert prizes(t) == {accounts[0].pk: 100, accounts[1].pk: 50, accounts[2].pk: 25}
    assert PointsLedgerEntry.objects.filter(source="tournament_prize").count() == 3
    assert Event.objects.filter(stream_id=t.stream_id, type="TournamentFinalized").count() == 1
    assert Trophy.objects.filter(tournament=t).count() == 1


def _idle_aware_table(t, rows: dict) -> None:
    """End the only table of wave 1 with ``rows`` = account → (score, pairs removed)."""
    from tests.tournaments.helpers import seat_ids, tables
    from tournaments.services.tables import table_score

    (table,) = tables(t, 1)
    results = [
        {"account_id": a, "score": rows[a][0], "completed": False, "pairs_removed": rows[a][1]} for a in seat_ids(table)
    ]
    table_score(table_id=table.pk, reason="idle", now=at(20), results=results)


def test_r26_players_with_0_tp_keep_their_places_and_get_no_prize_which_nobody_else_gets():
    """EXAMPLES.md R-26: prize table 100, 50, 25; final TP 60, 0, 0 → 100 to the first; the players
    with 0 TP keep places 2 and 3 and receive nothing."""
    t = new_tournament(prize_table=[100, 50, 25], multipliers=[3])
    a, b, c = players(3)
    register_all(t, [a, b, c])
    tournament_start(tournament_id=t.pk, now=at(10))
    _idle_aware_table(t, {a.pk: (500, 5), b.pk: (0, 0), c.pk: (0, 0)})  # 20 TP × 3 for A; B and C idle
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    rows = list(Registration.objects.filter(tournament=t).order_by("place").values_list("account_id", "tp", "prize"))
    assert rows == [(a.pk, 60, 100), (b.pk, 0, 0), (c.pk, 0, 0)]
    assert prizes(t) == {a.pk: 100}
    assert Trophy.objects.get(tournament=t).account_id == a.pk


def test_r26_a_tournament_nobody_played_pays_nothing_and_awards_no_trophy():
    """Today's defect: the earliest registrant of an idle tournament won prize 1 and the cup."""
    t = new_tournament(prize_table=[100, 50, 25])
    accounts = players(3)
    register_all(t, accounts)
    tournament_start(tournament_id=t.pk, now=at(10))
    _idle_aware_table(t, {x.pk: (0, 0) for x in accounts})
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    finalized = Event.objects.get(stream_id=t.stream_id, type="TournamentFinalized").data
    assert [row[1:] for row in finalized["places"]] == [[1, 0, 0], [2, 0, 0], [3, 0, 0]]
    assert finalized["trophy"] is None
    assert prizes(t) == {} and not Trophy.objects.filter(tournament=t).exists()
    t.refresh_from_db()
    assert t.status == "finished"


def test_r38_a_suspended_winner_keeps_the_place_and_gets_no_prize_nor_trophy_and_nobody_moves_up():
    from rivals.fairplay.services import account_suspend

    t, (a, b, c, d) = played(4, scores={0: 300, 1: 900, 2: 600, 3: 0}, prize_table=[100, 50, 25])
    account_suspend(account=b, reason="bot play", actor="operator:test")
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    assert [(r.account_id, r.place, r.prize) for r in Registration.objects.filter(tournament=t).order_by("place")] == [
        (b.pk, 1, 0),
        (c.pk, 2, 50),
        (a.pk, 3, 25),
        (d.pk, 4, 0),
    ]
    assert prizes(t) == {c.pk: 50, a.pk: 25}
    assert not Trophy.objects.filter(tournament=t).exists()
