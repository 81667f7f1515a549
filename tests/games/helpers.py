"""Helpers for game tests: real games through the real services and engine (no mocks)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rivals import engine
from rivals.games import services as svc
from rivals.games.models import Game
from rivals.models import Account

T0 = datetime(2026, 6, 1, 9, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def account(name: str, jokers: int = 0) -> Account:
    from tests.factories import AccountFactory

    return AccountFactory.create(device_id=f"dev-{name}", jokers=jokers)


def intent(game: Game, acc: Account, kind: str, now: datetime | None = None, **fields):
    game.refresh_from_db()
    return svc.game_intent_apply(
        account=acc, game_id=game.pk, intent={"seq": game.seq, "type": kind, **fields}, now=now
    )


def board_of(game: Game) -> engine.Board:
    game.refresh_from_db()
    return svc.game_board(game)


def plan_of(game: Game) -> list[tuple[int, int]]:
    """The server's winning plan from the current position (the solver, as the hint uses it)."""
    game.refresh_from_db()
    result = engine.solve(svc.game_board(game))
    assert result.solvable
    return [tuple(p) for p in result.plan]


def non_decisive_pair(game: Game) -> tuple[int, int]:
    """A removable pair that keeps the board solvable but is not the only one doing so (R-15)."""
    game.refresh_from_db()
    board = svc.game_board(game)
    for pair in plan_of(game)[:1] + board.removable_pairs():
        if not engine.is_decisive(board, pair):
            after = board.copy()
            after.remove(*pair)
            if engine.solve(after).solvable:
                return pair
    raise AssertionError("every pair is decisive here")


def new_game(acc: Account, mode: str = "single", created_s: float = 0, **kw) -> Game:
    return svc.game_create(account=acc, mode=mode, now=at(created_s), **kw)


def play_to_win(game: Game, acc: Account, start_s: float, finish_s: float):
    """Remove every pair of a winning plan, evenly spaced, the last one exactly at ``finish_s``."""
    pairs = plan_of(game)
    step = (finish_s - start_s) / len(pairs)
    result = None
    for i, pair in enumerate(pairs, start=1):
        when = at(finish_s) if i == len(pairs) else at(start_s + step * i)
        result = intent(game, acc, "remove_pair", now=when, tiles=list(pair))
    game.refresh_from_db()
    assert game.status == "won"
    return result
