"""What every intent endpoint shares: the envelope check and the fair-play record (R-38)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

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
        raise Invalid(
            "seq (the count of intents already accepted) is required",
            details={"seq": ["required non-negative integer"]},
        )
    return kind, seq


_RECORDERS: list[Callable[..., None]] = []


def register_rejection_recorder(record: Callable[..., None]) -> None:
    """A room keeps the fair-play record of refused intents (the games room: ``RejectedIntent``)."""
    if record not in _RECORDERS:
        _RECORDERS.append(record)


def rejected_intent_record(*, account, target: str, intent: Any, exc: DomainError) -> None:
    """R-38: a refused intent is kept for fair-play review (by the room that registered its
    recorder, ``rivals.games.services.rejections``); it changes nothing else."""
    for record in _RECORDERS:
        record(account=account, target=target, intent=intent, exc=exc)
