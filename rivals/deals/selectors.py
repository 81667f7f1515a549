"""R-40: who still holds a deal secret, and what a read shows of a deal.

A deal is **secret** while any competition that plays it is not over: a running round, a running
match whose rounds all play one fixed deal, a tournament wave with a table still playing (every
table of a wave plays the same deal), a pot that has not closed. The rooms that hold deals
register a ``holder`` here (``register_holder``): given game codes, it answers those it still
holds. The platform of ``rivals`` knows no room; a room asks this one.

A read of a competition shows its ``commitment`` from the moment it exists, and its ``code`` and
``salt`` only once the deal is no longer secret (``deal_fields``). A practice game asked for a
secret code is refused (``rivals.games``), with the same answer for every such code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable

Holder = Callable[[frozenset[str]], Iterable[str]]
_HOLDERS: dict[str, Holder] = {}


def deal_commitment(code: str, salt: str) -> str:
    """R-40: SHA-256 of the UTF-8 text ``"<code>:<salt>"``, lowercase hex (EXAMPLES.md)."""
    return hashlib.sha256(f"{code}:{salt}".encode()).hexdigest()


def register_holder(name: str, holder: Holder) -> None:
    """``holder(codes)`` answers the codes among ``codes`` that a competition of the registering
    room still plays (an indexed query). Registering the same name again replaces it."""
    _HOLDERS[name] = holder


def secret_codes(codes: Collection[str]) -> set[str]:
    """The codes among ``codes`` that some competition still holds secret."""
    wanted = frozenset(c for c in codes if c)
    held: set[str] = set()
    for holder in _HOLDERS.values():
        if not wanted - held:
            break
        held.update(holder(wanted - held))
    return held & wanted


def code_is_secret(code: str) -> bool:
    return bool(code) and code in secret_codes([code])


def deal_fields(*, code: str, salt: str | None, revealed: bool) -> dict[str, str | None]:
    """What a read shows of a competition's deal: ``commitment`` always (``None`` for a deal made
    before R-40, which has no salt), ``code`` and ``salt`` once ``revealed``."""
    return {
        "commitment": deal_commitment(code, salt) if salt else None,
        "code": code if revealed else None,
        "salt": (salt or None) if revealed else None,
    }
