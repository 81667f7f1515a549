"""``Prefer: return=minimal`` (RFC 7240) on the intent endpoints: the compact answer.

An accepted intent answers by default the whole game (every tile on the board, the counters, and
for a round its opponents): what a client needs to draw the board from nothing. Most clients
already hold the board and want only what the intent changed; ``Prefer: return=minimal`` asks for
that — the events, ``seq``, score, status, the tiles that appeared or whose ``free`` (or face)
changed, and the ids of the tiles that left the board. The answer then carries
``Preference-Applied: return=minimal``; without the preference (or with any other) the full
answer stays the default, so no client breaks. Every intent answer says ``Vary: Prefer``.

Unknown preferences and parameters are ignored, as RFC 7240 says a server may; an operation that
does not declare the header (the Sichuan tables) ignores it too. A replay of an idempotent intent
answers what the first answer was, whichever shape it had.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

HEADER = "Prefer"
APPLIED = "Preference-Applied"
MINIMAL = "return=minimal"

PARAMETER = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    description=(
        "RFC 7240: `return=minimal` answers only what the intent changed (the events, `seq`, score, "
        "status, the tiles that appeared or changed, the ids of the tiles removed) and says "
        "`Preference-Applied: return=minimal`; without it (or with any other preference) the answer is "
        "the whole game"
    ),
)

APPLIED_HEADER = {
    APPLIED: {
        "description": "`return=minimal` when the compact answer was given (RFC 7240)",
        "schema": {"type": "string", "enum": [MINIMAL]},
    }
}


def wants_minimal(request) -> bool:
    """Whether the request's ``Prefer`` header (possibly several, comma-separated, with
    parameters after ``;``) holds ``return=minimal``."""
    header = request.META.get("HTTP_PREFER")
    if not header:
        return False
    for preference in header.split(","):
        token = preference.split(";", 1)[0].strip().lower().replace(" ", "")
        if token in (MINIMAL, 'return="minimal"'):
            return True
    return False
