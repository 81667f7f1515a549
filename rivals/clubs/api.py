"""Clubs API (API.md "Accounts": clubs; R-37): list and search, found, a club's page, join,
leave, hand over ownership."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.schema import uuid_path
from rivals.api.serializers import ErrorOut
from rivals.clubs import examples as ex
from rivals.clubs import selectors as sel
from rivals.clubs import services as svc
from rivals.clubs.serializers import ClubCreateIn, ClubOut, ClubOwnerIn, ClubPageIn, ClubPageOut

SUSPENDED = OpenApiResponse(ErrorOut, description="forbidden: a suspended account founds and joins no club (R-38)")


def _club(club) -> Response:
    return Response(sel.club_view(club=club))


class ClubsView(APIView):
    """Open clubs by name (public); founding one makes the caller its owner and first member."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="club_list",
        summary="Find clubs by name",
        parameters=[ClubPageIn],
        responses={200: ClubPageOut, 400: ErrorOut},
    )
    def get(self, request):
        page = ClubPageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit, offset = page.validated_data["limit"], page.validated_data["offset"]
        qs = sel.clubs_search(q=page.validated_data.get("q", ""))
        return Response({"count": qs.count(), "results": [sel.club_summary(c) for c in qs[offset : offset + limit]]})

    @extend_schema(
        operation_id="club_create",
        examples=ex.CLUB_CREATE,
        summary="Found a club",
        description="Found a club (R-37): you become its owner and first member. A player is in one club at most (422); names are unique among open clubs, compared without case, width or look-alike characters (409).",
        request=ClubCreateIn,
        responses={201: ClubOut, 400: ErrorOut, 403: SUSPENDED, 409: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request):
        body = ClubCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        club = svc.club_found(account=request.user, name=body.validated_data["name"])
        return Response(sel.club_view(club=club), status=201)


class ClubView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="club_get",
        summary="Read a club's page",
        description="A club's page (public, R-37): owner, members with their points, the club's summed points (a suspended member adds nothing, R-38), status.",
        parameters=[uuid_path("club_id", "club")],
        responses={200: ClubOut, 404: ErrorOut},
    )
    def get(self, request, club_id):
        return _club(svc.club_get(club_id))


class ClubJoinView(APIView):
    @extend_schema(
        operation_id="club_join",
        summary="Join a club",
        description="Join an open club (R-37); you are in at most one club (422). A suspended account joins none (403, R-38).",
        parameters=[uuid_path("club_id", "club")],
        request=None,
        responses={200: ClubOut, 403: SUSPENDED, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request, club_id):
        return _club(svc.club_join(account=request.user, club_id=club_id))


class ClubLeaveView(APIView):
    @extend_schema(
        operation_id="club_leave",
        summary="Leave your club",
        description="Leave your club. Decision (R-37): when the owner leaves, the longest-standing member becomes owner; the last member leaving closes the club.",
        parameters=[uuid_path("club_id", "club")],
        request=None,
        responses={200: ClubOut, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request, club_id):
        return _club(svc.club_leave(account=request.user, club_id=club_id))


class ClubOwnerView(APIView):
    """The owner hands the club over to another member (403 for anyone else)."""

    @extend_schema(
        operation_id="club_owner_change",
        examples=ex.OWNER_CHANGE,
        summary="Hand your club over to a member",
        parameters=[uuid_path("club_id", "club")],
        request=ClubOwnerIn,
        responses={200: ClubOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    )
    @idempotent
    def post(self, request, club_id):
        body = ClubOwnerIn(data=request.data)
        body.is_valid(raise_exception=True)
        return _club(
            svc.club_owner_change(account=request.user, club_id=club_id, owner_id=body.validated_data["owner"])
        )
