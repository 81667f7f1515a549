"""How each game event changes the ``Game`` projection (pure: no queries).

Every decision (points, times, the new status, the new seq) was taken by the service and is
recorded in the event's data, so replaying the events rebuilds the same state without the engine.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.dateparse import parse_datetime

from rivals.games.events import (
    BLOCKED_TILE_CLICKED,
    GAME_ENDED,
    GAME_PAUSED,
    GAME_RESTARTED,
    GAME_RESUMED,
    GAME_STARTED,
    GAME_WON,
    HINT_GIVEN,
    JOKER_USED,
    PAIR_REMOVED,
    PAIR_RESTORED,
    TILES_SHUFFLED,
)
from rivals.games.models import Game
from rivals.models import Event


def full_mask(faces: list) -> int:
    mask = 0
    for i, f in enumerate(faces):
        if f is not None:
            mask |= 1 << i
    return mask


def _hex(mask: int) -> str:
    return format(mask, "x")


def _bits(tiles) -> int:
    return (1 << tiles[0]) | (1 << tiles[1])


def play_ms(game: Game, now: datetime) -> int:
    """T-12: play time in ms — server time while running; pauses excluded."""
    ms = game.elapsed_before_ms
    if game.running_since is not None:
        ms += max(0, int((now - game.running_since).total_seconds() * 1000))
    return ms


def _stop_clock(game: Game, at_ms: int, at: datetime) -> None:
    game.elapsed_before_ms = at_ms
    game.running_since = None
    game.finished_at = at


def _started(game: Game, d: dict, at: datetime) -> None:
    game.account_id = d["account_id"]
    game.mode, game.ruleset, game.level = d["mode"], d["ruleset"], d.get("level")
    game.code, game.layout = d["code"], d["layout"]
    game.salt = d.get("salt") or ""  # R-40 (GameStarted v2)
    game.initial_faces = list(d["faces"])
    game.faces = list(d["faces"])
    game.present = _hex(full_mask(game.faces))
    game.status = "playing"
    # a round's board runs on the round's clock (rivals.matches): play time counts from its start
    starts_at = d.get("starts_at")
    game.started_at = game.running_since = parse_datetime(starts_at) if starts_at else at
    game.round_id = d.get("round_id")
    game.time_limit_ms = d.get("time_limit_ms")
    game.removed = []


def _pair_removed(game: Game, d: dict, at: datetime) -> None:
    game.present = _hex(game.present_mask & ~_bits(d["tiles"]))
    game.removed = [*game.removed, [*d["tiles"], d["points"], "pair"]]
    game.score += d["points"]
    game.last_pair_ms = d["play_ms"]
    game.record_ms = d.get("record_ms")


def _joker_used(game: Game, d: dict, at: datetime) -> None:
    game.present = _hex(game.present_mask & ~_bits(d["tiles"]))
    game.removed = [*game.removed, [*d["tiles"], 0, "joker"]]
    game.jokers_used += 1
    game.last_pair_ms = d["play_ms"]  # a joker pair restarts the pair timer


def _blocked_click(game: Game, d: dict, at: datetime) -> None:
    game.score += d["points"]


def _hint(game: Game, d: dict, at: datetime) -> None:
    game.score += d.get("cost", 0)
    if d.get("counted", True):
        game.hints_used += 1


def _pair_restored(game: Game, d: dict, at: datetime) -> None:
    game.present = _hex(game.present_mask | _bits(d["tiles"]))
    game.removed = game.removed[:-1]
    game.score += d.get("cost", 0) - d.get("points_reverted", 0)
    game.undos_used += 1


def _shuffled(game: Game, d: dict, at: datetime) -> None:
    game.faces = list(d["faces"])
    game.score += d.get("cost", 0)
    game.shuffles_used += 1


def _paused(game: Game, d: dict, at: datetime) -> None:
    game.elapsed_before_ms = d["play_ms"]
    game.running_since = None


def _resumed(game: Game, d: dict, at: datetime) -> None:
    game.running_since = at


def _restarted(game: Game, d: dict, at: datetime) -> None:
    game.faces = list(game.initial_faces)
    game.present = _hex(full_mask(game.faces))
    game.removed = []
    game.score = 0
    game.last_pair_ms = game.record_ms = None
    game.elapsed_before_ms = 0
    game.running_since = at
    game.hints_used = game.undos_used = game.shuffles_used = 0  # jokers_used stays


def _won(game: Game, d: dict, at: datetime) -> None:
    game.completion_ms = d["play_ms"]
    _stop_clock(game, d["play_ms"], at)


def _ended(game: Game, d: dict, at: datetime) -> None:
    _stop_clock(game, d["play_ms"], at)


# one step per event type: what the event changes of the board (the others change only its
# status, seq and version, below)
_STEPS = {
    GAME_STARTED: _started,
    PAIR_REMOVED: _pair_removed,
    JOKER_USED: _joker_used,
    BLOCKED_TILE_CLICKED: _blocked_click,
    HINT_GIVEN: _hint,
    PAIR_RESTORED: _pair_restored,
    TILES_SHUFFLED: _shuffled,
    GAME_PAUSED: _paused,
    GAME_RESUMED: _resumed,
    GAME_RESTARTED: _restarted,
    GAME_WON: _won,
    GAME_ENDED: _ended,
}


def apply_game_event(game: Game, event: Event) -> None:
    d = event.data
    step = _STEPS.get(event.type)
    if step is not None:
        step(game, d, event.recorded_at)
    if "status" in d:
        game.status = d["status"]
    if "seq" in d:
        game.seq = d["seq"]
    game.version = event.version


def blank_game() -> Game:
    """A board before its first event (what a replay of its stream starts from)."""
    return Game(score=0, version=0)
