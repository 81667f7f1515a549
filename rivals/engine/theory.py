"""The theory of the search (``search.Search`` inherits it): the board under a partial matching.

- Greedy removal: a true pair is removed as soon as it is removable (T-6; T-6a: one free, the
  other free once it is lifted) - safe, because removals only ever free tiles.
- The relaxed scan: repeatedly take away any free tile with a possible partner (a pair not yet
  false) that is gone or free. Tiles left over form a deadlock; ``explain`` turns it into the
  conflict clause (see ``core`` and ``clause_of``).
- Geometry helpers: freeness (T-5), the pairs that can never be removed together, and how many
  tiles a removal frees (move ordering).

Masks are Python ints (bit i = tile i), exactly as the compiled core's 192-bit masks.
"""

from __future__ import annotations

from .deals import update_free
from .layouts import Layout, bits


def compat_masks(layout: Layout, present: int, lift: bool) -> list[int]:
    """inc[i]: the present tiles that can never pair with i. Above/below through *present* tiles
    (a covered tile cannot go before what covers it, so such a chain stays while its top does):
    T-6 - one lies above the other; T-6a - a present tile lies between them."""
    n = layout.size
    C = layout.cover
    above = [0] * n
    for i in sorted(bits(present), key=lambda i: -layout.layer_of[i]):
        acc = 0
        for c in bits(C[i] & present):
            acc |= (1 << c) | above[c]
        above[i] = acc
    if lift:
        strict = [0] * n
        for i in bits(present):
            acc = 0
            for c in bits(C[i] & present):
                acc |= above[c]
            strict[i] = acc
        above = strict
    inc = list(above)
    for i in bits(present):
        for j in bits(above[i]):
            inc[j] |= 1 << i
    return inc


class Theory:
    """Mixin over the search's state: ``layout``, ``present``, ``free``, ``partner``, ``dirty``, ``removed``,
    the pair variables (``tv``, ``va``, ``vb``, ``val``, ``lev``), ``gm`` and the layout masks."""

    # -- geometry ------------------------------------------------------------------------------
    def freeness(self, j: int, p: int) -> bool:
        """T-5: j is free on the board p (j's own bit is not looked at)."""
        return not (p & self.C[j]) and (not (p & self.L[j]) or not (p & self.R[j]))

    # -- the theory: greedy removal and the relaxed scan --------------------------------------
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
        return self.freeness(u, self.present & ~(1 << t))  # T-6a: u free once t is lifted

    def remove(self, t: int, u: int) -> int:
        rm = (1 << t) | (1 << u)
        p = self.present & ~rm
        self.present = p
        self.free = update_free(self.layout, p, self.free, rm)
        self.removed.append((t, u) if t < u else (u, t))
        return (self.A[t] | self.A[u]) & p  # the tiles whose status may change

    def greedy(self) -> None:
        """Remove every true pair that is removable, to a fixpoint (safe: removals only free)."""
        d = self.dirty & self.present
        self.dirty = 0
        partner = self.partner
        while d:
            low = d & -d
            d ^= low
            if not self.present & low:
                continue
            j = low.bit_length() - 1
            u = partner[j]
            if u >= 0 and self.removable(j, u):
                d |= self.remove(j, u)

    def relaxed(self) -> list[int] | None:
        """The relaxed scan; None if it clears the board, else the deadlock's conflict clause.
        The tiles left (R) are the same whatever the order of the scan (removing a tile only
        makes others removable), and so is the clause, which depends on R alone."""
        p = self.present
        lift = self.lift
        tv, va, vb, val, A, gm = self.tv, self.va, self.vb, self.val, self.A, self.gm
        F = self.free & p  # the free tiles of p, kept exact as tiles go
        work = F
        wait = 0
        while work:
            low = work & -work
            work ^= low
            if not F & low:  # gone, or blocked
                continue
            j = low.bit_length() - 1
            for w in tv[j]:
                if val[w] != -1:
                    kb = 1 << (va[w] + vb[w] - j)
                    # T-6a: k free once j is lifted - only if j is one of k's blockers
                    if not p & kb or F & kb:
                        break
                    if lift and A[j] & kb and self.freeness(kb.bit_length() - 1, p & ~low):
                        break
            else:
                wait |= low
                continue
            p ^= low
            F ^= low
            touched = A[j] & p
            m = touched
            while m:
                lt = m & -m
                m ^= lt
                if self.freeness(lt.bit_length() - 1, p):
                    F |= lt
                else:
                    F &= ~lt
            work |= touched & F
            if wait:  # waiting tiles that may pair now: j's group mates, those of its neighbours
                grp = gm[j]
                m = touched
                while m:
                    lt = m & -m
                    m ^= lt
                    grp |= gm[lt.bit_length() - 1]
                grp &= wait
                work |= grp
                wait ^= grp
        if not p:
            return None
        return self.explain(p, F)

    def core(self, seed: int, R: int) -> int:
        """A deadlock inside the stuck set R grown from the free tile ``seed``: a blocked tile
        brings one cover (or one tile on each side; T-6a: all its blockers, so that it stays
        blocked without any one tile), a free tile brings its possible partners."""
        lift = self.lift
        L, Rt, C = self.L, self.R, self.C
        tv, va, vb, val = self.tv, self.va, self.vb, self.val
        S = 0
        todo = 1 << seed
        while todo:
            low = todo & -todo
            todo ^= low
            if S & low:
                continue
            S |= low
            j = low.bit_length() - 1
            c = C[j] & R
            left, right = L[j] & R, Rt[j] & R
            if lift and (c or (left and right)):
                todo |= c | ((left | right) if left and right else 0)
            elif c:
                pick = c & S or c
                todo |= pick & -pick
            elif left and right:
                pl = left & S or left
                pr = right & S or right
                todo |= (pl & -pl) | (pr & -pr)
            else:
                for w in tv[j]:
                    if val[w] != -1:
                        todo |= 1 << (va[w] + vb[w] - j)
        return S

    def clause_of(self, S: int, limit: int = 1 << 30) -> list[int]:
        """The pairs the free tiles of the deadlock S are refused (those not at level 0); stops
        once ``limit`` are found (such a clause would not be kept)."""
        lift = self.lift
        tv, va, vb, lev = self.tv, self.va, self.vb, self.lev
        clause = []
        m = S
        while m:
            low = m & -m
            m ^= low
            j = low.bit_length() - 1
            if not self.freeness(j, S):
                continue
            q = S & ~low if lift else S
            for w in tv[j]:
                k = va[w] + vb[w] - j
                if not ((S >> k) & 1 and not self.freeness(k, q)) and lev[w] > 0:
                    clause.append(2 * w)
                    if len(clause) >= limit:
                        return clause
        return clause

    def explain(self, R: int, free: int) -> list[int]:
        """The shortest clause over the cores grown from each free tile of R (``free``: those
        tiles), the first on ties."""
        best: list[int] | None = None
        m = free
        while m:
            low = m & -m
            m ^= low
            limit = len(best) if best is not None else 1 << 30
            cl = self.clause_of(self.core(low.bit_length() - 1, R), limit)
            if best is None or len(cl) < len(best):
                best = cl
                if not best:
                    break  # nothing is shorter
        return best or []

    def gain(self, t: int, u: int) -> int:
        """How many tiles removing (t, u) would free."""
        p = self.present & ~((1 << t) | (1 << u))
        m = (self.A[t] | self.A[u]) & p & ~self.free
        g = 0
        while m:
            low = m & -m
            m ^= low
            if self.freeness(low.bit_length() - 1, p):
                g += 1
        return g
