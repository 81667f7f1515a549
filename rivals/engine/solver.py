"""Exact solver: solvability and a winning plan for any position, T-6 or T-6a.

Two implementations of one algorithm (described in ``search``): the compiled core
(``rivals.engine._core``, C sources in ``csrc/``, built when the package is installed) and the
pure-Python reference (``search.py`` with ``theory.py``). They give the same verdict, plan and
node count on every position - tested position by position on a corpus
(tests/engine/test_core_equivalence.py) - so a verdict never depends on which one runs (R-15
Decision: the same result on every machine). The compiled core is used when it is importable;
the reference is the fallback (and what the tests compare with).

``node_budget`` bounds the search (decisions + conflicts); exceeding it gives
``solvable=None`` (undecided). The search is deterministic: same input, same plan, same nodes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import board as _board
from .board import Board
from .layouts import Layout
from .search import search as _py_search

try:  # built by ``pip install`` (setup.py); absent in a bare source checkout
    from . import _core
except ImportError:  # pragma: no cover - the installed package always has it
    _core = None

IMPLEMENTATIONS = ("c", "python") if _core is not None else ("python",)
implementation = IMPLEMENTATIONS[0]  # the one ``solve`` uses; tests switch it


@dataclass
class SolveResult:
    solvable: bool | None  # None = undecided (node budget exceeded)
    plan: list[tuple[int, int]] = field(default_factory=list)
    nodes: int = 0


_GEOMETRY: dict[Layout, object] = {}
_GEOMETRY_LOCK = threading.Lock()


def geometry(layout: Layout):
    """The compiled core's copy of a layout's masks (made once per layout)."""
    g = _GEOMETRY.get(layout)
    if g is None:
        with _GEOMETRY_LOCK:
            g = _GEOMETRY.get(layout)
            if g is None:
                g = _core.geometry(
                    layout.left,
                    layout.right,
                    layout.cover,
                    layout.affect_mask,
                    layout.above,
                    layout.below,
                    layout.layer_of,
                )
                _GEOMETRY[layout] = g
    return g


def solve(board: Board, node_budget: int | None = None) -> SolveResult:
    """Exact solvability and a winning plan of the board's position under its ruleset
    (T-6 for classic/pool, T-6a for rivals)."""
    return solve_position(board.layout, board.cls, board.present, board.lift, node_budget)


def solve_position(
    layout: Layout,
    cls: Sequence[int],
    present: int,
    lift: bool,
    node_budget: int | None = None,
    impl: str | None = None,
) -> SolveResult:
    impl = impl or implementation
    if impl == "c":
        ok, plan, nodes = _core.search(geometry(layout), cls, present, lift, -1 if node_budget is None else node_budget)
    elif impl == "python":
        ok, plan, nodes = _py_search(layout, cls, present, lift, node_budget)
    else:
        raise ValueError(f"unknown solver implementation {impl!r}; have {IMPLEMENTATIONS}")
    return SolveResult(ok, plan, nodes)


def removable_pairs_position(
    layout: Layout, cls: Sequence[int], present: int, lift: bool, impl: str | None = None
) -> list[tuple[int, int]]:
    """``board.removable_pairs`` in the implementation asked for (default: the one ``solve`` uses):
    the compiled core's listing or the reference, the same pairs in the same order."""
    impl = impl or implementation
    if impl == "c":
        return _core.removable_pairs(geometry(layout), cls, present, lift)
    if impl == "python":
        return _board.removable_pairs_py(layout, cls, present, lift)
    raise ValueError(f"unknown implementation {impl!r}; have {IMPLEMENTATIONS}")


if _core is not None:  # Board.removable_pairs (the hint, R-15's decisive pair, the API's counts) runs it
    _board.compiled_removable_pairs = removable_pairs_position
