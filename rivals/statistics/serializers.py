"""The shapes of the statistics on the public profile (T-10, R-37)."""

from rest_framework import serializers


class BestTimeOut(serializers.Serializer):
    layout = serializers.CharField(help_text="the layout's id (L00 …)")
    time_ms = serializers.IntegerField(help_text="the best winning time of the player's solo games on it")


class PlayerStatsOut(serializers.Serializer):
    games_played = serializers.IntegerField(help_text="R-37: solo games the player removed a pair in")
    games_won = serializers.IntegerField()
    hints_used = serializers.IntegerField(help_text="T-10: every hint the boards counted")
    rounds_played = serializers.IntegerField(
        help_text="R-37: competitive rounds (Quick Match, Duel, Arena, tables) the player removed a pair in"
    )
    rounds_won = serializers.IntegerField(help_text="rounds played and placed first in, alone (R-18)")
    tournaments_played = serializers.IntegerField(
        help_text="R-37: tournaments with a table the player removed a pair at (a table closed unplayed counts nothing)"
    )
    best_times = BestTimeOut(many=True, help_text="per layout, by layout id")
