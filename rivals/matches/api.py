"""Competitive play API (API.md "Matches and rounds"): the queue, duels, matches, rounds."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.serializers import ErrorOut, PageIn
from rivals.errors import Invalid, NotFound
from rivals.games.selectors import event_view, game_events
from rivals.games.services import INTENT_TYPES
from rivals.ids import is_uuid
from rivals.matches import selectors as sel
from rivals.matches import services as svc
from rivals.matches.models import Match
from rivals.matches.services.queue import GROUP as QUEUE_GROUP

# --- serializers ---------------------------------------------------------------------------------


class QueueJoinIn(serializers.Serializer):
    mode = serializers.ChoiceField(choices=sorted(QUEUE_GROUP))


class DuelChallengeIn(serializers.Serializer):
    opponent = serializers.IntegerField(min_value=1, help_text="the challenged account's id")


class RoundIntentIn(serializers.Serializer):
    """Schema only: the service checks the shape strictly. Rounds accept remove_pair,
    click_blocked and (except Quick Match) joker; the other game intents answer 422."""

    seq = serializers.IntegerField(min_value=0)
    type = serializers.ChoiceField(choices=INTENT_TYPES)
    tiles = serializers.ListField(child=serializers.IntegerField(), required=False, min_length=2, max_length=2)
    tile = serializers.IntegerField(required=False)


_PLAYER = inline_serializer(
    "MatchPlayerRef", {"id": serializers.IntegerField(), "display_name": serializers.CharField()}
)

TicketOut = inline_serializer(
    "QueueTicket",
    {
        "id": serializers.UUIDField(),
        "mode": serializers.CharField(),
        "status": serializers.ChoiceField(choices=["waiting", "matched", "left", "expired"]),
        "match": serializers.UUIDField(allow_null=True),
        "created_at": serializers.DateTimeField(),
        "expires_at": serializers.DateTimeField(),
    },
)

_DUEL_FIELDS = {
    "id": serializers.UUIDField(),
    "status": serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled", "expired"]),
    "challenger": _PLAYER,
    "opponent": _PLAYER,
    "match": serializers.UUIDField(allow_null=True),
    "created_at": serializers.DateTimeField(),
    "expires_at": serializers.DateTimeField(),
    "result": serializers.DictField(allow_null=True),
}
DuelOut = inline_serializer("Duel", _DUEL_FIELDS)

_MATCH_FIELDS = {
    "id": serializers.UUIDField(),
    "mode": serializers.CharField(),
    "status": serializers.ChoiceField(choices=["running", "finished"]),
    "players": serializers.ListField(child=serializers.DictField()),
    "rounds_total": serializers.IntegerField(),
    "rounds": inline_serializer(
        "MatchRound",
        {
            "id": serializers.UUIDField(),
            "index": serializers.IntegerField(),
            "status": serializers.ChoiceField(choices=["scheduled", "running", "ended"]),
            "starts_at": serializers.DateTimeField(),
            "ends_at": serializers.DateTimeField(),
            "end_reason": serializers.CharField(allow_null=True),
        },
        many=True,
    ),
    "standings": serializers.ListField(child=serializers.DictField()),
    "prizes": serializers.ListField(child=serializers.DictField()),
    "created_at": serializers.DateTimeField(),
    "finished_at": serializers.DateTimeField(allow_null=True),
}
MatchOut = inline_serializer("Match", _MATCH_FIELDS)

RoundOut = inline_serializer(
    "Round",
    {
        "id": serializers.UUIDField(),
        "game_id": serializers.UUIDField(),
        "match_id": serializers.UUIDField(),
        "index": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=["scheduled", "running", "ended"]),
        "board_status": serializers.CharField(),
        "mode": serializers.CharField(),
        "code": serializers.CharField(),
        "layout": serializers.CharField(),
        "score": serializers.IntegerField(),
        "seq": serializers.IntegerField(),
        "elapsed_ms": serializers.IntegerField(),
        "starts_at": serializers.DateTimeField(),
        "ends_at": serializers.DateTimeField(),
        "ended_at": serializers.DateTimeField(allow_null=True),
        "end_reason": serializers.CharField(allow_null=True),
        "time_left_ms": serializers.IntegerField(allow_null=True),
        "tiles": serializers.ListField(child=serializers.DictField()),
        "removable_pairs": serializers.IntegerField(),
        "jokers_used": serializers.IntegerField(),
        "opponents": inline_serializer(
            "RoundOpponent",
            {
                "player": _PLAYER,
                "score": serializers.IntegerField(),
                "pairs_left": serializers.IntegerField(),
                "finished": serializers.BooleanField(),
                "stuck": serializers.BooleanField(),
            },
            many=True,
        ),
        "result": serializers.DictField(allow_null=True),
    },
)

RoundIntentOut = inline_serializer(
    "RoundIntentAccepted",
    {
        "accepted": serializers.BooleanField(),
        "event": serializers.DictField(),
        "events": serializers.ListField(),
        "game": RoundOut,
    },
)


class DuelPageIn(PageIn):
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=20)


def _page(request, qs, render) -> Response:
    page = DuelPageIn(data=request.query_params)
    page.is_valid(raise_exception=True)
    limit, offset = page.validated_data["limit"], page.validated_data["offset"]
    return Response({"count": qs.count(), "results": [render(x) for x in qs[offset : offset + limit]]})


# --- the queue -----------------------------------------------------------------------------------


class QueueView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # R-38: no new play while suspended

    @extend_schema(request=QueueJoinIn, responses={200: TicketOut, 201: TicketOut, 400: ErrorOut})
    @idempotent
    def post(self, request):
        body = QueueJoinIn(data=request.data)
        body.is_valid(raise_exception=True)
        ticket, created = svc.queue_join(account=request.user, mode=body.validated_data["mode"])
        return Response(sel.ticket_view(ticket), status=201 if created else 200)


class QueueTicketView(APIView):
    @extend_schema(responses={200: TicketOut, 404: ErrorOut})
    def get(self, request, ticket_id):
        return Response(sel.ticket_view(svc.queue_ticket_read(account=request.user, ticket_id=ticket_id)))

    @extend_schema(responses={200: TicketOut, 404: ErrorOut, 422: ErrorOut})
    def delete(self, request, ticket_id):
        return Response(sel.ticket_view(svc.queue_leave(account=request.user, ticket_id=ticket_id)))


# --- duels ---------------------------------------------------------------------------------------


class DuelsView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # R-38: no new play while suspended

    @extend_schema(
        operation_id="v1_duels_list",
        parameters=[DuelPageIn],
        responses={
            200: inline_serializer(
                "DuelPage",
                {
                    "count": serializers.IntegerField(),
                    "results": inline_serializer("DuelItem", _DUEL_FIELDS, many=True),
                },
            )
        },
    )
    def get(self, request):
        return _page(request, sel.duels_of(account=request.user), sel.duel_view)

    @extend_schema(request=DuelChallengeIn, responses={200: DuelOut, 201: DuelOut, 400: ErrorOut, 404: ErrorOut})
    @idempotent
    def post(self, request):
        if not isinstance(request.data, dict):
            raise Invalid("the body is a JSON object")
        body = DuelChallengeIn(data=request.data)
        body.is_valid(raise_exception=True)
        duel, created = svc.duel_challenge(account=request.user, opponent=body.validated_data["opponent"])
        return Response(sel.duel_view(duel), status=201 if created else 200)


class DuelView(APIView):
    @extend_schema(responses={200: DuelOut, 404: ErrorOut})
    def get(self, request, duel_id):
        return Response(sel.duel_view(svc.duel_read(account=request.user, duel_id=duel_id)))


class DuelAcceptView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # R-38: no new play while suspended

    @extend_schema(request=None, responses={200: DuelOut, 404: ErrorOut, 422: ErrorOut})
    @idempotent
    def post(self, request, duel_id):
        return Response(sel.duel_view(svc.duel_accept(account=request.user, duel_id=duel_id)))


class DuelDeclineView(APIView):
    @extend_schema(request=None, responses={200: DuelOut, 404: ErrorOut, 422: ErrorOut})
    @idempotent
    def post(self, request, duel_id):
        return Response(sel.duel_view(svc.duel_decline(account=request.user, duel_id=duel_id)))


# --- matches and rounds ----------------------------------------------------------------------------


def _match_of(account, match_id) -> Match:
    match = Match.objects.filter(pk=match_id, players__account=account).first() if is_uuid(match_id) else None
    if match is None:
        raise NotFound("no such match")
    return match


class MatchesView(APIView):
    @extend_schema(
        operation_id="v1_matches_list",
        parameters=[DuelPageIn],
        responses={
            200: inline_serializer(
                "MatchPage",
                {
                    "count": serializers.IntegerField(),
                    "results": inline_serializer("MatchItem", _MATCH_FIELDS, many=True),
                },
            )
        },
    )
    def get(self, request):
        return _page(request, sel.matches_of(account=request.user), lambda m: sel.match_view(match=m))


class MatchView(APIView):
    @extend_schema(responses={200: MatchOut, 404: ErrorOut})
    def get(self, request, match_id):
        match = _match_of(request.user, match_id)
        now = timezone.now()
        due = match.rounds.filter(status="running", ends_at__lte=now).values_list("pk", flat=True)
        if any(svc.round_end_if_due(round_id=pk, now=now) for pk in due):  # R-17 before answering
            match.refresh_from_db()
        return Response(sel.match_view(match=match, now=now))


class RoundView(APIView):
    @extend_schema(responses={200: RoundOut, 404: ErrorOut})
    def get(self, request, round_id):
        now = timezone.now()
        rnd, boards = svc.round_read(account=request.user, round_id=round_id, now=now)
        return Response(sel.round_view(rnd=rnd, account=request.user, boards=boards, now=now))


@extend_schema_view(
    post=extend_schema(
        request=RoundIntentIn,
        responses={200: RoundIntentOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    )
)
class RoundIntentsView(IntentEndpoint):
    """R-38: a refused intent (an intent after the round's end included) is recorded for review."""

    target_kwarg = "round_id"
    target_prefix = "round:"

    def apply(self, request, round_id, intent):
        result = svc.round_intent_apply(account=request.user, round_id=round_id, intent=intent)
        if result.refused:  # the deadline had passed: the end is recorded (committed), the intent refused
            raise result.refused
        events = [event_view(e) for e in result.events]
        return Accepted(
            result.events,
            {
                "accepted": True,
                "event": events[0],
                "events": events,
                "game": sel.round_view(rnd=result.round, account=request.user, boards=result.boards),
            },
        )


class RoundEventsView(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "RoundBoardEvent",
                {
                    "version": serializers.IntegerField(),
                    "type": serializers.CharField(),
                    "data": serializers.DictField(),
                    "recorded_at": serializers.DateTimeField(),
                },
                many=True,
            ),
            404: ErrorOut,
        }
    )
    def get(self, request, round_id):
        """The caller's own board events in this round (opponents' boards stay private)."""
        return Response(game_events(game=svc.round_board_of(account=request.user, round_id=round_id)))
