"""R-38: plausibility signals raise FairPlayFlagged for review; suspension refuses intents and
takes the account out of rankings and leaderboards until lifted — all events."""

from __future__ import annotations

import re
import time
from datetime import UTC, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.services import _FAST_PAIRS_SQL, account_suspend, account_suspension_lift
from rivals.games.models import Game, RejectedIntent
from rivals.models import Account, Event
from tests.games.helpers import plan_of
from tests.matches.helpers import CODE  # a fixed 36-tile deal


def _game(client):
    res = client.post("/api/v1/games", {"mode": "classic", "code": CODE}, format="json")
    assert res.status_code == 201, res.content
    return res.json()["id"]


def _pair(client, game_id, seq, pair):
    return client.post(
        f"/api/v1/games/{game_id}/intents", {"seq": seq, "type": "remove_pair", "tiles": list(pair)}, format="json"
    )


def _play(client, game_id, pairs: int, pause_s: float = 0.0):
    game = Game.objects.get(pk=game_id)
    for seq, pair in enumerate(plan_of(game)[:pairs]):
        time.sleep(pause_s)
        assert _pair(client, game_id, seq, pair).status_code == 200


@pytest.mark.django_db
def test_r38_a_bot_speed_game_is_flagged_and_a_human_speed_game_is_not(guest):
    bot, bot_id = guest("bot")
    human, human_id = guest("human")
    bot_game = _game(bot)
    _play(bot, bot_game, 5)  # as fast as HTTP goes: every interval far under 250 ms
    human_game = _game(human)
    _play(human, human_game, 4, pause_s=0.3)  # 300 ms between pairs: humanly possible

    (flag,) = FairPlayFlag.objects.all()
    assert (flag.account_id, flag.kind, flag.subject, str(flag.game_id)) == (
        bot_id,
        "fast_pairs",
        f"game-{bot_game}",
        bot_game,
    )
    assert flag.details["fast_pairs"] == 3 and flag.details["threshold_ms"] == 250  # flagged once, at the 3rd
    assert all(i < 250 for i in flag.details["intervals_ms"])
    event = Event.objects.get(type="FairPlayFlagged")
    assert event.stream_id == f"account-{bot_id}" and event.data["flag_id"] == str(flag.pk)
    assert not FairPlayFlag.objects.filter(account_id=human_id).exists()


@pytest.mark.django_db
def test_r38_the_fast_pair_read_prunes_the_log_months_before_the_board(guest):
    """The read of a board's fast pairs is bounded by its stream head's ``first_at``: the log's
    partitions of earlier months are never scanned, and only the (stream, version) index is read."""
    bot, _ = guest("bot")
    game_id = _game(bot)
    _play(bot, game_id, 2)
    stream = f"game-{game_id}"
    with connection.cursor() as cur:
        # a test database's month partition holds a few hundred rows, where a sequential scan can
        # cost less than the index (as the statistics of the tests that ran before say); in
        # production the partition holds millions: the plan asked for is the index's
        cur.execute("SET LOCAL enable_seqscan = off")
        cur.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) {_FAST_PAIRS_SQL}", [stream, stream, 250])
        plan = "\n".join(row[0] for row in cur.fetchall())
        cur.execute("SELECT first_at FROM rivals_stream WHERE id = %s", [stream])
        first_at = cur.fetchone()[0]
    before = re.search(r"on rivals_event_before \S+ \((\S+)", plan)
    assert before and before.group(1) == "never", plan
    month = f"rivals_event_{first_at.astimezone(UTC):%Y_%m}"
    assert f"{month}_stream_version" in plan, plan
    assert "type_position" not in plan, plan


@pytest.mark.django_db
def test_r38_more_than_n_refused_intents_in_a_window_are_flagged_once(guest, settings):
    settings.RIVALS = {**settings.RIVALS, "FAIRPLAY_REFUSED_MAX": 3, "FAIRPLAY_REFUSED_WINDOW_S": 600}
    client, account_id = guest("prober")
    game_id = _game(client)
    for _ in range(3):
        assert _pair(client, game_id, 7, (0, 1)).status_code == 409  # stale seq: refused
    assert not FairPlayFlag.objects.exists()
    for _ in range(3):
        _pair(client, game_id, 7, (0, 1))
    (flag,) = FairPlayFlag.objects.all()
    assert (flag.account_id, flag.kind, flag.details["refused"], flag.details["max"]) == (
        account_id,
        "refused_intents",
        4,
        3,
    )
    assert RejectedIntent.objects.filter(account_id=account_id).count() == 6


@pytest.mark.django_db
def test_r38_round_intents_outside_the_round_time_are_flagged_beyond_network_latency(guest):
    from rivals.matches import services as msvc

    late, late_id = guest("late")
    near, near_id = guest("near")
    other = Account.objects.create_user("other-player", None)
    now = timezone.now()
    long_over = msvc.match_create(mode="quick", account_ids=[late_id, other.pk], now=now - timedelta(minutes=10))
    just_over = msvc.match_create(mode="quick", account_ids=[near_id, other.pk], now=now - timedelta(seconds=21))
    for client, match in ((late, long_over), (near, just_over)):
        rnd = match.rounds.get()
        res = client.post(
            f"/api/v1/rounds/{rnd.pk}/intents", {"seq": 0, "type": "click_blocked", "tile": 0}, format="json"
        )
        assert res.status_code == 422 and res.json()["error"]["details"]["late_ms"] > 0
    (flag,) = FairPlayFlag.objects.all()  # 10 minutes late is flagged; one second (latency) is not
    rnd = long_over.rounds.get()
    assert (flag.account_id, flag.kind, flag.subject, flag.round_id) == (
        late_id,
        "outside_round_time",
        f"round-{rnd.pk}",
        rnd.pk,
    )
    assert flag.details["late_ms"] > 9 * 60 * 1000


def _award(account, amount, key):
    from rivals.points.services import points_award

    points_award(account=account, amount=amount, source="single_player", key=key)


@pytest.mark.django_db
def test_r38_a_suspended_account_is_refused_and_absent_from_rankings_until_lifted(guest, api):
    from rankings.selectors import rankings_recomputed, rankings_state
    from rivals.games.models import LevelBest
    from rivals.projections import rebuild_all

    client, cheat_id = guest("cheat")
    cheat = Account.objects.get(pk=cheat_id)
    b, c = Account.objects.create_user("b", None), Account.objects.create_user("c", None)
    _award(cheat, 30, "k1")
    _award(b, 20, "k2")
    _award(c, 20, "k3")
    for account, ms in ((cheat, 1000), (b, 5000)):
        LevelBest.objects.create(level=1, account=account, best_ms=ms, achieved_at=timezone.now())

    def board():
        return [(r["place"], r["player"]["id"], r["points"]) for r in api.get("/api/v1/rankings/amr").json()["results"]]

    assert board() == [(1, cheat_id, 30), (2, b.pk, 20), (2, c.pk, 20)]
    game_id = _game(client)

    account_suspend(account=cheat, reason="bot-speed play", actor="operator:1")
    res = _pair(client, game_id, 0, plan_of(Game.objects.get(pk=game_id))[0])
    assert res.status_code == 403 and res.json()["error"]["code"] == "forbidden"
    assert client.post("/api/v1/queue", {"mode": "quick"}, format="json").status_code == 403
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200  # reading stays possible
    assert board() == [(1, b.pk, 20), (1, c.pk, 20)]
    assert api.get("/api/v1/rankings/amr").json()["count"] == 2
    assert client.get("/api/v1/rankings/amr/me").json() == {"place": 3, "points": 30, "total_players": 2}
    assert [r["player"]["id"] for r in api.get("/api/v1/levels/1/leaderboard").json()] == [b.pk]
    assert api.get(f"/api/v1/players/{cheat_id}").json()["places"] == {"amr": None, "weekly": None, "daily": None}
    _award(cheat, 5, "k4")  # totals still accrue while suspended, unseen
    state = rankings_state()
    assert state.histogram == rankings_recomputed(window_start=state.window_start).histogram
    rebuild_all()
    assert rankings_state() == state and Account.objects.get(pk=cheat_id).suspended_at is not None

    account_suspension_lift(account=cheat, reason="reviewed: a fast human", actor="operator:1")
    assert board() == [(1, cheat_id, 35), (2, b.pk, 20), (2, c.pk, 20)]
    assert _pair(client, game_id, 0, (999, 998)).status_code == 400  # intents are taken again
    types = list(Event.objects.filter(stream_id=f"account-{cheat_id}").values_list("type", "metadata__actor"))
    assert ("AccountSuspended", "operator:1") in types and ("AccountSuspensionLifted", "operator:1") in types
