"""Romanian calendar days (R-34): a point belongs to the ``Europe/Bucharest`` day of its instant.

Never derive a Romanian date from a UTC date: 2026-03-28T22:00:00Z is already 2026-03-29 in
Bucharest. ``zoneinfo`` handles both daylight-saving changes (23- and 25-hour days). The one
definition for the product: the daily bonus (rivals) and the rankings both use it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import overload
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.dateparse import parse_datetime

ROMANIA = ZoneInfo("Europe/Bucharest")


def romanian_day(at: datetime) -> date:
    """The Romanian calendar day of an aware instant."""
    if timezone.is_naive(at):
        raise ValueError("romanian_day needs an aware datetime")
    return at.astimezone(ROMANIA).date()


def romanian_today(now: datetime | None = None) -> date:
    return romanian_day(now or timezone.now())


def week_start(day: date) -> date:
    """The Monday of the Monday–Sunday week holding ``day`` (R-34)."""
    return day - timedelta(days=day.weekday())


def day_start_utc(day: date) -> datetime:
    """The UTC instant of 00:00:00 Romanian time on ``day`` (midnight always exists in Romania)."""
    return datetime.combine(day, time(0), tzinfo=ROMANIA).astimezone(UTC)


def week_bounds_utc(instant: datetime) -> tuple[datetime, datetime]:
    """The UTC bounds [Monday 00:00, next Monday 00:00) of the Romanian week holding ``instant``."""
    monday = week_start(romanian_day(instant))
    return day_start_utc(monday), day_start_utc(monday + timedelta(days=7))


@overload
def iso(moment: datetime) -> str: ...
@overload
def iso(moment: None) -> None: ...
@overload
def iso(moment: datetime | None) -> str | None: ...
def iso(moment: datetime | None) -> str | None:
    """An instant as events store it (ISO 8601 with its offset); None stays None."""
    return None if moment is None else moment.isoformat()


def instant(text: str) -> datetime:
    """An instant an event's data holds (``iso``'s ISO 8601 string) as a ``datetime``; a string
    that is none is a ``ValueError``."""
    at = parse_datetime(text)
    if at is None:
        raise ValueError(f"not an instant: {text!r}")
    return at


def iso_z(moment: datetime | None) -> str | None:
    """An instant as the API and the socket answer it (API.md conventions): UTC, ISO 8601 with
    ``Z`` and always microseconds (``2026-12-04T18:50:54.682938Z``, ``…T18:50:54.000000Z``) — the
    same bytes every time (an ``Idempotency-Key`` replay answers what the first call did)."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def iso_z_text(text: str) -> str:
    """An instant stored as text (event data: ``iso``'s ``+00:00``, or any offset) spelled as
    ``iso_z`` spells it; text that is not an instant is returned as it is."""
    if len(text) >= 27 and text.endswith("Z") and text[19:20] == ".":
        return text  # already the one spelling (the common case: nothing to parse)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return text if moment.tzinfo is None else iso_z(moment)
