"""Tiles and the deterministic PRNG of the Sichuan table (S-1, S-2).

Tile ids are 0..107.  ``kind = id // 4`` is 0..26; ``suit = kind // 9`` (0 characters "C",
1 dots "D", 2 bamboo "B"); ``rank = kind % 9 + 1``.  The four ids of a kind are four distinct
physical copies (S-1).
"""
from __future__ import annotations

SUITS = ("C", "D", "B")
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
N_TILES = 108  # S-1
N_KINDS = 27
MASK64 = (1 << 64) - 1


def tile_kind(tile: int) -> int:
    return tile >> 2


def tile_suit(tile: int) -> int:
    return (tile >> 2) // 9


def tile_rank(tile: int) -> int:
    return (tile >> 2) % 9 + 1


def kind_face(kind: int) -> str:
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tile_face(tile: int) -> str:
    """Face string of a tile id, e.g. ``tile_face(17) == "5C"``."""
    if not 0 <= tile < N_TILES:
        raise ValueError(f"no such tile id: {tile}")
    return kind_face(tile >> 2)


def counts_of(tiles) -> list[int]:
    c = [0] * N_KINDS
    for t in tiles:
        c[t >> 2] += 1
    return c


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014) -- written out so deals never depend on
    Python's ``random`` internals."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, seq):
        return seq[self.below(len(seq))]
