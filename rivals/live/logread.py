"""Reading the log for live updates: position ranges (the relay; a hub filling a gap) and one
topic's history (a subscription's ``since``), as entries of ``rivals.live.topics``.

A round's board events carry the board after the event (``sum``), folded from the board's own
events with the games projection's step (``rivals.games.state``) — exact at every position,
whatever the board's row says later."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

from rivals import notification_types
from rivals.api.times import event_data_view
from rivals.romanian_time import iso_z

PUSHED_STREAMS = ("round", "match", "queue", "duel", "tournament")
_COLUMNS = "position, stream_id, stream_type, version, type, data, recorded_at"
_PUSHED = (
    "(stream_type = ANY(%(kinds)s) OR (stream_type = 'game' AND data ? 'round_id') "
    "OR type IN ('AccountSuspended', 'AccountClosed'))"
)


class BoardFolds:
    """The boards of rounds as of the last event seen of each (a bounded cache); a board met at
    another version is folded again from the log."""

    def __init__(self, limit: int = 20_000):
        self.limit = limit
        self.games: OrderedDict[str, Any] = OrderedDict()

    @staticmethod
    def _apply(game, row) -> None:
        from rivals.games.state import apply_game_event

        _, _, _, version, kind, data, at = row
        apply_game_event(game, SimpleNamespace(type=kind, data=data, recorded_at=at, version=version))

    @staticmethod
    def _new():
        from rivals.games.state import blank_game

        return blank_game()

    async def _load(self, conn, stream_id: str, upto_version: int):
        game = self._new()
        cur = await conn.execute(
            f"SELECT {_COLUMNS} FROM rivals_event WHERE stream_id = %s AND version <= %s ORDER BY version",
            [stream_id, upto_version],
        )
        for row in await cur.fetchall():
            self._apply(game, row)
        return game

    async def step(self, conn, row) -> tuple[int, dict[str, Any]]:
        stream_id, version = row[1], row[3]
        game = self.games.pop(stream_id, None)
        if game is None or game.version != version - 1:
            game = await self._load(conn, stream_id, version - 1) if version > 1 else self._new()
        self._apply(game, row)
        self.games[stream_id] = game
        while len(self.games) > self.limit:
            self.games.popitem(last=False)
        return game.account_id, _summary(game)


def _summary(game) -> dict[str, Any]:
    return {
        "score": game.score,
        "pairs_left": game.present_mask.bit_count() // 2 if game.present else 0,
        "finished": game.status == "won",
        "stuck": game.status == "stuck",
    }


def _entry(row) -> dict[str, Any]:
    position, stream_id, _, _, kind, data, at = row
    # the one time spelling (API.md conventions), as the REST reads answer it (rivals.api.times)
    data = event_data_view(kind, data) if isinstance(data, dict) else data
    return {"p": position, "s": stream_id, "t": kind, "at": iso_z(at), "d": data}


async def _entries(conn, rows, folds: BoardFolds) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        entry = _entry(row)
        if row[2] == "game" and isinstance(row[5], dict) and row[5].get("round_id"):
            entry["r"] = row[5]["round_id"]
            entry["o"], entry["sum"] = await folds.step(conn, row)
        out.append(entry)
    return out


def note_entry(row) -> dict[str, Any]:
    position, account_id, kind, data, at = row
    return {"p": position, "a": account_id, "t": kind, "at": iso_z(at), "d": notification_types.data_view(kind, data)}


async def read_range(conn, after: int, upto: int, folds: BoardFolds, *, limit: int = 1000):
    """The pushed events and the notifications in ``(after, upto]``, at most ``limit`` events:
    ``(events, notes, covered)`` — ``covered`` is ``upto``, or the last position read when the
    limit cut the range (the rest is read next)."""
    cur = await conn.execute(
        f"SELECT {_COLUMNS} FROM rivals_event WHERE position > %(after)s AND position <= %(upto)s AND {_PUSHED} "
        "ORDER BY position LIMIT %(limit)s",
        {"after": after, "upto": upto, "kinds": list(PUSHED_STREAMS), "limit": limit},
    )
    rows = await cur.fetchall()
    covered = rows[-1][0] if len(rows) == limit else upto
    cur = await conn.execute(
        "SELECT position, account_id, type, data, at FROM live_notification WHERE position > %s AND position <= %s "
        "ORDER BY position, id",
        [after, covered],
    )
    notes = [note_entry(r) for r in await cur.fetchall()]
    return await _entries(conn, rows, folds), notes, covered


async def read_topic(conn, topic, since: int, upto: int) -> tuple[list[dict], list[dict]]:
    """A topic's entries after ``since`` up to ``upto`` (a subscription's replay), and the
    subscriber's notifications there. A round's boards are folded from their first event."""
    events: list[dict] = []
    if topic.streams:
        low = 0 if topic.kind == "round" else since
        cur = await conn.execute(
            f"SELECT {_COLUMNS} FROM rivals_event WHERE stream_id = ANY(%s) AND position > %s AND position <= %s "
            "ORDER BY position",
            [topic.streams, low, upto],
        )
        events = [e for e in await _entries(conn, await cur.fetchall(), BoardFolds()) if e["p"] > since]
    kinds = None if topic.kind == "account" else ["tournament_seated"]
    notes: list[dict] = []
    if kinds is None or topic.kind == "tournament":
        cur = await conn.execute(
            "SELECT position, account_id, type, data, at FROM live_notification WHERE account_id = %s "
            "AND position > %s AND position <= %s AND (%s::text[] IS NULL OR type = ANY(%s)) ORDER BY position, id",
            [topic.account_id, since, upto, kinds, kinds],
        )
        notes = [note_entry(r) for r in await cur.fetchall()]
    return events, notes
