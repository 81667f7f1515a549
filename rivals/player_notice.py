"""What a player is told of an operator's act on their account (issue 40, API.md "Notifications").

An operator's act (a suspension, its lift, a joker grant or correction, a display name reset, a
club rename) keeps two texts apart:

- the **operator's note** — the services' ``reason`` keyword: why, in the operators' words
  (suspicions, ticket numbers, other players' ids). Recorded in the event for operators; it never
  appears in a notification, a REST answer, the socket or the player's data export;
- what **the player is told**: a reason code from ``REASON_CODES`` and, only when the operator
  wrote one *for the player*, a ``message``.

``notice_data`` is the one place a notification's data takes these from an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from rivals.errors import Invalid
from rivals.text import clean_text

# code → how the admin's form names it
REASON_CODES = {
    "fair_play": "fair play (cheating, bots, exploits)",
    "abusive_name": "an abusive or personal name",
    "terms": "the terms of service",
    "outage": "an outage",
    "goodwill": "goodwill",
    "correction": "a correction of a mistake",
    "other": "other",
}
MESSAGE_MAX = 300


def notice_clean(reason_code: str, message: str | None) -> tuple[str, str]:
    """The code (one of ``REASON_CODES``, else 400) and the message for the player ("" for none)."""
    if reason_code not in REASON_CODES:
        text = f"reason_code: one of {', '.join(REASON_CODES)}"
        raise Invalid(text, details={"reason_code": [text]})
    message = clean_text(message or "", field="message", max_length=MESSAGE_MAX, min_length=0)
    return reason_code, message


def notice_data(data: Mapping[str, Any], *, default_code: str = "other") -> dict[str, Any]:
    """What a player's notification carries of an operator's act: ``reason_code`` (an event made
    before there were codes: ``default_code``) and ``message`` when the operator wrote one for the
    player — never the operator's note (``reason`` / ``note``)."""
    out = {"reason_code": data.get("reason_code") or default_code}
    if data.get("message"):
        out["message"] = data["message"]
    return out


class OperatorNoticeData(serializers.Serializer):
    """What a player is told of an operator's act on their account (issue 40): a reason code and,
    only where the operator wrote one for the player, a message — never the operator's own note.
    The rooms' notification shapes of such acts subclass it."""

    reason_code = serializers.ChoiceField(choices=list(REASON_CODES))
    message = serializers.CharField(required=False, help_text="written by the operator for the player")
