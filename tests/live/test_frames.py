"""Issue 31, the live socket's abuse: a frame of 1,000 ``[`` used to raise an unhandled
``RecursionError`` that dropped the socket without a close frame (and left it attached to its
hub), and frames of 1 and 8 MiB were parsed. Now an unparsable message is ``{"op": "error",
"code": "invalid"}`` on a socket that stays open, and a message over 4 KiB
(``RIVALS_LIVE_MAX_FRAME_BYTES``) closes the socket with 1009 — refused by uvicorn from the
frame's header when started as ``make run`` starts it (``--ws-max-size``), by the consumer under
a server started without it. Real uvicorn processes, a real WebSocket client."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from tests.live.server import Client, LiveServer, closed_with, recv, send

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

LIMIT = 4096
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def bare(django_db_setup, django_db_blocker, live_folder):
    """uvicorn started without ``--ws-max-size`` (its own limit: 16 MiB): the consumer alone."""
    from django.db import connection

    from config.embedded import database_url

    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    server = LiveServer(database_url=url, folder=live_folder, ws_max_size=False)
    yield server
    server.stop()


def _subscribe_padded(size: int) -> str:
    """A subscribe to ``account`` of exactly ``size`` bytes (spaces are JSON's whitespace)."""
    text = json.dumps({"op": "subscribe", "topic": "account"})
    return text[:-1] + " " * (size - len(text)) + "}"


def test_issue31_the_limit_is_4_kib_and_make_run_passes_it_to_uvicorn():
    from config.serving import uvicorn_ws_options

    assert settings.RIVALS["LIVE_MAX_FRAME_BYTES"] == LIMIT
    assert uvicorn_ws_options()[-2:] == ["--ws-max-size", str(LIMIT)]


@pytest.mark.parametrize("server", ["live", "bare"])
def test_issue31_a_frame_of_1000_brackets_is_invalid_and_the_socket_stays_open(server, request):
    live = request.getfixturevalue(server)
    player = Client(live, f"brackets-{server}")
    unparsable = [
        "[" * 1000,  # the report: RecursionError in json.loads
        "{" * 1000,
        '{"a":' * 800,
        "[" * 40 + "]" * 40,  # parses, but deeper than the API's 32
        '{"op": "subscribe", "topic": "account\\u0000"}',
        '{"op": "subscribe", "topic": "account", "since": NaN}',
        "[" * LIMIT,  # at the limit, still only invalid
    ]
    with player.socket() as ws:
        for text in unparsable:
            ws.send(text)
            answer = recv(ws)
            assert answer["op"] == "error" and answer["code"] == "invalid", (text[:20], answer)
        ws.send(b"\xff\xfe not utf-8")
        assert recv(ws)["code"] == "invalid"
        send(ws, op="subscribe", topic="account")  # still open and usable
        assert recv(ws)["op"] == "subscribed"
    assert "Exception in ASGI application" not in live.logs()
    assert "Traceback" not in live.logs()


@pytest.mark.parametrize("server", ["live", "bare"])
def test_issue31_a_message_over_4_kib_closes_the_socket_with_1009(server, request):
    live = request.getfixturevalue(server)
    player = Client(live, f"big-{server}")
    with player.socket() as ws:
        ws.send(_subscribe_padded(LIMIT))  # exactly the limit: answered
        assert recv(ws)["op"] == "subscribed"
    for size in (LIMIT + 1, MIB, 8 * MIB):
        with player.socket() as ws:
            assert closed_with(ws, _subscribe_padded(size)) == 1009, size
    with player.socket() as ws:  # bytes count, not characters: 2,000 "é" are 4,000 bytes of UTF-8
        assert closed_with(ws, json.dumps({"op": "subscribe", "topic": "é" * 2100}, ensure_ascii=False)) == 1009
    assert "Exception in ASGI application" not in live.logs()
