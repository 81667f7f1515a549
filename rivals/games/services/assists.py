"""The intents that help or pause a player: hint (T-10, P-3), undo (T-11), shuffle (T-14), pause and
resume (T-12), restart (R-10, P-4) and end (P-4). Each returns its events and an after-step (or None)."""

from __future__ import annotations

import hashlib

from rivals import engine
from rivals.engine import scoring
from rivals.errors import LimitReached, NotAllowed
from rivals.games.events import (
    game_ended,
    game_paused,
    game_restarted,
    game_resumed,
    hint_given,
    pair_restored,
    tiles_shuffled,
)
from rivals.games.models import Game
from rivals.games.services.context import IntentContext, pairs_on_table, set_plan, status_after


def _pool_limit(game: Game, used: int, what: str) -> None:
    if used >= scoring.POOL_OPTION_USES:
        raise LimitReached(
            f"{what} can be used {scoring.POOL_OPTION_USES} times per game (P-3)", details={f"{what}s_used": used}
        )


def hint_intent(ctx: IntentContext, intent):
    """T-10 (classic/rivals: the next pair of a winning plan) and P-3 (pool: the best free pair)."""
    board, game = ctx.board, ctx.game
    plan = game.plan
    message, counted = None, None
    if game.ruleset == "pool":
        _pool_limit(game, game.hints_used, "hint")
        pairs = board.removable_pairs()
        if not pairs:
            tiles, message, cost, counted = None, "no free pair", 0, False
        else:
            best = max(
                pairs, key=lambda p: (scoring.pool_pair_points(board.faces[p[0]], board.faces[p[1]], 1), -p[0], -p[1])
            )
            tiles, cost = list(best), scoring.pool_option_cost(pairs_on_table(board))
    else:
        winning = engine.winning_plan(board, [tuple(p) for p in plan] if plan else None)
        if winning:
            plan = [list(p) for p in winning]
            pair = winning[0]
        else:  # unsolvable: any removable pair, or "no moves"
            plan = None
            pair = engine.hint(board)
        tiles, cost = (list(pair) if pair else None), 0
        if pair is None:
            message = "no moves"
    set_plan(ctx, plan)
    hint = hint_given(
        tiles=tiles, message=message, cost=cost, counted=counted, play_ms=ctx.at_ms, seq=ctx.seq, round_id=ctx.round_id
    )
    return [hint], None


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
    restored = pair_restored(
        tiles=[a, b],
        points_reverted=points,
        cost=cost,
        play_ms=ctx.at_ms,
        status=status_after(board),
        seq=ctx.seq,
        round_id=ctx.round_id,
    )
    set_plan(ctx, None)
    return [restored], None


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
    shuffled = tiles_shuffled(
        faces=faces,
        solvable=bool(result.solvable),
        cost=cost,
        play_ms=ctx.at_ms,
        status=status_after(new_board),
        seq=ctx.seq,
        round_id=ctx.round_id,
    )
    set_plan(ctx, [list(p) for p in result.plan] if result.solvable else None)
    return [shuffled], None


def pause_intent(ctx: IntentContext, intent):
    if ctx.game.status == "paused":
        raise NotAllowed("the game is already paused")
    paused = game_paused(play_ms=ctx.at_ms, resume_status=ctx.game.status, seq=ctx.seq, round_id=ctx.round_id)
    return [paused], None


def resume_intent(ctx: IntentContext, intent):
    if ctx.game.status != "paused":
        raise NotAllowed("the game is not paused")
    resumed = game_resumed(play_ms=ctx.at_ms, status=status_after(ctx.board), seq=ctx.seq, round_id=ctx.round_id)
    return [resumed], None


def restart_intent(ctx: IntentContext, intent):
    """R-10: a level can be restarted (jokers already used are not refunded); P-4: practice only."""
    deal = engine.deal_from_code(ctx.game.code)
    plan = [list(p) for p in deal.plan]
    set_plan(ctx, plan)
    return [game_restarted(play_ms=ctx.at_ms, seq=ctx.seq, round_id=ctx.round_id)], None


def end_intent(ctx: IntentContext, intent):
    ended = game_ended(reason="player", play_ms=ctx.at_ms, score=ctx.game.score, seq=ctx.seq, round_id=ctx.round_id)
    return [ended], None
