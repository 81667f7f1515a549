"""A player's statistics (T-10, R-37): projections of the events of their games, rounds and
tournament tables (``rivals.statistics.projections``), shown on the public profile.

* ``PlayerStats``: solo games played (R-37: a pair removed in them, by hand or with a joker) and
  won, hints used (T-10: every hint given, as the board counts it), rounds played (a pair removed
  in them) and won (by its sole first place, R-18, who played), tournaments played (a pair removed
  at one of their tables);
* ``BestTime``: the best winning time of the player's solo games per layout;
* ``GamePlayed``: the solo games a player removed a pair in (counted once each);
* ``TournamentPlayed``: the tournaments a player removed a pair at a table of (counted once each).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

COUNTERS_SHOWN = ("games_played", "games_won", "hints_used", "rounds_played", "rounds_won", "tournaments_played")


class PlayerStats(models.Model):
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True, related_name="+"
    )
    games_played = models.IntegerField(default=0, help_text="solo games with a pair removed (R-37; not a round's)")
    games_won = models.IntegerField(default=0)
    hints_used = models.IntegerField(default=0, help_text="T-10")
    rounds_played = models.IntegerField(
        default=0, help_text="competitive rounds (matches, duels, tables) with a pair removed (R-37)"
    )
    rounds_won = models.IntegerField(default=0, help_text="rounds played and placed first in, alone (R-18)")
    tournaments_played = models.IntegerField(default=0, help_text="tournaments with a pair removed at a table (R-37)")

    class Meta:
        verbose_name = "player statistics"
        verbose_name_plural = "player statistics"

    def __str__(self) -> str:
        return f"statistics of {self.account_id}"


class BestTime(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    layout = models.CharField(max_length=8)
    time_ms = models.BigIntegerField()
    game_id = models.UUIDField(help_text="the game of the time (the first to reach it)")
    achieved_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "layout"], name="statistics_best_time_once")]

    def __str__(self) -> str:
        return f"{self.account_id} {self.layout} {self.time_ms} ms"


class GamePlayed(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    game_id = models.UUIDField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "game_id"], name="statistics_game_played_once")]

    def __str__(self) -> str:
        return f"{self.account_id} played {self.game_id}"


class TournamentPlayed(models.Model):
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    tournament_id = models.UUIDField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "tournament_id"], name="statistics_tournament_played_once")
        ]

    def __str__(self) -> str:
        return f"{self.account_id} in {self.tournament_id}"
