"""``tournament_starting`` (API.md: 5 minutes before): a job finds the tournaments that start within
``LEAD`` and are neither started nor cancelled (the tournaments projection's rows: status
``scheduled``), and appends one ``TournamentStartingSoon`` per tournament (stream
``reminder-tournament-<id>`` at version 0: a second run, or two at once, find it there) naming the
accounts registered at that moment — the notifications projection turns it into their
notifications (``tournaments.notices``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from rivals.eventstore import StreamConflict, event_append
from rivals.models import Stream
from tournaments.events import tournament_starting_soon
from tournaments.models import Registration, Tournament

LEAD = timedelta(minutes=5)


def _stream(tournament: Tournament) -> str:
    """The reminder's stream: ``reminder-`` and the tournament's stream."""
    return f"reminder-{tournament.stream_id}"


def tournament_reminders_append(*, now: datetime) -> int:
    """Append the reminders that are due; returns how many."""
    soon = list(Tournament.objects.filter(status="scheduled", starts_at__gt=now, starts_at__lte=now + LEAD))
    streams = {_stream(t): t for t in soon}
    sent_before = set(Stream.objects.filter(id__in=list(streams)).values_list("id", flat=True))
    sent = 0
    for stream_id, tournament in streams.items():
        if stream_id in sent_before:
            continue
        registered = list(
            Registration.objects.filter(tournament=tournament).order_by("id").values_list("account_id", flat=True)
        )
        try:
            with transaction.atomic():
                event_append(
                    stream_id=stream_id,
                    stream_type="reminder",
                    expected_version=0,
                    actor="system",
                    now=now,
                    events=[
                        tournament_starting_soon(
                            tournament_id=str(tournament.pk),
                            starts_at=tournament.starts_at,
                            title=tournament.title or "",
                            account_ids=registered,  # in the order they registered
                        )
                    ],
                )
            sent += 1
        except StreamConflict:  # another run sent it
            continue
    return sent
