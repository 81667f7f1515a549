/* Replays of pairs on a position (the fair-play analysis' questions, rivals/fairplay/analysis.py):
 * the removable pairs of a position (Board.removable_pairs) and whether a fixed set of pairs
 * empties the board. Removing tiles never blocks a legal removal (T-6 and T-6a), which is what
 * makes a greedy replay exact. */
#ifndef RIVALS_REPLAY_H
#define RIVALS_REPLAY_H
#include "core.h"

/* Board.can_remove without the face check (the caller's pairs match) */
static inline int rp_can_remove(const Geom *g, mask p, int lift, int a, int b) {
    if (a == b || !m_test(p, a) || !m_test(p, b)) return 0;
    int fa = freeness(g, a, p), fb = freeness(g, b, p);
    if (fa && fb) return 1;
    if (!lift || (!fa && !fb)) return 0;
    mask q = p;
    if (fa) { m_clr(&q, a); return freeness(g, b, q); }
    m_clr(&q, b);
    return freeness(g, a, q);
}

/* the removable pairs (a < b, sorted) into pa/pb (room for cap pairs); returns their count, -1
 * when they need more room, -2 out of memory */
int rp_removable(const Geom *g, const int *cls, mask p, int lift, int *pa, int *pb, int cap);

/* the plan (pairs xs[k], ys[k], k < n, in order; pairs of matching faces) with the pair (a, b)
 * first (matching faces too), where a was paired with pa and b with pb (in two different pairs of
 * the plan, else 0): 1 if the plan with pa and pb paired together at the later of the two pairs'
 * places replays (analysis._swap_plan), else 2 if the same pairs empty the board in some order,
 * else 0 */
int rp_repair(const Geom *g, mask p, int lift, const int *xs, const int *ys, int n, int a, int b);

/* a winning set of pairs (xs, ys; n of them) of an earlier position, the pair (a, b) removed
 * now: the pairs with both tiles still present, and the tiles whose partner left paired again
 * within their face class (in order); 1 if those cover the position without a and b and empty it
 * in some order (the position after the pair is solvable), else 0 */
int rp_matching_empties(const Geom *g, const int *cls, mask p, int lift, const int *xs, const int *ys, int n, int a,
                        int b);

#endif
