"""The events of a board (a solo game, or one player's board of a competitive round): one typed
constructor each (schema version 1, but ``GameStarted``: 2).

Stream ``game-<id>`` (stream type ``game``). ``play_ms`` is the board's play clock when the event
happened. The events of an accepted intent carry its ``seq``, and on a round's board the round's
id (``round_id``: the round's projection reads it); ``GameWon``, ``GameStuck`` and the server's
``GameEnded`` carry neither. ``status`` is the board's status after the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NotRequired, TypedDict, TypeVar, cast
from uuid import UUID

from rivals.event_types import Instant
from rivals.eventstore import NewEvent

GAME_STARTED = "GameStarted"
PAIR_REMOVED = "PairRemoved"
JOKER_USED = "JokerUsed"
BLOCKED_TILE_CLICKED = "BlockedTileClicked"
HINT_GIVEN = "HintGiven"
PAIR_RESTORED = "PairRestored"
TILES_SHUFFLED = "TilesShuffled"
GAME_PAUSED = "GamePaused"
GAME_RESUMED = "GameResumed"
GAME_RESTARTED = "GameRestarted"
GAME_STUCK = "GameStuck"
GAME_WON = "GameWon"
GAME_ENDED = "GameEnded"

GAME_EVENTS = frozenset(
    {
        GAME_STARTED,
        PAIR_REMOVED,
        JOKER_USED,
        BLOCKED_TILE_CLICKED,
        HINT_GIVEN,
        PAIR_RESTORED,
        TILES_SHUFFLED,
        GAME_PAUSED,
        GAME_RESUMED,
        GAME_RESTARTED,
        GAME_STUCK,
        GAME_WON,
        GAME_ENDED,
    }
)


# version 2 of GameStarted: a competition's board records the deal's salt and commitment
SCHEMA_VERSIONS = {GAME_STARTED: 2}


class _OfIntent(TypedDict):
    """The keys every event of an accepted intent has: its ``seq`` and, on a round's board, the
    round's id."""

    seq: int
    round_id: NotRequired[str]


_Data = TypeVar("_Data", bound=_OfIntent)


def _of_intent(data: _Data, round_id: UUID | str | None) -> _Data:
    if round_id is not None:
        data["round_id"] = str(round_id)
    return data


class GameStartedData(TypedDict):
    """Version 2: ``salt`` and ``commitment`` (R-40; version 1 had neither); ``round_id`` and ``starts_at`` on a round's
    board."""

    game_id: str
    account_id: int
    mode: str
    ruleset: str
    level: int | None
    code: str | None
    layout: str
    faces: list[str]
    time_limit_ms: int | None
    salt: str | None
    commitment: str | None
    round_id: NotRequired[str]
    starts_at: NotRequired[Instant]


def game_started(
    *,
    game_id: UUID | str,
    account_id: int,
    mode: str,
    ruleset: str,
    level: int | None,
    code: str | None,
    layout: str,
    faces: Sequence[str],
    time_limit_ms: int | None,
    round_id: UUID | str | None = None,
    starts_at: datetime | None = None,
    salt: str | None = None,
    commitment: str | None = None,
) -> NewEvent:
    """A board of the deal ``code``; on a round's board also the round and its start, from which
    the board's clock runs. A competition's board (a round's, a pot's) records its deal's ``salt``
    and ``commitment`` (R-40; ``None`` on a practice board): reads show ``code`` and ``salt`` only
    once the competition is over (``null`` before: hence the optional type)."""
    data: GameStartedData = {
        "game_id": str(game_id),
        "account_id": account_id,
        "mode": mode,
        "ruleset": ruleset,
        "level": level,
        "code": code,
        "layout": layout,
        "faces": list(faces),
        "time_limit_ms": time_limit_ms,
        "salt": salt,
        "commitment": commitment,
    }
    if round_id is not None:
        data["round_id"], data["starts_at"] = str(round_id), cast(datetime, starts_at).isoformat()
    return NewEvent(GAME_STARTED, data, SCHEMA_VERSIONS[GAME_STARTED])


class _RivalsKeys(TypedDict, total=False):
    record: bool
    decisive: bool


class PairRemovedData(TypedDict):
    tiles: list[int]
    faces: list[str]
    play_ms: int
    interval_ms: int
    points: int
    record_ms: int | None
    record: NotRequired[bool]
    decisive: NotRequired[bool]
    status: str
    seq: int
    round_id: NotRequired[str]


def pair_removed(
    *,
    tiles: list[int],
    faces: list[str],
    play_ms: int,
    interval_ms: int,
    points: int,
    record_ms: int | None,
    status: str,
    seq: int,
    round_id: UUID | str | None = None,
    record: bool | None = None,
    decisive: bool | None = None,
) -> NewEvent:
    """R-13…R-15; ``record`` and ``decisive`` only in the rivals ruleset."""
    rivals: _RivalsKeys = {}
    if record is not None:
        rivals["record"] = record
    if decisive is not None:
        rivals["decisive"] = decisive
    data: PairRemovedData = {
        "tiles": tiles,
        "faces": faces,
        "play_ms": play_ms,
        "interval_ms": interval_ms,
        "points": points,
        "record_ms": record_ms,
        **rivals,
        "status": status,
        "seq": seq,
    }
    return NewEvent(PAIR_REMOVED, _of_intent(data, round_id))


class JokerUsedData(TypedDict):
    tiles: list[int]
    faces: list[str]
    points: int
    play_ms: int
    status: str
    seq: int
    round_id: NotRequired[str]


def joker_used(
    *,
    tiles: list[int],
    faces: list[str],
    points: int,
    play_ms: int,
    status: str,
    seq: int,
    round_id: UUID | str | None = None,
) -> NewEvent:
    """R-8…R-10: the lifted tile and the partner the server chose."""
    data: JokerUsedData = {
        "tiles": tiles,
        "faces": faces,
        "points": points,
        "play_ms": play_ms,
        "status": status,
        "seq": seq,
    }
    return NewEvent(JOKER_USED, _of_intent(data, round_id))


class BlockedTileClickedData(TypedDict):
    tile: int
    points: int
    play_ms: int
    seq: int
    round_id: NotRequired[str]


def blocked_tile_clicked(
    *, tile: int, points: int, play_ms: int, seq: int, round_id: UUID | str | None = None
) -> NewEvent:
    """R-16."""
    data: BlockedTileClickedData = {"tile": tile, "points": points, "play_ms": play_ms, "seq": seq}
    return NewEvent(BLOCKED_TILE_CLICKED, _of_intent(data, round_id))


class _HintMessage(TypedDict, total=False):
    message: str


class _HintCounted(TypedDict, total=False):
    counted: bool


class HintGivenData(TypedDict):
    tiles: list[int] | None
    message: NotRequired[str]
    cost: int
    counted: NotRequired[bool]
    play_ms: int
    seq: int
    round_id: NotRequired[str]


def hint_given(
    *,
    tiles: list[int] | None,
    cost: int,
    play_ms: int,
    seq: int,
    round_id: UUID | str | None = None,
    message: str | None = None,
    counted: bool | None = None,
) -> NewEvent:
    """T-10, P-3: ``tiles`` null with a ``message`` when there is no pair to show (``counted``:
    false when a pool hint found no free pair)."""
    said: _HintMessage = {} if message is None else {"message": message}
    count: _HintCounted = {} if counted is None else {"counted": counted}
    data: HintGivenData = {"tiles": tiles, **said, "cost": cost, **count, "play_ms": play_ms, "seq": seq}
    return NewEvent(HINT_GIVEN, _of_intent(data, round_id))


class PairRestoredData(TypedDict):
    tiles: list[int]
    points_reverted: int
    cost: int
    play_ms: int
    status: str
    seq: int
    round_id: NotRequired[str]


def pair_restored(
    *,
    tiles: list[int],
    points_reverted: int,
    cost: int,
    play_ms: int,
    status: str,
    seq: int,
    round_id: UUID | str | None = None,
) -> NewEvent:
    """T-11: an undo."""
    data: PairRestoredData = {
        "tiles": tiles,
        "points_reverted": points_reverted,
        "cost": cost,
        "play_ms": play_ms,
        "status": status,
        "seq": seq,
    }
    return NewEvent(PAIR_RESTORED, _of_intent(data, round_id))


class TilesShuffledData(TypedDict):
    faces: list[str]
    solvable: bool
    cost: int
    play_ms: int
    status: str
    seq: int
    round_id: NotRequired[str]


def tiles_shuffled(
    *,
    faces: list[str],
    solvable: bool,
    cost: int,
    play_ms: int,
    status: str,
    seq: int,
    round_id: UUID | str | None = None,
) -> NewEvent:
    """T-14: every face of the board after the shuffle (removed tiles keep theirs)."""
    data: TilesShuffledData = {
        "faces": faces,
        "solvable": solvable,
        "cost": cost,
        "play_ms": play_ms,
        "status": status,
        "seq": seq,
    }
    return NewEvent(TILES_SHUFFLED, _of_intent(data, round_id))


class GamePausedData(TypedDict):
    play_ms: int
    status: str
    resume_status: str
    seq: int
    round_id: NotRequired[str]


def game_paused(*, play_ms: int, resume_status: str, seq: int, round_id: UUID | str | None = None) -> NewEvent:
    """T-12; ``resume_status``: the status before the pause."""
    data: GamePausedData = {"play_ms": play_ms, "status": "paused", "resume_status": resume_status, "seq": seq}
    return NewEvent(GAME_PAUSED, _of_intent(data, round_id))


class GameResumedData(TypedDict):
    play_ms: int
    status: str
    seq: int
    round_id: NotRequired[str]


def game_resumed(*, play_ms: int, status: str, seq: int, round_id: UUID | str | None = None) -> NewEvent:
    data: GameResumedData = {"play_ms": play_ms, "status": status, "seq": seq}
    return NewEvent(GAME_RESUMED, _of_intent(data, round_id))


class GameRestartedData(TypedDict):
    play_ms: int
    status: str
    seq: int
    round_id: NotRequired[str]


def game_restarted(*, play_ms: int, seq: int, round_id: UUID | str | None = None) -> NewEvent:
    """R-10, P-4."""
    data: GameRestartedData = {"play_ms": play_ms, "status": "playing", "seq": seq}
    return NewEvent(GAME_RESTARTED, _of_intent(data, round_id))


class GameStuckData(TypedDict):
    play_ms: int
    status: str


def game_stuck(*, play_ms: int) -> NewEvent:
    """T-8: no removable pair is left."""
    data: GameStuckData = {"play_ms": play_ms, "status": "stuck"}
    return NewEvent(GAME_STUCK, data)


class GameWonData(TypedDict):
    play_ms: int
    score: int
    account_id: int
    level: int | None
    status: str


def game_won(*, play_ms: int, score: int, account_id: int, level: int | None) -> NewEvent:
    """T-8: the board is empty; ``level`` for a single player game."""
    data: GameWonData = {"play_ms": play_ms, "score": score, "account_id": account_id, "level": level, "status": "won"}
    return NewEvent(GAME_WON, data)


class GameEndedData(TypedDict):
    reason: str
    play_ms: int
    score: int
    status: str
    seq: NotRequired[int]
    round_id: NotRequired[str]


def game_ended(
    *, reason: str, play_ms: int, score: int, seq: int | None = None, round_id: UUID | str | None = None
) -> NewEvent:
    """``reason``: ``player`` (an intent: its ``seq``), ``time_up`` (P-4) or ``round_over`` (the
    round's end: its ``round_id``)."""
    data: GameEndedData = {"reason": reason, "play_ms": play_ms, "score": score, "status": "ended"}
    if seq is not None:
        data["seq"] = seq
    if round_id is not None:
        data["round_id"] = str(round_id)
    return NewEvent(GAME_ENDED, data)
