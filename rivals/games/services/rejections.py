"""R-38: the fair-play record of refused intents (``RejectedIntent``), kept by this room for every
board's intents (registered with ``rivals.intents`` in ``GamesConfig.ready``), and its retention."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from rivals.context import request_id
from rivals.errors import DomainError
from rivals.games.models import RejectedIntent
from rivals.system import prune_older
from rivals.text import storable_json, storable_text


def rejected_intent_record(*, account, target: str, intent: Any, exc: DomainError) -> None:
    """A refused intent is kept for fair-play review; it changes nothing else.

    Whatever the client sent is stored as a sanitised copy (``rivals.text.storable_json``): the
    record of a hostile intent must not fail on the very characters that made it hostile."""
    RejectedIntent.objects.create(
        account=account if account is not None and account.is_authenticated else None,
        target=storable_text(target, 80),
        intent=storable_json(intent) if isinstance(intent, (dict, list)) else None,
        code=exc.code,
        message=storable_text(exc.message, 300),
        request_id=request_id.get() or "",
    )


def rejected_intents_prune(*, now: datetime | None = None) -> int:
    """Fair-play records (R-38) older than ``REJECTED_INTENT_RETENTION_D`` days."""
    before = (now or timezone.now()) - timedelta(days=settings.RIVALS["REJECTED_INTENT_RETENTION_D"])
    return prune_older(RejectedIntent.objects, "at", before)
