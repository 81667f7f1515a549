"""What the worker reads to score one rated result (``signals.fairplay_result_score``), in one
statement: whether it was scored already (its ``fairplay-<result>`` stream), the result's
``RatingsUpdated`` (the players and their μ before it), and each board of the match's rounds with
its removals in order (``PairRemoved`` / ``JokerUsed``; an undo or a shuffle leaves the board
unscored). Each stream's events are read from its head's ``first_at`` on (``STREAM_BOUND_SQL``:
the log's partitions of earlier months are pruned at run time), as ``stream_filter`` does.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

from rivals.eventstore import stream_bound_sql
from rivals.fairplay import scoring
from rivals.fairplay.analysis import Move
from rivals.fairplay.signals_projection import baseline_keys
from rivals.games.events import JOKER_USED, PAIR_REMOVED, PAIR_RESTORED, TILES_SHUFFLED
from rivals.rawsql import execute_prepared

COMPARE_MAX = 200  # earlier boards of one deal a board is compared with (the most recent)
CELL_FIELDS = tuple(scoring.Cell.__dataclass_fields__)
BOARD_EVENTS = (PAIR_REMOVED, JOKER_USED, PAIR_RESTORED, TILES_SHUFFLED)
UNSCORED = (PAIR_RESTORED, TILES_SHUFFLED)


@dataclass
class BoardRead:
    """One player's board of a round (the fields of ``games.Game`` the analysis needs)."""

    pk: str
    account_id: int
    round_id: str | None
    round_index: int
    code: str
    layout: str
    ruleset: str
    initial_faces: list
    moves: list[Move] | None  # None: an undo or a shuffle changed it (not scored)
    # the boards already scored on its deal by other accounts, the most recent first (at most
    # COMPARE_MAX): what the collusion signal compares it with
    earlier: list[dict]


@dataclass
class ResultRead:
    scored: bool  # scored already
    rated: dict | None  # the ``RatingsUpdated`` data
    boards: list[BoardRead]  # the rated players' boards, by round and the players' order
    cells: dict[str, scoring.Cell]  # the baseline's cells of the boards' layouts (and of all)

    def baseline(self, layout: str, band: int) -> scoring.Baseline:
        """The baseline's cells of (``layout``, ``band``), its layout and everyone, from what was read."""
        out = {}
        for key in baseline_keys(layout, band):
            if key in self.cells:
                lay, b = key.split(":")
                out[(lay, None if b == "*" else int(b))] = scoring.Cell(**vars(self.cells[key]))
        return scoring.Baseline(out)


def _bound(stream_sql: str) -> str:
    return stream_bound_sql(stream_sql, events="e")


READ_SQL = f"""
SELECT
  EXISTS (SELECT 1 FROM rivals_stream WHERE id = %(scored)s),
  (SELECT e.data::text FROM rivals_event e
    WHERE {_bound("%(rating)s")} AND e.type = 'RatingsUpdated' ORDER BY e.position LIMIT 1),
  (SELECT coalesce(json_agg(json_build_array(
       g.id, g.account_id, g.round_id, r.index, g.code, g.layout, g.ruleset, g.initial_faces,
       (SELECT coalesce(json_agg(json_build_array(e.type, e.data) ORDER BY e.version), '[]'::json)
          FROM rivals_event e
         WHERE {_bound("'game-' || g.id::text")} AND e.type = ANY(%(types)s)),
       (SELECT coalesce(json_agg(json_build_array(f.account_id, f.game_id, f.round_id, f.free_pairs)), '[]'::json)
          FROM (SELECT f.account_id, f.game_id, f.round_id, f.free_pairs FROM fairplay_board f
                 WHERE f.code = g.code AND NOT (f.account_id = g.account_id)
                 ORDER BY f.scored_at DESC LIMIT %(compare)s) f)
     ) ORDER BY r.index, g.id)::text, '[]')
     FROM matches_round r JOIN rivals_game g ON g.round_id = r.id
    WHERE r.match_id = %(match)s),
  (SELECT coalesce(json_agg(json_build_array(b.key, {", ".join(f"b.{f}" for f in CELL_FIELDS)}))::text, '[]')
     FROM fairplay_baseline b
    WHERE b.key = '*:*' OR split_part(b.key, ':', 1) IN (
          SELECT g.layout FROM matches_round r JOIN rivals_game g ON g.round_id = r.id WHERE r.match_id = %(match)s))
"""


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def moves_of(events: Iterable[tuple[str, dict]]) -> list[Move] | None:
    """A board's removals from its (type, data) events in order (None after an undo or a shuffle)."""
    moves = []
    for event_type, data in events:
        if event_type in UNSCORED:
            return None
        moves.append(Move(tuple(data["tiles"]), int(data.get("interval_ms") or 0), event_type == JOKER_USED))
    return moves


def _earlier(rows: list) -> list[dict]:
    return [
        {"account_id": a, "game_id": str(g), "round_id": str(r) if r else None, "free_pairs": f} for a, g, r, f in rows
    ]


def result_read(result: str, rating_stream: str, scored_stream: str) -> ResultRead:
    """What ``fairplay_result_score`` reads, in one statement."""
    match = None
    if result.startswith("match:"):
        try:
            match = uuid.UUID(result.removeprefix("match:"))
        except ValueError:
            match = None
    params = {
        "scored": scored_stream,
        "rating": rating_stream,
        "types": list(BOARD_EVENTS),
        "match": match,
        "compare": COMPARE_MAX,
    }
    with connection.cursor() as django_cursor:
        scored, rated, games, cells = execute_prepared(django_cursor, READ_SQL, params).fetchone()
    if scored or rated is None:
        return ResultRead(bool(scored), None, [], {})
    rated = _json(rated)
    players = [p["account_id"] for p in rated["players"]]
    boards = [
        BoardRead(
            pk=str(g[0]),
            account_id=g[1],
            round_id=str(g[2]) if g[2] is not None else None,
            round_index=g[3],
            code=g[4],
            layout=g[5],
            ruleset=g[6],
            initial_faces=g[7],
            moves=moves_of(g[8]),
            earlier=_earlier(g[9]),
        )
        for g in _json(games)
        if g[1] in players
    ]
    boards.sort(key=lambda b: (b.round_index, players.index(b.account_id)))
    cells = {c[0]: scoring.Cell(*c[1:]) for c in _json(cells)}
    return ResultRead(False, rated, boards, cells)
