"""Sichuan table API (API.md "Sichuan table"): views and their input/output serializers."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.idempotency import idempotent
from rivals.api.intents import Accepted, IntentEndpoint
from rivals.api.permissions import NotSuspended
from rivals.api.serializers import ErrorOut, PageIn
from rivals.errors import Invalid
from rivals.sichuan import selectors as sel
from rivals.sichuan import services as svc

# --- serializers ---------------------------------------------------------------------------------


class SichuanTableCreateIn(serializers.Serializer):
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=svc.MAX_SEED)


class SichuanIntentIn(serializers.Serializer):
    """Schema only: the service checks the shape strictly (a tile is an integer, not "5")."""

    seq = serializers.IntegerField(min_value=0)
    type = serializers.ChoiceField(choices=svc.INTENT_TYPES)
    suit = serializers.ChoiceField(choices=svc.SUITS, required=False, help_text="declare_missing")
    tile = serializers.IntegerField(required=False, min_value=0, max_value=107, help_text="discard; kong (optional)")


TileOut = inline_serializer("SichuanTile", {"id": serializers.IntegerField(), "face": serializers.CharField()})

TableOut = inline_serializer(
    "SichuanTable",
    {
        "id": serializers.UUIDField(),
        "status": serializers.CharField(),
        "seq": serializers.IntegerField(),
        "seat": serializers.IntegerField(),
        "seed": serializers.IntegerField(allow_null=True),
        "dealer": serializers.IntegerField(),
        "phase": serializers.CharField(),
        "turn": serializers.IntegerField(allow_null=True),
        "to_act": serializers.BooleanField(),
        "hand": serializers.ListField(child=serializers.DictField()),
        "drawn": serializers.DictField(allow_null=True),
        "wall_count": serializers.IntegerField(),
        "missing": serializers.ListField(child=serializers.CharField(allow_null=True)),
        "claim": serializers.DictField(allow_null=True),
        "legal_actions": serializers.ListField(child=serializers.DictField()),
        "seats": serializers.ListField(child=serializers.DictField()),
        "scores": serializers.ListField(child=serializers.IntegerField()),
        "payments": serializers.ListField(child=serializers.DictField()),
        "result": serializers.DictField(allow_null=True),
        "created_at": serializers.DateTimeField(),
        "finished_at": serializers.DateTimeField(allow_null=True),
    },
)

_EVENT_FIELDS = {
    "index": serializers.IntegerField(help_text="1-based place among the events you see"),
    "type": serializers.CharField(),
    "data": serializers.DictField(),
    "recorded_at": serializers.DateTimeField(),
}

_SUMMARY_FIELDS = {
    "id": serializers.UUIDField(),
    "status": serializers.CharField(),
    "seq": serializers.IntegerField(),
    "scores": serializers.ListField(child=serializers.IntegerField()),
    "created_at": serializers.DateTimeField(),
    "finished_at": serializers.DateTimeField(allow_null=True),
}


TablePageOut = inline_serializer(
    "SichuanTablePage",
    {
        "count": serializers.IntegerField(),
        "results": inline_serializer("SichuanTableSummary", _SUMMARY_FIELDS, many=True),
    },
)

IntentAcceptedOut = inline_serializer(
    "SichuanIntentAccepted",
    {
        "accepted": serializers.BooleanField(),
        "events": inline_serializer("SichuanIntentEvent", _EVENT_FIELDS, many=True),
        "table": TableOut,
    },
)


class TablePageIn(PageIn):
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=20)


# --- views ---------------------------------------------------------------------------------------


class TablesView(APIView):
    permission_classes = [IsAuthenticated, NotSuspended]  # lists stay open, new tables are refused

    @extend_schema(
        operation_id="v1_sichuan_list",
        parameters=[TablePageIn],
        responses={200: TablePageOut},
    )
    def get(self, request):
        page = TablePageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit, offset = page.validated_data["limit"], page.validated_data["offset"]
        qs = sel.tables_of(account=request.user)
        return Response({"count": qs.count(), "results": [sel.table_summary(t) for t in qs[offset : offset + limit]]})

    @extend_schema(request=SichuanTableCreateIn, responses={201: TableOut, 400: ErrorOut, 403: ErrorOut})
    @idempotent
    def post(self, request):
        if not isinstance(request.data, dict):
            raise Invalid("the body is a JSON object")
        body = SichuanTableCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        result = svc.sichuan_table_create(account=request.user, seed=body.validated_data.get("seed"))
        return Response(sel.table_view(table=result.table, state=result.state), status=201)


class TableView(APIView):
    @extend_schema(responses={200: TableOut, 404: ErrorOut})
    def get(self, request, table_id):
        table = svc.table_for_account(account=request.user, table_id=table_id)
        return Response(sel.table_view(table=table, state=svc.table_engine_state(table=table)))


@extend_schema_view(
    post=extend_schema(
        request=SichuanIntentIn,
        responses={200: IntentAcceptedOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
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
    @extend_schema(responses={200: inline_serializer("SichuanEvent", _EVENT_FIELDS, many=True), 404: ErrorOut})
    def get(self, request, table_id):
        table = svc.table_for_account(account=request.user, table_id=table_id)
        return Response(sel.table_events(table=table))
