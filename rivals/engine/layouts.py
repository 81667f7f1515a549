"""Layouts as data files (T-4) and their precomputed geometry (T-5).

Each file ``layouts/Lnn.json`` holds ``id``, ``name`` and ``positions``: ``[x, y, z]`` on the
half-tile grid (a tile covers cells x..x+1, y..y+1 on layer z). Position index = order in the file
(tile ids in the API). Files are validated on load.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

_DIR = Path(__file__).with_name("layouts")
_ID_RE = re.compile(r"^L\d\d$")


class LayoutError(ValueError):
    pass


class Layout:
    """An immutable layout plus per-position bitmasks (bit j = position j).

    left[i] / right[i]: tiles on the same layer touching i's left / right edge with vertical
    overlap (T-5 b); cover[i]: tiles on any higher layer overlapping i, even by half (T-5 a);
    above[i] / below[i]: transitive closure of cover (all tiles that lie above / below i);
    affect[i]: tiles whose freeness can change when i is removed.
    """

    __slots__ = (
        "id",
        "name",
        "positions",
        "size",
        "full",
        "left",
        "right",
        "cover",
        "above",
        "below",
        "affect",
        "affect_mask",
        "layer_of",
    )

    def __init__(self, layout_id: str, name: str, positions) -> None:
        self.id = layout_id
        self.name = name
        self.positions = tuple((int(x), int(y), int(z)) for x, y, z in positions)
        self.size = len(self.positions)
        self.full = (1 << self.size) - 1
        _validate(self)
        self._geometry()

    def __repr__(self) -> str:
        return f"Layout({self.id!r}, {self.name!r}, size={self.size})"

    def _geometry(self) -> None:
        P = self.positions
        n = self.size
        left = [0] * n
        right = [0] * n
        cover = [0] * n
        for i, (xi, yi, zi) in enumerate(P):
            for j, (xj, yj, zj) in enumerate(P):
                if i == j:
                    continue
                dy = yj - yi
                if -2 < dy < 2:
                    dx = xj - xi
                    if zj == zi:
                        if dx == -2:
                            left[i] |= 1 << j
                        elif dx == 2:
                            right[i] |= 1 << j
                    elif zj > zi and -2 < dx < 2:
                        cover[i] |= 1 << j
        # transitive closure, top layers first
        order = sorted(range(n), key=lambda i: -P[i][2])
        above = [0] * n
        for i in order:
            m = cover[i]
            acc = m
            while m:
                low = m & -m
                acc |= above[low.bit_length() - 1]
                m ^= low
            above[i] = acc
        below = [0] * n
        for i in range(n):
            m = above[i]
            while m:
                low = m & -m
                below[low.bit_length() - 1] |= 1 << i
                m ^= low
        affect_mask = [0] * n
        for j in range(n):
            m = left[j] | right[j] | cover[j]
            while m:
                low = m & -m
                affect_mask[low.bit_length() - 1] |= 1 << j
                m ^= low
        self.left = tuple(left)
        self.right = tuple(right)
        self.cover = tuple(cover)
        self.above = tuple(above)
        self.below = tuple(below)
        self.affect_mask = tuple(affect_mask)
        self.affect = tuple(tuple(bits(m)) for m in affect_mask)
        self.layer_of = tuple(p[2] for p in P)


def bits(m: int) -> list[int]:
    """Indexes of the set bits of m, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _validate(lay: Layout) -> None:
    P = lay.positions
    n = lay.size
    if not _ID_RE.match(lay.id):
        raise LayoutError(f"layout id {lay.id!r} is not of the form Lnn")
    if n == 0 or n % 2 or n > 144:  # T-4: even count <= 144
        raise LayoutError(f"{lay.id}: {n} positions (need an even number, 2..144)")
    if min(min(p) for p in P) < 0:
        raise LayoutError(f"{lay.id}: negative coordinate")
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for x, y, z in P:
        by_layer.setdefault(z, []).append((x, y))
    for z, pts in by_layer.items():  # T-4: no overlaps on a layer
        cells: set[tuple[int, int]] = set()
        for x, y in pts:
            for c in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)):
                if c in cells:
                    raise LayoutError(f"{lay.id}: overlapping tiles on layer {z} at {(x, y)}")
                cells.add(c)
        by_layer[z] = pts
    cell_sets = {
        z: {c for x, y in pts for c in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))} for z, pts in by_layer.items()
    }
    for x, y, z in P:  # every tile above layer 0 fully supported by the layer below
        if z > 0:
            below = cell_sets.get(z - 1, set())
            for c in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)):
                if c not in below:
                    raise LayoutError(f"{lay.id}: tile {(x, y, z)} is not supported at cell {c}")


def load_layout_file(path: Path) -> Layout:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    lay = Layout(data["id"], data["name"], data["positions"])
    if Path(path).stem != lay.id:
        raise LayoutError(f"{path.name}: file name does not match id {lay.id}")
    return lay


@cache
def _registry() -> dict[str, Layout]:
    reg = {}
    for path in sorted(_DIR.glob("L*.json")):
        lay = load_layout_file(path)
        reg[lay.id] = lay
    return reg


def get_layout(layout_id: str) -> Layout:
    """The layout with this id (case-insensitive); KeyError if unknown."""
    key = str(layout_id).upper()
    try:
        return _registry()[key]
    except KeyError:
        raise KeyError(f"unknown layout {layout_id!r}") from None


def all_layouts() -> list[Layout]:
    return [lay for _, lay in sorted(_registry().items())]
