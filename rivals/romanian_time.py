"""Romanian calendar days (R-34): a point belongs to the ``Europe/Bucharest`` day of its instant.

Never derive a Romanian date from a UTC date: 2026-03-28T22:00:00Z is already 2026-03-29 in
Bucharest. ``zoneinfo`` handles both daylight-saving changes (23- and 25-hour days). The one
definition for the product: the daily bonus (rivals) and the rankings both use it.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

ROMANIA = ZoneInfo("Europe/Bucharest")


def romanian_day(at: datetime) -> date:
    """The Romanian calendar day of an aware instant."""
    if timezone.is_naive(at):
        raise ValueError("romanian_day needs an aware datetime")
    return at.astimezone(ROMANIA).date()


def romanian_today(now: datetime | None = None) -> date:
    return romanian_day(now or timezone.now())
