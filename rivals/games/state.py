"""How each game event changes the ``Game`` projection (pure: no queries).

Every decision (points, times, the new status, the new seq) was taken by the service and is
recorded in the event's data, so replaying the events rebuilds the same state without the engine.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.dateparse import parse_datetime

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


def apply_game_event(game: Game, event: Event) -> None:
    d = event.data
    t = event.type
    at = event.recorded_at
    if t == "GameStarted":
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
    elif t == "PairRemoved":
        game.present = _hex(game.present_mask & ~_bits(d["tiles"]))
        game.removed = [*game.removed, [*d["tiles"], d["points"], "pair"]]
        game.score += d["points"]
        game.last_pair_ms = d["play_ms"]
        game.record_ms = d.get("record_ms")
    elif t == "JokerUsed":
        game.present = _hex(game.present_mask & ~_bits(d["tiles"]))
        game.removed = [*game.removed, [*d["tiles"], 0, "joker"]]
        game.jokers_used += 1
        game.last_pair_ms = d["play_ms"]  # a joker pair restarts the pair timer
    elif t == "BlockedTileClicked":
        game.score += d["points"]
    elif t == "HintGiven":
        game.score += d.get("cost", 0)
        if d.get("counted", True):
            game.hints_used += 1
    elif t == "PairRestored":
        game.present = _hex(game.present_mask | _bits(d["tiles"]))
        game.removed = game.removed[:-1]
        game.score += d.get("cost", 0) - d.get("points_reverted", 0)
        game.undos_used += 1
    elif t == "TilesShuffled":
        game.faces = list(d["faces"])
        game.score += d.get("cost", 0)
        game.shuffles_used += 1
    elif t == "GamePaused":
        game.elapsed_before_ms = d["play_ms"]
        game.running_since = None
    elif t == "GameResumed":
        game.running_since = at
    elif t == "GameRestarted":
        game.faces = list(game.initial_faces)
        game.present = _hex(full_mask(game.faces))
        game.removed = []
        game.score = 0
        game.last_pair_ms = game.record_ms = None
        game.elapsed_before_ms = 0
        game.running_since = at
        game.hints_used = game.undos_used = game.shuffles_used = 0  # jokers_used stays
    elif t == "GameWon":
        game.completion_ms = d["play_ms"]
        _stop_clock(game, d["play_ms"], at)
    elif t == "GameEnded":
        _stop_clock(game, d["play_ms"], at)
    if "status" in d:
        game.status = d["status"]
    if "seq" in d:
        game.seq = d["seq"]
    game.version = event.version


def blank_game() -> Game:
    """A board before its first event (what a replay of its stream starts from)."""
    return Game(score=0, version=0)
