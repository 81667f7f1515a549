"""Solo games: single player levels (Rivals scoring), classic and pool practice.

Clients send intents; the server validates each against the board it holds (the engine), owns
the clock, scores the result and appends events to the game's stream (``game-<id>``). The game
projection is updated in the same transaction. A refused intent raises a ``DomainError`` and
changes nothing; the API records it as a ``RejectedIntent`` (R-38).

Rulesets: ``rivals`` (single player: T-6a lifting, R-13…R-16 scoring, jokers R-8…R-10),
``classic`` (T-6, no score, time, hints counted, undo, shuffle T-14) and ``pool`` (T-3/T-6, P-1…P-4).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import DateTimeField
from django.db.models.expressions import RawSQL
from django.utils import timezone

from rivals import engine
from rivals.engine import scoring
from rivals.errors import (
    Conflict,
    Invalid,
    LimitReached,
    NoJokers,
    NotAllowed,
    NotFound,
    TooFast,
)
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from rivals.intents import intent_envelope
from rivals.models import Account, Game, Level, LevelBest, PointsLedgerEntry
from rivals.rawsql import execute_prepared, models_from_rows, select_list
from rivals.services.accounts import account_jokers_change
from rivals.services.game_state import play_ms
from rivals.services.points import points_award

MODES = {"single": "rivals", "classic": "classic", "pool_practice": "pool"}
# Modes another flow creates (a pot competition's entry, P-5), never ``POST /games`` directly.
HOSTED_MODES = {"pool_pot": "pool"}
MAX_JOKERS_PER_GAME = 2
FINISHED = ("won", "ended")

INTENT_TYPES = (
    "remove_pair",
    "click_blocked",
    "joker",
    "hint",
    "undo",
    "shuffle",
    "pause",
    "resume",
    "restart",
    "end",
)
# the boards of competitive rounds (rivals.matches): one Game per player and round
ROUND_MODES = ("quick", "duel", "arena", "tournament")
# which intents each mode allows (API.md; T-12 pause; R-9 jokers; P-4 restart only in practice).
# Rounds: no pause, undo, hint, shuffle, restart or end (T-12, API.md); jokers except in Quick
# Match (R-9 Decision).
MODE_INTENTS = {
    "single": set(INTENT_TYPES),
    "classic": set(INTENT_TYPES) - {"joker", "restart"},
    "pool_practice": set(INTENT_TYPES) - {"joker", "pause", "resume"},
    "pool_pot": set(INTENT_TYPES) - {"joker", "pause", "resume", "restart"},  # P-4: restart only in practice
    "quick": {"remove_pair", "click_blocked"},
    "duel": {"remove_pair", "click_blocked", "joker"},
    "arena": {"remove_pair", "click_blocked", "joker"},
    "tournament": {"remove_pair", "click_blocked", "joker"},
}


def _rules() -> dict[str, Any]:
    return settings.RIVALS


# --- levels ------------------------------------------------------------------------------------


def level_get(*, number: int) -> Level:
    """R-1/R-2: the stored level, else the engine's shipped table row (stored on first use; the
    batch job stores the same rows)."""
    if not 1 <= number <= engine.MAX_LEVEL:
        raise NotFound(f"level {number} does not exist (1…{engine.MAX_LEVEL})")
    level = Level.objects.filter(number=number).first()
    if level is None:
        info = engine.level_info(number)
        level, _ = Level.objects.get_or_create(
            number=number,
            defaults={
                "code": info.code,
                "layout": info.layout,
                "hard": info.hard,
                "difficulty": float(info.difficulty),
            },
        )
    return level


def level_unlocked(*, account: Account, number: int) -> bool:
    """Level 1 is open; level n opens when the account has won level n − 1."""
    return number == 1 or LevelBest.objects.filter(account=account, level=number - 1).exists()


# --- games -------------------------------------------------------------------------------------


def _parse_code(code: str) -> tuple[str, int]:
    try:
        return engine.parse_code(code)
    except engine.CodeError as exc:
        raise Invalid(str(exc), details={"code": [str(exc)], "part": getattr(exc, "part", None)}) from exc
    except (KeyError, ValueError) as exc:
        raise Invalid(f"bad game code: {exc}", details={"code": [str(exc)]}) from exc


@transaction.atomic
def game_create(
    *,
    account: Account,
    mode: str,
    level: int | None = None,
    code: str | None = None,
    now: datetime | None = None,
    time_limit_s: int | None = None,
) -> Game:
    """``time_limit_s``: a pool game's server time (P-4), default ``RIVALS["POOL_TIME_LIMIT_S"]``."""
    if mode not in MODES and mode not in HOSTED_MODES:
        raise Invalid(f"unknown mode {mode!r}", details={"mode": [f"one of {sorted(MODES)}"]})
    ruleset = MODES.get(mode) or HOSTED_MODES[mode]
    if mode == "single":
        if level is None:
            raise Invalid("a single player game needs a level", details={"level": ["required"]})
        lvl = level_get(number=level)
        if not level_unlocked(account=account, number=level):
            raise NotAllowed(
                f"level {level} is locked: win level {level - 1} first", details={"level": level, "requires": level - 1}
            )
        code = lvl.code
    elif code:
        layout_id, number = _parse_code(code)
        code = engine.format_code(layout_id, number)  # canonical upper case
    else:
        code = engine.random_code()
    deal = engine.deal_from_code(code)
    return game_start(
        account=account,
        mode=mode,
        deal=deal,
        now=now,
        level=level if mode == "single" else None,
        time_limit_ms=(time_limit_s or _rules()["POOL_TIME_LIMIT_S"]) * 1000 if ruleset == "pool" else None,
        plan=True,
    )


def game_started(
    *,
    account_id: int,
    mode: str,
    deal: engine.Deal,
    level: int | None = None,
    time_limit_ms: int | None = None,
    round_id=None,
    starts_at: datetime | None = None,
) -> tuple[str, NewEvent]:
    """The stream id and ``GameStarted`` of a new board of ``deal`` (a solo game, or one player's
    board of a competitive round: ``round_id`` and the round's ``starts_at``, from which its clock
    runs)."""
    game_id = uuid.uuid4()
    data = {
        "game_id": str(game_id),
        "account_id": account_id,
        "mode": mode,
        "ruleset": MODES.get(mode) or HOSTED_MODES.get(mode, "rivals"),
        "level": level,
        "code": deal.code,
        "layout": deal.layout.id,
        "faces": list(deal.faces),
        "time_limit_ms": time_limit_ms,
    }
    if round_id is not None:
        data.update(round_id=str(round_id), starts_at=starts_at.isoformat())
    return f"game-{game_id}", NewEvent("GameStarted", data)


def game_start(
    *,
    account: Account,
    mode: str,
    deal: engine.Deal,
    now: datetime | None = None,
    level: int | None = None,
    time_limit_ms: int | None = None,
    plan: bool = False,
) -> Game:
    """Append ``GameStarted`` for one solo board of ``deal``."""
    stream_id, started = game_started(
        account_id=account.pk, mode=mode, deal=deal, level=level, time_limit_ms=time_limit_ms
    )
    event_append(
        stream_id=stream_id,
        stream_type="game",
        expected_version=0,
        now=now,
        actor=f"account:{account.pk}",
        events=[started],
    )
    game_id = started.data["game_id"]
    if plan:  # the winning plan is a cache for hints (T-10)
        Game.objects.filter(pk=game_id).update(plan=[list(p) for p in deal.plan])
    return Game.objects.get(pk=game_id)


def game_for_account(*, account: Account, game_id, lock: bool = False) -> Game:
    """Another account's game is 404, not 403: existence is not leaked."""
    games = []
    if is_uuid(game_id):
        # a raw SELECT: this runs on every intent, and the ORM would compile it each time (and
        # RawQuerySet costs more CPU than the row's own conversion)
        sql = f"SELECT {select_list(Game)} FROM rivals_game WHERE id = %s AND account_id = %s" + (
            " FOR UPDATE" if lock else ""
        )
        with connection.cursor() as django_cursor:
            cur = execute_prepared(django_cursor, sql, [str(game_id), account.pk])
            games = models_from_rows(Game, cur, cur.fetchall())
    if not games:
        raise NotFound("no such game")
    return games[0]


def game_board(game: Game) -> engine.Board:
    return engine.Board(engine.get_layout(game.layout), game.faces, game.ruleset, present=game.present_mask)


@dataclass
class IntentResult:
    game: Game
    events: list
    # set when the intent was refused but something still had to be recorded (P-4: the time ran
    # out — the game is ended and committed, the intent answered 422)
    refused: NotAllowed | None = None
    # points ledger entries this intent awarded (R-3/R-5 when a single player level is won)
    awarded: list = field(default_factory=list)


def _time_up_event(game: Game) -> NewEvent:
    return NewEvent(
        "GameEnded", {"reason": "time_up", "play_ms": game.time_limit_ms, "score": game.score, "status": "ended"}
    )


def _is_time_up(game: Game, now: datetime) -> bool:
    return game.time_limit_ms is not None and game.status not in FINISHED and play_ms(game, now) >= game.time_limit_ms


@transaction.atomic
def game_expire_if_due(*, game: Game, now: datetime | None = None) -> bool:
    """P-4: a pool game ends when its time runs out — enforced on every access and by beat."""
    now = now or timezone.now()
    if not _is_time_up(game, now):
        return False
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not _is_time_up(game, now):
        return False
    event_append(
        stream_id=game.stream_id,
        stream_type="game",
        expected_version=game.version,
        actor="system",
        now=now,
        events=[_time_up_event(game)],
        live={"game": game},
    )
    return True


def games_expire_due(*, now: datetime | None = None) -> int:
    """Beat job: end every pool game whose time ran out even if its client stopped calling."""
    now = now or timezone.now()
    # only the games whose running clock has passed their limit (the database picks them; the
    # locked re-check in game_expire_if_due decides)
    due_at = RawSQL(
        "running_since + (time_limit_ms - elapsed_before_ms) * interval '1 millisecond'",
        [],
        output_field=DateTimeField(),
    )
    due = (
        Game.objects.filter(time_limit_ms__isnull=False, running_since__isnull=False, status__in=("playing", "stuck"))
        .annotate(due_at=due_at)
        .filter(due_at__lte=now)
        .order_by("pk")
    )
    return sum(game_expire_if_due(game=game, now=now) for game in due)


def _tile(value, board: engine.Board, name: str = "tile") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{name} must be a tile id (integer)", details={name: ["not an integer"]})
    if not 0 <= value < board.layout.size:
        raise Invalid(f"{name} {value} is not a tile of this game", details={name: ["unknown tile id"]})
    return value


def _present(board: engine.Board, tile: int) -> None:
    if not (board.present >> tile) & 1:
        raise NotAllowed(f"tile {tile} is no longer on the board", details={"tile": tile})


def _status_after(board: engine.Board) -> str:
    """T-8: won when empty; stuck as soon as no removable pair exists."""
    if board.is_won():
        return "won"
    return "stuck" if board.is_stuck() else "playing"


def _pairs_on_table(board: engine.Board) -> int:
    return board.present.bit_count() // 2


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
    if _is_time_up(game, now):  # P-4: end it (committed) and refuse the intent
        events = event_append(
            stream_id=game.stream_id,
            stream_type="game",
            expected_version=game.version,
            actor="system",
            now=now,
            events=[_time_up_event(game)],
            live={"game": game},
        )
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
    live: dict[str, Any] | None = None,
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
    ctx = _Ctx(game=game, account=account, board=game_board(game), now=now, at_ms=play_ms(game, now), seq=game.seq + 1)
    events, after = handler(ctx, intent)
    stored = event_append(
        stream_id=game.stream_id,
        stream_type="game",
        expected_version=game.version,
        actor=f"account:{account.pk}",
        now=now,
        events=events,
        live={**(live or {}), "game": game},
    )
    awarded = (after(game, stored) or []) if after else []
    return IntentResult(game=game, events=stored, awarded=awarded)


@dataclass
class _Ctx:
    game: Game
    account: Account
    board: engine.Board
    now: datetime
    at_ms: int
    seq: int

    def primary(self, data: dict[str, Any]) -> dict[str, Any]:
        if self.game.round_id is not None:  # the round's projection (its idle clock) reads it
            return {**data, "seq": self.seq, "round_id": str(self.game.round_id)}
        return {**data, "seq": self.seq}


def _set_plan(game: Game, plan) -> None:
    """The plan is a cache on the row, written with the projection's save of this intent (only
    when it changed: it is the largest column the hot path would otherwise rewrite)."""
    game.plan = plan
    game.plan_changed = True


def _end_events(ctx: _Ctx, status: str, score: int) -> list[NewEvent]:
    if status == "won":
        return [
            NewEvent(
                "GameWon",
                {
                    "play_ms": ctx.at_ms,
                    "score": score,
                    "account_id": ctx.account.pk,
                    "level": ctx.game.level if ctx.game.mode == "single" else None,
                    "status": "won",
                },
            )
        ]
    if status == "stuck":
        return [NewEvent("GameStuck", {"play_ms": ctx.at_ms, "status": "stuck"})]
    return []


def _intent_remove_pair(ctx: _Ctx, intent):
    tiles = intent.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise Invalid("remove_pair needs tiles: [a, b]", details={"tiles": ["two tile ids"]})
    board, game = ctx.board, ctx.game
    a, b = (_tile(t, board, "tiles") for t in tiles)
    if a == b:
        raise NotAllowed("a pair needs two distinct tiles", details={"tiles": tiles})
    _present(board, a)
    _present(board, b)
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
    minimum = _rules()["MIN_PAIR_INTERVAL_MS"]
    if minimum and game.last_pair_ms is not None and ctx.at_ms - game.last_pair_ms < minimum:
        raise TooFast(
            "pairs faster than humanly possible are refused (R-38)",
            details={"interval_ms": ctx.at_ms - game.last_pair_ms, "minimum_ms": minimum, "game_id": str(game.pk)},
        )
    # R-13…R-15 (and R-38's plausibility check, every ruleset): the interval runs from the
    # previous pair (or joker pair), else from the start.
    interval = ctx.at_ms - (game.last_pair_ms if game.last_pair_ms is not None else 0)
    data: dict[str, Any] = {
        "tiles": [a, b],
        "faces": [board.faces[a], board.faces[b]],
        "play_ms": ctx.at_ms,
        "interval_ms": interval,
    }
    if game.ruleset == "rivals":
        decisive = engine.is_decisive(board, (a, b))
        score = scoring.rivals_pair_score(interval_ms=interval, record_ms=game.record_ms, decisive=decisive)
        data.update(points=score.points, record_ms=score.record_ms, record=score.is_record, decisive=decisive)
    elif game.ruleset == "pool":
        data.update(
            points=scoring.pool_pair_points(board.faces[a], board.faces[b], _pairs_on_table(board)), record_ms=None
        )
    else:
        data.update(points=0, record_ms=None)
    board.remove(a, b)
    status = _status_after(board)
    data["status"] = status  # the winning pair says "won", as the GameWon after it does
    events = [NewEvent("PairRemoved", ctx.primary(data))]
    events += _end_events(ctx, status, game.score + data["points"])
    # the cached plan stays: T-10 checks it against the position (removed plan pairs are skipped)
    # and recomputes it only when the player deviated from it

    def after(g: Game, stored):
        if status == "won" and g.mode == "single":
            return _single_player_awards(game=g, account=ctx.account, now=ctx.now)
        return []

    return events, after


def _intent_click_blocked(ctx: _Ctx, intent):
    board = ctx.board
    tile = _tile(intent.get("tile"), board)
    _present(board, tile)
    if board.is_free(tile):
        raise NotAllowed(f"tile {tile} is free, not blocked", details={"tile": tile})
    points = scoring.BLOCKED_CLICK_POINTS if ctx.game.ruleset == "rivals" else 0
    return [NewEvent("BlockedTileClicked", ctx.primary({"tile": tile, "points": points, "play_ms": ctx.at_ms}))], None


def _intent_joker(ctx: _Ctx, intent):
    """R-8…R-10: lift a free tile; the server removes it with the partner of R-8's decision."""
    board, game = ctx.board, ctx.game
    tile = _tile(intent.get("tile"), board)
    _present(board, tile)
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
    status = _status_after(board)
    data = ctx.primary(
        {
            "tiles": [tile, partner],
            "faces": [board.faces[tile], board.faces[partner]],
            "points": scoring.JOKER_PAIR_POINTS,
            "play_ms": ctx.at_ms,
            "status": status,
        }
    )
    events = [NewEvent("JokerUsed", data), *_end_events(ctx, status, game.score)]

    _set_plan(game, None)

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
            return _single_player_awards(game=g, account=account, now=ctx.now)
        return []

    return events, after


def _pool_limit(game: Game, used: int, what: str) -> None:
    if used >= scoring.POOL_OPTION_USES:
        raise LimitReached(
            f"{what} can be used {scoring.POOL_OPTION_USES} times per game (P-3)", details={f"{what}s_used": used}
        )


def _intent_hint(ctx: _Ctx, intent):
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
            data = {"tiles": list(best), "cost": scoring.pool_option_cost(_pairs_on_table(board))}
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
    _set_plan(game, plan)
    return [NewEvent("HintGiven", ctx.primary(data))], None


def _intent_undo(ctx: _Ctx, intent):
    """T-11: restore the last removed pair (its points are reverted; a spent joker is not refunded)."""
    board, game = ctx.board, ctx.game
    if not game.removed:
        raise NotAllowed("nothing to undo")
    cost = 0
    if game.ruleset == "pool":
        _pool_limit(game, game.undos_used, "undo")
        cost = scoring.pool_option_cost(_pairs_on_table(board))  # P-3: pairs on the table when used
    a, b, points, _kind = game.removed[-1]
    board.restore(a, b)
    data = ctx.primary(
        {"tiles": [a, b], "points_reverted": points, "cost": cost, "play_ms": ctx.at_ms, "status": _status_after(board)}
    )
    _set_plan(game, None)
    return [NewEvent("PairRestored", data)], None


def _intent_shuffle(ctx: _Ctx, intent):
    """T-14: permute the remaining faces; ≥1 free pair; solvable preferred; refused if impossible."""
    board, game = ctx.board, ctx.game
    if game.ruleset == "pool":
        _pool_limit(game, game.shuffles_used, "shuffle")
    seed = int.from_bytes(hashlib.sha256(f"{game.pk}:{game.version}".encode()).digest()[:8], "big")
    result = engine.shuffle(board, seed)
    if result is None:
        raise NotAllowed("no arrangement of the remaining tiles gives a free pair: shuffle refused, nothing spent")
    cost = scoring.pool_option_cost(_pairs_on_table(board)) if game.ruleset == "pool" else 0
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
            "status": _status_after(new_board),
        }
    )
    _set_plan(game, [list(p) for p in result.plan] if result.solvable else None)
    return [NewEvent("TilesShuffled", data)], None


def _intent_pause(ctx: _Ctx, intent):
    if ctx.game.status == "paused":
        raise NotAllowed("the game is already paused")
    return [
        NewEvent(
            "GamePaused", ctx.primary({"play_ms": ctx.at_ms, "status": "paused", "resume_status": ctx.game.status})
        )
    ], None


def _intent_resume(ctx: _Ctx, intent):
    if ctx.game.status != "paused":
        raise NotAllowed("the game is not paused")
    return [NewEvent("GameResumed", ctx.primary({"play_ms": ctx.at_ms, "status": _status_after(ctx.board)}))], None


def _intent_restart(ctx: _Ctx, intent):
    """R-10: a level can be restarted (jokers already used are not refunded); P-4: practice only."""
    deal = engine.deal_from_code(ctx.game.code)
    plan = [list(p) for p in deal.plan]
    _set_plan(ctx.game, plan)
    return [NewEvent("GameRestarted", ctx.primary({"play_ms": ctx.at_ms, "status": "playing"}))], None


def _intent_end(ctx: _Ctx, intent):
    return [
        NewEvent(
            "GameEnded",
            ctx.primary({"reason": "player", "play_ms": ctx.at_ms, "score": ctx.game.score, "status": "ended"}),
        )
    ], None


_HANDLERS = {
    "remove_pair": _intent_remove_pair,
    "click_blocked": _intent_click_blocked,
    "joker": _intent_joker,
    "hint": _intent_hint,
    "undo": _intent_undo,
    "shuffle": _intent_shuffle,
    "pause": _intent_pause,
    "resume": _intent_resume,
    "restart": _intent_restart,
    "end": _intent_end,
}


# --- single player points (R-3, R-5, R-7) ---------------------------------------------------------

FIRST_COMPLETION_POINTS = 10
FIRST_PLACE_BONUS = 10
TOP10_BONUS = 5


def _award_key(kind: str, account_id: int, level: int) -> str:
    return f"single_player:{kind}:{account_id}:{level}"


def _single_player_awards(*, game: Game, account: Account, now: datetime) -> list[PointsLedgerEntry]:
    """At the moment of completion: R-3 first completion (once), R-5 time bonus (≤ 1 per game).

    The place the new time takes is 1 + the number of *other* accounts whose best time is
    strictly shorter (equal times share a place). The first-place bonus (10) and the top-10 bonus
    (5) can each be earned once per account and level; after the 10 no time bonus at all.
    """
    level, time_ms = game.level, game.completion_ms
    awards = []
    ref = {"game_id": str(game.pk), "level": level, "time_ms": time_ms}
    first = points_award(
        account=account,
        amount=FIRST_COMPLETION_POINTS,
        source="single_player",
        key=_award_key("first_completion", account.pk, level),
        at=now,
        ref=ref,
    )
    if first:
        awards.append(first)
    earned = set(
        PointsLedgerEntry.objects.filter(
            award_key__in=[_award_key("first_place", account.pk, level), _award_key("top10", account.pk, level)]
        ).values_list("award_key", flat=True)
    )
    if _award_key("first_place", account.pk, level) in earned:
        return awards  # after the 10, no further time bonus on this level
    # Decision: suspended and closed accounts are off the leaderboard, so they take no place
    place = 1 + (
        LevelBest.objects.filter(
            level=level, best_ms__lt=time_ms, account__suspended_at__isnull=True, account__closed_at__isnull=True
        )
        .exclude(account=account)
        .count()
    )
    bonus = None
    if place == 1:
        bonus = points_award(
            account=account,
            amount=FIRST_PLACE_BONUS,
            source="single_player",
            key=_award_key("first_place", account.pk, level),
            at=now,
            ref={**ref, "place": 1},
        )
    elif place <= 10 and _award_key("top10", account.pk, level) not in earned:
        bonus = points_award(
            account=account,
            amount=TOP10_BONUS,
            source="single_player",
            key=_award_key("top10", account.pk, level),
            at=now,
            ref={**ref, "place": place},
        )
    if bonus:
        awards.append(bonus)
    return awards
