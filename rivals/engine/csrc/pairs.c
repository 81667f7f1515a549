/* See pairs.h. Mirrors board.py's removable_pairs_py: pairs of free tiles of one class, and in
 * T-6a (lift) a free tile a with a tile b of its class that is free once a is lifted. */
#include "pairs.h"

static void add_pair(mask *partners, int a, int b) {
    if (a < b) m_set(&partners[a], b); else m_set(&partners[b], a);
}

int removable_pairs_masks(const Geom *g, const int *cls, mask present, int lift, mask *partners) {
    int n = g->n;
    mask free = m_zero();
    for (int i = 0; i < n; i++) {
        partners[i] = m_zero();
        if (m_test(present, i) && freeness(g, i, present)) m_set(&free, i);
    }
    /* free tiles of one class */
    for (mask m = free; m_any(m);) {
        int a = m_low(m);
        m_clr(&m, a);
        for (mask r = m; m_any(r);) {
            int b = m_low(r);
            m_clr(&r, b);
            if (cls[a] == cls[b]) m_set(&partners[a], b);
        }
    }
    if (lift) { /* T-6a: lift the free tile a; b (not free now) must be free on the board without a */
        for (mask m = free; m_any(m);) {
            int a = m_low(m);
            m_clr(&m, a);
            mask q = present;
            m_clr(&q, a);
            mask cand = m_andnot(m_and(g->affect[a], q), free);
            for (int b; (b = m_low(cand)) >= 0; m_clr(&cand, b))
                if (cls[b] == cls[a] && freeness(g, b, q)) add_pair(partners, a, b);
        }
    }
    int count = 0;
    for (int i = 0; i < n; i++) count += m_pop(partners[i]);
    return count;
}
