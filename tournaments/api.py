"""Tournaments and pot competitions API (API.md "Tournaments"): views with explicit serializers.

Reads apply what time decided first (of the three ways, this is "on read"), so a client never
sees a tournament that should already have started, seated its next wave or been finalized.
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.permissions import NotSuspended
from rivals.api.schema import uuid_path
from rivals.api.serializers import ErrorOut, PageIn
from rivals.games.selectors import game_view
from rivals.replica.views import ReplicaReads
from tournaments import selectors as sel
from tournaments.models import Pot, Tournament
from tournaments.serializers import (
    PotGameOut,
    PotListIn,
    PotListOut,
    PotOut,
    RegistrationOut,
    TournamentListIn,
    TournamentListOut,
    TournamentPageOut,
)
from tournaments.services import play, pots, registration, tables
from tournaments.services.common import row_or_404

TOURNAMENT_ID = uuid_path("tournament_id", "tournament")
POT_ID = uuid_path("pot_id", "pot competition")

ON_READ_LIMIT = 50  # due tournaments a list read applies at most (the sweeper does the rest)


def _tournament(tournament_id) -> Tournament:
    return row_or_404(Tournament.objects, tournament_id, "tournament")


class TournamentsView(ReplicaReads, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournament_list",
        summary="List tournaments",
        description="Tournaments by status (R-21): their schedule, kind, minimum players, prize table and multipliers (public, paginated).",
        parameters=[TournamentListIn],
        responses={200: TournamentListOut},
    )
    def get(self, request):
        q = TournamentListIn(data=request.query_params)
        q.is_valid(raise_exception=True)
        now = timezone.now()
        for tid in list(play.tournaments_due(now)[:ON_READ_LIMIT]):
            play.tournament_tick(tournament_id=tid, now=now, open_tables=False)
        qs = sel.tournament_list(status=q.validated_data.get("status"))
        limit, offset = q.validated_data["limit"], q.validated_data["offset"]
        return Response(
            {"count": qs.count(), "results": [sel.tournament_summary(t) for t in qs[offset : offset + limit]]}
        )


class TournamentView(ReplicaReads, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournament_get",
        summary="Read a tournament's page",
        description="A tournament's page (R-21): its settings, standings by total TP (R-24…R-26; empty for one cancelled before any table was played, with `cancelled_at`), and, with a token, your registration, current table and past tables.",
        parameters=[TOURNAMENT_ID, PageIn],
        responses={200: TournamentPageOut, 404: ErrorOut},
    )
    def get(self, request, tournament_id):
        t = _tournament(tournament_id)
        page = PageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        play.tournament_tick(tournament_id=t.pk, open_tables=False)
        if request.user.is_authenticated:  # the caller's own table is opened by the read itself
            tables.tables_open(tournament_id=t.pk, account_id=request.user.pk)
        t.refresh_from_db()
        return Response(sel.tournament_page(tournament=t, account=request.user, **page.validated_data))


class RegisterView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]

    def _answer(self, t: Tournament, request, status: int) -> Response:
        t.refresh_from_db()
        reg = t.registrations.filter(account=request.user).first()
        return Response(
            {
                "tournament_id": str(t.pk),
                "registered": reg is not None,
                "registered_at": reg.registered_at if reg else None,
                "registered_count": t.registered,
            },
            status=status,
        )

    @extend_schema(
        operation_id="tournament_register",
        summary="Register for a tournament",
        description="Register (R-21). Champions (R-28): 200 points of final tournament prizes this Romanian week, else 403 `not_eligible` with your figure. Twice: 409; after the start, or a cancelled or finished tournament: 422; a suspended account: 403 (R-38).",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={
            201: RegistrationOut,
            403: OpenApiResponse(ErrorOut, description="forbidden (suspended, R-38) or not_eligible (R-28)"),
            404: ErrorOut,
            409: ErrorOut,
            422: ErrorOut,
        },
    )
    @idempotent
    def post(self, request, tournament_id):
        t = _tournament(tournament_id)
        play.tournament_tick(tournament_id=t.pk, open_tables=False)  # a due start first: registration closed
        registration.tournament_register(tournament_id=t.pk, account=request.user)
        return self._answer(t, request, 201)

    @extend_schema(
        operation_id="tournament_unregister",
        summary="Withdraw a tournament registration",
        description="Withdraw your registration before the start (422 after it, or when not registered).",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: RegistrationOut, 404: ErrorOut, 422: ErrorOut},
    )
    def delete(self, request, tournament_id):
        t = _tournament(tournament_id)
        play.tournament_tick(tournament_id=t.pk, open_tables=False)
        registration.tournament_unregister(tournament_id=t.pk, account=request.user)
        return self._answer(t, request, 200)


def _pot(pot_id) -> Pot:
    return row_or_404(Pot.objects, pot_id, "pot competition")


class PotsView(ReplicaReads, APIView):
    """P-5: pot competitions by status, with their settings (public)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="pot_list", summary="List pot competitions", parameters=[PotListIn], responses={200: PotListOut}
    )
    def get(self, request):
        q = PotListIn(data=request.query_params)
        q.is_valid(raise_exception=True)
        now = timezone.now()
        due = Pot.objects.filter(status="open", ends_at__lte=now).order_by("ends_at").values_list("pk", flat=True)
        for pot_id in list(due[:ON_READ_LIMIT]):  # what time decided first (the sweeper does the rest)
            pots.pot_finalize(pot_id=pot_id, now=now)
        qs = sel.pot_list(status=q.validated_data.get("status"), now=now)
        limit, offset = q.validated_data["limit"], q.validated_data["offset"]
        return Response(
            {"count": qs.count(), "results": [sel.pot_summary(p, now) for p in qs[offset : offset + limit]]}
        )


class PotView(ReplicaReads, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="pot_get",
        summary="Read a pot competition",
        description="A pot competition (P-5): its deal's commitment (code and salt once it closed, R-40), time limit, entrants with scores, and the result and prizes once finished.",
        parameters=[POT_ID],
        responses={200: PotOut, 404: ErrorOut},
    )
    def get(self, request, pot_id):
        pot = pots.pot_tick_on_read(_pot(pot_id))
        return Response(sel.pot_view(pot=pot))


class PotEnterView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]

    @extend_schema(
        operation_id="pot_enter",
        summary="Enter a pot competition",
        description="Start your Pool game on the pot's deal (P-4: its time limit, cut to the pot's end); play it at /api/v1/games/{id}/intents. Once per pot (409); a closed pot or an entry list without you: 422.",
        parameters=[POT_ID],
        request=None,
        responses={201: PotGameOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request, pot_id):
        pot = pots.pot_tick_on_read(_pot(pot_id))
        game = pots.pot_enter(pot_id=pot.pk, account=request.user)
        return Response({"pot_id": str(pot.pk), "game": game_view(game=game)}, status=201)
