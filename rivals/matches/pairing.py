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
from functools import cached_property
from operator import attrgetter
from typing import Any

NEAREST = 7  # an Arena anchor's candidates considered, closest first (groups of 3 among them)


@dataclass(frozen=True)
class Waiting:
    """A waiting ticket as pairing sees it."""

    ticket: Any  # the ticket's id (comparable with the others': a UUID, a number)
    account: int
    mu: float  # the player's rating μ
    joined_at: datetime
    last: frozenset[int] = field(default_factory=frozenset)  # the players of its last rated result

    @property
    def key(self) -> tuple:
        """Who joined first (ties: the lower ticket id)."""
        return (self.joined_at, self.ticket)


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
    """The unmatched tickets by position in μ order (a doubly linked list over the positions:
    taking a ticket out is O(1); its neighbours are the closest μ)."""

    def __init__(self, tickets: Sequence[Waiting]):
        ordered = sorted(tickets, key=attrgetter("mu", "joined_at", "ticket"))
        self.tickets = ordered
        self.mu = list(map(attrgetter("mu"), ordered))
        # who joined first, as (POSIX seconds, ticket id): comparing aware datetimes asks each its offset
        self.key = [(t.joined_at.timestamp(), t.ticket) for t in ordered]
        n = self.n = len(ordered)
        self.prev = list(range(-1, n - 1))
        self.next = list(range(1, n + 1))
        self.taken = [False] * n
        self.left = n

    @cached_property
    def at(self) -> dict[int, int]:
        """account → its position (one waiting ticket per account)."""
        return {t.account: p for p, t in enumerate(self.tickets)}

    @cached_property
    def named_by(self) -> dict[int, list[int]]:
        """account → the positions whose last result names it."""
        named: dict[int, list[int]] = {}
        for p, t in enumerate(self.tickets):
            for other in t.last:
                named.setdefault(other, []).append(p)
        return named

    def take(self, p: int) -> None:
        self.taken[p] = True
        self.left -= 1
        before, after = self.prev[p], self.next[p]
        if before >= 0:
            self.next[before] = after
        if after < self.n:
            self.prev[after] = before

    def nearest(self, p: int, width: float):
        """The unmatched positions within ``width`` of ``p``'s μ, closest first (ties: who joined
        first), each with its side (-1 below, +1 above)."""
        mu, key = self.mu, self.key
        lo, hi, n, here = self.prev[p], self.next[p], self.n, mu[p]
        while lo >= 0 or hi < n:
            gl = here - mu[lo] if lo >= 0 else math.inf
            gr = mu[hi] - here if hi < n else math.inf
            if min(gl, gr) > width:
                return
            if gl < gr or (gl == gr and key[lo] <= key[hi]):
                yield lo, -1
                lo = self.prev[lo]
            else:
                yield hi, 1
                hi = self.next[hi]

    def repeat(self, p: int, q: int) -> bool:
        return repeats(self.tickets[p], self.tickets[q])

    def others_without_repeat(self, p: int) -> int:
        """How many other unmatched tickets are not in a repeat with ``p`` (window or not)."""
        named = {self.at[x] for x in self.tickets[p].last if x in self.at}
        named.update(self.named_by.get(self.tickets[p].account, ()))
        return self.left - 1 - sum(1 for q in named if q != p and not self.taken[q])

    def clashes(self, group: Sequence[int]) -> int:
        """How many pairs of the group were in each other's last rated result."""
        members = [self.tickets[q] for q in group]
        accounts = {t.account for t in members}
        if all(t.last.isdisjoint(accounts) for t in members):
            return 0
        return sum(repeats(x, y) for x, y in itertools.combinations(members, 2))


def _pair(pool: _Pool, a: int, width: float) -> list[int] | None:
    repeated = None
    for c, _ in pool.nearest(a, width):
        if not pool.repeat(a, c):
            return [c]
        repeated = c if repeated is None else repeated
    if repeated is not None and pool.others_without_repeat(a) == 0:
        return [repeated]  # nobody else waits: the rematch is the only game
    return None


def _arena(pool: _Pool, a: int, width: float, size: int) -> list[int] | None:
    near = list(itertools.islice(pool.nearest(a, width), NEAREST))
    if len(near) < size - 1:
        return None
    mu = pool.mu

    def order(group):  # a group's cost with ``a``, a repeat aside: the spread, the gaps, then its place in μ order
        mus = [mu[q] for q in group]
        return (max(*mus, mu[a]) - min(*mus, mu[a]), sum(abs(m - mu[a]) for m in mus), sorted(group))

    # the smallest spread with ``a`` is a run of neighbours in μ order: those first (ties: the lower run)
    line = [q for q, side in reversed(near) if side < 0] + [a] + [q for q, side in near if side > 0]
    at = line.index(a)
    starts = range(max(0, at - size + 1), min(at, len(line) - size) + 1)
    for s in sorted(starts, key=lambda s: (mu[line[s + size - 1]] - mu[line[s]], s)):
        if not pool.clashes(line[s : s + size]):
            return [q for q in line[s : s + size] if q != a]
    # every run has a repeat: any group of the candidates, the fewest repeats first
    best = min(
        (list(c) for c in itertools.combinations([q for q, _ in near], size - 1)),
        key=lambda g: (pool.clashes([a, *g]), order(g)),
    )
    # a repeat only once the window is anyone's, or when too few others wait to make a group without one
    if pool.clashes([a, *best]) and not math.isinf(width) and pool.others_without_repeat(a) >= size - 1:
        return None
    return best


def groups(
    tickets: Sequence[Waiting], *, size: int, now: datetime, window: Window | None = None
) -> list[list[Waiting]]:
    """The groups of ``size`` (2: Quick Match, 4: Arena) to match now, each in join order.
    Ticket ids must compare with one another (UUIDs, numbers): they break ties of joining time."""
    window = window or Window()
    pool = _Pool(tickets)
    at = now.timestamp()
    out = []
    for a in sorted(range(pool.n), key=pool.key.__getitem__):
        if pool.left < size:
            break
        if pool.taken[a]:
            continue
        width = window.width(at - pool.key[a][0])
        others = _pair(pool, a, width) if size == 2 else _arena(pool, a, width, size)
        if others is None:
            continue
        group = sorted([a, *others], key=pool.key.__getitem__)
        for p in group:
            pool.take(p)
        out.append([pool.tickets[p] for p in group])
    return out
