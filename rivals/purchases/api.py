"""The store backend's purchase reports (API.md "Community", R-11): ``POST /api/v1/purchases``,
server to server. Not a game client's: no token — the report is signed, ``X-Signature:
sha256=<hex HMAC-SHA256 of the raw body with PURCHASES_WEBHOOK_SECRET>``, compared in constant
time before the body is read; a missing or bad signature is 401 and nothing is recorded.

Decision: while ``PURCHASES_WEBHOOK_SECRET`` is not set the endpoint answers 503 ``unavailable``
(``Retry-After``), not 404: a store backend retries what failed with a 5xx, so a purchase reported
while the deployment is misconfigured is delivered once it is configured — a 404 would have the
store give up (and refund the buyer). No rate limit: a report costs one HMAC before anything else,
and the store's own retries must not be refused.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.errors import RETRY_AFTER_S, error_response
from rivals.api.serializers import ErrorOut
from rivals.errors import Unauthenticated
from rivals.purchases import examples as ex
from rivals.purchases.serializers import PurchaseIn, PurchaseOut
from rivals.purchases.services import purchase_record

HEADER = "X-Signature"
PREFIX = "sha256="


def not_configured() -> Response:
    return error_response(
        "unavailable",
        "purchases are not accepted here yet: PURCHASES_WEBHOOK_SECRET is not set",
        503,
        {"reason": "not_configured", "retry_after_s": RETRY_AFTER_S},
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


def signature_checked(request, secret: str) -> None:
    """401 unless the raw body carries the store's signature (constant-time comparison)."""
    given = request.headers.get(HEADER, "")
    expected = PREFIX + hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode("ascii", "replace"), expected.encode()):
        raise Unauthenticated(f"missing or bad {HEADER}: sign the raw body with the shared secret")


class PurchasesView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes: list = []

    @extend_schema(
        operation_id="purchase_record",
        examples=ex.PURCHASE,
        summary="Record a store purchase or refund (server to server)",
        description="Server to server: the store backend reports a purchase or a refund of jokers (R-11), signed with `X-Signature: sha256=<HMAC-SHA256 of the raw body>`. Idempotent by `transaction_id`; never counts in a ranking (R-33).",
        request=PurchaseIn,
        parameters=[
            OpenApiParameter(
                HEADER,
                {"type": "string", "pattern": r"^sha256=[0-9a-f]{64}$"},
                OpenApiParameter.HEADER,
                required=True,
                description="sha256=<hex HMAC-SHA256 of the raw body with PURCHASES_WEBHOOK_SECRET>",
            )
        ],
        responses={
            200: PurchaseOut,
            401: OpenApiResponse(
                ErrorOut, description="unauthenticated: a missing or bad signature (nothing recorded)"
            ),
            404: OpenApiResponse(ErrorOut, description="not_found: no such account"),
            409: OpenApiResponse(
                ErrorOut, description="conflict: this transaction id was recorded with another report"
            ),
            422: OpenApiResponse(ErrorOut, description="not_allowed: a purchase for a closed account"),
            503: OpenApiResponse(
                ErrorOut, description="unavailable: PURCHASES_WEBHOOK_SECRET is not set, or the database is down"
            ),
        },
    )
    def post(self, request):
        secret = settings.PURCHASES_WEBHOOK_SECRET
        if not secret:
            return not_configured()
        signature_checked(request, secret)  # before the body is parsed: an unsigned body is not even read
        body = PurchaseIn(data=request.data)
        body.is_valid(raise_exception=True)
        purchase, replayed = purchase_record(**body.validated_data)
        headers = {"Idempotent-Replayed": "true"} if replayed else {}
        return Response({"account_id": purchase.account_id, "jokers": purchase.balance}, headers=headers)
