"""Property: random play on a round — legal pairs, refused pairs, blocked taps, jokers, forbidden
intents, pauses of any length, several players — never breaks the round's invariants."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.errors import DomainError
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches import services as svc
from rivals.matches.models import ROUND_IDLE, Round
from rivals.models import Event
from tests.matches.helpers import T0, accounts, at, intent_for, match, round_clock

_names = itertools.count()

actions = st.lists(
    st.tuples(
        st.sampled_from(["pair", "pair", "pair", "bad_pair", "blocked", "joker", "hint", "undo", "wait", "body"]),
        st.integers(0, 3),  # which player
        st.integers(0, 10_000),  # a choice among options
        st.floats(0.05, 25, allow_nan=False),  # seconds until the next intent
    ),
    min_size=1,
    max_size=40,
)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plays=actions, mode=st.sampled_from(["quick", "duel", "arena", "tournament"]), cut=st.booleans())
def test_random_play_keeps_the_round_invariants(plays, mode, cut):
    n = {"quick": 2, "duel": 2, "arena": 4, "tournament": 3}[mode]
    players = accounts(n, jokers=1, prefix=f"prop{next(_names)}")
    m = match(mode, players, cutoff_at=at(60) if cut and mode == "tournament" else None)
    rnd = m.rounds.get(index=1)
    t = 0.0
    for kind, who, choice, pause in plays:
        t += pause
        acc = players[who % n]
        game = Game.objects.get(round_id=rnd.pk, account=acc)
        board = game_board(game)
        body = intent_for(kind, board, choice, game.seq)
        try:
            svc.round_intent_apply(account=acc, round_id=rnd.pk, intent=body, now=at(t))
        except DomainError:
            pass  # refused: nothing written (checked below through the events)
        _check(rnd.pk)
    svc.rounds_end_due(now=at(t + 400))
    _check(rnd.pk)
    assert Round.objects.get(pk=rnd.pk).status == "ended"


def _check(round_id) -> None:
    rnd = round_clock(round_id)  # R-17: the deadline from the boards' last pairs (issue 35)
    ended = list(Event.objects.filter(stream_id=rnd.stream_id, type="RoundEnded"))
    assert len(ended) <= 1
    assert (rnd.status == "ended") == bool(ended)
    last_pair = None
    for game in Game.objects.filter(round_id=round_id):
        events = list(Event.objects.filter(stream_id=game.stream_id).order_by("version"))
        assert [e.version for e in events] == list(range(1, len(events) + 1))  # gap-free stream
        scored = [e for e in events if e.type in ("PairRemoved", "JokerUsed", "BlockedTileClicked")]
        assert game.score == sum(e.data["points"] for e in scored)  # R-13…R-16 from the events
        assert game.seq == sum(1 for e in events if "seq" in e.data)
        assert game.jokers_used <= 2
        # a board's pair happened at its play time (a round's board never pauses)
        pairs_at = [
            rnd.starts_at + timedelta(milliseconds=e.data["play_ms"])
            for e in events
            if e.type in ("PairRemoved", "JokerUsed")
        ]
        if pairs_at:
            last_pair = max([last_pair or pairs_at[-1], *pairs_at])
        if ended:  # nothing a player did is dated after the end
            assert all(e.recorded_at <= ended[0].recorded_at for e in scored)
            assert game.status in ("won", "ended")
    expected = min(
        [rnd.hard_ends_at, (last_pair or rnd.starts_at) + ROUND_IDLE, *([rnd.cutoff_at] if rnd.cutoff_at else [])]
    )
    assert rnd.ends_at == expected if rnd.status == "running" else rnd.ended_at <= expected
    assert rnd.hard_ends_at - rnd.starts_at == timedelta(minutes=5) and rnd.starts_at >= T0
