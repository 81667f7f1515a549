/* See replay.h. */
#include "replay.h"

static int by_class(const void *x, const void *y) {
    const int *a = (const int *)x, *b = (const int *)y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1]);
}

static int by_pair(const void *x, const void *y) {
    const int *a = (const int *)x, *b = (const int *)y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1]);
}

int rp_removable(const Geom *g, const int *cls, mask p, int lift, int *pa, int *pb, int cap) {
    /* the present tiles by face class (then position), the free ones marked; each class's pairs
     * with a free tile checked, then all of them sorted */
    int t[MAXT][2], nt = 0;
    unsigned char fr[MAXT];
    for (int i = 0; i < g->n; i++) {
        if (!m_test(p, i)) continue;
        fr[i] = (unsigned char)freeness(g, i, p);
        t[nt][0] = cls[i];
        t[nt][1] = i;
        nt++;
    }
    qsort(t, (size_t)nt, sizeof(t[0]), by_class);
    int (*out)[2] = (int (*)[2])malloc(sizeof(int) * 2 * (size_t)(cap > 0 ? cap : 1));
    if (!out) return -2;
    int k = 0;
    for (int x = 0; x < nt; x++)
        for (int y = x + 1; y < nt && t[y][0] == t[x][0]; y++) {
            int i = t[x][1], j = t[y][1];
            if (!fr[i] && !fr[j]) continue;
            if (!(fr[i] && fr[j]) && !rp_can_remove(g, p, lift, i, j)) continue;
            if (k == cap) { free(out); return -1; }
            out[k][0] = i;
            out[k][1] = j;
            k++;
        }
    qsort(out, (size_t)k, sizeof(out[0]), by_pair);
    for (int x = 0; x < k; x++) { pa[x] = out[x][0]; pb[x] = out[x][1]; }
    free(out);
    return k;
}

int rp_repair(const Geom *g, mask p, int lift, const int *xs, const int *ys, int n, int a, int b) {
    int ka = -1, kb = -1, pa = -1, pb = -1;
    for (int k = 0; k < n; k++) {
        if (xs[k] == a || ys[k] == a) { ka = k; pa = xs[k] == a ? ys[k] : xs[k]; }
        if (xs[k] == b || ys[k] == b) { kb = k; pb = xs[k] == b ? ys[k] : xs[k]; }
    }
    if (ka < 0 || kb < 0 || ka == kb) return 0;
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

/* the greedy replay of rp_repair's second half: do the pairs (xs, ys; n of them) empty the board p? */
static int rp_empties(const Geom *g, mask p, int lift, const int *xs, const int *ys, int n) {
    unsigned char done[MAXT];
    memset(done, 0, (size_t)n);
    int left = n;
    for (int progress = 1; left && progress;) {
        progress = 0;
        for (int k = 0; k < n; k++) {
            if (done[k] || !rp_can_remove(g, p, lift, xs[k], ys[k])) continue;
            m_clr(&p, xs[k]);
            m_clr(&p, ys[k]);
            done[k] = 1;
            left--;
            progress = 1;
        }
    }
    return left == 0 && !m_any(p);
}

int rp_matching_empties(const Geom *g, const int *cls, mask p, int lift, const int *xs, const int *ys, int n, int a,
                        int b) {
    if (n > MAXT) return 0;
    int px[MAXT], py[MAXT], m = 0;
    int orphan[MAXT], no = 0;
    mask q = p;
    m_clr(&q, a);
    m_clr(&q, b);
    for (int k = 0; k < n; k++) {
        int x = xs[k], y = ys[k];
        int inx = m_test(q, x), iny = m_test(q, y);
        if (inx && iny) { px[m] = x; py[m] = y; m++; }
        else if (inx) orphan[no++] = x;
        else if (iny) orphan[no++] = y;
    }
    /* the tiles whose partner left the board: paired again within their face class, in order */
    unsigned char used[MAXT];
    memset(used, 0, (size_t)no);
    for (int i = 0; i < no; i++) {
        if (used[i]) continue;
        int j = i + 1;
        while (j < no && (used[j] || cls[orphan[j]] != cls[orphan[i]])) j++;
        if (j == no || m >= MAXT) return 0;
        used[i] = used[j] = 1;
        px[m] = orphan[i];
        py[m] = orphan[j];
        m++;
    }
    /* every present tile must be in a pair */
    mask cov = m_zero();
    for (int k = 0; k < m; k++) { m_set(&cov, px[k]); m_set(&cov, py[k]); }
    if (!m_eq(cov, q)) return 0;
    return rp_empties(g, q, lift, px, py, m);
}
