"""``tournament_starting`` (API.md: 5 minutes before): a job finds, in the log, the tournaments
that start within ``LEAD`` and are neither started nor cancelled, and appends one
``TournamentStartingSoon`` per tournament (stream ``reminder-tournament-<id>`` at version 0: a
second run, or two at once, find it there) naming the accounts registered at that moment — the
notifications projection turns it into their notifications (``tournaments.notices``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils.dateparse import parse_datetime

from rivals.eventstore import StreamConflict, event_append
from tournaments.events import (
    TOURNAMENT_CANCELLED,
    TOURNAMENT_CREATED,
    TOURNAMENT_EDITED,
    TOURNAMENT_STARTED,
    tournament_starting_soon,
)
from tournaments.notices import LogTournamentFacts

LEAD = timedelta(minutes=5)

DUE_SQL = """
WITH latest AS (
  SELECT DISTINCT ON (stream_id) stream_id, COALESCE(data->'changes'->>'starts_at', data->>'starts_at') AS starts_at,
         COALESCE(data->'changes'->>'title', data->>'title') AS title
  FROM rivals_event
  WHERE type IN (%(created)s, %(edited)s) AND stream_type = 'tournament'
    AND COALESCE(data->'changes'->>'starts_at', data->>'starts_at') IS NOT NULL
  ORDER BY stream_id, position DESC
)
SELECT l.stream_id, l.starts_at, l.title FROM latest l
WHERE l.starts_at::timestamptz > %(now)s AND l.starts_at::timestamptz <= %(until)s
  AND NOT EXISTS (SELECT 1 FROM rivals_event e WHERE e.stream_id = l.stream_id
                  AND e.type IN (%(started)s, %(cancelled)s))
  AND NOT EXISTS (SELECT 1 FROM rivals_stream s WHERE s.id = 'reminder-' || l.stream_id)
"""


def tournament_reminders_append(*, now: datetime) -> int:
    """Append the reminders that are due; returns how many."""
    with connection.cursor() as cur:
        types = {
            "created": TOURNAMENT_CREATED,
            "edited": TOURNAMENT_EDITED,
            "started": TOURNAMENT_STARTED,
            "cancelled": TOURNAMENT_CANCELLED,
        }
        cur.execute(DUE_SQL, {"now": now, "until": now + LEAD, **types})
        due = cur.fetchall()
    sent = 0
    for stream_id, starts_at, title in due:
        tournament_id = stream_id.removeprefix("tournament-")
        try:
            with transaction.atomic():
                event_append(
                    stream_id=f"reminder-{stream_id}",
                    stream_type="reminder",
                    expected_version=0,
                    actor="system",
                    now=now,
                    events=[
                        tournament_starting_soon(
                            tournament_id=tournament_id,
                            starts_at=parse_datetime(starts_at),
                            title=title or "",
                            account_ids=LogTournamentFacts().registered(tournament_id),
                        )
                    ],
                )
            sent += 1
        except StreamConflict:  # another run sent it
            continue
    return sent
