"""Reports API (API.md "Community", R-39): a player reports a display name, a club's name or
cheating, into the operators' review queue."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.permissions import NotSuspended
from rivals.api.serializers import ErrorOut
from rivals.api.throttling import FixedWindowThrottle, UserThrottle
from rivals.reports import examples as ex
from rivals.reports.serializers import ReportIn, ReportOut
from rivals.reports.services import report_file


class ReportThrottle(FixedWindowThrottle):
    """Reports per account (``THROTTLE_REPORT``, 20 an hour by default): the review queue is read
    by people."""

    scope = "report"

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class ReportsView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # a suspended account files none
    throttle_classes = [UserThrottle, ReportThrottle]

    @extend_schema(
        operation_id="report_create",
        examples=ex.REPORT,
        summary="Report a display name or a club name",
        description="R-39: report a display name (`player:<id>`) or a club name (`club:<id>`) to the operators, with a reason and an optional note. One open report per subject (409); yourself: 422; 20 an hour (429); a suspended account: 403 (R-38).",
        request=ReportIn,
        responses={
            201: ReportOut,
            404: OpenApiResponse(ErrorOut, description="not_found: no such player (or closed) or club"),
            409: OpenApiResponse(ErrorOut, description="conflict: an open report of yours on this subject"),
            422: OpenApiResponse(ErrorOut, description="not_allowed: reporting oneself, or a closed club"),
        },
    )
    @idempotent
    def post(self, request):
        body = ReportIn(data=request.data)
        body.is_valid(raise_exception=True)
        report = report_file(reporter=request.user, **body.validated_data)
        return Response(
            {
                "id": str(report.pk),
                "status": report.status,
                "subject": report.subject,
                "reason": report.reason,
                "filed_at": report.filed_at,
            },
            status=201,
        )
