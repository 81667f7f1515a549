"""SplitMix64: the engine's own, fully specified PRNG (T-9 Decision).

Reference: Steele, Lea, Flood, "Fast splittable pseudorandom number generators" (2014);
the constants are those of Java's SplittableRandom / Vigna's splitmix64.c.
Pure integer arithmetic modulo 2**64, so every platform and release yields the same stream.
Never replace it by Python's ``random``: deals are pinned by golden tests.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = s = (self.state + GAMMA) & MASK64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def shuffle(self, items: list) -> None:
        """In-place Fisher-Yates, from the last index down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def mix64(x: int) -> int:
    """One SplitMix64 output for input state x (a stateless hash of an integer)."""
    return SplitMix64(x).next64()
