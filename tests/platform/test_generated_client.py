"""A generated client can trust the contract (issue 21): ``openapi-python-client`` generates a client
from the schema the service serves, and a game client's day is played with that client only —
two guests sign in, one wins a classic game with hints and a level, every ranking board is read
with ranked players on it, a Quick Match is played to its result and both players' ratings and
the rating board are read, a tournament is registered for
and its page read, the daily bonus is claimed twice (the 409 parsed as the declared error), and a
suspended account's 403 is parsed as the declared error. Issue 39: error details (a stale seq's
409), notification data and event data are read through typed fields. The client raises on any status the
schema does not declare, and on any body it cannot parse.

The calls go through the WSGI application in this process (httpx's WSGI transport) against the
test database; the operator's part (a tournament, a suspension) goes through the services.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone

from rivals import engine

pytestmark = pytest.mark.django_db
PACKAGE = "rivals_api_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory, django_db_setup, django_db_blocker):
    """The client package generated from the served schema (``GET /api/schema/``; its rate limit
    counts in the database: config/caches.py)."""
    from django.test import Client

    folder = tmp_path_factory.mktemp("client")
    schema = folder / "schema.json"
    with django_db_blocker.unblock():
        schema.write_bytes(Client().get("/api/schema.json").content)
    venv_bin = str(Path(sys.executable).parent)  # the generator formats its output with ruff
    env = {**os.environ, "PATH": venv_bin + os.pathsep + os.environ.get("PATH", "")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(schema),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr  # nothing skipped
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def wsgi():
    """Django's WSGI app; the calls keep the test's connection (and transaction), as the test
    client does, instead of closing it at the end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _op(name: str):
    return importlib.import_module(f"{PACKAGE}.api.{_TAGS[name]}.{name}")


_TAGS: dict[str, str] = {}


def _clients(generated, wsgi):
    """An anonymous client and a factory of signed-in ones (``Token`` prefix, as the scheme says)."""
    transport = httpx.WSGITransport(app=wsgi)
    for tag in (Path(generated.__file__).parent / "api").iterdir():
        if tag.is_dir():
            for module in tag.glob("*.py"):
                _TAGS[module.stem] = tag.name
    anonymous = generated.Client(base_url="http://testserver", raise_on_unexpected_status=True)
    anonymous.set_httpx_client(httpx.Client(base_url="http://testserver", transport=transport))

    def signed_in(token: str):
        client = generated.AuthenticatedClient(
            base_url="http://testserver", token=token, prefix="Token", raise_on_unexpected_status=True
        )
        client.set_httpx_client(
            httpx.Client(base_url="http://testserver", transport=transport, headers={"Authorization": f"Token {token}"})
        )
        return client

    return anonymous, signed_in


def _play_the_plan(send, code: str, *, count: int | None = None) -> None:
    """Remove the pairs of the deal's winning plan (T-9: every deal has one) through ``send``."""
    for seq, (a, b) in enumerate(engine.deal_from_code(code).plan[:count]):
        send(seq, a, b)


def test_a_generated_client_plays_a_day_of_the_game(generated, wsgi):
    from rivals.fairplay.services import account_suspend
    from rivals.models import Account
    from rivals.ratings.services import ratings_update
    from tournaments.services.lifecycle import tournament_create

    anonymous, signed_in = _clients(generated, wsgi)
    m = importlib.import_module(f"{PACKAGE}.models")

    # two guests
    tokens = {}
    for who in ("a", "b"):
        answer = _op("auth_guest").sync_detailed(
            client=anonymous, body=m.GuestSignInRequest(device_id=f"generated-client-device-{who}")
        )
        assert answer.status_code == 201 and isinstance(answer.parsed, m.GuestSignIn)
        tokens[who] = answer.parsed
    a, b = signed_in(tokens["a"].token), signed_in(tokens["b"].token)
    assert _op("account_get").sync(client=a).account_id == tokens["a"].account_id

    # a classic game won with hints (a 36-tile deal)
    code = engine.random_code(rng_seed=3, layout_id="L08")
    game = _op("game_create").sync(
        client=a, body=m.CodeGameCreateRequest(mode=m.CodeGameCreateModeEnum.CLASSIC, code=code)
    )
    assert isinstance(game, m.Game) and game.status == m.GameStatus.PLAYING and len(game.tiles) == 36
    send = _op("game_intent_send")
    while game.status != m.GameStatus.WON:
        hint = send.sync(game.id, client=a, body=m.HintIntentRequest(seq=game.seq, type_=m.HintIntentTypeEnum.HINT))
        assert isinstance(hint.event, m.HintGivenEvent) and len(hint.event.data.tiles) == 2
        pair = send.sync(
            game.id,
            client=a,
            body=m.RemovePairIntentRequest(
                seq=hint.game.seq, type_=m.RemovePairIntentTypeEnum.REMOVE_PAIR, tiles=list(hint.event.data.tiles)
            ),
        )
        assert isinstance(pair.event, m.PairRemovedEvent)
        game = pair.game
    events = _op("game_events_list").sync(game.id, client=a)
    assert isinstance(events[-1], m.GameWonEvent) and events[-1].data.play_ms >= 0
    # event data read through typed fields, to an array's items (issue 39): nothing left over
    removed = next(e for e in events if isinstance(e, m.PairRemovedEvent))
    assert all(isinstance(t, int) for t in removed.data.tiles) and removed.data.additional_properties == {}

    # level 1 won: R-3 + R-5, 20 points, on every board
    level = _op("level_get").sync(1, client=anonymous)
    game = _op("game_create").sync(
        client=a, body=m.SingleGameCreateRequest(mode=m.SingleGameCreateModeEnum.SINGLE, level=1)
    )
    for a_tile, b_tile in engine.deal_from_code(level.code).plan:
        answer = send.sync(
            game.id,
            client=a,
            body=m.RemovePairIntentRequest(
                seq=game.seq, type_=m.RemovePairIntentTypeEnum.REMOVE_PAIR, tiles=[a_tile, b_tile]
            ),
        )
        game = answer.game
    assert game.status == m.GameStatus.WON and answer.awarded.points == 20
    for board in ("amr", "weekly", "daily"):
        page = _op("ranking_get").sync(m.RankingGetBoard(board), client=anonymous)
        assert [(r.place, r.player.id, r.points) for r in page.results] == [(1, tokens["a"].account_id, 20)]
        assert _op("ranking_me_get").sync(m.RankingMeGetBoard(board), client=a).place == 1
    profile = _op("player_get").sync(tokens["a"].account_id, client=anonymous)
    assert profile.points.amr == 20 and profile.places.amr == 1

    # a Quick Match to its result
    first = _op("queue_join").sync(client=a, body=m.QueueJoinRequest(mode=m.QueueMode.QUICK))
    second = _op("queue_join").sync(client=b, body=m.QueueJoinRequest(mode=m.QueueMode.QUICK))
    assert first.status == m.QueueTicketStatus.WAITING and second.status == m.QueueTicketStatus.MATCHED
    match = _op("match_get").sync(second.match, client=a)
    board = _op("round_get").sync(match.rounds[0].id, client=a)
    assert [o.player.id for o in board.opponents] == [tokens["b"].account_id]
    # the deal's code is secret while the round runs (its commitment is shown): the client
    # solves the board it was dealt
    assert board.code is None and board.salt is None and len(board.commitment) == 64
    layout = engine.get_layout(board.layout)
    faces: list[str | None] = [None] * layout.size
    for tile in board.tiles:
        faces[tile.id] = tile.face
    commitment = board.commitment
    for a_tile, b_tile in engine.solve(
        engine.Board(layout, faces, str(getattr(board.ruleset, "value", board.ruleset)))
    ).plan:
        board = (
            _op("round_intent_send")
            .sync(
                board.id,
                client=a,
                body=m.RemovePairIntentRequest(
                    seq=board.seq, type_=m.RemovePairIntentTypeEnum.REMOVE_PAIR, tiles=[a_tile, b_tile]
                ),
            )
            .game
        )
    assert board.status == m.RoundStatus.ENDED and board.result.reason == m.RoundEndReason.COMPLETED
    # over: the code and the salt are shown, and they verify the commitment
    assert hashlib.sha256(f"{board.code}:{board.salt}".encode()).hexdigest() == commitment
    match = _op("match_get").sync(second.match, client=b)
    assert match.status == m.MatchStatus.FINISHED
    assert [(p.player.id, p.points) for p in match.prizes if p.points] == [(tokens["a"].account_id, 20)]

    # the Quick Match rated both: the winner's rating, the loser's, the profile's, the board
    won = _op("rating_get").sync(tokens["a"].account_id, client=anonymous)
    lost = _op("rating_get").sync(tokens["b"].account_id, client=anonymous)
    assert isinstance(won, m.Rating) and won.mu > 25 > lost.mu and won.ordinal > lost.ordinal
    assert won.provisional is True and won.rated.one_to_one == 1 and won.place is None
    assert _op("player_get").sync(tokens["a"].account_id, client=anonymous).rating.mu == won.mu
    board_page = _op("ratings_list").sync(client=anonymous, limit=10)
    assert isinstance(board_page, m.RatingBoard) and board_page.count == 0  # both provisional
    for n in range(11):  # eleven more duels won by the same player: 12 one-to-one results each
        ratings_update(
            result=f"duel-{n}",
            mode="duel",
            players=[(tokens["a"].account_id, 1, False), (tokens["b"].account_id, 2, False)],
            at=timezone.now(),
        )
    board_page = _op("ratings_list").sync(client=anonymous, limit=10)
    assert [(r.place, r.player.id) for r in board_page.results] == [
        (1, tokens["a"].account_id),
        (2, tokens["b"].account_id),
    ]
    assert board_page.results[0].ordinal == _op("rating_get").sync(tokens["a"].account_id, client=anonymous).ordinal

    # a tournament: registered for, its page read
    now = timezone.now()
    cup = tournament_create(
        actor="operator:test",
        kind="regular",
        title="Client Cup",
        registration_opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
        min_players=2,
        prize_table=[100, 50],
        multipliers=[1],
    )
    registered = _op("tournament_register").sync(cup.pk, client=b)
    assert registered.registered is True and registered.registered_count == 1
    page = _op("tournament_get").sync(cup.pk, client=b)
    assert page.status == m.TournamentStatus.UPCOMING and page.me.registered is True
    assert [row.player.id for row in page.standings] == [tokens["b"].account_id]

    # the daily bonus twice: the second is the declared 409, parsed
    claim = _op("daily_bonus_claim").sync_detailed(client=b)
    assert claim.status_code == 200 and claim.parsed.points == 10
    again = _op("daily_bonus_claim").sync_detailed(client=b)
    assert again.status_code == 409 and isinstance(again.parsed, m.Error)
    assert isinstance(again.parsed.error, m.ConflictError) and again.parsed.error.details.date == claim.parsed.date

    # typed error details (issue 39): a stale seq's 409 says the seq to resend with
    game = _op("game_create").sync(client=a, body=m.CodeGameCreateRequest(mode=m.CodeGameCreateModeEnum.CLASSIC))
    stale = send.sync_detailed(game.id, client=a, body=m.HintIntentRequest(seq=5, type_=m.HintIntentTypeEnum.HINT))
    assert stale.status_code == 409 and isinstance(stale.parsed.error, m.ConflictError)
    assert stale.parsed.error.details.seq == 0 and not hasattr(stale.parsed.error.details, "additional_properties")

    # typed notifications (issue 39): a's match was announced before its round, each read through
    # its own shape's fields
    notes = _op("notification_list").sync(client=a).results
    found = next(i for i, n in enumerate(notes) if isinstance(n, m.MatchFoundNotification))
    started = next(i for i, n in enumerate(notes) if isinstance(n, m.RoundStartedNotification))
    assert found < started and notes[found].data.match_id == notes[started].data.match_id == second.match
    assert notes[started].data.starts_at.tzinfo is not None and notes[started].data.index == 1
    assert not hasattr(notes[found].data, "additional_properties")

    # a suspended account's 403, parsed as the declared error
    account_suspend(account=Account.objects.get(pk=tokens["b"].account_id), reason="bot play", actor="operator:1")
    refused = _op("game_create").sync_detailed(
        client=b, body=m.CodeGameCreateRequest(mode=m.CodeGameCreateModeEnum.CLASSIC)
    )
    assert refused.status_code == 403 and isinstance(refused.parsed.error, m.ForbiddenError)
