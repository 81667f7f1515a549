"""Who hears of a points award (API.md "Notifications": ``prize_awarded``; registered in
``rivals.notices`` from the app's ``ready()``): a prize's winner — R-12 Quick Match points, R-20
Arena, R-26 tournaments, P-5 pots. Daily bonuses and levels are not prizes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rivals.notices import Facts, Notices
from rivals.points.events import POINTS_AWARDED, PointsAwardedData

PRIZE_SOURCES = ("quick_match", "arena", "tournament_prize", "pool_pot")


class PrizeRefData(serializers.Serializer):
    """What a prize was for (a match, a tournament, a pot)."""

    match_id = serializers.UUIDField(required=False)
    tournament_id = serializers.UUIDField(required=False)
    pot_id = serializers.UUIDField(required=False)
    title = serializers.CharField(required=False)
    place = serializers.IntegerField(required=False)
    tp = serializers.IntegerField(required=False)
    score = serializers.IntegerField(required=False)


class PrizeAwardedData(serializers.Serializer):
    source = serializers.ChoiceField(choices=list(PRIZE_SOURCES))
    amount = serializers.IntegerField()
    ref = PrizeRefData(allow_null=True)


SHAPES = {"prize_awarded": PrizeAwardedData}


def _points_awarded(event: Any, d: PointsAwardedData, facts: Facts) -> Notices:
    if d.get("source") not in PRIZE_SOURCES or not d.get("amount"):
        return []
    data = {"source": d["source"], "amount": d["amount"], "ref": d.get("ref")}
    return [(d["account_id"], "prize_awarded", data)]


TOLD = {POINTS_AWARDED: _points_awarded}
