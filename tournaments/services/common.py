"""What the tournament services share: the locked read, the append, and on-commit scheduling."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rivals.dispatch import task_on_commit  # noqa: F401  the services schedule their tasks through it
from rivals.errors import NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from tournaments.models import Tournament

STREAM_TYPE = "tournament"


def row_or_404(queryset, pk, what: str):
    """The row of ``pk`` (a UUID sent by a client or a job), else ``NotFound`` naming ``what``."""
    row = queryset.filter(pk=pk).first() if is_uuid(pk) else None
    if row is None:
        raise NotFound(f"no such {what}")
    return row


def tournament_locked(tournament_id) -> Tournament:
    """The tournament row, locked for this transaction (the one concurrency point of a tournament)."""
    return row_or_404(Tournament.objects.select_for_update(), tournament_id, "tournament")


def tournament_append(t: Tournament, events: Sequence[NewEvent], *, actor: str, now: datetime) -> None:
    """Append to the tournament's stream at the locked row's version; the row is then reloaded."""
    event_append(
        stream_id=t.stream_id,
        stream_type=STREAM_TYPE,
        expected_version=t.version,
        actor=actor,
        now=now,
        events=list(events),
    )
    t.refresh_from_db()
