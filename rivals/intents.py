"""What every intent endpoint shares: the envelope check and the fair-play record (R-38)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rivals.context import request_id
from rivals.errors import DomainError, Invalid
from rivals.text import storable_json, storable_text


def intent_envelope(intent: Any, types: Sequence[str]) -> tuple[str, int]:
    """Check ``{"seq", "type", …}`` (400 ``invalid``) and return ``(type, seq)``."""
    if not isinstance(intent, dict):
        raise Invalid("an intent is a JSON object")
    kind = intent.get("type")
    if kind not in types:
        raise Invalid(f"unknown intent type {kind!r}", details={"type": [f"one of {list(types)}"]})
    seq = intent.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise Invalid(
            "seq (the count of intents already accepted) is required",
            details={"seq": ["required non-negative integer"]},
        )
    return kind, seq


def rejected_intent_record(*, account, target: str, intent: Any, exc: DomainError) -> None:
    """R-38: a refused intent is kept for fair-play review; it changes nothing else.

    Whatever the client sent is stored as a sanitised copy (``rivals.text.storable_json``): the
    record of a hostile intent must not fail on the very characters that made it hostile."""
    from rivals.models import RejectedIntent

    RejectedIntent.objects.create(
        account=account if account is not None and account.is_authenticated else None,
        target=storable_text(target, 80),
        intent=storable_json(intent) if isinstance(intent, (dict, list)) else None,
        code=exc.code,
        message=storable_text(exc.message, 300),
        request_id=request_id.get() or "",
    )
