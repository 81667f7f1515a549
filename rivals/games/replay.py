"""Board replay for operators: a game's board as it stood after any of its events, drawn as
server-rendered SVG (no external assets), so an operator sees what the player saw.

The board is rebuilt by applying the stream's events one by one to a fresh ``Game`` with the
projection's own pure function (``apply_game_event``): the same code that built the live row.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from rivals import engine
from rivals.eventstore import stream_filter
from rivals.games.events import GAME_STARTED
from rivals.games.models import Game
from rivals.games.state import apply_game_event
from rivals.models import Event

TILE_W, TILE_H, DEPTH = 36, 48, 5  # one tile covers 2 × 2 half-tile grid cells
PAD = 12
# suit colours of a face's last character (B bamboo, C characters, D dots); honours and bonus apart
_COLOURS = {"B": "#1f7a3a", "C": "#b3261e", "D": "#1d4f91"}


@dataclass
class ReplayFrame:
    game: Game
    events: list[Event]
    version: int  # 0 = the deal before any event; else the stream version shown
    event: Event | None
    removed_now: tuple[int, ...]  # tiles this event took off the board (drawn as outlines)


def replay_frame(game: Game, version: int | None = None) -> ReplayFrame:
    """The board after event ``version`` (default: the last one; clamped to the stream)."""
    events = list(Event.objects.filter(**stream_filter(game.stream_id)).order_by("version"))
    last = events[-1].version if events else 0
    version = last if version is None else max(1 if events else 0, min(version, last))
    state = Game(id=game.pk)
    before = None
    shown = None
    for e in events:
        if e.version > version:
            break
        before = state.present if e.version == version and e.type != GAME_STARTED else None
        apply_game_event(state, e)
        shown = e
    removed: tuple[int, ...] = ()
    if shown is not None and before is not None:
        gone = int(before, 16) & ~int(state.present, 16)
        removed = tuple(i for i in range(gone.bit_length()) if gone >> i & 1)
    return ReplayFrame(game=state, events=events, version=version, event=shown, removed_now=removed)


def board_svg(frame: ReplayFrame) -> str:
    """SVG of the frame: tiles drawn bottom layer first, free tiles with a bold edge, the pair
    the shown event removed as dashed outlines."""
    g = frame.game
    layout = engine.get_layout(g.layout)
    board = engine.Board(layout, g.faces, g.ruleset, present=g.present_mask)
    free = board.free_mask()
    positions = layout.positions
    width = (max(p[0] for p in positions) + 2) * TILE_W // 2 + DEPTH * (max(p[2] for p in positions) + 1) + 2 * PAD
    height = (max(p[1] for p in positions) + 2) * TILE_H // 2 + DEPTH * (max(p[2] for p in positions) + 1) + 2 * PAD
    width = max(width, 380)  # room for the caption on small layouts
    top = DEPTH * max(p[2] for p in positions)
    shapes = []
    order = sorted(range(layout.size), key=lambda i: (positions[i][2], positions[i][1], -positions[i][0]))
    for i in order:
        x, y, z = positions[i]
        px, py = PAD + x * TILE_W // 2 + z * DEPTH, PAD + top + y * TILE_H // 2 - z * DEPTH
        face = g.faces[i] or ""
        label = escape(face)
        if g.present_mask >> i & 1:
            is_free = bool(free >> i & 1)
            colour = _COLOURS.get(face[-1:], "#6b4e16")
            shapes.append(
                f'<g class="tile{" free" if is_free else ""}" data-tile="{i}" data-face="{label}">'
                f'<rect x="{px + 3}" y="{py + 3}" width="{TILE_W - 2}" height="{TILE_H - 2}" rx="4" fill="#8a7a5a"/>'
                f'<rect x="{px}" y="{py}" width="{TILE_W - 2}" height="{TILE_H - 2}" rx="4" fill="#fbf6e9" '
                f'stroke="{"#222" if is_free else "#9a8f78"}" stroke-width="{2 if is_free else 1}"/>'
                f'<text x="{px + TILE_W // 2 - 1}" y="{py + TILE_H // 2 + 5}" text-anchor="middle" '
                f'font-family="monospace" font-size="15" font-weight="bold" fill="{colour}">{label}</text></g>'
            )
        elif i in frame.removed_now:
            shapes.append(
                f'<g class="removed" data-tile="{i}" data-face="{label}"><rect x="{px}" y="{py}" '
                f'width="{TILE_W - 2}" height="{TILE_H - 2}" rx="4" fill="none" stroke="#d13" stroke-width="2" '
                f'stroke-dasharray="4 3"/><text x="{px + TILE_W // 2 - 1}" y="{py + TILE_H // 2 + 5}" '
                f'text-anchor="middle" font-family="monospace" font-size="13" fill="#d13">{label}</text></g>'
            )
    caption = f"after event {frame.version}: {frame.event.type}" if frame.event else "the deal"
    tiles_left = g.present_mask.bit_count()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board-replay" width="{width}" height="{height + 24}" '
        f'viewBox="0 0 {width} {height + 24}" data-version="{frame.version}" data-tiles="{tiles_left}">'
        f'<rect width="100%" height="100%" fill="#2f5d46"/>{"".join(shapes)}'
        f'<text x="{PAD}" y="{height + 16}" font-family="sans-serif" font-size="13" fill="#fff">'
        f"{escape(caption)} · {tiles_left} tiles · score {g.score}</text></svg>"
    )
