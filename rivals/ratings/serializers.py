"""The shapes of the ratings API (API.md "Matches and rounds", R-41)."""

from rest_framework import serializers

from rivals.api.serializers import PlayerRefOut


class RatedOut(serializers.Serializer):
    one_to_one = serializers.IntegerField(help_text="rated results of two players (Quick Match, Duel, a table of two)")
    multi = serializers.IntegerField(help_text="rated results of three or four players (Arena, tables)")


class RatingOut(serializers.Serializer):
    """R-41: a player's skill rating (OpenSkill, Plackett–Luce): an account never rated has the
    starting μ 25, σ 25/3."""

    player = PlayerRefOut()
    mu = serializers.FloatField(help_text="the estimate of skill")
    sigma = serializers.FloatField(help_text="its uncertainty")
    ordinal = serializers.FloatField(help_text="the public figure μ − 3σ, to two decimals")
    provisional = serializers.BooleanField(
        help_text="fewer than 12 one-to-one and fewer than 5 multi-player rated results: not on the board"
    )
    rated = RatedOut()
    place = serializers.IntegerField(
        allow_null=True,
        help_text="the place on the rating board (an addition); null when not on it (provisional, suspended)",
    )


class RatingRowOut(serializers.Serializer):
    place = serializers.IntegerField(help_text="equal ordinals (to two decimals) share a place")
    player = PlayerRefOut()
    ordinal = serializers.FloatField()


class RatingBoardOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = RatingRowOut(many=True)
