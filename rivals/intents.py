"""What every intent endpoint shares: the envelope check and the fair-play record (R-38)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rivals.context import request_id
from rivals.errors import DomainError, Invalid


def intent_envelope(intent: Any, types: Sequence[str]) -> tuple[str, int]:
    """Check ``{"seq", "type", …}`` (400 ``invalid``) and return ``(type, seq)``."""
    if not isinstance(intent, dict):
        raise Invalid("an intent is a JSON object")
    kind = intent.get("type")
    if kind not in types:
        raise Invalid(f"unknown intent type {kind!r}", details={"type": [f"one of {list(types)}"]})
    seq = intent.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise Invalid("seq (the count of intents already accepted) is required",
                      details={"seq": ["required non-negative integer"]})
    return kind, seq


def rejected_intent_record(*, account, target: str, intent: Any, exc: DomainError) -> None:
    """R-38: a refused intent is kept for fair-play review; it changes nothing else."""
    from rivals.models import RejectedIntent

    RejectedIntent.objects.create(
        account=account if account is not None and account.is_authenticated else None,
        target=str(target)[:80], intent=intent if isinstance(intent, (dict, list)) else None,
        code=exc.code, message=exc.message[:300], request_id=request_id.get() or "",
    )
