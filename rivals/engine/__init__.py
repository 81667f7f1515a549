"""Mahjong-solitaire engine (no Django, standard library only; the solver has a compiled C core).

Facade used by the service. Tile ids are position indexes into ``Layout.positions``.
Rules: RULES.md Part T, R-1/R-2 (levels), R-8 (joker), R-15 (decisive pair).
"""

from typing import TYPE_CHECKING

from .assist import (
    ShuffleResult,
    hint,
    is_decisive,
    joker_partner,
    plan_still_valid,
    shuffle,
    winning_plan,
)
from .board import Board, free_mask_of
from .codes import CodeError, format_code, parse_code
from .deals import Deal, deal_from_code, random_code
from .layouts import Layout, LayoutError, all_layouts, get_layout
from .solver import SolveResult, solve
from .tiles import FACES, GROUPS, RULESETS, faces_match

if TYPE_CHECKING:  # imported lazily below; named here for readers and type checkers
    from .levels import LevelInfo, level_info

MAX_LEVEL = 11000  # R-1 (same constant as levels.MAX_LEVEL)


def __getattr__(name: str):
    # The level generator is imported lazily, so that ``python -m rivals.engine.levels`` runs
    # the module once (no runpy double-import warning) and importing the engine stays light.
    if name in ("level_info", "LevelInfo", "levels"):
        import importlib

        levels = importlib.import_module(".levels", __name__)
        return levels if name == "levels" else getattr(levels, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "RULESETS",
    "FACES",
    "GROUPS",
    "faces_match",
    "CodeError",
    "parse_code",
    "format_code",
    "Layout",
    "LayoutError",
    "get_layout",
    "all_layouts",
    "Deal",
    "deal_from_code",
    "random_code",
    "Board",
    "free_mask_of",
    "SolveResult",
    "solve",
    "hint",
    "winning_plan",
    "plan_still_valid",
    "ShuffleResult",
    "shuffle",
    "is_decisive",
    "joker_partner",
    "LevelInfo",
    "level_info",
    "MAX_LEVEL",
]
