"""The exact search, in pure Python: the reference implementation of the compiled core.

The compiled core (``csrc/``) implements the same algorithm statement for statement; the two give
the same verdict, plan and node count on every position (tests/engine/test_core_equivalence.py),
so a verdict never depends on which one runs (R-15 Decision). The facade is ``solver.solve``.

The model (after de Bondt: decide *pairings*, not move orders)
-------------------------------------------------------------
A variable x(a, b) per pair of present tiles of one matching group that could ever be removed
together ("compatible": under T-6 neither lies above the other through present tiles, under T-6a
no present tile lies between them). A solution is a perfect matching of every group - each tile
in exactly one true pair ("exactly one", propagated natively) - whose pairs can be removed in
some order. For a fixed matching the order is easy: removals only ever free tiles (T-5 is
monotone), so removing any committed pair as soon as it is removable is safe ("greedy"). The
search therefore assigns pairs, removes committed pairs greedily, and asks a theory for
conflicts.

The theory (``theory.py``): a relaxed scan. Repeatedly take away any free tile that has a possible
partner (a pair not yet false) which is gone or free (T-6a: free once the tile is lifted). If R
tiles remain, R is a deadlock: in any solution, the first tile of R to go needs a free possible
partner, and no tile of R has one while R is present. The explanation is a small core of R
(grown from one free tile: a blocked tile brings its blockers, a free tile its possible
partners, every one of them blocked), and the learned clause says "one of the pairs that the
core's free tiles are refused must be taken" - it mentions only the groups the deadlock is made
of, so a refutation caused by one group's pairing is never retried under unrelated choices.

The search is CDCL: decisions (a pair to take), unit propagation over exactly-one and learned
clauses (two watched literals), first-UIP conflict analysis with non-chronological backjumps,
integer activities (bumped on every conflict) to choose decisions, Luby restarts. Decisions
take a removable pair: first a "safe" one (a group whose undecided tiles are all free can be
paired any way: no node is counted), else the removable pair with the highest activity, ties
broken by the fewest removable options of its tile, then by the most tiles it frees.

Nodes = decisions (safe ones excepted) + conflicts; ``budget`` bounds them (exceeded: undecided).
Everything is integer arithmetic and deterministic: same input, same plan, same node count.
"""

from __future__ import annotations

from collections.abc import Sequence

from .layouts import Layout, bits
from .theory import Theory, compat_masks

RESTART_UNIT = 32  # conflicts per Luby unit
ACT_START = 1 << 10  # first activity increment; grows by 1/8 per conflict
ACT_LIMIT = 1 << 40  # rescale (>> ACT_SHIFT) above this
ACT_SHIFT = 20

# reason kinds of an assignment
DECISION, PAIR, TILE, CLAUSE, UNIT = 0, 1, 2, 3, 4


class _Unsat(Exception):
    pass


class _Budget(Exception):
    pass


def luby(i: int) -> int:
    """Luby et al. restart sequence 1,1,2,1,1,2,4,1,1,2,... (1-based)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


class Search(Theory):
    """The CDCL search over pair variables (the theory's checks in ``Theory``)."""

    def __init__(self, layout: Layout, cls: Sequence[int], present: int, lift: bool, budget: int | None) -> None:
        n = self.n = layout.size
        self.lift = lift
        self.budget = budget if budget is not None else 1 << 62
        self.nodes = 0
        self.layout = layout
        self.L, self.R, self.C, self.A = layout.left, layout.right, layout.cover, layout.affect_mask
        self.present = present
        free = 0
        for i in bits(present):
            if self.freeness(i, present):
                free |= 1 << i
        self.free = free
        inc = compat_masks(layout, present, lift)
        groups: dict[int, list[int]] = {}
        for i in bits(present):
            groups.setdefault(cls[i], []).append(i)
        self.ok = True
        va: list[int] = []
        vb: list[int] = []
        tv: list[list[int]] = [[] for _ in range(n)]
        self.gmask: list[int] = []
        self.gof = [-1] * n
        for c in sorted(groups):
            ts = groups[c]
            if len(ts) % 2:
                self.ok = False  # an odd group can never be cleared
            gm = 0
            for t in ts:
                self.gof[t] = len(self.gmask)
                gm |= 1 << t
            self.gmask.append(gm)
            for x in range(len(ts)):
                for y in range(x + 1, len(ts)):
                    a, b = ts[x], ts[y]
                    if not (inc[a] >> b) & 1:
                        tv[a].append(len(va))
                        tv[b].append(len(va))
                        va.append(a)
                        vb.append(b)
        self.gm = [0] * n  # each tile's group (mask)
        for t in bits(present):
            self.gm[t] = self.gmask[self.gof[t]]
            if not tv[t]:
                self.ok = False  # a tile with no possible partner
        self.va, self.vb, self.tv = va, vb, tv
        nv = self.nv = len(va)
        self.val = [0] * nv  # 0 undecided, 1 true, -1 false
        self.lev = [0] * nv
        self.rkind = [DECISION] * nv
        self.rdata = [0] * nv
        self.act = [0] * nv
        self.inc = ACT_START
        self.trail: list[int] = []  # literals: 2v = x(v) true, 2v + 1 = x(v) false
        self.qhead = 0
        self.lim: list[int] = []  # trail length where each decision level starts
        self.saved: list[tuple[int, int, int]] = []  # (present, free, removals) before each level
        self.removed: list[tuple[int, int]] = []
        self.partner = [-1] * n
        self.deg = [len(tv[t]) for t in range(n)]
        self.nf = [0] * n  # false pairs of each tile
        self.unc = present  # tiles without a true pair
        self.dirty = 0  # tiles to look at in the greedy removal
        self.watches: list[list[int]] = [[] for _ in range(2 * nv)]
        self.clauses: list[list[int]] = []

    def litval(self, lit: int) -> int:
        x = self.val[lit >> 1]
        return -x if lit & 1 else x

    # -- assignment and propagation ------------------------------------------------------------
    def assign(self, lit: int, kind: int, data: int) -> None:
        v = lit >> 1
        self.val[v] = -1 if lit & 1 else 1
        self.lev[v] = len(self.lim)
        self.rkind[v] = kind
        self.rdata[v] = data
        self.trail.append(lit)

    def propagate(self) -> list[int] | None:
        """Unit propagation to a fixpoint; a conflict clause (all its literals false) or None."""
        val, tv, va, vb = self.val, self.tv, self.va, self.vb
        trail = self.trail
        while self.qhead < len(trail):
            lit = trail[self.qhead]
            self.qhead += 1
            v = lit >> 1
            a, b = va[v], vb[v]
            if not lit & 1:  # x(a, b) true: every other pair of a and of b is false
                self.partner[a] = b
                self.partner[b] = a
                self.unc &= ~((1 << a) | (1 << b))
                self.dirty |= (1 << a) | (1 << b)
                for t in (a, b):
                    for w in tv[t]:
                        if w != v:
                            x = val[w]
                            if x == 1:
                                return [2 * v + 1, 2 * w + 1]
                            if x == 0:
                                self.assign(2 * w + 1, PAIR, v)
            else:  # x(a, b) false: a tile with one pair left takes it
                nf, deg = self.nf, self.deg
                nf[a] += 1
                nf[b] += 1
                for t in (a, b):
                    if nf[t] == deg[t]:
                        return [2 * w for w in tv[t]]
                    if nf[t] == deg[t] - 1:
                        for w in tv[t]:
                            if val[w] != -1:
                                if val[w] == 0:
                                    self.assign(2 * w, TILE, t)
                                break
            confl = self._watched(lit ^ 1)
            if confl is not None:
                return confl
        return None

    def _watched(self, fl: int) -> list[int] | None:
        """Visit the learned clauses watching the literal fl, which has become false."""
        ws = self.watches[fl]
        clauses = self.clauses
        i = j = 0
        nws = len(ws)
        while i < nws:
            ci = ws[i]
            i += 1
            cl = clauses[ci]
            if cl[0] == fl:
                cl[0], cl[1] = cl[1], fl
            if self.litval(cl[0]) == 1:
                ws[j] = ci
                j += 1
                continue
            for k in range(2, len(cl)):
                if self.litval(cl[k]) != -1:
                    cl[1], cl[k] = cl[k], fl
                    self.watches[cl[1]].append(ci)
                    break
            else:
                ws[j] = ci
                j += 1
                if self.litval(cl[0]) == -1:
                    while i < nws:
                        ws[j] = ws[i]
                        j += 1
                        i += 1
                    del ws[j:]
                    return list(cl)
                self.assign(cl[0], CLAUSE, ci)
        del ws[j:]
        return None

    def reason(self, v: int) -> list[int]:
        kind = self.rkind[v]
        if kind == PAIR:
            return [2 * v + 1, 2 * self.rdata[v] + 1]
        if kind == TILE:
            return [2 * w for w in self.tv[self.rdata[v]]]
        return self.clauses[self.rdata[v]]

    # -- conflicts -------------------------------------------------------------------------------
    def backtrack(self, level: int) -> None:
        if len(self.lim) <= level:
            return
        val, va, vb, nf, partner = self.val, self.va, self.vb, self.nf, self.partner
        trail = self.trail
        stop = self.lim[level]
        while len(trail) > stop:
            lit = trail.pop()
            v = lit >> 1
            if self.qhead > len(trail):  # propagated: undo its effects
                a, b = va[v], vb[v]
                if lit & 1:
                    nf[a] -= 1
                    nf[b] -= 1
                else:
                    partner[a] = partner[b] = -1
                    self.unc |= (1 << a) | (1 << b)
            val[v] = 0
        self.qhead = len(trail)
        self.present, self.free, nrem = self.saved[level]
        del self.removed[nrem:]
        del self.lim[level:]
        del self.saved[level:]
        self.dirty = 0

    def analyze(self, confl: list[int]) -> tuple[list[int], int]:
        """First UIP: the learned clause (asserting literal first, the highest other level
        second) and the level to jump back to. Bumps the activity of every variable seen."""
        lev = self.lev
        cur = len(self.lim)
        seen = [False] * self.nv
        bumped = []
        learnt = [0]
        count = 0
        idx = len(self.trail) - 1
        lits = confl
        while True:
            for q in lits:
                v = q >> 1
                if seen[v] or lev[v] == 0:
                    continue
                seen[v] = True
                bumped.append(v)
                if lev[v] == cur:
                    count += 1
                else:
                    learnt.append(q)
            while not seen[self.trail[idx] >> 1]:
                idx -= 1
            p = self.trail[idx]
            idx -= 1
            count -= 1
            if count == 0:
                break
            lits = self.reason(p >> 1)
        learnt[0] = p ^ 1
        act = self.act
        for v in bumped:
            act[v] += self.inc
        self.inc += self.inc >> 3
        if self.inc > ACT_LIMIT:
            for v in range(self.nv):
                act[v] >>= ACT_SHIFT
            self.inc >>= ACT_SHIFT
        if len(learnt) == 1:
            return learnt, 0
        bi = 1
        for k in range(2, len(learnt)):
            if lev[learnt[k] >> 1] > lev[learnt[bi] >> 1]:
                bi = k
        learnt[1], learnt[bi] = learnt[bi], learnt[1]
        return learnt, lev[learnt[1] >> 1]

    def conflict(self, confl: list[int]) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        lev = self.lev
        top = max((lev[q >> 1] for q in confl), default=0)
        if top == 0:
            raise _Unsat
        self.backtrack(top)  # a theory conflict can lie below the current level
        learnt, back = self.analyze(confl)
        self.backtrack(back)
        if len(learnt) == 1:
            self.assign(learnt[0], UNIT, 0)
            return
        ci = len(self.clauses)
        self.clauses.append(learnt)
        self.watches[learnt[0]].append(ci)
        self.watches[learnt[1]].append(ci)
        self.assign(learnt[0], CLAUSE, ci)

    # -- decisions -----------------------------------------------------------------------------
    def safe_pair(self) -> int:
        """A pair of a group whose undecided tiles are all free (any pairing of them is as good
        as any other: they can all go now); -1 if none."""
        val, tv = self.val, self.tv
        m = self.free & self.unc
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            if self.gmask[self.gof[t]] & self.unc & ~self.free:
                continue
            for w in tv[t]:
                if val[w] == 0:
                    return w
        return -1

    def choose(self) -> int:
        """The removable undecided pair with the highest activity; ties: the fewest removable
        options of its (free, undecided) tile, then the most tiles freed, then the first found."""
        val, tv, va, vb, act = self.val, self.tv, self.va, self.vb, self.act
        free, p, lift = self.free, self.present, self.lift
        best = -1
        bkey = (0, 0)
        bgain = -1
        m = free & self.unc
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            prog = []
            rest = 0
            q = p & ~low
            for w in tv[t]:
                if val[w] == 0:
                    k = va[w] + vb[w] - t
                    if (free >> k) & 1 or (lift and self.freeness(k, q)):
                        prog.append(w)
                    else:
                        rest = 1
            opts = len(prog) + rest
            for w in prog:
                key = (act[w], -opts)
                if best >= 0 and key < bkey:
                    continue
                g = self.gain(t, va[w] + vb[w] - t)
                if best < 0 or key > bkey or g > bgain:
                    best, bkey, bgain = w, key, g
        if best < 0:  # cannot happen after a passing relaxed scan; any undecided pair then
            best = val.index(0)
        return best

    # -- the search ------------------------------------------------------------------------------
    def run(self) -> tuple[bool | None, list[tuple[int, int]], int]:
        if not self.ok:
            return False, [], 0
        for t in bits(self.present):
            if self.deg[t] == 1 and self.val[self.tv[t][0]] == 0:
                self.assign(2 * self.tv[t][0], TILE, t)
        restarts = 1
        limit = luby(restarts) * RESTART_UNIT
        since = 0
        try:
            while True:
                confl = self.propagate()
                if confl is None:
                    self.greedy()
                    if not self.present:
                        return True, list(self.removed), self.nodes
                    confl = self.relaxed()
                if confl is not None:
                    self.conflict(confl)
                    since += 1
                    continue
                if since >= limit and self.lim:
                    self.backtrack(0)
                    restarts += 1
                    limit = luby(restarts) * RESTART_UNIT
                    since = 0
                    continue
                w = self.safe_pair()
                if w < 0:
                    self.nodes += 1
                    if self.nodes > self.budget:
                        raise _Budget
                    w = self.choose()
                self.lim.append(len(self.trail))
                self.saved.append((self.present, self.free, len(self.removed)))
                self.assign(2 * w, DECISION, 0)
        except _Unsat:
            return False, [], self.nodes
        except _Budget:
            return None, [], self.nodes


def search(
    layout: Layout, cls: Sequence[int], present: int, lift: bool, budget: int | None = None
) -> tuple[bool | None, list[tuple[int, int]], int]:
    """(solvable or None when the budget ran out, winning plan, nodes)."""
    return Search(layout, cls, present, lift, budget).run()
