"""Operators (admin: matches, rounds with the players' events side by side, the queue, duels, the
"end this round now" action) and the projection rebuilt from the events."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from rivals.games.models import Game
from rivals.matches import services as svc
from rivals.matches.models import Duel, Match, MatchPlayer, QueueTicket, Round
from rivals.models import Event
from tests.matches.helpers import accounts, at, board, complete, first_round, match, pair, reload, steady_all

pytestmark = pytest.mark.django_db


def test_admin_shows_competitive_play_read_only(admin_client):
    a, b, c, d = accounts(4)
    rnd = first_round(match("duel", [a, b]))
    pair(rnd, a, 1)
    pair(rnd, b, 2)
    svc.queue_join(account=c, mode="quick")
    svc.duel_challenge(account=c, opponent=d.pk)
    for path in ("match", "round", "queueticket", "duel"):
        assert admin_client.get(f"/admin/matches/{path}/").status_code == 200, path
        assert admin_client.get(f"/admin/matches/{path}/add/").status_code == 403, path
    page = admin_client.get(f"/admin/matches/round/{rnd.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "side by side" in html and html.count("PairRemoved") >= 2 and str(a) in html and str(b) in html
    assert admin_client.get(f"/admin/matches/match/{rnd.match_id}/change/").status_code == 200


def test_operator_ends_a_round_now_as_an_event_with_the_operator_as_actor(admin_client, admin_user):
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b], start_s=0))
    url = "/admin/matches/round/"
    page = admin_client.post(url, {"action": "end_round_now", "_selected_action": [rnd.pk]}).content.decode()
    assert "cannot be resumed" in page and Round.objects.get(pk=rnd.pk).status == "running"  # it asks first
    end = {"action": "end_round_now", "_selected_action": [rnd.pk], "apply": "1"}
    res = admin_client.post(url, end, follow=True)
    assert res.status_code == 200
    rnd.refresh_from_db()
    # the match was created at a fixed instant in the past: the clock had already ended it — the
    # operator's action applies that end (not an operator end after the deadline)
    assert rnd.status == "ended"
    (a2, b2) = accounts(2, prefix="live")
    live = first_round(svc.match_create(mode="quick", account_ids=[a2.pk, b2.pk]))
    admin_client.post(url, {"action": "end_round_now", "_selected_action": [live.pk], "apply": "1"}, follow=True)
    live.refresh_from_db()
    assert (live.status, live.end_reason) == ("ended", "operator")
    ended = Event.objects.get(stream_id=live.stream_id, type="RoundEnded")
    assert ended.metadata["actor"] == f"operator:{admin_user.pk}"
    res = admin_client.post(url, {"action": "end_round_now", "_selected_action": [live.pk], "apply": "1"}, follow=True)
    assert Event.objects.filter(stream_id=live.stream_id, type="RoundEnded").count() == 1
    assert "skipped" in res.content.decode() and "already ended" in res.content.decode()


def _snapshot():
    def rows(model, order):
        return [
            {k: v for k, v in model_to_dict(o).items() if k != "id"} | {"pk": str(o.pk)}
            for o in model.objects.order_by(*order)
        ]

    return {
        "matches": rows(Match, ["pk"]),
        "players": [model_to_dict(p, exclude=["id"]) for p in MatchPlayer.objects.order_by("match_id", "seat")],
        "rounds": rows(Round, ["pk"]),
        "tickets": rows(QueueTicket, ["pk"]),
        "duels": rows(Duel, ["pk"]),
        "boards": [
            model_to_dict(g, exclude=["plan"]) for g in Game.objects.filter(round_id__isnull=False).order_by("pk")
        ],
    }


def test_rebuild_projections_reproduces_matches_rounds_tickets_and_duels():
    a, b, c, d, e, f = accounts(6)
    arena = match("arena", [a, b, c, d])
    rnd = first_round(arena)
    steady_all(rnd, {a: 3, b: 2, c: 1, d: 0})
    svc.round_end_if_due(round_id=rnd.pk, now=at(40))
    duel, _ = svc.duel_challenge(account=e, opponent=f.pk, now=at(0))
    duel = svc.duel_accept(account=f, duel_id=duel.pk, now=at(1))
    complete(first_round(duel.match), f, start_s=2)
    svc.queue_join(account=e, mode="quick", now=at(5))
    svc.duel_challenge(account=a, opponent=f.pk, now=at(6))
    before = _snapshot()
    assert before["rounds"] and before["tickets"] and len(before["duels"]) == 2
    call_command("rebuild_projections", stdout=io.StringIO())
    assert _snapshot() == before
    assert board(rnd, a).score == 300


def test_matches_create_opens_many_tables_at_once():
    from rivals.matches.services import matches_create

    players = accounts(10)
    ids = [p.pk for p in players]
    created = matches_create(
        mode="tournament",
        tables=[(ids[0:4], {"table": 1}), (ids[4:7], {"table": 2}), (ids[7:10], {"table": 3})],
        now=at(0),
        cutoff_at=at(100),
    )
    assert len(created) == 3
    for (match_id, round_id), size, table in zip(created, (4, 3, 3), (1, 2, 3), strict=True):
        m = Match.objects.get(pk=match_id)
        rnd = Round.objects.get(pk=round_id)
        assert m.context == {"table": table} and rnd.match_id == m.pk and len(rnd.players) == size
        assert Game.objects.filter(round_id=round_id).count() == size and rnd.ends_at == at(20)
        assert list(m.players.order_by("seat").values_list("account_id", flat=True)) == rnd.players
    rnd = Round.objects.get(pk=created[1][1])
    pair(rnd, players[4], 3)  # the boards play like any other
    assert reload(rnd).ends_at == at(23)
