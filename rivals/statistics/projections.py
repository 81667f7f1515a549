"""The statistics projection (T-10, R-37): one step per event, ``effect``, decides what an event
adds to a player's statistics; two storages keep the numbers — live (upserts in the append's
transaction: commutative, no row read first) and the rebuild (dicts in memory, then COPY).

What counts (decisions; R-37: a game, round or tournament counts as played once the player
removed a pair in it, by hand or with a joker — a board dealt and left, an idle seat or a table
closed unplayed counts nothing):
* a solo game is played at its first pair (``PairRemoved``/``JokerUsed`` without a round; once,
  ``GamePlayed``, whatever undos and restarts follow), won at ``GameWon``; its winning time
  (``play_ms``) competes for the best time of its layout — a competitive round's boards are
  counted as rounds, not as games;
* a hint is used when the board counts it (``HintGiven``, unless a Pool hint found no pair: the
  board's own rule, ``rivals.games.state``); a restart does not give hints back;
* a round is played by every player of its result (``RoundEnded``) who removed a pair in it, won
  by its first place when nobody shares it and that player played (R-18: ties, e.g. idle players
  all at 0, have no winner);
* a tournament is played once the player removed a pair at a scored table (``TableScored``),
  once per tournament; a table closed unplayed (no round) counts nothing.

Live, the projection takes the caller's board (``uses_live``): a round's pair costs nothing here
(its events name the round) and a solo pair's writes ride in the append's own statement
(``defer_write``), so a pair's append keeps to the hot path (``projections.only_live``); a round's
end (``RoundEnded``) adds its players' counters in one upsert that rides in the end's append too
(issue 35), written at the append's flush.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection

from rivals.games.events import (
    GAME_STARTED,
    GAME_WON,
    HINT_GIVEN,
    JOKER_USED,
    PAIR_REMOVED,
    GameWonData,
    HintGivenData,
    JokerUsedData,
    PairRemovedData,
)
from rivals.matches.events import ROUND_ENDED, RoundEndedData
from rivals.matches.services.round_open import pairs_removed
from rivals.projections import LiveRows, Projection, defer_write
from rivals.rebuild.copies import Table
from rivals.statistics.models import COUNTERS_SHOWN as COUNTERS

PAIRS = frozenset({PAIR_REMOVED, JOKER_USED})  # a pair removed by hand or with a joker
# a tournament's scored table: its type spelled here, since rivals never imports tournaments
TABLE_SCORED = "TableScored"
EVENT_TYPES = PAIRS | {HINT_GIVEN, GAME_WON, ROUND_ENDED, TABLE_SCORED}
# the rebuild also learns the solo games from their starts; a round's boards' events are skipped
REBUILD_TYPES = EVENT_TYPES | {GAME_STARTED}
_BOARD_TYPES = ", ".join(f"'{t}'" for t in (GAME_STARTED, PAIR_REMOVED, JOKER_USED, HINT_GIVEN))
_SOLO_ONLY = f"NOT (type IN ({_BOARD_TYPES}) AND data ? 'round_id')"

SoloGame = tuple[int, str]  # (account id, layout) of a solo game
GameOf = Callable[[str], "SoloGame | None"]


@dataclass
class Effect:
    counts: dict[int, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    best: list[tuple[int, str, int, str, datetime]] = field(default_factory=list)  # account, layout, ms, game, at
    games: list[tuple[int, str]] = field(default_factory=list)  # (account, game) of a solo game's pair
    tournaments: list[tuple[int, str]] = field(default_factory=list)  # (account, tournament) of a scored table

    def add(self, account_id: int, counter: str, n: int = 1) -> None:
        mine = self.counts[account_id]
        mine[counter] = mine.get(counter, 0) + n


def effect(event: Any, game_of: GameOf) -> Effect:
    """What one event adds (``game_of``: a solo game's account and layout, None for a round's board)."""
    out = Effect()
    add = _EFFECTS.get(event.type)
    if add is not None:
        add(out, event, event.data, game_of)
    return out


def _solo(event: Any, d: PairRemovedData | JokerUsedData | HintGivenData, game_of: GameOf) -> SoloGame | None:
    """The solo game of a board event; None for a round's board (counted with the round: RoundEnded)."""
    return None if "round_id" in d else game_of(event.stream_id.removeprefix("game-"))


def _pair(out: Effect, event: Any, d: PairRemovedData | JokerUsedData, game_of: GameOf) -> None:
    solo = _solo(event, d, game_of)
    if solo is not None:
        out.games.append((solo[0], event.stream_id.removeprefix("game-")))


def _hint(out: Effect, event: Any, d: HintGivenData, game_of: GameOf) -> None:
    solo = _solo(event, d, game_of)
    if solo is not None and d.get("counted", True):  # as the board counts it (rivals.games.state)
        out.add(solo[0], "hints_used")


def _won(out: Effect, event: Any, d: GameWonData, game_of: GameOf) -> None:
    game_id = event.stream_id.removeprefix("game-")
    solo = game_of(game_id)
    if solo is not None:
        out.add(solo[0], "games_won")
        out.best.append((solo[0], solo[1], d["play_ms"], game_id, event.recorded_at))


def _round_ended(out: Effect, event: Any, d: RoundEndedData, game_of: GameOf) -> None:
    played = [r for r in d["results"] if pairs_removed(r) > 0]
    for r in played:
        out.add(r["account_id"], "rounds_played")
    first = [r["account_id"] for r in d["results"] if r["place"] == 1]
    if len(first) == 1 and any(r["account_id"] == first[0] for r in played):  # a shared first is nobody's
        out.add(first[0], "rounds_won")


def _table_scored(out: Effect, event: Any, d: Mapping[str, Any], game_of: GameOf) -> None:
    if d.get("round_id") is None:  # no round: the table closed unplayed
        return
    tournament = event.stream_id.removeprefix("tournament-")
    out.tournaments += [(r["account_id"], tournament) for r in d["results"] if pairs_removed(r) > 0]


_EFFECTS: dict[str, Callable[[Effect, Any, Any, GameOf], None]] = {
    PAIR_REMOVED: _pair,
    JOKER_USED: _pair,
    HINT_GIVEN: _hint,
    GAME_WON: _won,
    ROUND_ENDED: _round_ended,
    TABLE_SCORED: _table_scored,
}


# --- live ---------------------------------------------------------------------------------------

_UPSERT_ROW = f"(%s, {', '.join(['%s'] * len(COUNTERS))})"


def _upsert(rows: int) -> str:
    """Add to the counters of ``rows`` accounts in one statement."""
    return (
        f"INSERT INTO statistics_playerstats (account_id, {', '.join(COUNTERS)}) VALUES "
        + ", ".join([_UPSERT_ROW] * rows)
        + " ON CONFLICT (account_id) DO UPDATE SET "
        + ", ".join(f"{c} = statistics_playerstats.{c} + EXCLUDED.{c}" for c in COUNTERS)
    )


_BEST = (
    "INSERT INTO statistics_besttime (account_id, layout, time_ms, game_id, achieved_at) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (account_id, layout) DO UPDATE SET time_ms = EXCLUDED.time_ms, game_id = EXCLUDED.game_id, "
    "achieved_at = EXCLUDED.achieved_at WHERE EXCLUDED.time_ms < statistics_besttime.time_ms"
)
_PLAYED = (
    "INSERT INTO statistics_tournamentplayed (account_id, tournament_id) VALUES (%s, %s) "
    "ON CONFLICT (account_id, tournament_id) DO NOTHING RETURNING account_id"
)
# a solo game counts once, at its first pair — the counter moves only while the game is not
# recorded yet, then it is: two statements that see the same snapshot when they ride in the
# append's own statement (``defer_write``: no round trip of their own on a solo pair), and that run
# in this order otherwise
_GAME_COUNTED = (
    f"INSERT INTO statistics_playerstats (account_id, {', '.join(COUNTERS)}) "
    f"SELECT %s::bigint, {', '.join('1' if c == 'games_played' else '0' for c in COUNTERS)} WHERE NOT EXISTS "
    "(SELECT 1 FROM statistics_gameplayed WHERE account_id = %s::bigint AND game_id = %s::uuid) "
    "ON CONFLICT (account_id) DO UPDATE SET games_played = statistics_playerstats.games_played + 1"
)
_GAME_PLAYED = (
    "INSERT INTO statistics_gameplayed (account_id, game_id) VALUES (%s::bigint, %s::uuid) "
    "ON CONFLICT (account_id, game_id) DO NOTHING"
)


def _game_played_writes(account_id: int, game_id: str) -> list[tuple[str, list]]:
    return [(_GAME_COUNTED, [account_id, account_id, game_id]), (_GAME_PLAYED, [account_id, game_id])]


def _live_game_of(live: LiveRows | None) -> GameOf:
    def game_of(game_id: str) -> SoloGame | None:
        game = live.game if live is not None else None
        if game is not None and str(game.pk) == game_id:  # the caller's board: no query
            return (game.account_id, game.layout) if game.round_id is None else None
        with connection.cursor() as cur:
            cur.execute("SELECT account_id, layout, round_id FROM rivals_game WHERE id = %s", [game_id])
            row = cur.fetchone()
        return (row[0], row[1]) if row and row[2] is None else None

    return game_of


def _write_live(cur: Any, out: Effect) -> None:
    for account_id, tournament in out.tournaments:
        cur.execute(_PLAYED, [account_id, tournament])
        if cur.fetchone():  # the player's first played table of this tournament
            out.add(account_id, "tournaments_played")
    for account_id, game_id in out.games:
        for sql, params in _game_played_writes(account_id, game_id):
            cur.execute(sql, params)
    for best in out.best:
        cur.execute(_BEST, list(best))
    # every player's counters in one statement (a round's end: issue 35), in one order for every
    # writer — rows are inserted in the order of VALUES: no deadlock between upserts
    accounts = sorted(out.counts)
    if accounts:
        params = [x for a in accounts for x in (a, *(out.counts[a].get(c, 0) for c in COUNTERS))]
        cur.execute(_upsert(len(accounts)), params)


# --- the rebuild ---------------------------------------------------------------------------------


class FoldStore:
    def __init__(self) -> None:
        self.solo: dict[str, SoloGame] = {}
        self.counts: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
        self.best: dict[tuple[int, str], tuple[int, str, datetime]] = {}
        self.played: set[tuple[int, str]] = set()
        self.games: set[tuple[int, str]] = set()

    def step(self, event: Any) -> None:
        if event.type == GAME_STARTED and event.data.get("round_id") is None:
            self.solo[event.data["game_id"]] = (event.data["account_id"], event.data["layout"])
        out = effect(event, self.solo.get)
        for pair in out.tournaments:
            if pair not in self.played:
                self.played.add(pair)
                out.add(pair[0], "tournaments_played")
        for pair in out.games:
            if pair not in self.games:
                self.games.add(pair)
                out.add(pair[0], "games_played")
        for account_id, layout, ms, game_id, at in out.best:
            known = self.best.get((account_id, layout))
            if known is None or ms < known[0]:
                self.best[(account_id, layout)] = (ms, game_id, at)
        for account_id, mine in out.counts.items():
            row = self.counts[account_id]
            for counter, n in mine.items():
                row[counter] += n

    def copy(self) -> None:
        from rivals.rawsql import copy_insert
        from rivals.statistics.models import BestTime, GamePlayed, PlayerStats, TournamentPlayed

        copy_insert(PlayerStats, [PlayerStats(account_id=a, **row) for a, row in self.counts.items()])
        copy_insert(
            BestTime,
            [
                BestTime(account_id=a, layout=layout, time_ms=ms, game_id=game, achieved_at=at)
                for (a, layout), (ms, game, at) in self.best.items()
            ],
        )
        copy_insert(TournamentPlayed, [TournamentPlayed(account_id=a, tournament_id=t) for a, t in self.played])
        copy_insert(GamePlayed, [GamePlayed(account_id=a, game_id=g) for a, g in self.games])


_TABLES = ("statistics_playerstats", "statistics_besttime", "statistics_gameplayed", "statistics_tournamentplayed")


class StatisticsProjection(Projection):
    name = "statistics"
    event_types = EVENT_TYPES
    tables = tuple(Table(name) for name in _TABLES)
    uses_live = True  # the caller's board (``live.game``): see the module's docstring

    @property
    def rebuild_types(self) -> frozenset[str]:
        return REBUILD_TYPES

    def apply(self, event: Any, live: LiveRows | None = None) -> None:
        if event.type in PAIRS and "round_id" in event.data:
            return  # the hot path of a round: nothing here, no query
        out = effect(event, _live_game_of(live))
        if live is not None and event.type == ROUND_ENDED:
            # the round's players' counters, added up for the append's flush: one upsert, riding
            # in the append's statement (no other write of this append touches these rows)
            for account_id, counters in out.counts.items():
                mine = live.statistics_counts.setdefault(account_id, {})
                for counter, n in counters.items():
                    mine[counter] = mine.get(counter, 0) + n
            return
        if live is not None and out.games and not (out.counts or out.best or out.tournaments):
            # a solo pair on the caller's board: its writes ride in the append's statement, once
            # per game and append (one statement must not write a row twice)
            seen = live.statistics_games
            for pair in out.games:
                if pair not in seen:
                    seen.add(pair)
                    for sql, params in _game_played_writes(*pair):
                        defer_write(live, sql, params)
            return
        with connection.cursor() as cur:
            _write_live(cur, out)

    def flush(self, live: LiveRows) -> None:
        counts, live.statistics_counts = live.statistics_counts, {}
        accounts = sorted(counts)  # the order every writer upserts in (no deadlock between upserts)
        if accounts:
            params = [x for a in accounts for x in (a, *(counts[a].get(c, 0) for c in COUNTERS))]
            defer_write(live, _upsert(len(accounts)), params)

    def rebuild(self, log: Any) -> None:
        store = FoldStore()
        for event in log.events(REBUILD_TYPES, where=_SOLO_ONLY):
            store.step(event)
        store.copy()

    def reset(self) -> None:
        with connection.cursor() as cur:
            for table in _TABLES:
                cur.execute(f"DELETE FROM {table}")


statistics_projection = StatisticsProjection()
