/* See replay.h. */
#include "replay.h"

int rp_removable(const Geom *g, const int *cls, mask p, int lift, int *pa, int *pb, int cap) {
    int k = 0;
    for (int i = 0; i < g->n; i++) {
        if (!m_test(p, i)) continue;
        for (int j = i + 1; j < g->n; j++) {
            if (!m_test(p, j) || cls[j] != cls[i]) continue;
            if (!rp_can_remove(g, p, lift, i, j)) continue;
            if (k == cap) return -1;
            pa[k] = i;
            pb[k] = j;
            k++;
        }
    }
    return k;
}

int rp_repair(const Geom *g, mask p, int lift, const int *xs, const int *ys, int n, int a, int b, int pa, int pb,
              int ka, int kb) {
    int lo = ka < kb ? ka : kb, hi = ka < kb ? kb : ka;
    /* the swap: the plan's pairs before lo gone, those between lo and hi replayed, then (pa, pb) */
    mask q = p;
    m_clr(&q, a);
    m_clr(&q, b);
    for (int k = 0; k < lo; k++) { m_clr(&q, xs[k]); m_clr(&q, ys[k]); }
    int swap = 1;
    for (int k = lo + 1; k < hi && swap; k++) {
        if (!rp_can_remove(g, q, lift, xs[k], ys[k])) swap = 0;
        else { m_clr(&q, xs[k]); m_clr(&q, ys[k]); }
    }
    if (swap && rp_can_remove(g, q, lift, pa, pb)) return 1;
    /* the same pairs in any order: remove whatever is removable, pass after pass (a removable
     * pair stays removable, so the order never matters) */
    unsigned char done[MAXT];
    if (n > MAXT) return 0;
    memset(done, 0, (size_t)n);
    done[ka] = done[kb] = 1;
    int left = n - 2 + 1, extra = 1;
    q = p;
    m_clr(&q, a);
    m_clr(&q, b);
    for (int progress = 1; left && progress;) {
        progress = 0;
        for (int k = 0; k < n; k++) {
            if (done[k]) continue;
            if (rp_can_remove(g, q, lift, xs[k], ys[k])) {
                m_clr(&q, xs[k]); m_clr(&q, ys[k]);
                done[k] = 1; left--; progress = 1;
            }
        }
        if (extra && rp_can_remove(g, q, lift, pa, pb)) {
            m_clr(&q, pa); m_clr(&q, pb);
            extra = 0; left--; progress = 1;
        }
    }
    return left == 0 && !m_any(q) ? 2 : 0;
}
