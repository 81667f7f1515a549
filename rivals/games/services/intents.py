"""A solo game's intents (and, through ``game_intent_run``, every competitive board's): validated
against the board the server holds (the engine), scored, appended to ``game-<id>`` with the game's
projection in the same transaction. A refused intent raises a ``DomainError`` and changes nothing;
the API records it as a ``RejectedIntent`` (R-38).

Rulesets: ``rivals`` (single player: T-6a lifting, R-13…R-16 scoring, jokers R-8…R-10),
``classic`` (T-6, no score, time, hints counted, undo, shuffle T-14) and ``pool`` (T-3/T-6, P-1…P-4)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rivals import engine
from rivals.accounts.services import account_jokers_change
from rivals.engine import scoring
from rivals.errors import Conflict, Invalid, LimitReached, NoJokers, NotAllowed, TooFast
from rivals.eventstore import event_append
from rivals.games.events import blocked_tile_clicked, joker_used, pair_removed
from rivals.games.models import Game
from rivals.games.services.assists import (
    end_intent,
    hint_intent,
    pause_intent,
    restart_intent,
    resume_intent,
    shuffle_intent,
    undo_intent,
)
from rivals.games.services.awards import single_player_awards
from rivals.games.services.context import (
    IntentContext,
    end_events,
    pairs_on_table,
    present,
    set_plan,
    status_after,
    tile_of,
)
from rivals.games.services.lifecycle import game_board, game_end_time_up, game_for_account, is_time_up
from rivals.games.services.modes import FINISHED, INTENT_TYPES, MAX_JOKERS_PER_GAME, MODE_INTENTS
from rivals.games.state import play_ms
from rivals.intents import intent_envelope
from rivals.models import Account
from rivals.projections import LiveRows


@dataclass
class IntentResult:
    game: Game
    events: list
    # set when the intent was refused but something still had to be recorded (P-4: the time ran
    # out — the game is ended and committed, the intent answered 422)
    refused: NotAllowed | None = None
    # points ledger entries this intent awarded (R-3/R-5 when a single player level is won)
    awarded: list = field(default_factory=list)
    # the board before the intent (the compact answer names what changed: rivals.api.prefer)
    present_before: int = 0
    faces_before: list = field(default_factory=list)


@transaction.atomic
def game_intent_apply(
    *, account: Account, game_id, intent: dict[str, Any], now: datetime | None = None
) -> IntentResult:
    """Validate and apply one intent. Raises a ``DomainError`` (and writes nothing) when refused."""
    kind, seq = intent_envelope(intent, INTENT_TYPES)
    game = game_for_account(account=account, game_id=game_id, lock=True)
    if game.round_id is not None:  # the round's clock decides: only its endpoint may play it
        raise NotAllowed(
            "this board belongs to a competitive round: send its intents to the round",
            details={"round": str(game.round_id)},
        )
    now = now or timezone.now()
    if is_time_up(game, now):  # P-4: end it (committed) and refuse the intent
        events = game_end_time_up(game, now)
        return IntentResult(
            game=game, events=events, refused=NotAllowed("the game's time is up", details={"status": "ended"})
        )
    return game_intent_run(game=game, account=account, kind=kind, seq=seq, intent=intent, now=now)


def game_intent_run(
    *,
    game: Game,
    account: Account,
    kind: str,
    seq: int,
    intent: dict[str, Any],
    now: datetime,
    live: LiveRows | None = None,
) -> IntentResult:
    """The checks and rules every board shares (solo games and the boards of competitive rounds).

    ``game`` is locked by the caller, who has checked everything outside the board (a solo game's
    time limit, a round's clock). ``live`` adds the caller's locked instances for the projections
    (a round's row). Raises a ``DomainError`` (and writes nothing) when refused.
    """
    if seq != game.seq:
        raise Conflict(f"stale seq {seq}: the game has accepted {game.seq} intents", details={"seq": game.seq})
    if game.status in FINISHED:
        raise NotAllowed(f"the game is {game.status}", details={"status": game.status})
    if kind not in MODE_INTENTS[game.mode]:
        raise NotAllowed(f"{kind} is not available in {game.mode} games")
    if game.status == "paused" and kind not in ("resume", "end"):
        raise NotAllowed("the game is paused: resume it first", details={"status": "paused"})
    handler = _HANDLERS[kind]
    present_before, faces_before = game.present_mask, game.faces
    ctx = IntentContext(
        game=game, account=account, board=game_board(game), now=now, at_ms=play_ms(game, now), seq=game.seq + 1
    )
    events, after = handler(ctx, intent)
    stored = event_append(
        stream_id=game.stream_id,
        stream_type="game",
        expected_version=game.version,
        actor=f"account:{account.pk}",
        now=now,
        events=events,
        live=replace(live or LiveRows(), game=game, game_plan_changed=ctx.plan_changed),
    )
    awarded = (after(game, stored) or []) if after else []
    return IntentResult(
        game=game, events=stored, awarded=awarded, present_before=present_before, faces_before=faces_before
    )


def _intent_remove_pair(ctx: IntentContext, intent):
    tiles = intent.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise Invalid("remove_pair needs tiles: [a, b]", details={"tiles": ["two tile ids"]})
    board, game = ctx.board, ctx.game
    a, b = (tile_of(t, board, "tiles") for t in tiles)
    if a == b:
        raise NotAllowed("a pair needs two distinct tiles", details={"tiles": tiles})
    present(board, a)
    present(board, b)
    if not board.can_remove(a, b):
        if not engine.faces_match(board.faces[a], board.faces[b], board.ruleset):
            raise NotAllowed(
                f"tiles {a} ({board.faces[a]}) and {b} ({board.faces[b]}) do not match",
                details={"tiles": [a, b], "reason": "no_match"},
            )
        raise NotAllowed(
            "tile not free",
            details={"tiles": [a, b], "reason": "not_free", "free": [t for t in (a, b) if board.is_free(t)]},
        )
    minimum = settings.RIVALS["MIN_PAIR_INTERVAL_MS"]
    if minimum and game.last_pair_ms is not None and ctx.at_ms - game.last_pair_ms < minimum:
        raise TooFast(
            "pairs faster than humanly possible are refused (R-38)",
            details={"interval_ms": ctx.at_ms - game.last_pair_ms, "minimum_ms": minimum, "game_id": str(game.pk)},
        )
    # R-13…R-15 (and R-38's plausibility check, every ruleset): the interval runs from the
    # previous pair (or joker pair), else from the start.
    interval = ctx.at_ms - (game.last_pair_ms if game.last_pair_ms is not None else 0)
    faces = [board.faces[a], board.faces[b]]
    record_ms, record, decisive = None, None, None  # record and decisive: rivals only
    if game.ruleset == "rivals":
        decisive = engine.is_decisive(board, (a, b))
        score = scoring.rivals_pair_score(interval_ms=interval, record_ms=game.record_ms, decisive=decisive)
        points, record_ms, record = score.points, score.record_ms, score.is_record
    elif game.ruleset == "pool":
        points = scoring.pool_pair_points(board.faces[a], board.faces[b], pairs_on_table(board))
    else:
        points = 0
    board.remove(a, b)
    status = status_after(board)
    removed = pair_removed(
        tiles=[a, b],
        faces=faces,
        play_ms=ctx.at_ms,
        interval_ms=interval,
        points=points,
        record_ms=record_ms,
        record=record,
        decisive=decisive,
        status=status,  # the winning pair says "won", as the GameWon after it does
        seq=ctx.seq,
        round_id=ctx.round_id,
    )
    events = [removed, *end_events(ctx, status, game.score + points)]
    # the cached plan stays: T-10 checks it against the position (removed plan pairs are skipped)
    # and recomputes it only when the player deviated from it

    def after(g: Game, stored):
        if status == "won" and g.mode == "single":
            return single_player_awards(game=g, account=ctx.account, now=ctx.now)
        return []

    return events, after


def _intent_click_blocked(ctx: IntentContext, intent):
    board = ctx.board
    tile = tile_of(intent.get("tile"), board)
    present(board, tile)
    if board.is_free(tile):
        raise NotAllowed(f"tile {tile} is free, not blocked", details={"tile": tile})
    points = scoring.BLOCKED_CLICK_POINTS if ctx.game.ruleset == "rivals" else 0
    clicked = blocked_tile_clicked(tile=tile, points=points, play_ms=ctx.at_ms, seq=ctx.seq, round_id=ctx.round_id)
    return [clicked], None


def _intent_joker(ctx: IntentContext, intent):
    """R-8…R-10: lift a free tile; the server removes it with the partner of R-8's decision."""
    board, game = ctx.board, ctx.game
    tile = tile_of(intent.get("tile"), board)
    present(board, tile)
    if not board.is_free(tile):
        raise NotAllowed(f"tile {tile} is blocked: only a free tile can be lifted", details={"tile": tile})
    if game.jokers_used >= MAX_JOKERS_PER_GAME:
        raise LimitReached(f"at most {MAX_JOKERS_PER_GAME} jokers per game", details={"jokers_used": game.jokers_used})
    account = Account.objects.select_for_update().get(pk=ctx.account.pk)
    if account.jokers <= 0:
        raise NoJokers("no jokers left", details={"jokers": account.jokers})
    partner = engine.joker_partner(board, tile)
    if partner is None:
        raise NotAllowed(f"tile {tile} has no matching tile left on the board", details={"tile": tile})
    board.remove(tile, partner)
    status = status_after(board)
    used = joker_used(
        tiles=[tile, partner],
        faces=[board.faces[tile], board.faces[partner]],
        points=scoring.JOKER_PAIR_POINTS,
        play_ms=ctx.at_ms,
        status=status,
        seq=ctx.seq,
        round_id=ctx.round_id,
    )
    events = [used, *end_events(ctx, status, game.score)]

    set_plan(ctx, None)

    def after(g: Game, stored):
        account_jokers_change(
            account=account,
            delta=-1,
            reason="joker_used",
            actor=f"account:{account.pk}",
            ref={"game_id": str(g.pk)},
            now=ctx.now,
        )
        if status == "won" and g.mode == "single":
            return single_player_awards(game=g, account=account, now=ctx.now)
        return []

    return events, after


_HANDLERS = {
    "remove_pair": _intent_remove_pair,
    "click_blocked": _intent_click_blocked,
    "joker": _intent_joker,
    "hint": hint_intent,
    "undo": undo_intent,
    "shuffle": shuffle_intent,
    "pause": pause_intent,
    "resume": resume_intent,
    "restart": restart_intent,
    "end": end_intent,
}
