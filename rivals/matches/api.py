"""Competitive play API (API.md "Matches and rounds"): the queue, duels, matches, rounds."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.prefer import PARAMETER as PREFER
from rivals.api.prefer import wants_minimal
from rivals.api.schema import uuid_path
from rivals.api.serializers import ErrorOut, EventOut
from rivals.errors import Invalid, NotFound
from rivals.games.selectors import event_view, game_events
from rivals.games.serializers import intent_union
from rivals.ids import is_uuid
from rivals.matches import examples as ex
from rivals.matches import selectors as sel
from rivals.matches import services as svc
from rivals.matches.models import Match
from rivals.matches.serializers import (
    ROUND_INTENT_ACCEPTED,
    DuelChallengeIn,
    DuelOut,
    DuelPageIn,
    DuelPageOut,
    MatchOut,
    MatchPageOut,
    QueueJoinIn,
    RoundOut,
    TicketOut,
)

TICKET_ID = uuid_path("ticket_id", "queue ticket")
DUEL_ID = uuid_path("duel_id", "duel")
MATCH_ID = uuid_path("match_id", "match")
ROUND_ID = uuid_path("round_id", "round")


def _page(request, qs, render) -> Response:
    page = DuelPageIn(data=request.query_params)
    page.is_valid(raise_exception=True)
    limit, offset = page.validated_data["limit"], page.validated_data["offset"]
    return Response({"count": qs.count(), "results": [render(x) for x in qs[offset : offset + limit]]})


# --- the queue -----------------------------------------------------------------------------------


class QueueView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # no new play while suspended

    @extend_schema(
        operation_id="queue_join",
        examples=ex.QUEUE_JOIN,
        summary="Join the Quick Match or Arena queue",
        description="Join the queue of Quick Match (2 players, R-12) or Arena (4 players, 3 rounds, R-20): the join that completes a group creates the match (first come, first served); the ticket says `matched` and names it. A ticket lasts 120 s. One live ticket per account (200 with it). A suspended account: 403 (R-38).",
        request=QueueJoinIn,
        responses={200: TicketOut, 201: TicketOut},
    )
    @idempotent
    def post(self, request):
        body = QueueJoinIn(data=request.data)
        body.is_valid(raise_exception=True)
        ticket, created = svc.queue_join(account=request.user, mode=body.validated_data["mode"])
        return Response(sel.ticket_view(ticket), status=201 if created else 200)


class QueueTicketView(APIView):
    @extend_schema(
        operation_id="queue_ticket_get",
        summary="Read your queue ticket",
        description="Your queue ticket: waiting, matched (with its match), or expired.",
        parameters=[TICKET_ID],
        responses={200: TicketOut, 404: ErrorOut},
    )
    def get(self, request, ticket_id):
        return Response(sel.ticket_view(svc.queue_ticket_read(account=request.user, ticket_id=ticket_id)))

    @extend_schema(
        operation_id="queue_leave",
        summary="Leave the queue",
        description="Leave the queue (a matched ticket cannot: play the match, 422).",
        parameters=[TICKET_ID],
        responses={200: TicketOut, 404: ErrorOut, 422: ErrorOut},
    )
    def delete(self, request, ticket_id):
        return Response(sel.ticket_view(svc.queue_leave(account=request.user, ticket_id=ticket_id)))


# --- duels ---------------------------------------------------------------------------------------


class DuelsView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # no new play while suspended

    @extend_schema(
        operation_id="duel_list",
        summary="List your duels",
        description="Your duels, as challenger or opponent, newest first (R-19).",
        parameters=[DuelPageIn],
        responses={200: DuelPageOut},
    )
    def get(self, request):
        return _page(request, sel.duels_of(account=request.user), sel.duel_view)

    @extend_schema(
        operation_id="duel_challenge",
        examples=ex.DUEL_CHALLENGE,
        summary="Challenge a player to a duel",
        description="R-19: challenge another player to a one-round duel on a fresh deal; duels earn no ranking points. Expires after 10 minutes. Yourself: 422; an unknown player or an operator: 404; a suspended account: 403 (R-38).",
        request=DuelChallengeIn,
        responses={200: DuelOut, 201: DuelOut, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request):
        if not isinstance(request.data, dict):
            raise Invalid("the body is a JSON object")
        body = DuelChallengeIn(data=request.data)
        body.is_valid(raise_exception=True)
        duel, created = svc.duel_challenge(account=request.user, opponent=body.validated_data["opponent"])
        return Response(sel.duel_view(duel), status=201 if created else 200)


class DuelView(APIView):
    @extend_schema(
        operation_id="duel_get",
        summary="Read a duel",
        description="A duel: its status, its match once accepted, and the result once played (R-19).",
        parameters=[DUEL_ID],
        responses={200: DuelOut, 404: ErrorOut},
    )
    def get(self, request, duel_id):
        return Response(sel.duel_view(svc.duel_read(account=request.user, duel_id=duel_id)))


class DuelAcceptView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # no new play while suspended

    @extend_schema(
        operation_id="duel_accept",
        summary="Accept a duel",
        description="The challenged player accepts: a match of one round starts at once (R-17, R-19); the challenger hears `duel_accepted` before the round's `round_started`.",
        parameters=[DUEL_ID],
        request=None,
        responses={200: DuelOut, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request, duel_id):
        return Response(sel.duel_view(svc.duel_accept(account=request.user, duel_id=duel_id)))


class DuelDeclineView(APIView):
    @extend_schema(
        operation_id="duel_decline",
        summary="Decline or withdraw a duel",
        description="The challenged player declines (`declined`), or the challenger withdraws (`cancelled`).",
        parameters=[DUEL_ID],
        request=None,
        responses={200: DuelOut, 404: ErrorOut, 422: ErrorOut},
    )
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
        operation_id="match_list",
        summary="List your matches",
        description="Your matches (Quick Match, Duel, Arena, tournament tables), newest first.",
        parameters=[DuelPageIn],
        responses={200: MatchPageOut},
    )
    def get(self, request):
        return _page(request, sel.matches_of(account=request.user), lambda m: sel.match_view(match=m))


class MatchView(APIView):
    @extend_schema(
        operation_id="match_get",
        summary="Read a match",
        description="A match: its rounds, standings (R-18; an Arena's by the sum of its three rounds, R-20) and prizes (R-12 Quick Match points, R-20 Arena prizes; R-18a: an idle player earns nothing).",
        parameters=[MATCH_ID],
        responses={200: MatchOut, 404: ErrorOut},
    )
    def get(self, request, match_id):
        match = _match_of(request.user, match_id)
        now = timezone.now()
        rounds = sel.match_rounds(match)
        due = [r.pk for r in rounds if r.status == "running" and r.deadline_at <= now]
        if any(svc.round_end_if_due(round_id=pk, now=now) for pk in due):  # R-17 before answering
            match.refresh_from_db()
            rounds = None  # read again: one ended
        return Response(sel.match_view(match=match, now=now, rounds=rounds))


class RoundView(APIView):
    @extend_schema(
        operation_id="round_get",
        summary="Read a round: your board and your opponents",
        description="Your board of a round as a game, and the round: its status, its end to show (`ends_at`, R-17's clock: it moves with every pair), your opponents' figures (never their tiles), the result (R-18) once ended, the deal's commitment (its code once the round is over, R-40).",
        parameters=[ROUND_ID],
        responses={200: RoundOut, 404: ErrorOut},
    )
    def get(self, request, round_id):
        now = timezone.now()
        rnd, boards = svc.round_read(account=request.user, round_id=round_id, now=now)
        return Response(sel.round_view(rnd=rnd, account=request.user, boards=boards, now=now))


@extend_schema_view(
    post=extend_schema(
        operation_id="round_intent_send",
        examples=[*ex.ROUND_INTENTS, *ex.ROUND_INTENT_ANSWERS],
        summary="Send a move in a round",
        parameters=[ROUND_ID, PREFER],
        # rounds take remove_pair, click_blocked and (not in Quick Match, R-9) joker; others are 422
        request=intent_union("RoundIntent", ("remove_pair", "click_blocked", "joker")),
        responses={200: ROUND_INTENT_ACCEPTED, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    )
)
class RoundIntentsView(IntentEndpoint):
    """R-38: a refused intent (an intent after the round's end included) is recorded for review."""

    target_kwarg = "round_id"
    target_prefix = "round:"
    honours_prefer = True

    def apply(self, request, round_id, intent):
        result = svc.round_intent_apply(account=request.user, round_id=round_id, intent=intent)
        if result.refused:  # the deadline had passed: the end is recorded (committed), the intent refused
            raise result.refused
        events = [event_view(e) for e in result.events]
        if wants_minimal(request):  # RFC 7240: only what the intent changed (rivals.api.prefer)
            delta = sel.round_delta_view(
                rnd=result.round,
                game=result.game,
                present_before=result.present_before,
                faces_before=result.faces_before,
            )
            return Accepted(result.events, {"accepted": True, "events": events, **delta}, minimal=True)
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
        operation_id="round_events_list",
        examples=ex.ROUND_EVENTS_ANSWER,
        summary="List your board's events in a round",
        parameters=[ROUND_ID],
        responses={200: EventOut(many=True), 404: ErrorOut},
    )
    def get(self, request, round_id):
        """The caller's own board events in this round (opponents' boards stay private)."""
        return Response(game_events(game=svc.round_board_of(account=request.user, round_id=round_id)))
