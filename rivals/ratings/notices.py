"""Who hears of a rated result (API.md "Notifications": ``rating_changed``, R-41; registered in
``rivals.notices`` from the app's ``ready()``): each of its players, with the new rating."""

from __future__ import annotations

from typing import Any

from rivals.notices import Facts, Notices
from rivals.ratings.events import RATINGS_UPDATED, RatedPlayer, RatingsUpdatedData
from rivals.ratings.skill import Skill, figure


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
