"""Helpers for competitive-play tests: real matches through the real services and engine."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from rivals import engine
from rivals.matches import services as svc
from rivals.matches.models import Match, Round
from rivals.models import Account, Game
from rivals.services.games import game_board

T0 = datetime(2026, 6, 1, 9, 0, 0, tzinfo=dt_timezone.utc)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def accounts(n: int, jokers: int = 0, prefix: str = "p") -> list[Account]:
    from tests.factories import AccountFactory

    return [AccountFactory.create(device_id=f"{prefix}-{i}", jokers=jokers) for i in range(n)]


def match(mode: str, players: list[Account], start_s: float = 0, **kw) -> Match:
    return svc.match_create(mode=mode, account_ids=[a.pk for a in players], now=at(start_s), **kw)


def first_round(m: Match) -> Round:
    return m.rounds.order_by("index").first()


def board(rnd: Round, acc: Account) -> Game:
    return Game.objects.get(round_id=rnd.pk, account=acc)


def play(rnd: Round, acc: Account, kind: str, t: float, **fields):
    game = board(rnd, acc)
    return svc.round_intent_apply(account=acc, round_id=rnd.pk, intent={"seq": game.seq, "type": kind, **fields},
                                  now=at(t))


def plan(rnd: Round, acc: Account) -> list[tuple[int, int]]:
    result = engine.solve(game_board(board(rnd, acc)))
    assert result.solvable
    return [tuple(p) for p in result.plan]


def pair(rnd: Round, acc: Account, t: float):
    """Remove the next pair of a winning plan at ``t`` seconds."""
    return play(rnd, acc, "remove_pair", t, tiles=list(plan(rnd, acc)[0]))


def blocked_tile(rnd: Round, acc: Account) -> int:
    b = game_board(board(rnd, acc))
    return next(t for t in range(b.layout.size) if (b.present >> t) & 1 and not b.is_free(t))


def reload(rnd: Round) -> Round:
    return Round.objects.get(pk=rnd.pk)
