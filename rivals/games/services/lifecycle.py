"""A solo game's life outside its intents: created (a level, a code or a random deal), found for its
owner, its board, and P-4's end when a pool game's server time runs out (on access and by beat)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import DateTimeField
from django.db.models.expressions import RawSQL
from django.utils import timezone

from rivals import engine
from rivals.deals.selectors import code_is_secret, deal_commitment
from rivals.errors import Invalid, NotAllowed, NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.games.events import game_ended, game_started
from rivals.games.levels import level_get, level_unlocked
from rivals.games.models import Game
from rivals.games.services.modes import FINISHED, HOSTED_MODES, MODES
from rivals.games.state import play_ms
from rivals.ids import is_uuid
from rivals.models import Account
from rivals.projections import LiveRows
from rivals.rawsql import execute_prepared, models_from_rows, select_list


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
    salt: str | None = None,
) -> Game:
    """``time_limit_s``: a pool game's server time (P-4), default ``RIVALS["POOL_TIME_LIMIT_S"]``;
    ``salt``: a hosted game's competition deal (a pot's, R-40)."""
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
        if mode in MODES and code_is_secret(code):
            # a competition's deal is not practised before it is over — one answer for
            # every such code, naming no competition
            raise NotAllowed("this deal cannot be played yet: try another code, or a fresh deal")
    else:
        code = engine.random_code()
    deal = engine.deal_from_code(code)
    return game_start(
        account=account,
        mode=mode,
        deal=deal,
        now=now,
        level=level if mode == "single" else None,
        time_limit_ms=(time_limit_s or settings.RIVALS["POOL_TIME_LIMIT_S"]) * 1000 if ruleset == "pool" else None,
        plan=True,
        salt=salt if mode in HOSTED_MODES else None,
    )


def new_board(
    *,
    account_id: int,
    mode: str,
    deal: engine.Deal,
    level: int | None = None,
    time_limit_ms: int | None = None,
    round_id=None,
    starts_at: datetime | None = None,
    salt: str | None = None,
) -> tuple[str, NewEvent]:
    """The stream id and ``GameStarted`` of a new board of ``deal`` (a solo game, or one player's
    board of a competitive round: ``round_id`` and the round's ``starts_at``, from which its clock
    runs; a competition's board: its deal's ``salt``, R-40)."""
    game_id = uuid.uuid4()
    started = game_started(
        game_id=game_id,
        account_id=account_id,
        mode=mode,
        ruleset=MODES.get(mode) or HOSTED_MODES.get(mode, "rivals"),
        level=level,
        code=deal.code,
        layout=deal.layout.id,
        faces=deal.faces,
        time_limit_ms=time_limit_ms,
        round_id=round_id,
        starts_at=starts_at,
        salt=salt,
        commitment=deal_commitment(deal.code, salt) if salt else None,
    )
    return f"game-{game_id}", started


def game_start(
    *,
    account: Account,
    mode: str,
    deal: engine.Deal,
    now: datetime | None = None,
    level: int | None = None,
    time_limit_ms: int | None = None,
    plan: bool = False,
    salt: str | None = None,
) -> Game:
    """Append ``GameStarted`` for one solo board of ``deal``."""
    stream_id, started = new_board(
        account_id=account.pk, mode=mode, deal=deal, level=level, time_limit_ms=time_limit_ms, salt=salt
    )
    # the games projection folds GameStarted onto this instance and inserts it (one INSERT, the
    # instance is the row: nothing read back); the winning plan rides in it — a cache for hints
    # (T-10), not a projection (the rebuild leaves it out)
    game = Game(id=uuid.UUID(started.data["game_id"]), plan=[list(p) for p in deal.plan] if plan else None)
    event_append(
        stream_id=stream_id,
        stream_type="game",
        expected_version=0,
        now=now,
        actor=f"account:{account.pk}",
        events=[started],
        live=LiveRows(game=game),
    )
    return game


def game_for_account(*, account: Account, game_id, lock: bool = False) -> Game:
    """Another account's game is 404, not 403: existence is not leaked."""
    games = []
    if is_uuid(game_id):
        # a raw SELECT: this runs on every intent, and the ORM would compile it each time (and
        # RawQuerySet costs more CPU than the row's own conversion). By the primary key alone:
        # the prepared statement's generic plan, made once per connection, could otherwise pick
        # the account's index and filter through every game of the account on every intent (it
        # did, planned while the tables were small); the owner is checked here
        sql = f"SELECT {select_list(Game)} FROM rivals_game WHERE id = %s" + (" FOR UPDATE" if lock else "")
        with connection.cursor() as django_cursor:
            cur = execute_prepared(django_cursor, sql, [str(game_id)])
            games = models_from_rows(Game, cur, cur.fetchall())
    if not games or games[0].account_id != account.pk:
        raise NotFound("no such game")
    return games[0]


def game_board(game: Game) -> engine.Board:
    return engine.Board(engine.get_layout(game.layout), game.faces, game.ruleset, present=game.present_mask)


def game_end_time_up(game: Game, now: datetime) -> list:
    """P-4: append the server's ``GameEnded`` (time up) to a game locked by the caller."""
    return event_append(
        stream_id=game.stream_id,
        stream_type="game",
        expected_version=game.version,
        actor="system",
        now=now,
        events=[game_ended(reason="time_up", play_ms=game.time_limit_ms, score=game.score)],
        live=LiveRows(game=game),
    )


def is_time_up(game: Game, now: datetime) -> bool:
    return game.time_limit_ms is not None and game.status not in FINISHED and play_ms(game, now) >= game.time_limit_ms


@transaction.atomic
def game_expire_if_due(*, game: Game, now: datetime | None = None) -> bool:
    """P-4: a pool game ends when its time runs out — enforced on every access and by beat."""
    now = now or timezone.now()
    if not is_time_up(game, now):
        return False
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not is_time_up(game, now):
        return False
    game_end_time_up(game, now)
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


def games_locked(game_ids) -> dict:
    """These games, locked (``SELECT … FOR UPDATE``, by id: one order for every locker), by id."""
    return {g.pk: g for g in Game.objects.filter(pk__in=list(game_ids)).order_by("pk").select_for_update()}
