"""Live updates over HTTP (API.md "Live updates", "Notifications"): the socket's ticket, and the
``account`` topic's notifications as a page."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.permissions import NotSuspended
from rivals.api.serializers import ErrorOut
from rivals.live.selectors import notification_view, notifications_page
from rivals.live.serializers import LiveTicketOut, NotificationPageOut, NotificationsIn
from rivals.live.services import live_ticket_issue
from rivals.romanian_time import iso_z


def socket_url(request, ticket: str) -> str:
    base = settings.RIVALS.get("LIVE_URL") or ""
    if not base:
        scheme = "wss" if request.is_secure() else "ws"
        base = f"{scheme}://{request.get_host()}/api/v1/live"
    return f"{base}?ticket={ticket}"


class LiveTicketView(APIView):
    # a suspended account opens no socket (its sockets are closed when it is suspended)
    permission_classes = [IsAuthenticated, NotSuspended]

    @extend_schema(
        operation_id="live_ticket_create",
        summary="Get a ticket for the live socket",
        description="A single-use ticket (valid 30 s) that opens the live socket (`ws(s)://…/api/v1/live?ticket=…`): topics `account` (your notifications), `round:<id>`, `match:<id>`, `queue:<ticket>`, `duel:<id>`, `tournament:<id>`. Never a competition's deal (R-40). A suspended account gets none (403, R-38).",
        request=None,
        responses={201: LiveTicketOut, 401: ErrorOut, 403: ErrorOut},
    )
    def post(self, request):
        ticket, expires_at = live_ticket_issue(account=request.user, now=timezone.now())
        return Response(
            {"ticket": ticket, "expires_at": iso_z(expires_at), "url": socket_url(request, ticket)}, status=201
        )


class NotificationsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="notification_list",
        summary="Read your notifications",
        description="Your notifications, oldest first after `since` (a position of the log: resume with the last one you saw). One typed `data` per `type`; the same on the live socket's `account` topic. A match's `match_found` comes before its `round_started`.",
        parameters=[NotificationsIn],
        responses={200: NotificationPageOut, 400: ErrorOut},
    )
    def get(self, request):
        query = NotificationsIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        count, page = notifications_page(
            account_id=request.user.pk, since=query.validated_data["since"], limit=query.validated_data["limit"]
        )
        return Response({"count": count, "results": [notification_view(n) for n in page]})
