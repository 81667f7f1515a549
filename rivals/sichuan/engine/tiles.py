"""Tiles and the deterministic PRNG of the Sichuan table (S-1, S-2).

Tile ids are 0..107.  ``kind = id // 4`` is 0..26; ``suit = kind // 9`` (0 characters "C",
1 dots "D", 2 bamboo "B"); ``rank = kind % 9 + 1``.  The four ids of a kind are four distinct
physical copies (S-1).
"""

from __future__ import annotations

from rivals.engine.prng import SplitMix64 as _EngineSplitMix64

SUITS = ("C", "D", "B")
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
N_TILES = 108  # S-1
N_KINDS = 27


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


class SplitMix64(_EngineSplitMix64):
    """The solitaire engine's SplitMix64 (one specified PRNG for the whole product), with the
    two helpers the Sichuan engine uses."""

    __slots__ = ()

    def next(self) -> int:
        return self.next64()

    def choice(self, seq):
        return seq[self.below(len(seq))]
