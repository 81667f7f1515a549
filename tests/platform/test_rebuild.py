"""``rebuild_projections`` beside live traffic: copies built from one snapshot of the log, a short
locked swap that writes only the rows that differ, the events committed meanwhile caught up."""

from __future__ import annotations

import io
import threading
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connections

from rankings.models import AmrPoints, PointsHistogram
from rivals import engine
from rivals.daily_bonus.services import daily_bonus_claim
from rivals.games.models import Game
from rivals.games.services import game_board, game_create, game_intent_apply
from rivals.matches.models import Round
from rivals.models import Account, Event
from rivals.points.models import PointsLedgerEntry
from rivals.rebuild import rebuild
from tests.factories import AccountFactory
from tests.matches.helpers import complete, first_round, match
from tests.tournaments.helpers import at, new_tournament, register_all, score_tables
from tournaments.services import finalize
from tournaments.services.play import tournament_start

CODE = engine.random_code(rng_seed=11, layout_id="L08")


def _pairs(game: Game, n: int) -> None:
    """``n`` pairs of a winning plan through the real intent service."""
    for _ in range(n):
        game = Game.objects.get(pk=game.pk)
        plan = engine.solve(game_board(game)).plan
        game_intent_apply(
            account=game.account,
            game_id=game.pk,
            intent={"seq": game.seq, "type": "remove_pair", "tiles": list(plan[0])},
        )


def _history() -> dict:
    """A mixed history through the services: solo games (one won), a daily bonus, a Quick Match,
    a finalized tournament (rounds, table points, prizes, trophies, rankings)."""
    solo = AccountFactory.create(device_id="solo", jokers=2, display_name="Solo Player")
    won = game_create(account=solo, mode="classic", code=CODE)
    _pairs(won, 18)  # the Diamond's 36 tiles: won
    open_game = game_create(account=solo, mode="classic", code=CODE)
    _pairs(open_game, 3)
    daily_bonus_claim(account=solo)
    quick = AccountFactory.create(device_id="q1"), AccountFactory.create(device_id="q2")
    m = match("quick", list(quick))
    complete(first_round(m), quick[0], 1)
    t = new_tournament()
    entrants = [AccountFactory.create(device_id=f"tp{i}", display_name=f"TP{i}") for i in range(4)]
    register_all(t, entrants)
    tournament_start(tournament_id=t.pk, now=at(10))
    score_tables(t, 1, {entrants[0].pk: 600, entrants[1].pk: 300})
    finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    return {
        "solo": solo,
        "won": Game.objects.get(pk=won.pk),
        "open": Game.objects.get(pk=open_game.pk),
        "match": m,
        "tournament": t,
    }


def _verify() -> str:
    out = io.StringIO()
    call_command("rebuild_projections", "--verify", "--no-progress", stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_rebuild_repairs_exactly_the_wrecked_rows_and_verify_names_their_tables():
    h = _history()
    assert "every projection equals the log" in _verify()
    # a cached plan is not a projection: the swap keeps it
    Game.objects.filter(pk=h["open"].pk).update(plan=[[0, 1]])
    assert "every projection equals the log" in _verify()
    Game.objects.filter(pk=h["won"].pk).update(score=1)
    Account.objects.filter(pk=h["solo"].pk).update(jokers=99, display_name="garbage")
    PointsLedgerEntry.objects.filter(pk=PointsLedgerEntry.objects.order_by("pk").first().pk).delete()
    AmrPoints.objects.filter(account=h["solo"]).update(points=12345)
    Round.objects.filter(match=h["match"]).delete()
    PointsHistogram.objects.update(n=7)
    with pytest.raises(CommandError) as failed:
        _verify()
    for table in (
        "rivals_game",
        "rivals_account",
        "rivals_points_ledger",
        "rankings_amrpoints",
        "matches_round",
        "rankings_pointshistogram",
    ):
        assert table in str(failed.value)
    report = rebuild()
    assert {d.table for d in report.differences if d.any} == {
        "rivals_game",
        "rivals_account",
        "rivals_points_ledger",
        "rankings_amrpoints",
        "matches_round",
        "rankings_pointshistogram",
    }
    assert report.written > 0 and report.events == Event.objects.count() - _unprojected()
    assert "every projection equals the log" in _verify()
    assert Game.objects.get(pk=h["won"].pk).score == h["won"].score
    assert Game.objects.get(pk=h["open"].pk).plan == [[0, 1]]
    solo = Account.objects.get(pk=h["solo"].pk)
    assert (solo.jokers, solo.display_name) == (h["solo"].jokers, "Solo Player")
    again = rebuild()  # nothing differs any more: nothing is written
    assert again.equal and again.written == 0


def _unprojected() -> int:
    from rivals.projections import registered

    types = {t for p in registered() for t in p.event_types}
    return Event.objects.exclude(type__in=types).count()


@pytest.mark.django_db(transaction=True)
def test_rebuild_beside_clients_catches_up_what_they_wrote_and_never_blocks_them_for_the_build():
    h = _history()
    player = h["solo"]
    games = [game_create(account=player, mode="classic", code=CODE) for _ in range(3)]
    latencies: list[float] = []
    errors: list[BaseException] = []

    def client(n_pairs: int):
        try:
            for g in games:
                t0 = time.perf_counter()
                _pairs(g, n_pairs)
                latencies.append((time.perf_counter() - t0) / n_pairs)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    during = threading.Thread(target=client, args=(2,))
    during.start()  # plays while the copies are built
    before = Event.objects.count()

    def between():
        # after the build's snapshot, before the swap: events the build never saw
        worker = threading.Thread(target=client, args=(2,))
        worker.start()
        worker.join()

    report = rebuild(between=between)
    during.join()
    assert not errors, errors
    assert Event.objects.count() >= before + 3 * 2
    assert report.caught_up >= 3 * 2  # at least the pairs written between the build and the swap
    assert report.equal and report.written == 0  # live had applied them too: nothing differs
    assert "every projection equals the log" in _verify()
    assert all(Game.objects.get(pk=g.pk).seq == 4 for g in games)
    assert max(latencies) < 2.0, latencies


@pytest.mark.django_db(transaction=True)
def test_a_second_rebuild_at_the_same_moment_is_refused_clearly():
    _history()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cur:
            cur.execute("SELECT pg_advisory_lock(%s, %s)", [0x52424C44, 1])
        with pytest.raises(CommandError, match="another rebuild is running"):
            call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    finally:
        other.close()
