"""P-5 pot competitions on the Pool machinery (P-1…P-4): entry, play, ranking with shared ties, prizes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rankings.selectors import account_points
from rivals import engine
from rivals.errors import Conflict, Invalid, NotAllowed
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.points.models import PointsLedgerEntry
from tournaments.models import Pot
from tournaments.services.pots import pot_create, pot_enter, pot_finalize, pots_sweep

pytestmark = pytest.mark.django_db
CODE = "MJ1-L08-AAAAAAB"


def open_pot(**kw) -> Pot:
    now = timezone.now()
    settings = {
        "title": "Friday pot",
        "code": CODE.lower(),
        "time_limit_s": 300,
        "prize_split": [80, 40, 20, 0],
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(minutes=10),
    }
    settings.update(kw)
    return pot_create(actor="operator:1", **settings)


def first_pair(client, game_id):
    game = Game.objects.get(pk=game_id)
    return list(engine.solve(game_board(game)).plan[0])


def test_p5_entrants_play_the_pot_deal_and_ties_share_the_split_as_r20(guest):
    pot = open_pot()
    assert pot.code == CODE  # canonical
    clients = [guest(f"pot-{i}") for i in range(4)]
    games = []
    for client, _ in clients[:3]:
        res = client.post(f"/api/v1/pots/{pot.pk}/enter", format="json")
        assert res.status_code == 201, res.content
        game = res.json()["game"]
        # the pot's deal stays secret until it closes
        assert (game["mode"], game["ruleset"], game["code"]) == ("pool_pot", "pool", None)
        assert Game.objects.get(pk=game["id"]).code == CODE
        assert 0 < game["time_limit_ms"] <= 300_000
        games.append(game["id"])
    pair = first_pair(None, games[0])
    for (client, _), game_id in zip(clients[:2], games[:2], strict=True):  # the same first pair: a tie
        res = client.post(
            f"/api/v1/games/{game_id}/intents", {"seq": 0, "type": "remove_pair", "tiles": pair}, format="json"
        )
        assert res.status_code == 200, res.content
    assert (
        clients[0][0]
        .post(f"/api/v1/games/{games[0]}/intents", {"seq": 1, "type": "restart"}, format="json")
        .status_code
        == 422
    )  # P-4: restart only in practice
    page = clients[3][0].get(f"/api/v1/pots/{pot.pk}").json()
    assert page["status"] == "open" and page["result"] is None
    assert [e["score"] for e in page["entrants"]][:2] == [Game.objects.get(pk=games[0]).score] * 2
    assert pot_finalize(pot_id=pot.pk, now=pot.ends_at)
    assert not pot_finalize(pot_id=pot.pk, now=pot.ends_at + timedelta(seconds=1))
    page = clients[3][0].get(f"/api/v1/pots/{pot.pk}").json()
    ids = [acc for _, acc in clients]
    result = {r["player"]["id"]: (r["place"], r["prize"]) for r in page["result"]}
    assert result == {ids[0]: (1, 60), ids[1]: (1, 60), ids[2]: (3, 20)}  # (80 + 40) / 2 each
    ledger = dict(PointsLedgerEntry.objects.filter(source="pool_pot").values_list("account_id", "amount"))
    assert ledger == {ids[0]: 60, ids[1]: 60, ids[2]: 20}
    assert not PointsLedgerEntry.objects.filter(source="pool_pot", counts=True).exists()
    assert account_points(account_id=ids[0])["amr"] == 0  # P-5: not counting unless marked
    assert Game.objects.get(pk=games[2]).status == "ended"  # the pot's end ended the game still running


def test_p5_counting_pot_and_the_sweeper(guest):
    pot = open_pot(counts=True, prize_split=[30])
    client, account_id = guest("solo")
    client.post(f"/api/v1/pots/{pot.pk}/enter", format="json")
    assert pots_sweep(now=pot.ends_at - timedelta(seconds=1)) == 0
    assert pots_sweep(now=pot.ends_at) == 1 and pots_sweep(now=pot.ends_at) == 0
    entry = PointsLedgerEntry.objects.get(source="pool_pot")
    assert (entry.account_id, entry.amount, entry.counts, entry.awarded_at) == (account_id, 30, True, pot.ends_at)


def test_p5_entry_list_bad_input(guest):
    listed, listed_id = guest("listed")
    other, _ = guest("other")
    pot = open_pot(open_entry=False, entrants=[listed_id])
    assert other.post(f"/api/v1/pots/{pot.pk}/enter", format="json").json()["error"]["code"] == "not_allowed"
    assert listed.post(f"/api/v1/pots/{pot.pk}/enter", format="json").status_code == 201
    res = listed.post(f"/api/v1/pots/{pot.pk}/enter", format="json")
    assert res.status_code == 409 and res.json()["error"]["code"] == "conflict"
    assert other.get("/api/v1/pots/nope").status_code == 404
    # a listed entrant who never played is shown, without place or prize
    quiet, quiet_id = guest("quiet")
    pot2 = open_pot(open_entry=False, entrants=[quiet_id])
    pot_finalize(pot_id=pot2.pk, now=pot2.ends_at)
    page = quiet.get(f"/api/v1/pots/{pot2.pk}").json()
    assert page["entrants"][0]["entered"] is False and page["entrants"][0]["place"] is None and page["result"] == []


def test_p5_settings_and_timing_are_checked():
    from tests.tournaments.helpers import players

    with pytest.raises(Invalid):
        open_pot(code="MJ1-L99-AAAAAAA")
    with pytest.raises(Invalid):
        open_pot(time_limit_s=5)
    with pytest.raises(Invalid):
        open_pot(open_entry=False)
    (acc,) = players(1)
    late = open_pot(starts_at=timezone.now() + timedelta(minutes=5))
    with pytest.raises(NotAllowed):
        pot_enter(pot_id=late.pk, account=acc)
    closing = open_pot(ends_at=timezone.now() + timedelta(seconds=90))
    game = pot_enter(pot_id=closing.pk, account=acc)
    assert game.time_limit_ms <= 90_000  # cut to the pot's end
    with pytest.raises(Conflict):
        pot_enter(pot_id=closing.pk, account=acc)
    with pytest.raises(NotAllowed):
        pot_enter(pot_id=closing.pk, account=players(1, prefix="q")[0], now=closing.ends_at)
