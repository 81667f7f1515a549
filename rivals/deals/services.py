"""R-40: a competition's deal — a fresh game code no one can predict, and the salt of its
commitment.

Decision: the code of a competitive deal comes from the operating system's CSPRNG (``secrets``),
never from anything a player can see (a round's or a tournament's id): a deal derived from a public
key could be computed, solved and practised before it is played. The deal stays reproducible
where it must be — every replay and rebuild reads the code and the salt from the event that
created the round, wave or pot.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings

from rivals import engine
from rivals.deals.selectors import deal_commitment

SALT_BYTES = 16  # 16 random bytes, lowercase hex


@dataclass(frozen=True)
class SecretDeal:
    """A competition's deal: its game code (T-9) and the salt of its commitment (R-40)."""

    code: str
    salt: str

    @property
    def commitment(self) -> str:
        return deal_commitment(self.code, self.salt)

    def event_fields(self) -> dict[str, str]:
        """What the event creating the competition records (R-40: commitment and salt, beside
        the code; read paths show the code and the salt only once the competition is over)."""
        return {"code": self.code, "salt": self.salt, "commitment": self.commitment}


def deal_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def deal_fresh_code() -> str:
    """A fresh solvable deal (T-9) on one of ``RIVALS["ROUND_LAYOUTS"]`` (all layouts if empty),
    layout and deal number from the CSPRNG."""
    layouts = settings.RIVALS["ROUND_LAYOUTS"] or [lay.id for lay in engine.all_layouts()]
    return engine.random_code(layout_id=secrets.choice(layouts))  # its deal number from os.urandom


def deal_new(*, code: str | None = None) -> SecretDeal:
    """A competition's deal: ``code`` when an operator (or a test) fixed it, else a fresh one;
    always a fresh salt."""
    return SecretDeal(code=code or deal_fresh_code(), salt=deal_salt())
