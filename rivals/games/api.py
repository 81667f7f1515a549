"""Boards and games (API.md): solo games, levels, leaderboards, records, layouts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.prefer import PARAMETER as PREFER
from rivals.api.prefer import wants_minimal
from rivals.api.schema import uuid_path
from rivals.api.serializers import ErrorOut, EventOut
from rivals.errors import Invalid
from rivals.games import examples as ex
from rivals.games import selectors as sel
from rivals.games import services as svc
from rivals.games.serializers import (
    GAME_CREATE,
    INTENT_ACCEPTED,
    GameCreateIn,
    GameOut,
    LayoutOut,
    LeaderboardRowOut,
    LevelOut,
    RecordOut,
    intent_union,
)
from rivals.games.services import INTENT_TYPES
from rivals.replica.views import ReplicaReads

GAME_ID = uuid_path("game_id", "game")


class GamesView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # a suspended account starts no game

    @extend_schema(
        operation_id="game_create",
        examples=ex.GAME_CREATE,
        summary="Start a game",
        description="A solo game: `single` (a level, R-1: opens when the previous one is won), `classic` (a random deal or a `code`, T-9) or `pool_practice` (Part P). A code a competition still plays is refused (422, R-40). The answer is the board: every tile with `id`, `x`, `y`, `z`, `face`, `free` (T-5); removed tiles are absent.",
        request=GAME_CREATE,
        responses={201: GameOut, 400: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request):
        body = GameCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        game = svc.game_create(account=request.user, **body.validated_data)
        return Response(sel.game_view(game=game), status=201)


class GameView(APIView):
    @extend_schema(
        operation_id="game_get",
        summary="Read a game's board",
        description="Your game's board and figures (removable pairs counted with T-6/T-6a, the clock, T-12's pause).",
        parameters=[GAME_ID],
        responses={200: GameOut, 404: ErrorOut},
    )
    def get(self, request, game_id):
        game = svc.game_for_account(account=request.user, game_id=game_id)
        if svc.game_expire_if_due(game=game):
            game.refresh_from_db()
        return Response(sel.game_view(game=game))


@extend_schema_view(
    post=extend_schema(
        operation_id="game_intent_send",
        examples=[*ex.GAME_INTENTS, *ex.GAME_INTENT_ANSWERS],
        summary="Send a move in a game",
        description="One move, with `seq` (the intents accepted so far: a stale one is 409 `conflict` with `details.seq`): `remove_pair` (two free matching tiles: T-2/T-3, T-6, or T-6a's lifting in the Rivals ruleset; R-13…R-15 or P-2 scoring), `click_blocked` (R-16: −100), `joker` (R-8, R-9: at most 2 per game, one from your balance), `hint` (T-10; P-3), `undo` (T-11; P-3), `shuffle` (T-14; P-3), `pause` / `resume` (T-12), `restart` (R-10; single player and Pool practice), `end` (P-4). A move the rules refuse is 422 (`not_allowed`, `limit_reached`, `no_jokers`), recorded for fair-play review (R-38), and changes nothing. `Prefer: return=minimal` answers only what changed.",
        parameters=[GAME_ID, PREFER],
        request=intent_union("GameIntent", INTENT_TYPES),
        responses={200: INTENT_ACCEPTED, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    )
)
class GameIntentsView(IntentEndpoint):
    target_kwarg = "game_id"
    honours_prefer = True

    def apply(self, request, game_id, intent):
        result = svc.game_intent_apply(account=request.user, game_id=game_id, intent=intent)
        if result.refused:  # P-4: the time ran out — the end is recorded (committed), the intent refused
            raise result.refused
        events = [sel.event_view(e) for e in result.events]
        if wants_minimal(request):  # RFC 7240: only what the intent changed (rivals.api.prefer)
            game = result.game
            return Accepted(
                result.events,
                {
                    "accepted": True,
                    "events": events,
                    "seq": game.seq,
                    "score": game.score,
                    "status": game.status,
                    **sel.board_delta(
                        game=game, present_before=result.present_before, faces_before=result.faces_before
                    ),
                    "awarded": sel.awarded_view(result.awarded),
                },
                minimal=True,
            )
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
        operation_id="game_events_list",
        examples=ex.GAME_EVENTS_ANSWER,
        summary="List a game's events",
        description="The game's events, oldest first (a competition's deal stays hidden until it is over, R-40).",
        parameters=[GAME_ID],
        responses={200: EventOut(many=True), 404: ErrorOut},
    )
    def get(self, request, game_id):
        game = svc.game_for_account(account=request.user, game_id=game_id)
        return Response(sel.game_events(game=game))


class LevelView(APIView):
    """R-1/R-2. Public; with a token the answer also says whether the level is open to the caller
    (level 1 is open, level n opens when n − 1 is won)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="level_get",
        summary="Read a level",
        parameters=[OpenApiParameter("number", int, OpenApiParameter.PATH, description="1 … 11000")],
        responses={200: LevelOut, 404: ErrorOut},
    )
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


class LevelLeaderboardView(ReplicaReads, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="level_leaderboard_get",
        summary="Read a level's best times",
        description="R-4: the 10 best completion times of a level; equal times share a place (1, 1, 3). Suspended and closed accounts are not shown (R-38).",
        parameters=[OpenApiParameter("number", int, OpenApiParameter.PATH, description="1 … 11000")],
        responses={200: LeaderboardRowOut(many=True), 404: ErrorOut},
    )
    def get(self, request, number: int):
        svc.level_get(number=number)
        return Response(sel.level_leaderboard(level=number))


class RecordsView(APIView):
    @extend_schema(
        operation_id="record_list",
        summary="Read your best winning times",
        description="T-13: your 10 best winning times with layout and code, per mode.",
        parameters=[OpenApiParameter("mode", str, enum=sorted(svc.MODES), default="classic")],
        responses={200: RecordOut(many=True)},
    )
    def get(self, request):
        mode = request.query_params.get("mode", "classic")
        if mode not in svc.MODES:
            raise Invalid(f"unknown mode {mode!r}", details={"mode": [f"one of {sorted(svc.MODES)}"]})
        return Response(sel.personal_records(account=request.user, mode=mode))


class LayoutsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="layout_list",
        summary="List the board layouts",
        description="The board layouts (T-4): their ids (`L00` is the 144-tile Turtle), names and sizes.",
        responses={200: LayoutOut(many=True)},
    )
    def get(self, request):
        return Response(sel.layouts())
