"""What the tournament services share: the locked read, the append, and on-commit scheduling."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from rivals.errors import NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.ids import is_uuid
from tournaments.models import Tournament

log = logging.getLogger(__name__)
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


def _send(task_name: str, eta: datetime | None, kwargs: dict) -> None:
    """Enqueue a task; a broker outage only logs: the beat sweeper is the safety net."""
    from tournaments import tasks

    try:
        tasks.BY_NAME[task_name].apply_async(kwargs=kwargs, eta=eta)
    except Exception:  # noqa: BLE001 — never fail the committed work because the broker is down
        log.warning("could not enqueue %s %s; the sweeper will apply it", task_name, kwargs, exc_info=True)


def task_on_commit(task_name: str, *, eta: datetime | None = None, **kwargs) -> None:
    """Schedule ``task_name`` (ids only) for ``eta`` once this transaction commits."""
    transaction.on_commit(functools.partial(_send, task_name, eta, kwargs))
