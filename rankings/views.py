"""Rankings endpoints (R-35): ranked pages (public read), past Weekly and Daily boards (R-34), and
the caller's place."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rankings.selectors import ranking_me, ranking_page, ranking_period
from rivals.api.serializers import ErrorOut, PageIn, PlayerRefOut
from rivals.errors import NotAllowed
from rivals.replica.views import ReplicaReads


class RankingRowOut(serializers.Serializer):
    place = serializers.IntegerField()
    player = PlayerRefOut()
    points = serializers.IntegerField()


class RankingPeriodOut(serializers.Serializer):
    starts_on = serializers.DateField(help_text="the board's first Romanian day (AMR: the window's)")
    ends_on = serializers.DateField(help_text="its last Romanian day")
    final = serializers.BooleanField(
        help_text="the period has ended and nothing unresolved (a round, arena, match, tournament or pot) can "
        "still pay into it: its totals are final (R-34)"
    )


class RankingPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = RankingRowOut(many=True)
    period = RankingPeriodOut(help_text="the Romanian days the board covers")


class RankingPageIn(PageIn):
    week = serializers.DateField(
        required=False, help_text="Weekly only: a past week's board, named by its Monday (any day names its week)"
    )
    day = serializers.DateField(required=False, help_text="Daily only: a past Romanian day's board")


class RankingMeOut(serializers.Serializer):
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    total_players = serializers.IntegerField()


class RankingView(ReplicaReads, APIView):
    """AMR / Weekly / Daily board in Romanian days: points desc, ties share a place (R-35). A past
    Weekly (``?week=``) or Daily (``?day=``) board is final: the totals of that period's points
    (R-34), without the accounts suspended or closed now (R-38), kept for the AMR's 365 days."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ranking_get",
        summary="Read a ranking board",
        parameters=[RankingPageIn],
        responses={
            200: RankingPageOut,
            404: OpenApiResponse(ErrorOut, description="not_found: a period older than the 365 days kept"),
            422: OpenApiResponse(
                ErrorOut,
                description="not_allowed: a period that has not started, or one the board does not have "
                "(week is Weekly's, day is Daily's)",
            ),
        },
    )
    def get(self, request, board: str):
        query = RankingPageIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = dict(query.validated_data)
        on = page.pop("week", None) or page.pop("day", None)
        wrong = {"amr": ("week", "day"), "weekly": ("day",), "daily": ("week",)}[board]
        given = [name for name in wrong if name in request.query_params]
        if given:  # the schema cannot say which board takes which: 422, as a rule the schema does not state
            message = f"the {board} board has no past boards by {given[0]}"
            raise NotAllowed(message, details={given[0]: [message]})
        period = ranking_period(board=board, on=on)
        return Response({**ranking_page(board=board, day=period.pop("day"), **page), "period": period})


class RankingMeView(APIView):
    @extend_schema(
        operation_id="ranking_me_get",
        summary="Read your place on a ranking board",
        description="Your place on a board (R-34 windows, R-35 places); at zero points, or while suspended, `total_players + 1`.",
        responses={200: RankingMeOut},
    )
    def get(self, request, board: str):
        return Response(ranking_me(board=board, account_id=request.user.pk))


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class RankingsNotAllowedDetails(serializers.Serializer):
    starts_on = serializers.DateField(required=False, help_text="the asked period starts then (not yet)")
    today = serializers.DateField(required=False, help_text="the Romanian day now")
    week = serializers.ListField(child=serializers.CharField(), required=False)
    day = serializers.ListField(child=serializers.CharField(), required=False)


class RankingsNotFoundDetails(serializers.Serializer):
    kept_from = serializers.DateField(required=False, help_text="the oldest day kept (R-34: 365 days)")


ERROR_DETAILS = {"not_allowed": RankingsNotAllowedDetails, "not_found": RankingsNotFoundDetails}
