"""The shapes of the Sichuan table API (API.md "Sichuan table", SICHUAN.md): the human seat's view
(AI hands only once the deal is over), its legal actions, the events it may see."""

import json

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from rivals.api.serializers import PageIn
from rivals.sichuan import services as svc
from rivals.sichuan.events import MISSING_SUIT_DECLARED, TABLE_DEALT, TILE_DRAWN

TABLE_STATUSES = ["playing", "finished"]


class SichuanTableCreateIn(serializers.Serializer):
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=svc.MAX_SEED)


def _intent(name: str, kind: str, **fields) -> type[serializers.Serializer]:
    attrs = {
        "seq": serializers.IntegerField(min_value=0, help_text="intents already accepted at this table"),
        "type": serializers.ChoiceField(choices=[kind]),
        **fields,
        "Meta": type("Meta", (), {"ref_name": name}),
    }
    return type(name, (serializers.Serializer,), attrs)


def _tile(**kw) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=107, help_text="a tile id (0 … 107)", **kw)


INTENTS = {
    "declare_missing": _intent(
        "SichuanDeclareMissingIntent", "declare_missing", suit=serializers.ChoiceField(choices=svc.SUITS)
    ),
    "discard": _intent("SichuanDiscardIntent", "discard", tile=_tile()),
    "pong": _intent("SichuanPongIntent", "pong"),
    "kong": _intent("SichuanKongIntent", "kong", tile=_tile(required=False)),
    "win": _intent("SichuanWinIntent", "win"),
    "pass": _intent("SichuanPassIntent", "pass"),
}


class SichuanTileOut(serializers.Serializer):
    id = serializers.IntegerField()
    face = serializers.CharField(help_text="e.g. 5D (5 of dots)")


class SichuanActionOut(serializers.Serializer):
    """A legal action of the human seat: send it back as an intent (with ``seq``)."""

    type = serializers.ChoiceField(choices=list(INTENTS))
    tile = serializers.IntegerField(required=False)
    face = serializers.CharField(required=False)
    suit = serializers.ChoiceField(choices=svc.SUITS, required=False)


class SichuanMeldOut(serializers.Serializer):
    type = serializers.ChoiceField(choices=["pong", "kong"])
    kong = serializers.CharField(allow_null=True, help_text="exposed, added or concealed (a kong)")
    tiles = SichuanTileOut(many=True)
    # "from" is a Python keyword: the field is set by name
    locals()["from"] = serializers.IntegerField(allow_null=True, help_text="the seat it was claimed from")


class SichuanWinOut(serializers.Serializer):
    by = serializers.CharField(help_text="self_draw, discard or rob")
    locals()["from"] = serializers.IntegerField(allow_null=True, help_text="the discarder's seat")
    tile = SichuanTileOut()
    fan = serializers.IntegerField()
    fans = serializers.ListField(child=serializers.CharField())
    value = serializers.IntegerField()


class SichuanSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.ChoiceField(choices=["you", "ai"])
    hand_size = serializers.IntegerField()
    hand = SichuanTileOut(many=True, allow_null=True, help_text="an AI's hand only once the deal is over")
    melds = SichuanMeldOut(many=True)
    discards = SichuanTileOut(many=True)
    missing = serializers.CharField(allow_null=True, help_text="the missing suit, once revealed")
    active = serializers.BooleanField()
    win = SichuanWinOut(allow_null=True)
    score = serializers.IntegerField()


class SichuanPaymentOut(serializers.Serializer):
    reason = serializers.CharField()
    payer = serializers.IntegerField()
    payee = serializers.IntegerField()
    amount = serializers.IntegerField()


class SichuanClaimOut(serializers.Serializer):
    kind = serializers.CharField()
    locals()["from"] = serializers.IntegerField(help_text="the seat whose tile may be claimed")
    tile = SichuanTileOut()


class SichuanResultOut(serializers.Serializer):
    reason = serializers.CharField()
    scores = serializers.ListField(child=serializers.IntegerField())
    payments = SichuanPaymentOut(many=True)
    hands = serializers.ListField(child=SichuanTileOut(many=True))


class SichuanTableOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=TABLE_STATUSES)
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    seed = serializers.IntegerField(allow_null=True, help_text="shown once the deal is over")
    dealer = serializers.IntegerField()
    phase = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    to_act = serializers.BooleanField()
    hand = SichuanTileOut(many=True)
    drawn = SichuanTileOut(allow_null=True)
    wall_count = serializers.IntegerField()
    missing = serializers.ListField(child=serializers.CharField(allow_null=True))
    claim = SichuanClaimOut(allow_null=True)
    legal_actions = SichuanActionOut(many=True)
    seats = SichuanSeatOut(many=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    payments = SichuanPaymentOut(many=True)
    result = SichuanResultOut(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class SichuanEventOut(serializers.Serializer):
    """In the schema: a union on ``type`` of the table's events as the seat sees them
    (``SeatEventsUnion``)."""

    index = serializers.IntegerField(help_text="1-based place among the events you see")
    type = serializers.CharField()
    data = serializers.DictField(help_text="the event as your seat may see it")
    recorded_at = serializers.DateTimeField()


# what a seat's view hides (rivals.sichuan.engine.view.events_for_seat, selectors.visible_events):
# the other seats' dealt hands and draws, the wall's order, the others' missing suits until
# revealed, the seed until the deal is over — those values may be null, and the dealt table says
# the hands' sizes and the wall's count instead
_SEEN_NULLABLE = {
    TABLE_DEALT: ("seed", "wall"),
    TILE_DRAWN: ("tile",),
    MISSING_SUIT_DECLARED: ("suit",),
}
_SEEN_ADDED = {
    TABLE_DEALT: {
        "hand_sizes": {"type": "array", "items": {"type": "integer"}},
        "wall_count": {"type": "integer"},
    }
}


def seat_view_schema(type_name: str, data: dict) -> dict:
    """The schema of an event's data as a seat sees it, from the event's own data schema."""
    data = json.loads(json.dumps(data))
    props = data["properties"]
    for key in _SEEN_NULLABLE.get(type_name, ()):
        props[key] = {**props[key], "type": [props[key]["type"], "null"]}
    if type_name == TABLE_DEALT:
        props["hands"]["items"] = {"type": ["array", "null"], "items": props["hands"]["items"]["items"]}
    props.update(_SEEN_ADDED.get(type_name, {}))
    return data


class SeatEventsUnion(OpenApiSerializerExtension):
    target_class = SichuanEventOut

    def map_serializer(self, auto_schema, direction):
        from rivals.api.event_schema import event_union

        return event_union(
            auto_schema,
            features=("sichuan",),
            suffix="AsSeen",
            fields={
                "index": {"type": "integer", "description": "1-based place among the events you see"},
                "recorded_at": {"type": "string", "format": "date-time"},
            },
            data_of=seat_view_schema,
            seen_as="as your seat sees it",
            description="An event of your table as your seat may see it: one shape per type",
        )


class SichuanTableSummaryOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=TABLE_STATUSES)
    seq = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class SichuanTablePageIn(PageIn):
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=20)


class SichuanTablePageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = SichuanTableSummaryOut(many=True)


class SichuanIntentAcceptedOut(serializers.Serializer):
    accepted = serializers.BooleanField()
    events = SichuanEventOut(many=True)
    table = SichuanTableOut()


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class SichuanNotAllowedDetails(serializers.Serializer):
    status = serializers.CharField(required=False, help_text="the table's status")
    legal_actions = SichuanActionOut(many=True, required=False, help_text="what the seat may do now")


ERROR_DETAILS = {"not_allowed": SichuanNotAllowedDetails}
