"""The version-1 solver, frozen: the level generator's trap probe (``level_generator``).

Kept unchanged from the release that generated the shipped level table: the generator's choices
depend on this search's node counts (a probe counts as a trap when it proves the position
unsolvable within 40 nodes), so the table can be re-derived only with this exact search. The
compiled core's ``trap_probe`` mirrors it (one depth-first pass under T-6, the generator's
case) and is tested node for node against it. Everything else uses ``solver`` (the current
search); do not change this file.

Exact solver: solvability and a winning plan for any position, T-6 or T-6a.

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
* failed states are remembered by (present, commitments, forbidden pairs) in a transposition
  table (sound: no sleep-set or other path-dependent pruning is mixed in); forbidden pairs of
  groups with no uncommitted tile left are dropped from the key (they no longer matter);
* a relaxed scan (remove any free tile whose possible partner is free or gone) refutes dead
  ends early (at every branching node);
* probing: when the PROBE_AT-th restart is needed, each four-tile group's three pairings are
  tried at the root with the relaxed scan (one pass); failing pairings are forbidden for the
  whole search;
* move ordering: among a tile's removable partners, the pair that frees most tiles first;
* restarts with a Luby schedule of node budgets and a different (deterministic) tie-break per
  restart; from restart REST_FROM on, a salted 1-in-REST_FIRST share of the branchings also
  tries the "pair t later" branch first (diversification: the same branches, another order);
  the failed-state table survives restarts.
Per-tile partner masks (``part``: same group, not stacked under T-6; ``forb``: forbidden
partners, mirrored from the key) keep the inner loops to mask operations.
Sleep sets are not used: the table stores only states whose whole subtree was refuted, so it
is sound without them.
The search is deterministic: same input, same plan, same node count. ``node_budget`` bounds
the number of branching nodes; exceeding it gives ``solvable=None`` (undecided).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import Board, free_mask_of
from .layouts import Layout, bits
from .search import luby as _luby  # the same Luby sequence


@dataclass
class SolveResult:
    solvable: bool | None  # None = undecided (node budget exceeded)
    plan: list[tuple[int, int]] = field(default_factory=list)
    nodes: int = 0


class _Budget(Exception):
    pass


class _Solver:
    def __init__(self, layout: Layout, cls: Sequence[int], present: int, lift: bool, budget: int | None) -> None:
        self.lay = layout
        self.n = layout.size
        self.cls = cls
        self.lift = lift
        self.budget = budget if budget is not None else 1 << 62
        self.present = present
        self.nodes = 0
        self.salt = 0
        self.probing = True
        self.diversify = False
        self.limit = self.budget
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
        self.npid = k
        # per group of more than two tiles: (tiles, its pair bits) - a forbidden pair matters
        # only while its group still has uncommitted tiles (key normalisation)
        gpb = []
        for c in sorted(gm):
            ts = _bits(gm[c])
            if len(ts) > 2:
                pb = 0
                for x in range(len(ts)):
                    for y in range(x + 1, len(ts)):
                        pb |= pid[ts[x] * 1024 + ts[y]]
                gpb.append((gm[c], pb))
        self.gpb = gpb
        self.fkey = 0
        inc = [0] * self.n
        above, below = layout.above, layout.below
        for i in _bits(present):
            inc[i] = above[i] | below[i]
        self.inc = inc
        # possible partners of each tile ignoring state: same group, not itself, and (T-6)
        # not above / below it
        part = [0] * self.n
        for i in _bits(present):
            part[i] = gm[cls[i]] & ~(1 << i) & ~(0 if lift else inc[i])
        self.part = part
        self.forb = [0] * self.n  # forbidden partners of each tile (mirror of fkey)

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
            if rec[0] == 2:
                self.fkey ^= rec[1]
                forb = self.forb
                for x, y in rec[2]:
                    forb[x] &= ~(1 << y)
                    forb[y] &= ~(1 << x)
                continue
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
        some possible partner - compatible, not forbidden) is gone or free (T-6a: free once
        the tile is gone). If tiles remain, the position is unsolvable (a real solution removes
        every tile with a possible partner that is then free or already gone). Worklist over
        the tiles whose status can change."""
        if not self.lift:
            return self._relaxed6()
        lay = self.lay
        L, R, C, A = lay.left, lay.right, lay.cover, lay.affect_mask
        p = self.present
        partner = self.partner
        gmask = self.gmask
        cls = self.cls
        unc = self.unc
        lift = self.lift
        real = p
        above, below = lay.above, lay.below
        part = self.part
        forb = self.forb
        # only free tiles can go first; a blocked tile is re-queued when a neighbour goes
        work = self.free & p
        wait = 0  # free tiles still lacking a partner: re-queued when a group member goes
        while work:
            low = work & -work
            work ^= low
            if not (p & low):
                continue
            j = low.bit_length() - 1
            if (p & C[j]) or ((p & L[j]) and (p & R[j])):
                continue
            u = partner[j]
            if u >= 0:
                cand = 1 << u
                g = cand
            else:
                g = gmask[cls[j]]
                # only partners it could really pair with: compatible (nothing between them)
                # and not forbidden in this subtree
                cand = part[j] & unc & ~forb[j]
                if lift:
                    bj, aj = below[j], above[j]
                    m = cand
                    while m:
                        lb = m & -m
                        m ^= lb
                        k = lb.bit_length() - 1
                        if (bj & above[k] | below[k] & aj) & real:
                            cand ^= lb
            if cand & ~p:
                ok = True
            else:
                q = p & ~low if lift else p
                ok = False
                while cand:
                    lb = cand & -cand
                    cand ^= lb
                    k = lb.bit_length() - 1
                    if not (q & C[k]) and (not (q & L[k]) or not (q & R[k])):
                        ok = True
                        break
            if ok:
                p ^= low
                work |= (A[j] | (g & wait)) & p
            else:
                wait |= low
        return p == 0

    def _relaxed6(self) -> bool:
        """The relaxed scan under T-6 (partners are symmetric, freeness needs no "without"):
        F holds the tiles known free in the relaxed position, so a partner test is one mask
        test; a tile found free re-queues the waiting tiles that could pair with it."""
        lay = self.lay
        L, R, C, A = lay.left, lay.right, lay.cover, lay.affect_mask
        p = self.present
        partner = self.partner
        gmask = self.gmask
        cls = self.cls
        unc = self.unc
        part = self.part
        forb = self.forb
        F = self.free & p
        work = F
        wait = 0
        while work:
            low = work & -work
            work ^= low
            if not (p & low):
                continue
            j = low.bit_length() - 1
            if F & low:
                u = partner[j]
                if u >= 0:
                    g = cand = 1 << u
                else:
                    g = gmask[cls[j]]
                    cand = part[j] & unc & ~forb[j]
            else:
                if (p & C[j]) or ((p & L[j]) and (p & R[j])):
                    continue
                F |= low
                u = partner[j]
                if u >= 0:
                    g = cand = 1 << u
                else:
                    g = gmask[cls[j]]
                    cand = part[j] & unc & ~forb[j]
                work |= g & wait & p
            if cand & (F | ~p):
                p ^= low
                work |= (A[j] | (g & wait)) & p
            else:
                wait |= low
        return p == 0

    def probe(self) -> bool:
        """Probe every uncommitted four-tile group's three pairings: commit it tentatively and
        run the relaxed scan; a pairing that fails is forbidden, a group left with one
        pairing is committed, a group with none is dead. Repeats until nothing changes.
        Records go on the trail (undone with the node). False if the position is dead."""
        changed = True
        pid = self.pid
        rounds = 0
        while changed and rounds < PROBE_ROUNDS:
            rounds += 1
            changed = False
            for c in sorted(self.gmask):
                m = self.gmask[c] & self.unc
                if m.bit_count() != 4:
                    continue
                a, b, x, y = _bits(m)
                alive = []
                for p1, p2 in (((a, b), (x, y)), ((a, x), (b, y)), ((a, y), (b, x))):
                    k1 = pid[p1[0] * 1024 + p1[1]]
                    if self.fkey & k1:
                        continue
                    if not self.compat(*p1) or not self.compat(*p2):
                        self._forbid((p1, p2))
                        continue
                    mark = len(self.trail)
                    self.commit(*p1)
                    self.commit(*p2)
                    ok = self.relaxed_ok()
                    self.undo(mark)
                    if ok:
                        alive.append((p1, p2))
                    else:
                        self._forbid((p1, p2))
                        changed = True
                if not alive:
                    return False
                if len(alive) == 1:
                    ((p1, p2),) = alive
                    self.commit(*p1)
                    self.commit(*p2)
                    if not self.propagate(m) or not self.relaxed_ok():
                        return False
                    changed = True
        return True

    def _forbid(self, pairs) -> None:
        pid = self.pid
        forb = self.forb
        new = 0
        done = []
        for x, y in pairs:
            k = pid[x * 1024 + y if x < y else y * 1024 + x]
            if not (self.fkey | new) & k:
                new |= k
                forb[x] |= 1 << y
                forb[y] |= 1 << x
                done.append((x, y))
        if new:
            self.fkey |= new
            self.trail.append((2, new, done))

    def options(self, t: int) -> int:
        """Possible partners of uncommitted tile t (mask): same group, uncommitted, not
        forbidden, compatible, and (group of four) leaving a compatible last pair."""
        others = self.gmask[self.cls[t]] & self.unc & ~(1 << t)
        cand = others & self.part[t] & ~self.forb[t]
        if self.lift and cand:
            m = cand
            while m:
                low = m & -m
                m ^= low
                if not self.compat(t, low.bit_length() - 1):
                    cand ^= low
        if cand and others.bit_count() == 3:
            forb = self.forb
            lift = self.lift
            inc = self.inc
            m = cand
            while m:
                low = m & -m
                m ^= low
                rest = others & ~low
                x = (rest & -rest).bit_length() - 1
                y = rest.bit_length() - 1
                if (forb[x] >> y) & 1 or (not self.compat(x, y) if lift else (inc[x] >> y) & 1):
                    cand ^= low
        return cand

    def gain(self, t: int, u: int) -> int:
        """How many tiles removing (t, u) would free (move ordering)."""
        lay = self.lay
        L, R, C = lay.left, lay.right, lay.cover
        p = self.present & ~((1 << t) | (1 << u))
        m = (lay.affect_mask[t] | lay.affect_mask[u]) & p & ~self.free
        g = 0
        while m:
            low = m & -m
            j = low.bit_length() - 1
            m ^= low
            if not (p & C[j]) and (not (p & L[j]) or not (p & R[j])):
                g += 1
        return g

    # -- search ---------------------------------------------------------------------------------
    def dfs(self, dirty: int) -> bool:  # noqa: C901  the frozen reference solver: kept as it was (LONG_MODULES)
        mark = len(self.trail)
        if not self.propagate(dirty):
            self.undo(mark)
            return False
        if not self.present:
            return True
        fk = self.fkey
        if fk:
            # forbidden pairs of groups already fully committed or removed do not matter
            unc = self.unc
            rel = 0
            for gm_c, pb in self.gpb:
                if gm_c & unc:
                    rel |= pb
            fk &= rel
        key = self.present | (self.ckey << self.n) | (fk << (self.n + self.npid))
        if key in self.failed:
            self.undo(mark)
            return False
        # Choose a free uncommitted tile t to branch on. Every branch makes progress: remove
        # t with a partner removable now, or (last branch) forbid those pairs, so t pairs
        # later with a partner that is blocked now. A tile with one possible partner is
        # committed without branching; a tile with none means a dead group.
        cand = self.free & self.unc
        best_t = -1
        best_prog = 0
        best_rest = False
        best_score = 1 << 60
        dead = False
        salt = self.salt
        lift = self.lift
        free = self.free
        present = self.present
        lay = self.lay
        L, R, C = lay.left, lay.right, lay.cover
        while cand:
            low = cand & -cand
            t = low.bit_length() - 1
            cand ^= low
            opts = self.options(t)
            if not opts:
                dead = True
                break
            if not opts & (opts - 1):
                best_t, best_prog, best_rest, best_score = t, opts, False, 0
                break
            if lift:
                prog = opts & free
                m = opts & ~free
                q = present & ~low
                while m:
                    lb = m & -m
                    m ^= lb
                    k = lb.bit_length() - 1
                    if not (q & C[k]) and (not (q & L[k]) or not (q & R[k])):
                        prog |= lb
            else:
                prog = opts & free
            if not prog:
                continue
            rest = opts != prog
            score = prog.bit_count() + rest
            if salt:
                score = score * 4096 + (((t + 1) * 2654435761 ^ salt) & 4095)
            if score < best_score:
                best_t, best_prog, best_rest, best_score = t, prog, rest, score
        if dead or best_t < 0 or (best_score > 1 and not self.relaxed_ok()):
            self.failed.add(key)
            self.undo(mark)
            return False
        t = best_t
        best_prog = _bits(best_prog)
        if len(best_prog) > 1:
            best_prog.sort(key=lambda u: (-self.gain(t, u), ((u + 1) * 2246822519 ^ salt) & 4095))
        c = self.cls[t]
        if best_rest and self.diversify and (((t + 1) * 2654435761 ^ salt) >> 7) % REST_FIRST == 0:
            # diversification across restarts: sometimes delay t first
            self.nodes += 1
            if self.nodes > self.limit:
                raise _Budget
            m2 = len(self.trail)
            self._forbid([(t, u) for u in best_prog])
            if self.dfs(self.gmask[c] & self.present):
                return True
            self.undo(m2)
            best_rest = False
            # the delay branch failed: t pairs now with one of best_prog
        for u in best_prog:
            self.nodes += 1
            if self.nodes > self.limit:
                raise _Budget
            m2 = len(self.trail)
            self.commit(t, u)
            if self.auto_commit(c):
                if self.dfs((1 << t) | (1 << u) | (self.gmask[c] & self.present)):
                    return True
            self.undo(m2)
        if best_rest:
            self.nodes += 1
            if self.nodes > self.limit:
                raise _Budget
            m2 = len(self.trail)
            self._forbid([(t, u) for u in best_prog])
            if self.dfs(self.gmask[c] & self.present):
                return True
            self.undo(m2)
        self.failed.add(key)
        self.undo(mark)
        return False

    def run(self) -> SolveResult:
        # odd group sizes can never be cleared
        for m in self.gmask.values():
            if m.bit_count() % 2:
                return SolveResult(False, [], 0)
        for c in self.gmask:
            if not self.auto_commit(c):
                return SolveResult(False, [], 0)
        if not self.relaxed_ok():
            return SolveResult(False, [], 0)
        # Restarts with growing budgets (Luby sequence x RESTART_UNIT) and a perturbed
        # tie-break per restart; failed states stay in the table (they are facts).
        mark = len(self.trail)
        r = 0
        while True:
            self.salt = (r * 0x9E3779B1) & 0xFFFFFFFF
            self.diversify = r >= REST_FROM
            self.limit = min(self.budget, self.nodes + _luby(r + 1) * RESTART_UNIT)
            try:
                ok = self.dfs(self.present)
                break
            except _Budget:
                self.undo(mark)
                if self.nodes >= self.budget:
                    return SolveResult(None, [], self.nodes)
                r += 1
                if r == PROBE_AT and self.probing:
                    # a hard position: probe the pairings once at the root (kept below)
                    if not self.probe():
                        return SolveResult(False, [], self.nodes)
                    mark = len(self.trail)
        if not ok:
            return SolveResult(False, [], self.nodes)
        plan = [(r[1], r[2]) if r[1] < r[2] else (r[2], r[1]) for r in self.trail if r[0] == 1]
        return SolveResult(True, plan, self.nodes)


RESTART_UNIT = 64
REST_FIRST = 8
REST_FROM = 3
PROBE_AT = 2  # restart before which the root pairings are probed
PROBE_ROUNDS = 1  # probing passes over the groups


_bits = bits  # the layouts module's helper (indexes of set bits, ascending)


def solve(board: Board, node_budget: int | None = None) -> SolveResult:
    """Exact solvability and a winning plan of the board's position under its ruleset
    (T-6 for classic/pool, T-6a for rivals). ``node_budget`` = max branching nodes."""
    return solve_position(board.layout, board.cls, board.present, board.lift, node_budget)


def solve_position(
    layout: Layout, cls: Sequence[int], present: int, lift: bool, node_budget: int | None = None
) -> SolveResult:
    return _Solver(layout, cls, present, lift, node_budget).run()
