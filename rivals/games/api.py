"""Boards and games (API.md): solo games, levels, leaderboards, records, layouts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.serializers import ErrorOut
from rivals.errors import Invalid
from rivals.games import selectors as sel
from rivals.games import services as svc


class GameCreateIn(serializers.Serializer):
    mode = serializers.ChoiceField(choices=sorted(svc.MODES))
    level = serializers.IntegerField(required=False, min_value=1)
    code = serializers.CharField(required=False, allow_blank=False, max_length=40)


class IntentIn(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0)
    type = serializers.ChoiceField(choices=svc.INTENT_TYPES)
    tiles = serializers.ListField(child=serializers.IntegerField(), required=False, min_length=2, max_length=2)
    tile = serializers.IntegerField(required=False)


AwardedOut = inline_serializer(
    "Awarded",
    {
        "points": serializers.IntegerField(help_text="total points this intent awarded (0 for most intents)"),
        "sources": inline_serializer(
            "Award",
            {
                "source": serializers.CharField(),
                "award": serializers.CharField(help_text="first_completion, first_place, top10"),
                "points": serializers.IntegerField(),
                "place": serializers.IntegerField(allow_null=True),
            },
            many=True,
        ),
    },
)

GameOut = inline_serializer(
    "Game",
    {
        "id": serializers.UUIDField(),
        "mode": serializers.CharField(),
        "ruleset": serializers.CharField(),
        "level": serializers.IntegerField(allow_null=True),
        "code": serializers.CharField(),
        "layout": serializers.CharField(),
        "status": serializers.CharField(),
        "score": serializers.IntegerField(),
        "seq": serializers.IntegerField(),
        "elapsed_ms": serializers.IntegerField(),
        "tiles": serializers.ListField(child=serializers.DictField()),
        "removable_pairs": serializers.IntegerField(),
        "jokers_used": serializers.IntegerField(),
        "hints_used": serializers.IntegerField(),
        "undos_used": serializers.IntegerField(),
        "shuffles_used": serializers.IntegerField(),
    },
)


class GamesView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # a suspended account starts no game

    @extend_schema(
        request=GameCreateIn, responses={201: GameOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
    )
    @idempotent
    def post(self, request):
        body = GameCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        game = svc.game_create(account=request.user, **body.validated_data)
        return Response(sel.game_view(game=game), status=201)


class GameView(APIView):
    @extend_schema(responses={200: GameOut, 404: ErrorOut})
    def get(self, request, game_id):
        game = svc.game_for_account(account=request.user, game_id=game_id)
        if svc.game_expire_if_due(game=game):
            game.refresh_from_db()
        return Response(sel.game_view(game=game))


@extend_schema_view(
    post=extend_schema(
        request=IntentIn,
        responses={
            200: inline_serializer(
                "IntentAccepted",
                {
                    "accepted": serializers.BooleanField(),
                    "event": serializers.DictField(),
                    "events": serializers.ListField(),
                    "game": GameOut,
                    "awarded": AwardedOut,
                },
            ),
            400: ErrorOut,
            404: ErrorOut,
            409: ErrorOut,
            422: ErrorOut,
        },
    )
)
class GameIntentsView(IntentEndpoint):
    target_kwarg = "game_id"

    def apply(self, request, game_id, intent):
        result = svc.game_intent_apply(account=request.user, game_id=game_id, intent=intent)
        if result.refused:  # P-4: the time ran out — the end is recorded (committed), the intent refused
            raise result.refused
        events = [sel.event_view(e) for e in result.events]
        return Accepted(
            result.events,
            {
                "accepted": True,
                "event": events[0],
                "events": events,
                "game": sel.game_view(game=result.game),
                "awarded": sel.awarded_view(result.awarded),
            },
        )


class GameEventsView(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "GameEvent",
                {
                    "version": serializers.IntegerField(),
                    "type": serializers.CharField(),
                    "data": serializers.DictField(),
                    "recorded_at": serializers.DateTimeField(),
                },
                many=True,
            )
        }
    )
    def get(self, request, game_id):
        game = svc.game_for_account(account=request.user, game_id=game_id)
        return Response(sel.game_events(game=game))


LevelOut = inline_serializer(
    "Level",
    {
        "level": serializers.IntegerField(),
        "code": serializers.CharField(),
        "layout": serializers.CharField(),
        "hard": serializers.BooleanField(),
        "difficulty": serializers.FloatField(),
        "unlocked": serializers.BooleanField(allow_null=True),
    },
)


class LevelView(APIView):
    """R-1/R-2. Public; with a token the answer also says whether the level is open to the caller
    (level 1 is open, level n opens when n − 1 is won)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LevelOut, 404: ErrorOut})
    def get(self, request, number: int):
        level = svc.level_get(number=number)
        unlocked = svc.level_unlocked(account=request.user, number=number) if request.user.is_authenticated else None
        return Response(
            {
                "level": level.number,
                "code": level.code,
                "layout": level.layout,
                "hard": level.hard,
                "difficulty": level.difficulty,
                "unlocked": unlocked,
            }
        )


class LevelLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "LeaderboardRow",
                {
                    "place": serializers.IntegerField(),
                    "player": serializers.DictField(),
                    "time_ms": serializers.IntegerField(),
                },
                many=True,
            )
        }
    )
    def get(self, request, number: int):
        svc.level_get(number=number)
        return Response(sel.level_leaderboard(level=number))


class RecordsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("mode", str, enum=sorted(svc.MODES), default="classic")],
        responses={
            200: inline_serializer(
                "Record",
                {
                    "game_id": serializers.UUIDField(),
                    "time_ms": serializers.IntegerField(),
                    "layout": serializers.CharField(),
                    "code": serializers.CharField(),
                },
                many=True,
            )
        },
    )
    def get(self, request):
        mode = request.query_params.get("mode", "classic")
        if mode not in svc.MODES:
            raise Invalid(f"unknown mode {mode!r}", details={"mode": [f"one of {sorted(svc.MODES)}"]})
        return Response(sel.personal_records(account=request.user, mode=mode))


class LayoutsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "Layout",
                {"id": serializers.CharField(), "name": serializers.CharField(), "tiles": serializers.IntegerField()},
                many=True,
            )
        }
    )
    def get(self, request):
        return Response(sel.layouts())
