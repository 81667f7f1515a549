"""Exact solver: solvability and a winning plan for any position, T-6 or T-6a.

Search over *pairings* (after de Bondt): the decision is which tile of a matching group is
paired with which, not the order of removals. Once a pair is committed, removing it as soon
as it is removable is safe, because removals only ever free tiles (T-5 is monotone), and so is
removing every remaining uncommitted tile of a group when all of them are free. A state
(present bitset + commitments) therefore propagates to a fixpoint; then one free uncommitted
tile is chosen (fewest possible partners first) and each possible partner is tried.

Pruning:
* two tiles of which one lies above the other (directly or by a chain) can never pair under
  T-6; under T-6a they cannot pair when another present tile lies between them. A group with
  no possible pairing left is dead; a tile with one possible partner is committed without
  branching;
* failed states are remembered by (present, commitments) in a transposition table (sound:
  no sleep-set or other path-dependent pruning is mixed in);
* a relaxed scan (remove any free tile whose possible partner is free or gone) refutes dead
  ends early.
The search is deterministic: same input, same plan, same node count. ``node_budget`` bounds
the number of branching nodes; exceeding it gives ``solvable=None`` (undecided).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .board import Board, free_mask_of
from .layouts import Layout


@dataclass
class SolveResult:
    solvable: bool | None  # None = undecided (node budget exceeded)
    plan: list[tuple[int, int]] = field(default_factory=list)
    nodes: int = 0


class _Budget(Exception):
    pass


class _Solver:
    def __init__(self, layout: Layout, cls: Sequence[int], present: int, lift: bool,
                 budget: int | None) -> None:
        self.lay = layout
        self.n = layout.size
        self.cls = cls
        self.lift = lift
        self.budget = budget if budget is not None else 1 << 62
        self.present = present
        self.nodes = 0
        self.free = free_mask_of(layout, present)
        self.partner = [-1] * self.n
        self.unc = present
        self.ckey = 0
        self.trail: list[tuple] = []
        self.failed: set[int] = set()
        gm: dict[int, int] = {}
        m = present
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            c = cls[i]
            gm[c] = gm.get(c, 0) | low
        self.gmask = gm
        # pair bit ids for the commitment key
        pid: dict[int, int] = {}
        k = 0
        for c in sorted(gm):
            ts = _bits(gm[c])
            for x in range(len(ts)):
                for y in range(x + 1, len(ts)):
                    pid[ts[x] * 1024 + ts[y]] = 1 << k
                    k += 1
        self.pid = pid
        inc = [0] * self.n
        above, below = layout.above, layout.below
        for i in _bits(present):
            inc[i] = above[i] | below[i]
        self.inc = inc

    # -- primitives ---------------------------------------------------------------------------
    def compat(self, x: int, y: int) -> bool:
        if self.lift:  # T-6a: no present tile strictly between x and y
            lay = self.lay
            return not ((lay.below[x] & lay.above[y] | lay.below[y] & lay.above[x]) & self.present)
        return not (self.inc[x] >> y) & 1  # T-6: neither lies above the other

    def removable(self, t: int, u: int) -> bool:
        free = self.free
        ft = (free >> t) & 1
        fu = (free >> u) & 1
        if ft and fu:
            return True
        if not self.lift or not (ft or fu):
            return False
        if not ft:
            t, u = u, t
        # T-6a: t free, u free without t
        lay = self.lay
        q = self.present & ~(1 << t)
        return not (q & lay.cover[u]) and (not (q & lay.left[u]) or not (q & lay.right[u]))

    def commit(self, t: int, u: int) -> None:
        self.partner[t] = u
        self.partner[u] = t
        self.unc &= ~((1 << t) | (1 << u))
        self.ckey ^= self.pid[t * 1024 + u if t < u else u * 1024 + t]
        self.trail.append((0, t, u))

    def do_remove(self, t: int, u: int) -> int:
        lay = self.lay
        self.trail.append((1, t, u, self.free))
        rm = (1 << t) | (1 << u)
        p = self.present & ~rm
        self.present = p
        self.ckey ^= self.pid[t * 1024 + u if t < u else u * 1024 + t]
        L, R, C = lay.left, lay.right, lay.cover
        touched = (lay.affect_mask[t] | lay.affect_mask[u]) & p
        free = self.free & ~rm
        m = touched
        while m:
            low = m & -m
            j = low.bit_length() - 1
            m ^= low
            if not (p & C[j]) and (not (p & L[j]) or not (p & R[j])):
                free |= low
            else:
                free &= ~low
        self.free = free
        return touched

    def undo(self, mark: int) -> None:
        trail = self.trail
        partner = self.partner
        pid = self.pid
        while len(trail) > mark:
            rec = trail.pop()
            t, u = rec[1], rec[2]
            b = (1 << t) | (1 << u)
            self.ckey ^= pid[t * 1024 + u if t < u else u * 1024 + t]
            if rec[0] == 0:
                partner[t] = -1
                partner[u] = -1
                self.unc |= b
            else:
                self.present |= b
                self.free = rec[3]

    def auto_commit(self, c: int) -> bool:
        """A group with exactly two uncommitted tiles left: they must pair. False if dead."""
        m = self.gmask[c] & self.unc
        if m and m.bit_count() == 2:
            x = (m & -m).bit_length() - 1
            y = m.bit_length() - 1
            if not self.compat(x, y):
                return False
            self.commit(x, y)
        return True

    # -- propagation ----------------------------------------------------------------------------
    def propagate(self, dirty: int) -> bool:
        partner = self.partner
        cls = self.cls
        gmask = self.gmask
        while dirty:
            low = dirty & -dirty
            j = low.bit_length() - 1
            dirty ^= low
            if not (self.present & low):
                continue
            u = partner[j]
            if u >= 0:
                if self.removable(j, u):
                    dirty |= self.do_remove(j, u)
            elif self.free & low:
                g = gmask[cls[j]] & self.unc
                if not (g & ~self.free):
                    # safe move: every remaining uncommitted tile of the group is free
                    ts = _bits(g)
                    if len(ts) % 2:
                        return False
                    for k in range(0, len(ts), 2):
                        self.commit(ts[k], ts[k + 1])
                        dirty |= self.do_remove(ts[k], ts[k + 1])
        return True

    def relaxed_ok(self) -> bool:
        """Relaxation: repeatedly drop any free tile whose committed partner (or, uncommitted,
        some possible partner) is gone or free (T-6a: free once the tile is gone). If tiles
        remain, the position is unsolvable."""
        lay = self.lay
        L, R, C = lay.left, lay.right, lay.cover
        p = self.present
        partner = self.partner
        gmask = self.gmask
        cls = self.cls
        unc = self.unc
        lift = self.lift
        changed = True
        while p and changed:
            changed = False
            m = p
            while m:
                low = m & -m
                j = low.bit_length() - 1
                m ^= low
                if (p & C[j]) or ((p & L[j]) and (p & R[j])):
                    continue
                u = partner[j]
                cand = (1 << u) if u >= 0 else (gmask[cls[j]] & unc & ~low)
                q = p & ~low if lift else p
                ok = False
                while cand:
                    lb = cand & -cand
                    cand ^= lb
                    if not (p & lb):
                        ok = True
                        break
                    k = lb.bit_length() - 1
                    if not (q & C[k]) and (not (q & L[k]) or not (q & R[k])):
                        ok = True
                        break
                if ok:
                    p &= ~low
                    changed = True
        return p == 0

    def options(self, t: int) -> list[int]:
        others = self.gmask[self.cls[t]] & self.unc & ~(1 << t)
        four = others.bit_count() == 3
        out = []
        m = others
        while m:
            low = m & -m
            u = low.bit_length() - 1
            m ^= low
            if not self.compat(t, u):
                continue
            if four:
                rest = others & ~low
                x = (rest & -rest).bit_length() - 1
                y = rest.bit_length() - 1
                if not self.compat(x, y):
                    continue
            out.append(u)
        return out

    # -- search ---------------------------------------------------------------------------------
    def dfs(self, dirty: int) -> bool:
        mark = len(self.trail)
        if not self.propagate(dirty):
            self.undo(mark)
            return False
        if not self.present:
            return True
        key = self.present | (self.ckey << self.n)
        if key in self.failed:
            self.undo(mark)
            return False
        cand = self.free & self.unc
        best_t = -1
        best: list[int] = []
        best_score = None
        while cand:
            low = cand & -cand
            t = low.bit_length() - 1
            cand ^= low
            opts = self.options(t)
            if not opts:
                best_t = -1
                best = []
                best_score = (-1,)
                break
            now = [u for u in opts if self.removable(t, u)]
            score = (len(opts), 0 if now else 1)
            if best_score is None or score < best_score:
                best_score = score
                best_t = t
                best = now + [u for u in opts if u not in now]
                if score == (1, 0):
                    break
        if best_t < 0 or (len(best) > 1 and not self.relaxed_ok()):
            self.failed.add(key)
            self.undo(mark)
            return False
        t = best_t
        for u in best:
            self.nodes += 1
            if self.nodes > self.budget:
                raise _Budget
            m2 = len(self.trail)
            self.commit(t, u)
            c = self.cls[t]
            dirty = (1 << t) | (1 << u)
            if self.auto_commit(c):
                dirty |= self.gmask[c] & self.present
                if self.dfs(dirty):
                    return True
            self.undo(m2)
        self.failed.add(key)
        self.undo(mark)
        return False

    def run(self) -> SolveResult:
        # odd group sizes can never be cleared
        for c, m in self.gmask.items():
            if m.bit_count() % 2:
                return SolveResult(False, [], 0)
        for c in self.gmask:
            if not self.auto_commit(c):
                return SolveResult(False, [], 0)
        if not self.relaxed_ok():
            return SolveResult(False, [], 0)
        try:
            ok = self.dfs(self.present)
        except _Budget:
            return SolveResult(None, [], self.nodes)
        if not ok:
            return SolveResult(False, [], self.nodes)
        plan = [(r[1], r[2]) if r[1] < r[2] else (r[2], r[1]) for r in self.trail if r[0] == 1]
        return SolveResult(True, plan, self.nodes)


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def solve(board: Board, node_budget: int | None = None) -> SolveResult:
    """Exact solvability and a winning plan of the board's position under its ruleset
    (T-6 for classic/pool, T-6a for rivals). ``node_budget`` = max branching nodes."""
    return solve_position(board.layout, board.cls, board.present, board.lift, node_budget)


def solve_position(layout: Layout, cls: Sequence[int], present: int, lift: bool,
                   node_budget: int | None = None) -> SolveResult:
    return _Solver(layout, cls, present, lift, node_budget).run()
