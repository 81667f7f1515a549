"""R-42: who plays whom — a pure function of the queue's state: the waiting tickets (with their
players' ratings and last opponents) and the instant, in; the groups to match, out. No Django, no
clock and no randomness of its own: the same state always gives the same groups (tests pin them;
the queue service and the benchmark run it as it is).

Rules:

* **The window.** A ticket that has waited ``w`` seconds accepts players whose μ is within
  ``start + growth · w`` of its own; from ``anyone_after_s`` (30 s) on, anyone — as first-come
  pairing would. Tickets are served oldest first: the oldest ticket anchors a group of the
  players its window allows (every younger ticket's window is narrower, so the oldest's is the
  wider of any two: a newcomer is taken by a ticket that has waited long, not the reverse).
* **The closest.** A Quick Match pairs the anchor with the closest μ inside its window; an Arena
  takes the three players that make the smallest spread of μ (max − min) with the anchor —
  lichess's cost of a pairing: the rating gap, and a penalty for recent opponents, here a rule
  before any gap (below). Ties: the smaller sum of gaps to the anchor, then who joined first.
* **No immediate repeat.** Two accounts who were in each other's last rated result are not put
  together while another candidate waits: the anchor waits for its window to reach another
  player (at the latest ``anyone_after_s``). Decision (R-42, "while another candidate waits"):
  any other waiting ticket is such a candidate, in the window or not — only when no other
  ticket waits does a repeat happen, so two friends cannot replay each other while anyone else
  waits. An Arena avoids groups holding two players of one last result the same way: it takes
  one only when fewer than three others wait without a repeat with its anchor, or once the
  anchor's window is anyone's (two whole arenas queueing again could otherwise wait forever);
  then the group with the fewest such pairs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

NEAREST = 7  # an Arena anchor's candidates considered, closest first (groups of 3 among them)


@dataclass(frozen=True)
class Waiting:
    """A waiting ticket as pairing sees it."""

    ticket: Any  # the ticket's id
    account: int
    mu: float  # the player's rating μ
    joined_at: datetime
    last: frozenset[int] = field(default_factory=frozenset)  # the players of its last rated result

    @property
    def key(self) -> tuple:
        return (self.joined_at, str(self.ticket))


@dataclass(frozen=True)
class Window:
    """R-42's window in μ: ``start`` at once, ``growth`` more per second waited, anyone from
    ``anyone_after_s``."""

    start: float = 2.0
    growth: float = 0.5
    anyone_after_s: float = 30.0

    def width(self, waited_s: float) -> float:
        if waited_s >= self.anyone_after_s:
            return math.inf
        return self.start + self.growth * max(waited_s, 0.0)


def repeats(a: Waiting, b: Waiting) -> bool:
    """Were these two accounts in each other's last rated result?"""
    return b.account in a.last or a.account in b.last


class _Pool:
    """The unmatched tickets in μ order (a doubly linked list: taking a ticket out is O(1))."""

    def __init__(self, tickets: Sequence[Waiting]):
        self.by_mu = sorted(tickets, key=lambda t: (t.mu, t.key))
        self.index = {id(t): i for i, t in enumerate(self.by_mu)}
        n = len(self.by_mu)
        self.prev = list(range(-1, n - 1))
        self.next = list(range(1, n + 1))
        self.taken = [False] * n
        self.left = n
        self.by_account = {t.account: t for t in tickets}
        self.named_by: dict[int, list[Waiting]] = {}  # account → the tickets whose last result names it
        for t in tickets:
            for other in t.last:
                self.named_by.setdefault(other, []).append(t)

    def take(self, t: Waiting) -> None:
        i = self.index[id(t)]
        self.taken[i] = True
        self.left -= 1
        p, n = self.prev[i], self.next[i]
        if p >= 0:
            self.next[p] = n
        if n < len(self.by_mu):
            self.prev[n] = p

    def free(self, t: Waiting) -> bool:
        return not self.taken[self.index[id(t)]]

    def nearest(self, a: Waiting, width: float):
        """The unmatched tickets within ``width`` of ``a``'s μ, closest first (ties: who joined first)."""
        i = self.index[id(a)]
        lo, hi, n = self.prev[i], self.next[i], len(self.by_mu)
        while True:
            left = self.by_mu[lo] if lo >= 0 else None
            right = self.by_mu[hi] if hi < n else None
            gl = a.mu - left.mu if left else math.inf
            gr = right.mu - a.mu if right else math.inf
            if (left is None and right is None) or min(gl, gr) > width:
                return
            if gl < gr or (gl == gr and left.key <= right.key):
                yield left
                lo = self.prev[lo]
            else:
                yield right
                hi = self.next[hi]

    def others_without_repeat(self, a: Waiting) -> int:
        """How many other unmatched tickets are not in a repeat with ``a`` (window or not)."""
        named = {self.by_account[x] for x in a.last if x in self.by_account}
        named.update(self.named_by.get(a.account, ()))
        return self.left - 1 - sum(1 for t in named if t is not a and self.free(t))


def _spread(group: Sequence[Waiting]) -> float:
    mus = [t.mu for t in group]
    return max(mus) - min(mus)


def _cost(anchor: Waiting, others: Sequence[Waiting]) -> tuple:
    group = (anchor, *others)
    clashes = sum(repeats(x, y) for x, y in itertools.combinations(group, 2))
    return (clashes, _spread(group), sum(abs(t.mu - anchor.mu) for t in others), sorted(t.key for t in others))


def _pair(pool: _Pool, a: Waiting, width: float) -> list[Waiting] | None:
    repeated = None
    for c in pool.nearest(a, width):
        if not repeats(a, c):
            return [c]
        repeated = repeated or c
    if repeated is not None and pool.others_without_repeat(a) == 0:
        return [repeated]  # nobody else waits: the rematch is the only game
    return None


def _arena(pool: _Pool, a: Waiting, width: float, size: int) -> list[Waiting] | None:
    near = list(itertools.islice(pool.nearest(a, width), NEAREST))
    if len(near) < size - 1:
        return None
    # the smallest spread with ``a`` is a run of neighbours in μ order: those first
    line = sorted([a, *near], key=lambda t: (t.mu, t.key))
    at = line.index(a)
    runs = [
        [t for t in line[s : s + size] if t is not a]
        for s in range(max(0, at - size + 1), min(at, len(line) - size) + 1)
    ]
    cost, best = min(((_cost(a, run), run) for run in runs), key=lambda x: x[0])
    if cost[0]:  # every run has a repeat: any group of the candidates
        cost, best = min(
            ((_cost(a, combo), list(combo)) for combo in itertools.combinations(near, size - 1)), key=lambda x: x[0]
        )
        # a repeat only once the window is anyone's, or when too few others wait to make a group without one
        if cost[0] and not math.isinf(width) and pool.others_without_repeat(a) >= size - 1:
            return None
    return best


def groups(
    tickets: Sequence[Waiting], *, size: int, now: datetime, window: Window | None = None
) -> list[list[Waiting]]:
    """The groups of ``size`` (2: Quick Match, 4: Arena) to match now, each in join order."""
    window = window or Window()
    pool = _Pool(tickets)
    out = []
    for a in sorted(tickets, key=lambda t: t.key):
        if pool.left < size:
            break
        if not pool.free(a):
            continue
        width = window.width((now - a.joined_at).total_seconds())
        others = _pair(pool, a, width) if size == 2 else _arena(pool, a, width, size)
        if others is None:
            continue
        group = sorted([a, *others], key=lambda t: t.key)
        for t in group:
            pool.take(t)
        out.append(group)
    return out
