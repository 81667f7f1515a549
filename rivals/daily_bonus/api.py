"""Daily bonus endpoints (R-30…R-32): claim and double, authenticated, idempotent."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api import serializers as s
from rivals.api.idempotency import idempotent
from rivals.api.permissions import NotSuspended
from rivals.daily_bonus.services import daily_bonus_claim, daily_bonus_double


class DailyBonusClaimOut(serializers.Serializer):
    day = serializers.IntegerField(help_text="streak day (1, 2, …); R-30")
    points = serializers.IntegerField()
    jokers = serializers.IntegerField(help_text="jokers given by this claim (R-31)")
    date = serializers.DateField(help_text="the Romanian calendar day claimed")


class DailyBonusDoubleOut(serializers.Serializer):
    points = serializers.IntegerField()


class DailyBonusDetails(serializers.Serializer):
    date = serializers.DateField(required=False, help_text="the Romanian day of the claim (R-30)")


# what this room's refusals carry in ``details`` (rivals.api.error_details)
ERROR_DETAILS = {"not_allowed": DailyBonusDetails, "conflict": DailyBonusDetails}


class DailyBonusClaimView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # no points while suspended

    @extend_schema(
        operation_id="daily_bonus_claim",
        summary="Claim today's daily bonus",
        description="R-30: consecutive Romanian days give 10, 20 … 100 points, then 100 a day; a missed day restarts the streak. R-31: every 10th consecutive day also gives a joker. Once a day: a second claim the same Romanian day is 409 `conflict` (details.date).",
        request=None,
        responses={200: DailyBonusClaimOut, 403: s.ErrorOut, 409: s.ErrorOut},
    )
    @idempotent
    def post(self, request):
        result = daily_bonus_claim(account=request.user)
        return Response(
            DailyBonusClaimOut(
                {"day": result.day, "points": result.points, "jokers": result.jokers, "date": result.date}
            ).data
        )


class DailyBonusDoubleView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # no points while suspended

    @extend_schema(
        operation_id="daily_bonus_double",
        summary="Double today's daily bonus",
        description="R-32: the day's bonus points once more (the client reports that the player watched the offer), no joker; once per claimed day (409), after the claim (422).",
        request=None,
        responses={200: DailyBonusDoubleOut, 403: s.ErrorOut, 409: s.ErrorOut, 422: s.ErrorOut},
    )
    @idempotent
    def post(self, request):
        return Response({"points": daily_bonus_double(account=request.user)})
