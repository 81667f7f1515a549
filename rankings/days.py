"""Romanian calendar days (R-34): a point belongs to the ``Europe/Bucharest`` day of its instant.

Never derive a Romanian date from a UTC date: 2026-03-28T22:00:00Z is already 2026-03-29 in
Bucharest. ``zoneinfo`` handles both daylight-saving changes (23- and 25-hour days).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from rivals.romanian_time import ROMANIA, romanian_day, romanian_today

__all__ = ["ROMANIA", "AMR_DAYS", "romanian_day", "romanian_today", "week_start", "amr_window_start", "day_start_utc"]

AMR_DAYS = 365  # the last 365 Romanian days including today


def week_start(day: date) -> date:
    """The Monday of the Monday–Sunday week holding ``day`` (R-34)."""
    return day - timedelta(days=day.weekday())


def amr_window_start(today: date) -> date:
    """First day of the AMR window of ``today``: days today−364 … today (R-34)."""
    return today - timedelta(days=AMR_DAYS - 1)


def day_start_utc(day: date) -> datetime:
    """The UTC instant of 00:00:00 Romanian time on ``day`` (midnight always exists in Romania)."""
    return datetime.combine(day, time(0), tzinfo=ROMANIA).astimezone(ZoneInfo("UTC"))
