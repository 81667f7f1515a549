"""Who hears of a rated result (API.md "Notifications": ``rating_changed``, R-41; registered in
``rivals.notices`` from the app's ``ready()``): each of its players, with the new rating."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rivals.notices import Facts, Notices
from rivals.ratings.events import RATINGS_UPDATED, RatedPlayer, RatingsUpdatedData
from rivals.ratings.skill import Skill, figure


class RatingChangedData(serializers.Serializer):
    """The ``rating_changed`` notification's data (R-41): one per player of each rated result."""

    result = serializers.CharField(help_text="the rated result (match:<id>)")
    mode = serializers.CharField(help_text="quick, duel, arena or tournament")
    place = serializers.IntegerField(help_text="the player's place in the result")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="μ − 3σ after the result, to two decimals")
    ordinal_before = serializers.FloatField(help_text="μ − 3σ before it")


SHAPES = {"rating_changed": RatingChangedData}


def _rating_changed(d: RatingsUpdatedData, p: RatedPlayer) -> dict[str, Any]:
    before = Skill(p["mu_before"], p["sigma_before"]).ordinal
    after = Skill(p["mu_after"], p["sigma_after"]).ordinal
    return {
        "result": d["result"],
        "mode": d["mode"],
        "place": p["place"],
        "mu": p["mu_after"],
        "sigma": p["sigma_after"],
        "ordinal": figure(after) / 100,
        "ordinal_before": figure(before) / 100,
    }


def _ratings_updated(event: Any, d: RatingsUpdatedData, facts: Facts) -> Notices:
    return [(p["account_id"], "rating_changed", _rating_changed(d, p)) for p in d["players"]]


TOLD = {RATINGS_UPDATED: _ratings_updated}
