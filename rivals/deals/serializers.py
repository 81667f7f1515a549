"""R-40's fields as every answer that shows a competition's deal spells them."""

from __future__ import annotations

from rest_framework import serializers

COMMITMENT_HELP = (
    'R-40: SHA-256 of "<code>:<salt>" (lowercase hex), fixed when the competition was created; '
    "null for a practice game (and for a competition created before R-40)"
)


class DealOut(serializers.Serializer):
    """A competition's deal: its ``commitment`` from the start; its ``code`` and ``salt`` once it
    is over (R-40), so that anyone can check the commitment and replay the deal (T-9)."""

    commitment = serializers.CharField(allow_null=True, min_length=64, max_length=64, help_text=COMMITMENT_HELP)
    code = serializers.CharField(
        allow_null=True, help_text="the game code (T-9); null while the competition's deal is secret (R-40)"
    )
    salt = serializers.CharField(
        allow_null=True, help_text="32 lowercase hex (16 random bytes); shown with the code once it is over (R-40)"
    )
