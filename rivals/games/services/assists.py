"""The intents that help or pause a player: hint (T-10, P-3), undo (T-11), shuffle (T-14), pause and
resume (T-12), restart (R-10, P-4) and end (P-4). Each returns its events and an after-step (or None)."""

from __future__ import annotations

import hashlib

from rivals import engine
from rivals.engine import scoring
from rivals.errors import LimitReached, NotAllowed
from rivals.eventstore import NewEvent
from rivals.games.services.context import IntentContext, pairs_on_table, set_plan, status_after
from rivals.models import Game


def _pool_limit(game: Game, used: int, what: str) -> None:
    if used >= scoring.POOL_OPTION_USES:
        raise LimitReached(
            f"{what} can be used {scoring.POOL_OPTION_USES} times per game (P-3)", details={f"{what}s_used": used}
        )


def hint_intent(ctx: IntentContext, intent):
    """T-10 (classic/rivals: the next pair of a winning plan) and P-3 (pool: the best free pair)."""
    board, game = ctx.board, ctx.game
    plan = game.plan
    if game.ruleset == "pool":
        _pool_limit(game, game.hints_used, "hint")
        pairs = board.removable_pairs()
        if not pairs:
            data = {"tiles": None, "message": "no free pair", "cost": 0, "counted": False}
        else:
            best = max(
                pairs, key=lambda p: (scoring.pool_pair_points(board.faces[p[0]], board.faces[p[1]], 1), -p[0], -p[1])
            )
            data = {"tiles": list(best), "cost": scoring.pool_option_cost(pairs_on_table(board))}
    else:
        winning = engine.winning_plan(board, [tuple(p) for p in plan] if plan else None)
        if winning:
            plan = [list(p) for p in winning]
            pair = winning[0]
        else:  # unsolvable: any removable pair, or "no moves"
            plan = None
            pair = engine.hint(board)
        data = {"tiles": list(pair) if pair else None, "cost": 0}
        if pair is None:
            data["message"] = "no moves"
    data["play_ms"] = ctx.at_ms
    set_plan(game, plan)
    return [NewEvent("HintGiven", ctx.primary(data))], None


def undo_intent(ctx: IntentContext, intent):
    """T-11: restore the last removed pair (its points are reverted; a spent joker is not refunded)."""
    board, game = ctx.board, ctx.game
    if not game.removed:
        raise NotAllowed("nothing to undo")
    cost = 0
    if game.ruleset == "pool":
        _pool_limit(game, game.undos_used, "undo")
        cost = scoring.pool_option_cost(pairs_on_table(board))  # P-3: pairs on the table when used
    a, b, points, _kind = game.removed[-1]
    board.restore(a, b)
    data = ctx.primary(
        {"tiles": [a, b], "points_reverted": points, "cost": cost, "play_ms": ctx.at_ms, "status": status_after(board)}
    )
    set_plan(game, None)
    return [NewEvent("PairRestored", data)], None


def shuffle_intent(ctx: IntentContext, intent):
    """T-14: permute the remaining faces; ≥1 free pair; solvable preferred; refused if impossible."""
    board, game = ctx.board, ctx.game
    if game.ruleset == "pool":
        _pool_limit(game, game.shuffles_used, "shuffle")
    seed = int.from_bytes(hashlib.sha256(f"{game.pk}:{game.version}".encode()).digest()[:8], "big")
    result = engine.shuffle(board, seed)
    if result is None:
        raise NotAllowed("no arrangement of the remaining tiles gives a free pair: shuffle refused, nothing spent")
    cost = scoring.pool_option_cost(pairs_on_table(board)) if game.ruleset == "pool" else 0
    # The engine deals faces to the remaining positions only; removed tiles keep theirs (T-11: an
    # undo after the shuffle puts a removed pair back as it was — without this it came back
    # faceless and the game answered 500 from then on)
    faces = [
        new if (board.present >> i) & 1 else old
        for i, (new, old) in enumerate(zip(result.faces, board.faces, strict=True))
    ]
    new_board = engine.Board(board.layout, faces, board.ruleset, present=board.present)
    data = ctx.primary(
        {
            "faces": faces,
            "solvable": bool(result.solvable),
            "cost": cost,
            "play_ms": ctx.at_ms,
            "status": status_after(new_board),
        }
    )
    set_plan(game, [list(p) for p in result.plan] if result.solvable else None)
    return [NewEvent("TilesShuffled", data)], None


def pause_intent(ctx: IntentContext, intent):
    if ctx.game.status == "paused":
        raise NotAllowed("the game is already paused")
    return [
        NewEvent(
            "GamePaused", ctx.primary({"play_ms": ctx.at_ms, "status": "paused", "resume_status": ctx.game.status})
        )
    ], None


def resume_intent(ctx: IntentContext, intent):
    if ctx.game.status != "paused":
        raise NotAllowed("the game is not paused")
    return [NewEvent("GameResumed", ctx.primary({"play_ms": ctx.at_ms, "status": status_after(ctx.board)}))], None


def restart_intent(ctx: IntentContext, intent):
    """R-10: a level can be restarted (jokers already used are not refunded); P-4: practice only."""
    deal = engine.deal_from_code(ctx.game.code)
    plan = [list(p) for p in deal.plan]
    set_plan(ctx.game, plan)
    return [NewEvent("GameRestarted", ctx.primary({"play_ms": ctx.at_ms, "status": "playing"}))], None


def end_intent(ctx: IntentContext, intent):
    return [
        NewEvent(
            "GameEnded",
            ctx.primary({"reason": "player", "play_ms": ctx.at_ms, "score": ctx.game.score, "status": "ended"}),
        )
    ], None
