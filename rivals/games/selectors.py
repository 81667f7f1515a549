"""Read models of solo games for the API (the winning plan is never part of them)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from rivals import engine
from rivals.api.times import event_data_view
from rivals.deals.selectors import code_is_secret, deal_fields, secret_codes
from rivals.eventstore import stream_filter
from rivals.games.models import Game, LevelBest
from rivals.games.services import game_board
from rivals.games.services.modes import FINISHED, HOSTED_MODES, ROUND_MODES
from rivals.games.state import play_ms
from rivals.models import Event


def is_competition_board(game: Game) -> bool:
    """A board of a competition (a round's, a pot's) plays a secret deal (R-40)."""
    return game.mode in ROUND_MODES or game.mode in HOSTED_MODES


def board_deal_revealed(game: Game) -> bool:
    """R-40: a competition's board shows its deal once the competition is over. While the board
    is still played its competition is not over (a round's end and a pot's close end its boards),
    so only a finished board asks who still holds the deal."""
    return game.status in FINISHED and not code_is_secret(game.code)


def game_deal(game: Game, revealed: bool | None = None) -> dict[str, Any]:
    """``code``, ``commitment``, ``salt`` of a board as its player reads them (R-40): a practice
    board's code as it is; a competition's board's commitment, and its code and salt once
    ``revealed`` (default: ``board_deal_revealed``)."""
    if not is_competition_board(game):
        return {"code": game.code, "commitment": None, "salt": None}
    if revealed is None:
        revealed = board_deal_revealed(game)
    return deal_fields(code=game.code, salt=game.salt, revealed=revealed)


def game_view(*, game: Game, now=None, revealed: bool | None = None) -> dict[str, Any]:
    """A board as its player reads it; ``revealed``: whether a competition's deal is over (R-40),
    when the caller knows (a round's read), else asked."""
    now = now or timezone.now()
    board = game_board(game)
    positions = board.layout.positions
    free = board.free_mask()
    tiles = []
    present = board.present
    while present:
        low = present & -present
        i = low.bit_length() - 1
        present ^= low
        x, y, z = positions[i]
        tiles.append({"id": i, "x": x, "y": y, "z": z, "face": game.faces[i], "free": bool(free & low)})
    elapsed = play_ms(game, now)
    view = {
        "id": str(game.id),
        "mode": game.mode,
        "ruleset": game.ruleset,
        "level": game.level,
        **game_deal(game, revealed),
        "layout": game.layout,
        "status": game.status,
        "score": game.score,
        "seq": game.seq,
        "elapsed_ms": elapsed,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "completion_ms": game.completion_ms,
        "tiles": tiles,
        "tiles_left": len(tiles),
        "removable_pairs": 0 if game.status in ("won", "ended") else len(board.removable_pairs()),
        "jokers_used": game.jokers_used,
        "hints_used": game.hints_used,
        "undos_used": game.undos_used,
        "shuffles_used": game.shuffles_used,
        "time_limit_ms": game.time_limit_ms,
        "time_left_ms": max(0, game.time_limit_ms - elapsed) if game.time_limit_ms is not None else None,
    }
    return view


def _tile(game: Game, positions, i: int, free: int) -> dict[str, Any]:
    x, y, z = positions[i]
    return {"id": i, "x": x, "y": y, "z": z, "face": game.faces[i], "free": bool(free >> i & 1)}


def board_delta(*, game: Game, present_before: int, faces_before: list[str]) -> dict[str, Any]:
    """What an intent changed on the board (``Prefer: return=minimal``, rivals.api.prefer): the
    tiles on the board now that were not before or whose ``free`` or face changed (as ``game_view``
    shows a tile), and the ids of the tiles that left it. Applied to the board a client holds, it
    gives ``game_view``'s ``tiles``."""
    layout = engine.get_layout(game.layout)
    after = game.present_mask
    free = engine.free_mask_of(layout, after)
    changed = (after & ~present_before) | (after & (free ^ engine.free_mask_of(layout, present_before)))
    if faces_before is not game.faces and faces_before != game.faces:  # a shuffle, a restart
        changed |= after & sum(1 << i for i, (a, b) in enumerate(zip(faces_before, game.faces, strict=True)) if a != b)
    tiles = []
    while changed:
        low = changed & -changed
        tiles.append(_tile(game, layout.positions, low.bit_length() - 1, free))
        changed ^= low
    gone, removed = present_before & ~after, []
    while gone:
        low = gone & -gone
        removed.append(low.bit_length() - 1)
        gone ^= low
    return {"tiles": tiles, "removed": removed, "tiles_left": after.bit_count()}


def event_view(event: Event) -> dict[str, Any]:
    """An event as the API answers it: its instants in the one spelling (``rivals.api.times``)."""
    return {
        "version": event.version,
        "type": event.type,
        "data": event_data_view(event.type, event.data),
        "recorded_at": event.recorded_at,
    }


def board_event_views(game: Game, events, revealed: bool | None = None) -> list[dict[str, Any]]:
    """A board's events as its player reads them; a competition's deal (``GameStarted``'s ``code``
    and ``salt``) stays hidden until the competition is over (R-40; ``revealed``: when the caller
    already knows, else asked)."""
    views = [event_view(e) for e in events]
    if is_competition_board(game) and not (board_deal_revealed(game) if revealed is None else revealed):
        for view in views:
            if "code" in view["data"]:
                view["data"] = {**view["data"], "code": None, "salt": None}
    return views


def game_events(*, game: Game) -> list[dict[str, Any]]:
    """The board's events in order, as its player reads them (``board_event_views``)."""
    return board_event_views(game, Event.objects.filter(**stream_filter(game.stream_id)).order_by("version"))


def boards_revealed(games: list[Game]) -> set:
    """``board_deal_revealed`` of many boards with one question to the deals' holders: the ids of
    the boards whose deal a player may read (a practice board's always)."""
    finished = {g.code for g in games if is_competition_board(g) and g.status in FINISHED}
    held = secret_codes(finished) if finished else set()
    return {g.pk for g in games if not is_competition_board(g) or (g.status in FINISHED and g.code not in held)}


def level_leaderboard(*, level: int, limit: int = 10) -> list[dict[str, Any]]:
    """R-4: best times, equal times share a place (1, 1, 3); display order then earlier, then id.
    Suspended and closed accounts are not shown (R-38)."""
    rows = (
        LevelBest.objects.filter(level=level, account__suspended_at__isnull=True, account__closed_at__isnull=True)
        .select_related("account")
        .order_by("best_ms", "achieved_at", "account_id")[:limit]
    )
    out, place, previous = [], 0, None
    for index, row in enumerate(rows, start=1):
        if row.best_ms != previous:
            place, previous = index, row.best_ms
        out.append(
            {
                "place": place,
                "player": {"id": row.account_id, "display_name": row.account.display_name},
                "time_ms": row.best_ms,
            }
        )
    return out


def personal_records(*, account, mode: str = "classic", limit: int = 10) -> list[dict[str, Any]]:
    """T-13: the account's 10 best winning times with layout and code."""
    games = Game.objects.filter(account=account, status="won", mode=mode).order_by("completion_ms", "finished_at")
    return [
        {
            "game_id": str(g.id),
            "time_ms": g.completion_ms,
            "layout": g.layout,
            "code": g.code,
            "mode": g.mode,
            "won_at": g.finished_at,
        }
        for g in games[:limit]
    ]


def layouts() -> list[dict[str, Any]]:
    return [{"id": lay.id, "name": lay.name, "tiles": lay.size} for lay in engine.all_layouts()]


def awarded_view(entries) -> dict:
    """What an intent awarded (points ledger entries): the total and each award with its reason."""
    sources = [
        {
            "source": e.source,
            "award": e.award_key.split(":")[1],
            "points": e.amount,
            "place": (e.ref or {}).get("place"),
        }
        for e in entries
    ]
    return {"points": sum(s["points"] for s in sources), "sources": sources}


# --- boards as other rooms read them (a round's, a pot's, a player's) ------------------------------


def round_board_ids(round_id) -> list:
    """The ids of a round's boards (one per player)."""
    return list(Game.objects.filter(round_id=round_id).values_list("pk", flat=True))


def rounds_played(account_id: int):
    """The ids of the rounds the player had a board in (a subquery)."""
    return Game.objects.filter(account_id=account_id, round_id__isnull=False).values("round_id")


def scores_of(game_ids) -> dict:
    """Each game's score, by id."""
    return dict(Game.objects.filter(pk__in=list(game_ids)).values_list("pk", "score"))
