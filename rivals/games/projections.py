"""The solo games' projections: each board's state (one pure step per event, ``rivals.games.state``,
driven live, by the rebuild and by the admin's replay) and the level leaderboards (R-4).
Registered when the app starts (``rivals.games.apps``)."""

from __future__ import annotations

from functools import cache

from rivals.games.events import GAME_EVENTS, GAME_RESTARTED, GAME_STARTED, GAME_WON, TILES_SHUFFLED
from rivals.models import Event
from rivals.projections import LiveRows, Projection, defer_write
from rivals.rebuild.copies import Table


class GameProjection(Projection):
    """The game board, clock, score and counters of every solo game (from its stream's events)."""

    name = "games"
    event_types = GAME_EVENTS

    # The cached plan is not a projection: it is recomputed by the next hint (a swap keeps it).
    tables = (Table("rivals_game", ignore=("plan",)),)

    def reset(self) -> None:
        # Replay recreates every row from its GameStarted event, with the same id.
        from rivals.games.models import Game

        Game.objects.all().delete()

    def rebuild(self, log) -> None:
        """Stream by stream (a board depends on its own events only): a page's finished boards
        are written by COPY, one board at a time in memory."""
        from rivals.games.models import Game
        from rivals.games.state import apply_game_event
        from rivals.rawsql import copy_insert

        done: list = []
        game, stream = None, None
        for page in log.pages(self.event_types, by_stream=True):
            for event in page:
                if event.type == GAME_STARTED:
                    if game is not None:
                        done.append(game)
                    game, stream = self._started(event), event.stream_id
                elif event.stream_id != stream:
                    raise ValueError(f"{event!r}: a game stream without GameStarted")
                else:
                    apply_game_event(game, event)
            if len(done) >= 1000:
                copy_insert(Game, done)
                done = []
        copy_insert(Game, done + ([game] if game is not None else []))

    uses_live = True

    def apply(self, event: Event, live: LiveRows | None = None) -> None:
        from rivals.games.models import Game
        from rivals.games.state import apply_game_event

        game_id = event.stream_id.removeprefix("game-")
        game = live.game if live is not None else None
        if live is not None and game is not None and str(game.pk) == game_id:
            apply_game_event(game, event)  # saved once by flush()
            live.game_dirty = live.game_dirty or (event.type == GAME_STARTED and "insert") or "update"
            live.game_faces = live.game_faces or event.type in (TILES_SHUFFLED, GAME_RESTARTED)
            return
        if event.type == GAME_STARTED:
            self._started(event).save(force_insert=True)
        else:
            game = Game.objects.get(pk=game_id)
            apply_game_event(game, event)
            game.save()

    @staticmethod
    def _started(event: Event):
        from rivals.games.models import Game
        from rivals.games.state import apply_game_event

        game = Game(id=event.data["game_id"])
        apply_game_event(game, event)
        return game

    def apply_many(self, events: list[Event]) -> None:
        """New boards in bulk (a tournament wave opens thousands); anything else one by one."""
        from rivals.games.models import Game
        from rivals.rawsql import copy_insert

        if any(e.type != GAME_STARTED for e in events):
            return super().apply_many(events)
        copy_insert(Game, [self._started(e) for e in events])

    # columns an event after GameStarted can change (faces only on a shuffle/restart, the cached
    # plan only when the service set it): the hot path writes these, not the immutable deal columns
    MUTABLE = (
        "status",
        "version",
        "seq",
        "score",
        "present",
        "removed",
        "running_since",
        "elapsed_before_ms",
        "finished_at",
        "completion_ms",
        "last_pair_ms",
        "record_ms",
        "jokers_used",
        "hints_used",
        "undos_used",
        "shuffles_used",
    )

    def flush(self, live: LiveRows) -> None:
        dirty, faces, plan = live.game_dirty, live.game_faces, live.game_plan_changed
        live.game_dirty, live.game_faces, live.game_plan_changed = None, False, False
        if dirty == "insert":
            live.game.save(force_insert=True)
        elif dirty:
            self._update(live, (*self.MUTABLE, *(("faces",) if faces else ()), *(("plan",) if plan else ())))

    @staticmethod
    @cache
    def _columns(fields: tuple[str, ...]):
        """The SET clause of ``fields`` and, per field, how its value is prepared: as the model's
        field does it, or as it is where that is the identity (integers, text, datetimes)."""
        from django.db import models

        from rivals.games.models import Game

        plain = (models.IntegerField, models.CharField, models.TextField, models.BooleanField, models.DateTimeField)
        prepared = [Game._meta.get_field(name) for name in fields]
        clause = ", ".join(f'"{field.column}" = %s' for field in prepared)
        return f"UPDATE rivals_game SET {clause} WHERE id = %s", [
            (field.attname, None if isinstance(field, plain) else field) for field in prepared
        ]

    @classmethod
    def _update(cls, live: LiveRows, fields: tuple[str, ...]) -> None:
        """One UPDATE of the given columns, values prepared by the model's own fields."""
        from django.db import connection

        game = live.game
        sql, columns = cls._columns(fields)
        params = [
            getattr(game, attname) if field is None else field.get_db_prep_save(getattr(game, attname), connection)
            for attname, field in columns
        ]
        params.append(game.pk)
        defer_write(live, sql, params)


class LevelLeaderboardProjection(Projection):
    """R-4: each account's best completion time per level, from single-player ``GameWon``.

    One step, two writers: the rebuild folds the wins in memory (``_after``); a live win is the
    same merge as one upsert (``_UPSERT``: a new row, or one completion more and the better time),
    which rides in the winning append's round trip — no row read and locked first (issue 35)."""

    name = "level_leaderboard"
    event_types = frozenset({GAME_WON})
    tables = (Table("rivals_level_best"),)
    uses_live = True  # its write rides in the append (``defer_write``); it steps no caller's row

    # ``_after`` in SQL: in SET, ``rivals_level_best.*`` is the row before this win
    _UPSERT = (
        "INSERT INTO rivals_level_best (level, account_id, best_ms, achieved_at, completions) "
        "VALUES (%s, %s, %s, %s, 1) ON CONFLICT (level, account_id) DO UPDATE SET "
        "completions = rivals_level_best.completions + 1, "
        "best_ms = LEAST(rivals_level_best.best_ms, EXCLUDED.best_ms), "
        "achieved_at = CASE WHEN EXCLUDED.best_ms < rivals_level_best.best_ms "
        "THEN EXCLUDED.achieved_at ELSE rivals_level_best.achieved_at END"
    )

    def rebuild(self, log) -> None:
        from rivals.games.models import LevelBest
        from rivals.rawsql import copy_insert

        best: dict[tuple[int, int], LevelBest] = {}
        for event in log.events(self.event_types):
            d = event.data
            if d.get("level") is not None:
                key = (d["level"], d["account_id"])
                best[key] = self._after(best.get(key), event)
        copy_insert(LevelBest, list(best.values()))

    @staticmethod
    def _after(row, event):
        """The account's row for the level after one win: new, or one completion more and the
        better time."""
        from rivals.games.models import LevelBest

        d = event.data
        if row is None:
            return LevelBest(
                level=d["level"], account_id=d["account_id"], best_ms=d["play_ms"], achieved_at=event.recorded_at
            )
        row.completions += 1
        if d["play_ms"] < row.best_ms:
            row.best_ms, row.achieved_at = d["play_ms"], event.recorded_at
        return row

    def reset(self) -> None:
        from rivals.games.models import LevelBest

        LevelBest.objects.all().delete()

    def apply(self, event: Event, live: LiveRows | None = None) -> None:
        d = event.data
        if d.get("level") is None:
            return
        params = [d["level"], d["account_id"], d["play_ms"], event.recorded_at]
        if live is not None:
            defer_write(live, self._UPSERT, params)
            return
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute(self._UPSERT, params)


game_projection = GameProjection()
level_leaderboard_projection = LevelLeaderboardProjection()
