"""Statistics reads (T-10, R-37): what the public profile shows of a player's play."""

from __future__ import annotations

from typing import Any

from rivals.statistics.models import COUNTERS_SHOWN, BestTime, PlayerStats


def player_stats(*, account_id: int) -> dict[str, Any]:
    """``{"games_played", "games_won", "hints_used", "rounds_played", "rounds_won",
    "tournaments_played", "best_times": [{"layout", "time_ms"}]}`` (by layout); zeros for a
    player who has not played."""
    row = PlayerStats.objects.filter(account_id=account_id).values(*COUNTERS_SHOWN).first()
    best = BestTime.objects.filter(account_id=account_id).order_by("layout").values_list("layout", "time_ms")
    return {
        **(row or dict.fromkeys(COUNTERS_SHOWN, 0)),
        "best_times": [{"layout": layout, "time_ms": ms} for layout, ms in best],
    }


def stats_profile_extension(account) -> dict[str, Any]:
    return {"stats": player_stats(account_id=account.pk)}
