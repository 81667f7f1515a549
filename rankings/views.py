"""Rankings endpoints (R-35): ranked pages (public read) and the caller's place."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rankings.selectors import ranking_me, ranking_page
from rivals.accounts.serializers import PlayerRefOut
from rivals.api.serializers import PageIn


class RankingRowOut(serializers.Serializer):
    place = serializers.IntegerField()
    player = PlayerRefOut()
    points = serializers.IntegerField()


class RankingPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = RankingRowOut(many=True)


class RankingMeOut(serializers.Serializer):
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    total_players = serializers.IntegerField()


class RankingView(APIView):
    """AMR / Weekly / Daily board in Romanian days: points desc, ties share a place (R-35)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="ranking_get", parameters=[PageIn], responses={200: RankingPageOut})
    def get(self, request, board: str):
        page = PageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        return Response(ranking_page(board=board, **page.validated_data))


class RankingMeView(APIView):
    @extend_schema(operation_id="ranking_me_get", responses={200: RankingMeOut})
    def get(self, request, board: str):
        return Response(ranking_me(board=board, account_id=request.user.pk))
