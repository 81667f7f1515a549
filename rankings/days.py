"""Romanian calendar days (R-34): a point belongs to the ``Europe/Bucharest`` day of its instant.

Never derive a Romanian date from a UTC date: 2026-03-28T22:00:00Z is already 2026-03-29 in
Bucharest. ``zoneinfo`` handles both daylight-saving changes (23- and 25-hour days).
"""

from __future__ import annotations

from datetime import date, timedelta

from rivals.romanian_time import ROMANIA, day_start_utc, romanian_day, romanian_today, week_start

__all__ = ["ROMANIA", "AMR_DAYS", "romanian_day", "romanian_today", "week_start", "amr_window_start", "day_start_utc"]

AMR_DAYS = 365  # the last 365 Romanian days including today


def amr_window_start(today: date) -> date:
    """First day of the AMR window of ``today``: days today−364 … today (R-34)."""
    return today - timedelta(days=AMR_DAYS - 1)
