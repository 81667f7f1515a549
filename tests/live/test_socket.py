"""The live socket against a real ASGI server (uvicorn, 2 processes) with a real WebSocket client
(API.md "Live updates"): what two players of a Quick Match see of each other, the round's end
pushed when the Celery task ends it, a resume by ``since``, strangers, tickets, slow sockets."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from rivals import engine
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.models import Event
from tests.contract import ONE_TIME_SPELLING, check_component
from tests.live.server import Client, RawSocket, quiet, recv, send, until
from tests.platform.test_celery_worker import _spawn, _stop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def quick_match(a: Client, b: Client) -> str:
    assert a.post("/queue", {"mode": "quick"}).status_code == 201
    ticket = b.post("/queue", {"mode": "quick"}).json()
    match = a.get(f"/matches/{ticket['match']}").json()
    return match["rounds"][0]["id"]


def play_pair(player: Client, round_id: str) -> dict:
    game = Game.objects.get(round_id=round_id, account_id=player.account_id)
    tiles = list(engine.solve(game_board(game)).plan[0])
    res = player.post(f"/rounds/{round_id}/intents", {"seq": game.seq, "type": "remove_pair", "tiles": tiles})
    assert res.status_code == 200, res.text
    return res.json()


def events_of(msgs: list[dict], topic: str) -> list[dict]:
    return [m for m in msgs if m.get("op") == "event" and m["topic"] == topic]


def test_two_guests_see_each_other_and_the_round_end_the_timer_task_pushes(live, live_folder):
    worker = _spawn(
        ["worker", "--pool", "solo", "--loglevel", "INFO", "--without-heartbeat", "--without-gossip"]
        + ["--without-mingle", "-n", "live-worker@%h"],
        live.env,
        live_folder / "worker.log",
    )
    try:
        a, b = Client(live, "qm-a"), Client(live, "qm-b")
        round_id = quick_match(a, b)
        topic = f"round:{round_id}"
        with a.socket() as wa, b.socket() as wb:
            for ws in (wa, wb):
                send(ws, op="subscribe", topic=topic)
                subscribed = recv(ws)
                assert subscribed["op"] == "subscribed" and subscribed["topic"] == topic
            mine = play_pair(a, round_id)["game"]
            seen_by_b = until(wb, lambda m: m.get("op") == "event")[-1]
            assert seen_by_b["type"] == "PairRemoved"
            assert seen_by_b["data"] == {
                "player": {"id": a.account_id, "display_name": seen_by_b["data"]["player"]["display_name"]},
                "score": mine["score"],
                "pairs_left": len(mine["tiles"]) // 2,
                "finished": False,
                "stuck": False,
            }  # never the opponent's tiles
            own = until(wa, lambda m: m.get("op") == "event")[-1]
            assert own["type"] == "PairRemoved" and "tiles" in own["data"]  # a player's own board in full
            theirs = play_pair(b, round_id)["game"]
            seen_by_a = until(wa, lambda m: m.get("op") == "event")[-1]
            assert seen_by_a["data"]["player"]["id"] == b.account_id
            assert seen_by_a["data"]["score"] == theirs["score"] and "tiles" not in seen_by_a["data"]
            # nobody plays again: R-17's 20 s rule ends the round, by the worker's task (no client call)
            for ws in (wa, wb):
                ended = until(ws, lambda m: m.get("type") == "RoundEnded", timeout=60)[-1]
                assert ended["topic"] == topic and ended["data"]["reason"] == "idle"
                assert {r["account_id"] for r in ended["data"]["results"]} == {a.account_id, b.account_id}
        event = Event.objects.get(stream_id=f"round-{round_id}", type="RoundEnded")
        assert event.metadata["via"] in ("task", "sweeper") and event.position == ended["position"]
    finally:
        _stop(worker)


def test_a_reconnect_with_since_gets_exactly_what_it_missed(live):
    a, b = Client(live, "since-a"), Client(live, "since-b")
    round_id = quick_match(a, b)
    topic = f"round:{round_id}"
    with a.socket() as wa:
        send(wa, op="subscribe", topic=topic, since=0)
        got = until(wa, lambda m: m.get("type") == "RoundScheduled")
        play_pair(a, round_id)
        got += until(wa, lambda m: m.get("type") == "PairRemoved")
        last = got[-1]["position"]
    for _ in range(3):  # while A is away
        play_pair(b, round_id)
    play_pair(a, round_id)
    streams = [f"round-{round_id}", *(f"game-{g.pk}" for g in Game.objects.filter(round_id=round_id))]
    missed = list(
        Event.objects.filter(stream_id__in=streams, position__gt=last)
        .order_by("position")
        .values_list("position", "type")
    )
    assert len(missed) == 4
    with a.socket() as wa:
        send(wa, op="subscribe", topic=topic, since=last)
        assert recv(wa)["position"] == last
        replay = until(wa, lambda m: m.get("position") == missed[-1][0])
        assert [(m["position"], m["type"]) for m in events_of(replay, topic)] == missed  # no gap, no duplicate
        assert all("tiles" not in m["data"] for m in replay if m["data"].get("player", {}).get("id") == b.account_id)
        play_pair(b, round_id)  # then live, after the replay
        nxt = until(wa, lambda m: m.get("op") == "event")[-1]
        assert nxt["position"] > missed[-1][0] and quiet(wa, 0.3) == []


def test_a_stranger_gets_not_found_and_bad_messages_invalid(live):
    a, b, stranger = Client(live, "nf-a"), Client(live, "nf-b"), Client(live, "nf-c")
    round_id = quick_match(a, b)
    match_id = a.get(f"/rounds/{round_id}").json()["match_id"]
    ticket = stranger.post("/queue", {"mode": "quick"}).json()["id"]
    with stranger.socket() as ws:
        for topic in (f"round:{round_id}", f"match:{match_id}", "round:00000000-0000-0000-0000-000000000000"):
            send(ws, op="subscribe", topic=topic)
            assert recv(ws) == {"op": "error", "topic": topic, "code": "not_found", "message": "no such topic"}
        with a.socket() as wa:
            send(wa, op="subscribe", topic=f"queue:{ticket}")
            assert recv(wa)["code"] == "not_found"  # another account's ticket
        for bad in ("not json", '{"op": "subscribe"}', '{"op": "dance", "topic": "account"}', "[1]"):
            ws.send(bad)
            assert recv(ws)["code"] == "invalid"
        send(ws, op="subscribe", topic="account", since=-1)
        assert recv(ws)["code"] == "invalid"
        send(ws, op="subscribe", topic=f"queue:{ticket}")  # the socket stayed open: its own ticket
        assert recv(ws)["op"] == "subscribed"


def test_tickets_are_single_use_and_a_bad_ticket_closes_with_4401(live):
    from websockets.sync.client import connect

    a = Client(live, "ticket-a")
    ticket = a.ticket()
    with connect(f"{live.ws}?ticket={ticket}") as ws:
        send(ws, op="subscribe", topic="account")
        assert recv(ws)["op"] == "subscribed"
    for url in (f"{live.ws}?ticket={ticket}", f"{live.ws}?ticket=nope", live.ws):
        with connect(url) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4401  # before any message
    assert a.post("/live/ticket").json()["expires_at"]


def test_tournament_seating_pushes_tournament_seated_with_the_round(live):
    from datetime import timedelta

    from django.utils import timezone

    import tournaments.tasks  # noqa: F401 — the tasks a tournament sends after commit
    from rivals.matches.models import Round
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.play import tournament_tick
    from tournaments.services.registration import tournament_register

    players = [Client(live, f"seat-{i}") for i in range(2)]
    now = timezone.now()
    t = tournament_create(
        actor="operator:test",
        now=now - timedelta(minutes=5),
        kind="regular",
        title="Live Cup",
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(minutes=30),
        min_players=2,
        prize_table=[100],
        multipliers=[1],
        registration_opens_at=now - timedelta(minutes=5),
    )
    from rivals.models import Account

    for i, p in enumerate(players):
        tournament_register(
            tournament_id=t.pk, account=Account.objects.get(pk=p.account_id), now=now - timedelta(minutes=4, seconds=-i)
        )
    with players[0].socket() as ws:
        send(ws, op="subscribe", topic="account")
        recv(ws)
        send(ws, op="subscribe", topic=f"tournament:{t.pk}")
        recv(ws)
        tournament_tick(tournament_id=t.pk, now=now)
        got = until(ws, lambda m: m.get("type") == "tournament_seated")
        seated = got[-1]
        rnd = Round.objects.get(pk=seated["data"]["round_id"])
        assert players[0].account_id in rnd.players and seated["topic"] == "account"
        opened = next(m for m in got if m.get("type") == "TablesOpened")  # the same position, its event first
        assert opened["position"] == seated["position"]
        assert opened["data"]["mine"]["round_id"] == str(rnd.pk) and "seed" not in opened["data"]


N = 2500  # JokersChanged of 4 kB each: more than the kernel and uvicorn buffer for a socket that reads nothing


def test_a_slow_socket_is_closed_with_4408_and_resumes_by_since(live_folder, django_db_setup):
    from django.db import connection

    from config.embedded import database_url
    from rivals.accounts.services import account_jokers_change
    from rivals.live.models import Notification
    from rivals.models import Account
    from tests.live.server import LiveServer

    # the queue's limit is what ends this socket, however long the 2,500 appends take on a loaded
    # machine: uvicorn's keepalive (a ping unanswered for 20 s after 20 s: 1011) would end a client
    # that reads nothing for 40 s first (seen at a load average of 12)
    server = LiveServer(
        database_url=database_url(connection.settings_dict),
        folder=live_folder,
        ws_ping_interval=600,
        RIVALS_LIVE_QUEUE="10",
    )
    try:
        a = Client(server, "slow-a")
        account = Account.objects.get(pk=a.account_id)
        ws = RawSocket(f"{server.ws}?ticket={a.ticket()}", server.port)
        try:
            ws.send(op="subscribe", topic="account")
            for _ in range(N):  # the client reads nothing meanwhile
                account_jokers_change(account=account, delta=1, reason="test " + "x" * 4000, actor="operator:test")
            got, code = ws.messages()
        finally:
            ws.close()
        assert code == 4408, (code, len(got))
        start = got[0]["position"]
        positions = [m["position"] for m in got if m.get("op") == "event"]
        assert positions == sorted(set(positions)) and len(positions) < N
        with a.socket() as ws:  # it reconnects with since: the rest, exactly
            send(ws, op="subscribe", topic="account", since=positions[-1] if positions else start)
            recv(ws)
            rest = [m["position"] for m in quiet(ws, 3)]
        expected = list(
            Notification.objects.filter(account_id=a.account_id, position__gt=start)
            .order_by("position")
            .values_list("position", flat=True)
        )
        assert positions + rest == expected and len(rest) > 0  # no gap, no duplicate across the 4408
    finally:
        server.stop()


def _messages_until_closed(client, act) -> tuple[int, list[dict]]:
    """Subscribe ``client``'s socket to its account, ``act``, then read until the server closes it:
    the close code and the messages before it."""
    got: list[dict] = []
    with client.socket() as ws:
        send(ws, op="subscribe", topic="account")
        recv(ws)
        act()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                got.append(recv(ws))
    return closed.value.rcvd.code, got


def test_r38_a_suspended_accounts_sockets_close(live):
    from rivals.fairplay.services import account_suspend
    from rivals.models import Account

    a = Client(live, "suspend-a")
    account = Account.objects.get(pk=a.account_id)
    code, got = _messages_until_closed(
        a, lambda: account_suspend(account=account, reason="test", actor="operator:test")
    )
    assert code == 4403
    assert [m["type"] for m in got] == ["account_suspended"]
    assert a.post("/live/ticket").status_code == 403


def test_r38_a_closed_accounts_sockets_close(live):
    """R-38: a closed account's sockets close too (4403), like a suspended one's."""
    from rivals.accounts.services import account_close
    from rivals.models import Account

    a = Client(live, "close-a")
    account = Account.objects.get(pk=a.account_id)
    code, _ = _messages_until_closed(a, lambda: account_close(account=account, reason="test", actor="operator:test"))
    assert code == 4403


def test_the_socket_says_a_match_before_its_round_with_typed_data_and_one_time_spelling(live):
    """Issue 39 on the socket: the ``account`` topic's notifications are the schema's
    ``Notification`` shapes (typed ``data`` per type), a match's ``match_found`` comes before its
    ``round_started``, and every time — the message's ``at``, inside notification data and inside
    event data — is UTC with ``Z`` and microseconds, as REST answers it."""
    a, b = Client(live, "order-a"), Client(live, "order-b")
    with a.socket() as wa:
        send(wa, op="subscribe", topic="account")
        assert recv(wa)["op"] == "subscribed"
        round_id = quick_match(a, b)
        notes = until(wa, lambda m: m.get("type") == "round_started")
        kinds = [m["type"] for m in events_of(notes, "account")]
        assert kinds == ["match_found", "round_started"]
        for note in events_of(notes, "account"):
            shape = "".join(part.capitalize() for part in note["type"].split("_"))
            check_component(f"{shape}Notification", {k: note[k] for k in ("position", "type", "at", "data")})
        assert ONE_TIME_SPELLING.match(notes[-1]["data"]["starts_at"])
        rest = a.get("/notifications").json()["results"]
        assert [(n["type"], n["data"]) for n in rest] == [(m["type"], m["data"]) for m in events_of(notes, "account")]
        send(wa, op="subscribe", topic=f"round:{round_id}", since=0)
        scheduled = until(wa, lambda m: m.get("type") == "RoundScheduled")[-1]
        for key in ("starts_at", "hard_ends_at"):
            assert ONE_TIME_SPELLING.match(scheduled["data"][key]), scheduled["data"][key]
        assert ONE_TIME_SPELLING.match(scheduled["at"])
