"""Named settings of the Sichuan table.  Defaults are the **Decision** items of SICHUAN.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Rules:
    # S-2 Decision: the dealer is chosen by the table's seed (False: seat 0 deals).
    dealer_from_seed: bool = True
    # S-8 Decision: after a win on a discard the turn passes to the first active player after
    # the *last* winner counted from the discarder ("last_winner"); "first_winner" is the
    # alternative family rule.
    turn_after_discard_win: str = "last_winner"
    # S-12: 2^fan capped at this many fan (5 fan = 32 points).
    fan_cap: int = 5
    # S-14: bonus each active opponent adds on a self-drawn win.
    self_draw_bonus: int = 1
    # S-15 kong payments.
    exposed_kong_points: int = 2
    added_kong_points: int = 1
    concealed_kong_points: int = 2
    # S-16.1: what a flower pig pays each receiver.
    flower_pig_points: int = 32
    # S-16.1 Decision: only *active* non-pigs receive from a pig (False: winners receive too).
    pig_pays_active_only: bool = True
    # S-16.3 Decision: the *not ready* active players refund kong income ("not_ready");
    # "ready" is the literal (mistranslated) reading of the seed.
    refund_by: str = "not_ready"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> Rules:
        if not data:
            return cls()
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)
