"""Game codes ``MJ1-Lnn-XXXXXXX`` (T-9)."""

from __future__ import annotations

import re

VERSION = "MJ1"
DEAL_BITS = 35
MAX_DEAL = (1 << DEAL_BITS) - 1
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # RFC 4648 base32 alphabet
_B32_INDEX = {c: i for i, c in enumerate(B32)}
_LAYOUT_RE = re.compile(r"^L\d\d$")


class CodeError(ValueError):
    """A malformed game code. ``part`` names the bad part: "code", "version", "layout" or "deal"."""

    def __init__(self, part: str, message: str) -> None:
        super().__init__(message)
        self.part = part


def encode_deal(n: int) -> str:
    if not isinstance(n, int) or not 0 <= n <= MAX_DEAL:
        raise CodeError("deal", f"deal number must be in 0..{MAX_DEAL}, got {n!r}")
    return "".join(B32[(n >> (5 * k)) & 31] for k in range(6, -1, -1))  # big-endian


def decode_deal(text: str) -> int:
    if len(text) != 7:
        raise CodeError("deal", f"deal part {text!r} must be 7 base32 characters (A-Z, 2-7)")
    n = 0
    for ch in text:
        v = _B32_INDEX.get(ch)
        if v is None:
            raise CodeError("deal", f"deal part {text!r} has a character outside A-Z, 2-7: {ch!r}")
        n = (n << 5) | v
    return n


def parse_code(code: str) -> tuple[str, int]:
    """``"mj1-l00-aaaaaab"`` → ``("L00", 1)``. Case-insensitive; raises CodeError naming the bad part."""
    if not isinstance(code, str):
        raise CodeError("code", "game code must be a string like MJ1-L00-AAAAAAA")
    parts = code.strip().upper().split("-")
    if len(parts) != 3:
        raise CodeError("code", f"game code {code!r} must have three parts: MJ1-Lnn-XXXXXXX")
    version, layout_id, deal = parts
    if version != VERSION:
        raise CodeError("version", f"unknown code version {version!r} (expected {VERSION})")
    if not _LAYOUT_RE.match(layout_id):
        raise CodeError("layout", f"layout part {layout_id!r} must be L followed by two digits")
    from .layouts import get_layout

    try:
        get_layout(layout_id)
    except KeyError:
        raise CodeError("layout", f"unknown layout {layout_id!r}") from None
    return layout_id, decode_deal(deal)


def format_code(layout_id: str, deal_number: int) -> str:
    lid = str(layout_id).upper()
    if not _LAYOUT_RE.match(lid):
        raise CodeError("layout", f"layout id {layout_id!r} must be L followed by two digits")
    from .layouts import get_layout

    try:
        get_layout(lid)
    except KeyError:
        raise CodeError("layout", f"unknown layout {layout_id!r}") from None
    return f"{VERSION}-{lid}-{encode_deal(deal_number)}"
