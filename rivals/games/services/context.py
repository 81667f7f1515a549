"""What every intent handler works with: the locked game, its board and the server clock
(``IntentContext``), and the checks of tiles and boards the handlers share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from rivals import engine
from rivals.errors import Invalid, NotAllowed
from rivals.eventstore import NewEvent
from rivals.games.events import game_stuck, game_won
from rivals.games.models import Game
from rivals.models import Account


@dataclass
class IntentContext:
    game: Game
    account: Account
    board: engine.Board
    now: datetime
    at_ms: int
    seq: int
    # the handler set the board's cached plan (``set_plan``): the append writes that column too
    plan_changed: bool = False

    @property
    def round_id(self) -> UUID | None:
        """The round of a competitive board (its events name it: the round's idle clock reads them)."""
        return self.game.round_id


MAX_TILES = 144  # T-1: the largest deal; a tile id is a position of the layout


def tile_of(value, board: engine.Board, name: str = "tile") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{name} must be a tile id (integer)", details={name: ["not an integer"]})
    if not 0 <= value < MAX_TILES:  # what the schema states of any tile id: 400
        raise Invalid(f"{name} {value} is not a tile id (0 … {MAX_TILES - 1})", details={name: ["unknown tile id"]})
    if value >= board.layout.size:  # a tile id this game's layout does not have (L08 has 36): the game refuses it
        raise NotAllowed(
            f"{name} {value} is not a tile of this game ({board.layout.size} tiles)",
            details={"tile": value, "layout_tiles": board.layout.size},
        )
    return value


def present(board: engine.Board, tile: int) -> None:
    if not (board.present >> tile) & 1:
        raise NotAllowed(f"tile {tile} is no longer on the board", details={"tile": tile})


def status_after(board: engine.Board) -> str:
    """T-8: won when empty; stuck as soon as no removable pair exists."""
    if board.is_won():
        return "won"
    return "stuck" if board.is_stuck() else "playing"


def pairs_on_table(board: engine.Board) -> int:
    return board.present.bit_count() // 2


def set_plan(ctx: IntentContext, plan) -> None:
    """The plan is a cache on the row, written with the projection's save of this intent (only
    when it changed: it is the largest column the hot path would otherwise rewrite) — the intent
    runner hands ``ctx.plan_changed`` to the append (``LiveRows.game_plan_changed``)."""
    ctx.game.plan = plan
    ctx.plan_changed = True


def end_events(ctx: IntentContext, status: str, score: int) -> list[NewEvent]:
    if status == "won":
        level = ctx.game.level if ctx.game.mode == "single" else None
        return [game_won(play_ms=ctx.at_ms, score=score, account_id=ctx.account.pk, level=level)]
    if status == "stuck":
        return [game_stuck(play_ms=ctx.at_ms)]
    return []
