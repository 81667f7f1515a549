"""The statistics projection (T-10, R-37): one step per event, ``effect``, decides what an event
adds to a player's statistics; two storages keep the numbers — live (upserts in the append's
transaction: commutative, no row read first) and the rebuild (dicts in memory, then COPY).

What counts (decisions):
* a solo game is played when its board is dealt (``GameStarted`` without a round), won at
  ``GameWon``; its winning time (``play_ms``) competes for the best time of its layout — a
  competitive round's boards are counted as rounds, not as games;
* a hint is used when the board counts it (``HintGiven``, unless a Pool hint found no pair: the
  board's own rule, ``rivals.games.state``); a restart does not give hints back;
* a round is played by every player of its result (``RoundEnded``), won by its first place when
  nobody shares it (R-18: ties, e.g. idle players all at 0, have no winner);
* a tournament is played once a table of the player was scored (``TableScored``), once per
  tournament.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection

from rivals.projections import Projection
from rivals.rebuild.copies import Table
from rivals.statistics.models import COUNTERS_SHOWN as COUNTERS

EVENT_TYPES = frozenset({"GameStarted", "HintGiven", "GameWon", "RoundEnded", "TableScored"})

SoloGame = tuple[int, str]  # (account id, layout) of a solo game
GameOf = Callable[[str], "SoloGame | None"]


@dataclass
class Effect:
    counts: dict[int, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    best: list[tuple[int, str, int, str, datetime]] = field(default_factory=list)  # account, layout, ms, game, at
    tournaments: list[tuple[int, str]] = field(default_factory=list)  # (account, tournament) of a scored table

    def add(self, account_id: int, counter: str, n: int = 1) -> None:
        mine = self.counts[account_id]
        mine[counter] = mine.get(counter, 0) + n


def effect(event, game_of: GameOf) -> Effect:
    """What one event adds (``game_of``: a solo game's account and layout, None for a round's board)."""
    d, out = event.data, Effect()
    if event.type == "GameStarted":
        if d.get("round_id") is None:
            out.add(d["account_id"], "games_played")
    elif event.type == "HintGiven":
        solo = game_of(event.stream_id.removeprefix("game-"))
        if solo is not None and d.get("counted", True):  # as the board counts it (rivals.games.state)
            out.add(solo[0], "hints_used")
    elif event.type == "GameWon":
        game_id = event.stream_id.removeprefix("game-")
        solo = game_of(game_id)
        if solo is not None:
            out.add(solo[0], "games_won")
            out.best.append((solo[0], solo[1], d["play_ms"], game_id, event.recorded_at))
    elif event.type == "RoundEnded":
        results = d["results"]
        first = [r["account_id"] for r in results if r["place"] == 1]
        for r in results:
            out.add(r["account_id"], "rounds_played")
        if len(first) == 1:  # a shared first place is nobody's win
            out.add(first[0], "rounds_won")
    elif event.type == "TableScored":
        tournament = event.stream_id.removeprefix("tournament-")
        out.tournaments += [(r["account_id"], tournament) for r in d["results"]]
    return out


# --- live ---------------------------------------------------------------------------------------

_UPSERT = (
    f"INSERT INTO statistics_playerstats (account_id, {', '.join(COUNTERS)}) VALUES (%s, {', '.join(['%s'] * 6)}) "
    "ON CONFLICT (account_id) DO UPDATE SET "
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


def _live_game_of(cur) -> GameOf:
    def game_of(game_id: str) -> SoloGame | None:
        cur.execute("SELECT account_id, layout, round_id FROM rivals_game WHERE id = %s", [game_id])
        row = cur.fetchone()
        return (row[0], row[1]) if row and row[2] is None else None

    return game_of


def _write_live(cur, out: Effect) -> None:
    for account_id, tournament in out.tournaments:
        cur.execute(_PLAYED, [account_id, tournament])
        if cur.fetchone():  # the player's first scored table of this tournament
            out.add(account_id, "tournaments_played")
    for best in out.best:
        cur.execute(_BEST, list(best))
    for account_id in sorted(out.counts):  # one order for every writer: no deadlock between upserts
        mine = out.counts[account_id]
        cur.execute(_UPSERT, [account_id, *(mine.get(c, 0) for c in COUNTERS)])


# --- the rebuild ---------------------------------------------------------------------------------


class FoldStore:
    def __init__(self):
        self.solo: dict[str, SoloGame] = {}
        self.counts: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
        self.best: dict[tuple[int, str], tuple[int, str, datetime]] = {}
        self.played: set[tuple[int, str]] = set()

    def step(self, event) -> None:
        if event.type == "GameStarted" and event.data.get("round_id") is None:
            self.solo[event.data["game_id"]] = (event.data["account_id"], event.data["layout"])
        out = effect(event, self.solo.get)
        for pair in out.tournaments:
            if pair not in self.played:
                self.played.add(pair)
                out.add(pair[0], "tournaments_played")
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
        from rivals.statistics.models import BestTime, PlayerStats, TournamentPlayed

        copy_insert(PlayerStats, [PlayerStats(account_id=a, **row) for a, row in self.counts.items()])
        copy_insert(
            BestTime,
            [
                BestTime(account_id=a, layout=layout, time_ms=ms, game_id=game, achieved_at=at)
                for (a, layout), (ms, game, at) in self.best.items()
            ],
        )
        copy_insert(TournamentPlayed, [TournamentPlayed(account_id=a, tournament_id=t) for a, t in self.played])


class StatisticsProjection(Projection):
    name = "statistics"
    event_types = EVENT_TYPES
    tables = (Table("statistics_playerstats"), Table("statistics_besttime"), Table("statistics_tournamentplayed"))

    def apply(self, event) -> None:
        with connection.cursor() as cur:
            _write_live(cur, effect(event, _live_game_of(cur)))

    def rebuild(self, log) -> None:
        store = FoldStore()
        for event in log.events(self.event_types):
            store.step(event)
        store.copy()

    def reset(self) -> None:
        with connection.cursor() as cur:
            for table in ("statistics_playerstats", "statistics_besttime", "statistics_tournamentplayed"):
                cur.execute(f"DELETE FROM {table}")


statistics_projection = StatisticsProjection()
