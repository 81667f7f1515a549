"""Sichuan table API (API.md "Sichuan table"): views and their input/output serializers."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema, extend_schema_view
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.schema import uuid_path
from rivals.api.serializers import ErrorOut
from rivals.errors import Invalid
from rivals.sichuan import examples as ex
from rivals.sichuan import selectors as sel
from rivals.sichuan import services as svc
from rivals.sichuan.serializers import (
    INTENTS,
    SichuanEventOut,
    SichuanIntentAcceptedOut,
    SichuanTableCreateIn,
    SichuanTableOut,
    SichuanTablePageIn,
    SichuanTablePageOut,
)

TABLE_ID = uuid_path("table_id", "table")

# --- views ---------------------------------------------------------------------------------------


class TablesView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # lists stay open, new tables are refused

    @extend_schema(
        operation_id="sichuan_table_list",
        summary="List your Sichuan tables",
        description="Your Sichuan tables, newest first.",
        parameters=[SichuanTablePageIn],
        responses={200: SichuanTablePageOut},
    )
    def get(self, request):
        page = SichuanTablePageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit, offset = page.validated_data["limit"], page.validated_data["offset"]
        qs = sel.tables_of(account=request.user)
        return Response({"count": qs.count(), "results": [sel.table_summary(t) for t in qs[offset : offset + limit]]})

    @extend_schema(
        operation_id="sichuan_table_create",
        examples=ex.TABLE_CREATE,
        summary="Open a Sichuan table against three AIs",
        description="A new table (Part S): you at seat 0 against three AIs (S-18), dealt from `seed` (random when left out; S-2).",
        request=SichuanTableCreateIn,
        responses={201: SichuanTableOut},
    )
    @idempotent
    def post(self, request):
        if not isinstance(request.data, dict):
            raise Invalid("the body is a JSON object")
        body = SichuanTableCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        result = svc.sichuan_table_create(account=request.user, seed=body.validated_data.get("seed"))
        return Response(sel.table_view(table=result.table, state=result.state), status=201)


class TableView(APIView):
    @extend_schema(
        operation_id="sichuan_table_get",
        summary="Read your Sichuan table",
        description="Your view of the table: your hand, melds, discards, the wall's count, missing suits (S-3), whose turn, your legal actions; the AIs' hands only once the deal is over.",
        parameters=[TABLE_ID],
        responses={200: SichuanTableOut, 404: ErrorOut},
    )
    def get(self, request, table_id):
        table = svc.table_for_account(account=request.user, table_id=table_id)
        return Response(sel.table_view(table=table, state=svc.table_engine_state(table=table)))


@extend_schema_view(
    post=extend_schema(
        operation_id="sichuan_intent_send",
        examples=ex.INTENTS,
        summary="Act at a Sichuan table",
        description="Your action, with `seq`: `declare_missing` (S-3), `discard` (S-4), `pong` / `kong` (S-5, S-6), `win` (S-10…S-14), `pass`. The AIs then act until it is your turn again or the deal ends (S-8, S-9). An illegal action is 422 with your legal actions.",
        parameters=[TABLE_ID],
        request=PolymorphicProxySerializer(
            component_name="SichuanIntent", serializers=INTENTS, resource_type_field_name="type"
        ),
        responses={200: SichuanIntentAcceptedOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    )
)
class TableIntentsView(IntentEndpoint):
    target_kwarg = "table_id"
    target_prefix = "sichuan:"

    def apply(self, request, table_id, intent):
        with transaction.atomic():
            result = svc.sichuan_intent_apply(account=request.user, table_id=table_id, intent=intent)
        return Accepted(
            result.events,
            {
                "accepted": True,
                "events": sel.table_events(table=result.table, after_version=result.events[0].version - 1),
                "table": sel.table_view(table=result.table, state=result.state),
            },
        )


class TableEventsView(APIView):
    @extend_schema(
        operation_id="sichuan_table_events_list",
        examples=ex.EVENTS_ANSWER,
        summary="List a Sichuan table's events as your seat sees them",
        description="The table's events as your seat may see them (S-18: never another hand before the end).",
        parameters=[TABLE_ID],
        responses={200: SichuanEventOut(many=True), 404: ErrorOut},
    )
    def get(self, request, table_id):
        table = svc.table_for_account(account=request.user, table_id=table_id)
        return Response(sel.table_events(table=table))
