"""Pure-Python engine of the Sichuan "Bloody Battle" table (SICHUAN.md S-1 .. S-19).

Facade used by the Django service.  Standard library only; deterministic from the seed.
"""

from __future__ import annotations

from . import hands, payments
from .ai import BaselinePlayer, ai_action
from .rules import Rules
from .table import IllegalAction, Table, new_table, replay
from .tiles import SplitMix64, tile_face, tile_kind, tile_rank, tile_suit
from .view import MeldView, SeatView, events_for_seat, seat_view

__all__ = [
    "Rules",
    "Table",
    "SeatView",
    "MeldView",
    "IllegalAction",
    "BaselinePlayer",
    "SplitMix64",
    "new_table",
    "legal_actions",
    "apply",
    "ai_action",
    "seat_view",
    "replay",
    "is_over",
    "run_ai_turns",
    "tile_face",
    "tile_kind",
    "tile_suit",
    "tile_rank",
    "events_for_seat",
    "pending_seats",
    "hands",
    "payments",
]


def legal_actions(table: Table, seat: int) -> list[dict]:
    return table.legal_actions(seat)


def apply(table: Table, seat: int, action: dict) -> list[dict]:
    """Apply one seat's action; returns the new events (raises ``IllegalAction``)."""
    return table.apply(seat, action)


def is_over(table: Table) -> bool:
    return table.over


def pending_seats(table: Table) -> list[int]:
    return table.pending_seats()


def run_ai_turns(table: Table, human_seat: int | None = 0, policies=None) -> list[dict]:
    """Let the AIs act until the human seat must act or the deal ends.

    ``policies`` optionally maps seat -> callable(SeatView) -> action (default ``ai_action``).
    With ``human_seat=None`` every seat is played by its policy (AI-only deal)."""
    out: list[dict] = []
    while not table.over:
        seats = [s for s in table.pending_seats() if s != human_seat]
        if not seats:
            break
        s = seats[0]
        policy = (policies or {}).get(s, ai_action)
        out.extend(table.apply(s, policy(seat_view(table, s))))
    return out
