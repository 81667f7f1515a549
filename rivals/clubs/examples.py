"""The clubs room's documented examples (``rivals.api.examples``)."""

from __future__ import annotations

from rivals.api.examples import SOME_ACCOUNT, request_examples

CLUB_CREATE = request_examples({"found a club (R-37)": {"name": "Jade Lotus"}})
OWNER_CHANGE = request_examples({"hand the club over to a member": {"owner": SOME_ACCOUNT}})
