"""The board: an integer bitset of present tiles over a layout (T-5, T-6, T-6a, T-8, T-11)."""

from __future__ import annotations

from collections.abc import Sequence

from .layouts import Layout, bits
from .tiles import MATCH_KEYS, check_ruleset, match_key


class Board:
    """Mutable, cheap board. Tile ids are position indexes of the layout.

    ``present`` bit i set = tile i on the board. ``cls[i]`` is the match class of tile i under the
    ruleset (T-2 / T-3), -1 for an empty position. ``lift`` = T-6a (Rivals) removal rule.
    """

    __slots__ = ("layout", "faces", "ruleset", "present", "cls", "lift")

    def __init__(
        self,
        layout: Layout,
        faces: Sequence[str | None],
        ruleset: str,
        present: int | None = None,
    ) -> None:
        check_ruleset(ruleset)
        faces = list(faces)
        if len(faces) != layout.size:
            raise ValueError(f"{len(faces)} faces for a layout of {layout.size} positions")
        keys = MATCH_KEYS[ruleset]  # match_key inline: a board is made for every intent (issue 35)
        try:
            cls = [-1 if f is None else keys[f] for f in faces]
        except (KeyError, TypeError):
            cls = [-1 if f is None else match_key(f, ruleset) for f in faces]  # raises: unknown face
        with_face = 0
        for i, c in enumerate(cls):
            if c >= 0:
                with_face |= 1 << i
        if present is None:
            present = with_face
        elif present & ~with_face:
            raise ValueError("a present tile has no face")
        self.layout = layout
        self.faces = faces
        self.ruleset = ruleset
        self.present = present
        self.cls = cls
        self.lift = ruleset == "rivals"

    # -- T-5 ---------------------------------------------------------------------------------
    def is_free(self, i: int) -> bool:
        """T-5: present, nothing above overlapping it, and its left or right side open."""
        p = self.present
        if not (p >> i) & 1:
            return False
        lay = self.layout
        return not (p & lay.cover[i]) and (not (p & lay.left[i]) or not (p & lay.right[i]))

    def free_mask(self) -> int:
        return free_mask_of(self.layout, self.present)

    def free_tiles(self) -> list[int]:
        return bits(self.free_mask())

    # -- T-6 / T-6a -----------------------------------------------------------------------------
    def can_remove(self, a: int, b: int) -> bool:
        """T-6 (classic, pool): both free, distinct, matching. T-6a (rivals): a free and b free on
        the board without a, in either order. Matching per T-2 / T-3."""
        p = self.present
        if a == b or not (p >> a) & 1 or not (p >> b) & 1:
            return False
        cls = self.cls
        if cls[a] != cls[b]:
            return False
        lay = self.layout
        L, R, C = lay.left, lay.right, lay.cover
        fa = not (p & C[a]) and (not (p & L[a]) or not (p & R[a]))
        fb = not (p & C[b]) and (not (p & L[b]) or not (p & R[b]))
        if fa and fb:
            return True
        if not self.lift or (not fa and not fb):
            return False
        if fa:  # T-6a: lift a, then b must be free without a
            q = p & ~(1 << a)
            return not (q & C[b]) and (not (q & L[b]) or not (q & R[b]))
        q = p & ~(1 << b)
        return not (q & C[a]) and (not (q & L[a]) or not (q & R[a]))

    def remove(self, a: int, b: int) -> None:
        """Remove a pair. No validation (call can_remove first)."""
        self.present &= ~((1 << a) | (1 << b))

    def restore(self, a: int, b: int) -> None:
        """T-11 undo of a removed pair."""
        self.present |= (1 << a) | (1 << b)

    def removable_pairs(self) -> list[tuple[int, int]]:
        """All removable pairs (a < b), sorted, per the ruleset (T-6 / T-6a)."""
        return removable_pairs(self.layout, self.cls, self.present, self.lift)

    def has_removable_pair(self) -> bool:
        return has_removable_pair(self.layout, self.cls, self.present, self.lift)

    # -- T-8 -------------------------------------------------------------------------------------
    def is_won(self) -> bool:
        return self.present == 0

    def is_stuck(self) -> bool:
        """T-8: tiles remain and no removable pair exists (T-6a in rivals)."""
        return self.present != 0 and not self.has_removable_pair()

    def tiles(self) -> list[int]:
        m = self.present
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.layout = self.layout
        b.faces = list(self.faces)
        b.ruleset = self.ruleset
        b.present = self.present
        b.cls = self.cls  # immutable in practice (never mutated in place)
        b.lift = self.lift
        return b

    def __repr__(self) -> str:
        return f"Board({self.layout.id}, {self.ruleset}, tiles={self.present.bit_count()})"


def free_mask_of(layout: Layout, p: int) -> int:
    L, R, C = layout.left, layout.right, layout.cover
    out = 0
    m = p
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        if not (p & C[i]) and (not (p & L[i]) or not (p & R[i])):
            out |= low
    return out


def lift_candidates(layout: Layout, p: int, free: int, a: int) -> int:
    """T-6a: tiles that are not free now but are free on the board without a."""
    L, R, C = layout.left, layout.right, layout.cover
    q = p & ~(1 << a)
    m = layout.affect_mask[a] & q & ~free
    out = 0
    while m:
        low = m & -m
        j = low.bit_length() - 1
        m ^= low
        if not (q & C[j]) and (not (q & L[j]) or not (q & R[j])):
            out |= low
    return out


# The compiled core's listing (``rivals.engine.solver`` registers it when the core is installed:
# the same pairs in the same order as ``removable_pairs_py``, the reference — tested by
# tests/engine/test_core_pairs.py); None = the reference runs.
compiled_removable_pairs = None


def removable_pairs(layout: Layout, cls: Sequence[int], p: int, lift: bool) -> list[tuple[int, int]]:
    """All removable pairs (a < b), sorted (T-6 / T-6a): the compiled core's when it is installed."""
    if compiled_removable_pairs is not None:
        return compiled_removable_pairs(layout, cls, p, lift)
    return removable_pairs_py(layout, cls, p, lift)


def removable_pairs_py(layout: Layout, cls: Sequence[int], p: int, lift: bool) -> list[tuple[int, int]]:
    """The reference listing (pure Python)."""
    free = free_mask_of(layout, p)
    by_cls: dict[int, list[int]] = {}
    m = free
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        by_cls.setdefault(cls[i], []).append(i)
    pairs = set()
    for tiles in by_cls.values():
        k = len(tiles)
        for x in range(k):
            for y in range(x + 1, k):
                pairs.add((tiles[x], tiles[y]))
    if lift:
        m = free
        while m:
            low = m & -m
            a = low.bit_length() - 1
            m ^= low
            extra = lift_candidates(layout, p, free, a)
            while extra:
                lb = extra & -extra
                b = lb.bit_length() - 1
                extra ^= lb
                if cls[b] == cls[a]:
                    pairs.add((a, b) if a < b else (b, a))
    return sorted(pairs)


def has_removable_pair(layout: Layout, cls: Sequence[int], p: int, lift: bool) -> bool:
    free = free_mask_of(layout, p)
    seen = set()
    m = free
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        c = cls[i]
        if c in seen:
            return True
        seen.add(c)
    if lift:
        m = free
        while m:
            low = m & -m
            a = low.bit_length() - 1
            m ^= low
            extra = lift_candidates(layout, p, free, a)
            while extra:
                lb = extra & -extra
                if cls[lb.bit_length() - 1] == cls[a]:
                    return True
                extra ^= lb
    return False
