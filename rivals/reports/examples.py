"""The reports room's documented examples (``rivals.api.examples``)."""

from __future__ import annotations

from rivals.api.examples import SOME_ACCOUNT, request_examples

REPORT = request_examples(
    {
        "report a player's display name (R-39)": {
            "subject": f"player:{SOME_ACCOUNT}",
            "reason": "name",
            "note": "the name insults other players",
        },
        "report a club's name": {"subject": "club:7b0e2f6c-1d3a-4e5b-9c8d-2a1f0e3d4c5b", "reason": "personal_data"},
    }
)
