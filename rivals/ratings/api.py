"""Ratings (API.md "Matches and rounds", R-41): a player's rating and the rating board — public
reads, served by the replica when there is one."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.schema import int_path
from rivals.api.serializers import ErrorOut, PageIn
from rivals.ratings.selectors import rating_board, rating_of
from rivals.ratings.serializers import RatingBoardOut, RatingOut
from rivals.replica.views import ReplicaReads


class RatingView(ReplicaReads, APIView):
    """R-41: a player's rating — μ, σ, the ordinal μ − 3σ, whether it is provisional, the rated
    results, the board's place."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rating_get",
        summary="Read a player's skill rating",
        description="R-41: a player's skill rating (OpenSkill, Plackett–Luce): `mu`, `sigma`, the public figure "
        "`ordinal` (μ − 3σ, to two decimals), `provisional` until 12 one-to-one or 5 multi-player rated results, "
        "the rated results and the place on the rating board (`null` when not on it). Public; 404 for an unknown "
        "or closed account.",
        parameters=[int_path("account_id", "player")],
        responses={200: RatingOut, 404: OpenApiResponse(ErrorOut, description="not_found: no such player")},
    )
    def get(self, request, account_id):
        return Response(rating_of(account_id=account_id))


class RatingBoardView(ReplicaReads, APIView):
    """R-41: the rating board by ordinal (to two decimals; equal ordinals share a place), without
    provisional ratings and without suspended or closed accounts (R-38)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_list",
        summary="Read the rating board",
        description="R-41: the rating board by `ordinal`, paginated; provisional ratings and suspended or closed "
        "accounts are not on it (R-38); equal ordinals share a place (1, 1, 3). Public.",
        parameters=[PageIn],
        responses={200: RatingBoardOut},
    )
    def get(self, request):
        query = PageIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(rating_board(**query.validated_data))
