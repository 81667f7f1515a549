/* The engine's compiled core: the exact search of search.py, and the version-1 trap probe of
 * solver_v1.py that the level generator uses. Both mirror their Python references statement for
 * statement (same loops in the same order, integer arithmetic only), so that they give the same
 * verdicts, plans and node counts (tests/engine/test_core_equivalence.py).
 *
 * Tile sets are 192-bit masks (three 64-bit words); layouts have at most 144 positions.
 * Memory is taken once per call; the search loop itself does not allocate, except that the
 * learned-clause arena and the watch lists grow by doubling.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 192
#define NW 3

typedef struct { uint64_t w[NW]; } mask;

static inline mask m_and(mask a, mask b) { mask r; for (int i = 0; i < NW; i++) r.w[i] = a.w[i] & b.w[i]; return r; }
static inline mask m_or(mask a, mask b) { mask r; for (int i = 0; i < NW; i++) r.w[i] = a.w[i] | b.w[i]; return r; }
static inline mask m_andnot(mask a, mask b) { mask r; for (int i = 0; i < NW; i++) r.w[i] = a.w[i] & ~b.w[i]; return r; }
static inline int m_any(mask a) { return (a.w[0] | a.w[1] | a.w[2]) != 0; }
static inline int m_eq(mask a, mask b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2]; }
static inline int m_test(mask a, int i) { return (int)((a.w[i >> 6] >> (i & 63)) & 1); }
static inline void m_set(mask *a, int i) { a->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void m_clr(mask *a, int i) { a->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline mask m_bit(int i) { mask r = {{0, 0, 0}}; m_set(&r, i); return r; }
static inline mask m_zero(void) { mask r = {{0, 0, 0}}; return r; }
static inline int m_pop(mask a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) + __builtin_popcountll(a.w[2]); }
/* lowest set bit, -1 if none */
static inline int m_low(mask a) {
    if (a.w[0]) return __builtin_ctzll(a.w[0]);
    if (a.w[1]) return 64 + __builtin_ctzll(a.w[1]);
    if (a.w[2]) return 128 + __builtin_ctzll(a.w[2]);
    return -1;
}
static inline int m_high(mask a) {
    if (a.w[2]) return 128 + 63 - __builtin_clzll(a.w[2]);
    if (a.w[1]) return 64 + 63 - __builtin_clzll(a.w[1]);
    if (a.w[0]) return 63 - __builtin_clzll(a.w[0]);
    return -1;
}
/* a & -a ("the lowest bit of a" as a mask), zero if a is zero */
static inline mask m_lowmask(mask a) { int i = m_low(a); return i < 0 ? m_zero() : m_bit(i); }

/* ---------------------------------------------------------------------------------------------
 * Geometry of a layout (T-5): per position the masks of its left/right neighbours, its covers
 * (every higher overlapping tile) and of the tiles it affects, and its layer.
 */
typedef struct {
    int n;
    mask left[MAXT], right[MAXT], cover[MAXT], affect[MAXT], above[MAXT], below[MAXT];
    int layer[MAXT];
} Geom;

static inline int freeness(const Geom *g, int j, mask p) {
    if (m_any(m_and(p, g->cover[j]))) return 0;
    return !m_any(m_and(p, g->left[j])) || !m_any(m_and(p, g->right[j]));
}

/* growable int vector */
typedef struct { int *d; int n, cap; } IVec;
static int iv_push(IVec *v, int x) {
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 16;
        int *d = (int *)realloc(v->d, (size_t)cap * sizeof(int));
        if (!d) return -1;
        v->d = d;
        v->cap = cap;
    }
    v->d[v->n++] = x;
    return 0;
}
static void iv_free(IVec *v) { free(v->d); v->d = NULL; v->n = v->cap = 0; }

/* =============================================================================================
 * The exact search (search.py)
 */
enum { DECISION = 0, PAIR = 1, TILE = 2, CLAUSE = 3, UNIT = 4 };
#define RESTART_UNIT 32
#define ACT_START ((int64_t)1 << 10)
#define ACT_LIMIT ((int64_t)1 << 40)
#define ACT_SHIFT 20

typedef struct {
    const Geom *g;
    int n, lift;
    int64_t budget, nodes;
    mask present, free, unc, dirty;
    int ok;
    int ngroups;
    mask *gmask;
    int gof[MAXT];
    mask gmt[MAXT];  /* each tile's group */
    int nv;
    int *va, *vb;
    int tvs[MAXT], tvn[MAXT];
    int *tvl;
    signed char *val;
    int *lev;
    unsigned char *rkind;
    int *rdata;
    int64_t *act, inc;
    int *trail;
    int ntrail, qhead;
    int *lim;
    int nlim;
    mask *sv_present, *sv_free;
    int *sv_nrem;
    int rem_a[MAXT], rem_b[MAXT];
    int nrem;
    int partner[MAXT], deg[MAXT], nf[MAXT];
    IVec *watches;
    IVec cl_start, cl_len, arena;
    /* scratch */
    unsigned char *seen;
    IVec bumped, learnt, confl, cand, best;
    int oom;
} Search;

#define LITVAL(s, l) ((l) & 1 ? -(s)->val[(l) >> 1] : (s)->val[(l) >> 1])
#define OTHER(s, w, j) ((s)->va[w] + (s)->vb[w] - (j))

static void s_assign(Search *s, int lit, int kind, int data) {
    int v = lit >> 1;
    s->val[v] = (lit & 1) ? -1 : 1;
    s->lev[v] = s->nlim;
    s->rkind[v] = (unsigned char)kind;
    s->rdata[v] = data;
    s->trail[s->ntrail++] = lit;
}

static void s_free(Search *s) {
    free(s->gmask); free(s->va); free(s->vb); free(s->tvl); free(s->val); free(s->lev);
    free(s->rkind); free(s->rdata); free(s->act); free(s->trail); free(s->lim);
    free(s->sv_present); free(s->sv_free); free(s->sv_nrem); free(s->seen);
    if (s->watches) {
        for (int i = 0; i < 2 * s->nv; i++) iv_free(&s->watches[i]);
        free(s->watches);
    }
    iv_free(&s->cl_start); iv_free(&s->cl_len); iv_free(&s->arena);
    iv_free(&s->bumped); iv_free(&s->learnt); iv_free(&s->confl); iv_free(&s->cand); iv_free(&s->best);
}

/* compat_masks of search.py: inc[i] = present tiles that can never pair with i */
static void compat_masks(const Geom *g, mask present, int lift, mask *inc) {
    int n = g->n;
    mask above[MAXT];
    int order[MAXT], k = 0;
    for (int i = 0; i < n; i++) above[i] = m_zero();
    /* sorted by descending layer, stable (ascending index within a layer) */
    int maxl = 0;
    for (int i = 0; i < n; i++) if (m_test(present, i) && g->layer[i] > maxl) maxl = g->layer[i];
    for (int z = maxl; z >= 0; z--)
        for (int i = 0; i < n; i++)
            if (m_test(present, i) && g->layer[i] == z) order[k++] = i;
    for (int o = 0; o < k; o++) {
        int i = order[o];
        mask acc = m_zero();
        mask c = m_and(g->cover[i], present);
        for (int x; (x = m_low(c)) >= 0; m_clr(&c, x)) acc = m_or(acc, m_or(m_bit(x), above[x]));
        above[i] = acc;
    }
    if (lift) {
        mask strict[MAXT];
        for (int i = 0; i < n; i++) strict[i] = m_zero();
        for (int i = 0; i < n; i++) {
            if (!m_test(present, i)) continue;
            mask acc = m_zero();
            mask c = m_and(g->cover[i], present);
            for (int x; (x = m_low(c)) >= 0; m_clr(&c, x)) acc = m_or(acc, above[x]);
            strict[i] = acc;
        }
        memcpy(above, strict, sizeof(mask) * (size_t)n);
    }
    for (int i = 0; i < n; i++) inc[i] = above[i];
    for (int i = 0; i < n; i++) {
        if (!m_test(present, i)) continue;
        mask a = above[i];
        for (int j; (j = m_low(a)) >= 0; m_clr(&a, j)) m_set(&inc[j], i);
    }
}

static int s_init(Search *s, const Geom *g, const int *cls, mask present, int lift, int64_t budget) {
    memset(s, 0, sizeof(*s));
    int n = g->n;
    s->g = g;
    s->n = n;
    s->lift = lift;
    s->budget = budget;
    s->present = present;
    s->free = m_zero();
    for (int i = 0; i < n; i++)
        if (m_test(present, i) && freeness(g, i, present)) m_set(&s->free, i);
    mask inc[MAXT];
    compat_masks(g, present, lift, inc);
    /* groups: present tiles by class, classes ascending, tiles ascending */
    int tiles[MAXT], nt = 0;
    for (int i = 0; i < n; i++) if (m_test(present, i)) tiles[nt++] = i;
    /* stable sort by class (insertion sort: at most 144 tiles) */
    for (int a = 1; a < nt; a++) {
        int t = tiles[a], b = a - 1;
        while (b >= 0 && cls[tiles[b]] > cls[t]) { tiles[b + 1] = tiles[b]; b--; }
        tiles[b + 1] = t;
    }
    s->ok = 1;
    s->gmask = (mask *)calloc((size_t)(nt + 1), sizeof(mask));
    int nvcap = 0;
    for (int a = 0; a < nt;) {
        int b = a;
        while (b < nt && cls[tiles[b]] == cls[tiles[a]]) b++;
        nvcap += (b - a) * (b - a - 1) / 2;
        a = b;
    }
    s->va = (int *)malloc(sizeof(int) * (size_t)(nvcap + 1));
    s->vb = (int *)malloc(sizeof(int) * (size_t)(nvcap + 1));
    s->tvl = (int *)malloc(sizeof(int) * (size_t)(2 * nvcap + 1));
    if (!s->gmask || !s->va || !s->vb || !s->tvl) return -1;
    for (int i = 0; i < n; i++) { s->gof[i] = -1; s->tvn[i] = 0; s->tvs[i] = 0; }
    /* first pass: the pairs, and each tile's count */
    int nv = 0;
    for (int a = 0; a < nt;) {
        int b = a;
        while (b < nt && cls[tiles[b]] == cls[tiles[a]]) b++;
        if ((b - a) % 2) s->ok = 0;
        int gi = s->ngroups++;
        for (int x = a; x < b; x++) { s->gof[tiles[x]] = gi; m_set(&s->gmask[gi], tiles[x]); }
        for (int x = a; x < b; x++)
            for (int y = x + 1; y < b; y++) {
                int ta = tiles[x], tb = tiles[y];
                if (!m_test(inc[ta], tb)) {
                    s->va[nv] = ta;
                    s->vb[nv] = tb;
                    s->tvn[ta]++;
                    s->tvn[tb]++;
                    nv++;
                }
            }
        a = b;
    }
    s->nv = nv;
    int off = 0;
    for (int i = 0; i < n; i++) { s->tvs[i] = off; off += s->tvn[i]; s->tvn[i] = 0; }
    for (int v = 0; v < nv; v++) {
        int ta = s->va[v], tb = s->vb[v];
        s->tvl[s->tvs[ta] + s->tvn[ta]++] = v;
        s->tvl[s->tvs[tb] + s->tvn[tb]++] = v;
    }
    for (int i = 0; i < n; i++) {
        s->gmt[i] = m_zero();
        if (!m_test(present, i)) continue;
        s->gmt[i] = s->gmask[s->gof[i]];
        if (s->tvn[i] == 0) s->ok = 0;
    }
    size_t nvs = (size_t)nv + 1;
    s->val = (signed char *)calloc(nvs, 1);
    s->lev = (int *)calloc(nvs, sizeof(int));
    s->rkind = (unsigned char *)calloc(nvs, 1);
    s->rdata = (int *)calloc(nvs, sizeof(int));
    s->act = (int64_t *)calloc(nvs, sizeof(int64_t));
    s->trail = (int *)malloc(sizeof(int) * nvs);
    s->lim = (int *)malloc(sizeof(int) * (nvs + 1));
    s->sv_present = (mask *)malloc(sizeof(mask) * (nvs + 1));
    s->sv_free = (mask *)malloc(sizeof(mask) * (nvs + 1));
    s->sv_nrem = (int *)malloc(sizeof(int) * (nvs + 1));
    s->seen = (unsigned char *)calloc(nvs, 1);
    s->watches = (IVec *)calloc(2 * nvs, sizeof(IVec));
    if (!s->val || !s->lev || !s->rkind || !s->rdata || !s->act || !s->trail || !s->lim ||
        !s->sv_present || !s->sv_free || !s->sv_nrem || !s->seen || !s->watches)
        return -1;
    s->inc = ACT_START;
    for (int i = 0; i < n; i++) { s->partner[i] = -1; s->deg[i] = s->tvn[i]; s->nf[i] = 0; }
    s->unc = present;
    s->dirty = m_zero();
    return 0;
}

/* unit propagation; returns 1 with s->confl filled on a conflict */
static int s_watched(Search *s, int fl);

static int s_propagate(Search *s) {
    while (s->qhead < s->ntrail) {
        int lit = s->trail[s->qhead++];
        int v = lit >> 1, a = s->va[v], b = s->vb[v];
        if (!(lit & 1)) {
            s->partner[a] = b;
            s->partner[b] = a;
            m_clr(&s->unc, a); m_clr(&s->unc, b);
            m_set(&s->dirty, a); m_set(&s->dirty, b);
            int ts[2] = {a, b};
            for (int k = 0; k < 2; k++) {
                int t = ts[k];
                for (int e = 0; e < s->tvn[t]; e++) {
                    int w = s->tvl[s->tvs[t] + e];
                    if (w == v) continue;
                    int x = s->val[w];
                    if (x == 1) {
                        s->confl.n = 0;
                        iv_push(&s->confl, 2 * v + 1);
                        iv_push(&s->confl, 2 * w + 1);
                        return 1;
                    }
                    if (x == 0) s_assign(s, 2 * w + 1, PAIR, v);
                }
            }
        } else {
            s->nf[a]++;
            s->nf[b]++;
            int ts[2] = {a, b};
            for (int k = 0; k < 2; k++) {
                int t = ts[k];
                if (s->nf[t] == s->deg[t]) {
                    s->confl.n = 0;
                    for (int e = 0; e < s->tvn[t]; e++) iv_push(&s->confl, 2 * s->tvl[s->tvs[t] + e]);
                    return 1;
                }
                if (s->nf[t] == s->deg[t] - 1) {
                    for (int e = 0; e < s->tvn[t]; e++) {
                        int w = s->tvl[s->tvs[t] + e];
                        if (s->val[w] != -1) {
                            if (s->val[w] == 0) s_assign(s, 2 * w, TILE, t);
                            break;
                        }
                    }
                }
            }
        }
        if (s_watched(s, lit ^ 1)) return 1;
    }
    return 0;
}

static int s_watched(Search *s, int fl) {
    IVec *ws = &s->watches[fl];
    int i = 0, j = 0, nws = ws->n;
    while (i < nws) {
        int ci = ws->d[i++];
        int *cl = s->arena.d + s->cl_start.d[ci];
        int len = s->cl_len.d[ci];
        if (cl[0] == fl) { cl[0] = cl[1]; cl[1] = fl; }
        if (LITVAL(s, cl[0]) == 1) { ws->d[j++] = ci; continue; }
        int found = 0;
        for (int k = 2; k < len; k++) {
            if (LITVAL(s, cl[k]) != -1) {
                cl[1] = cl[k];
                cl[k] = fl;
                if (iv_push(&s->watches[cl[1]], ci)) s->oom = 1;
                found = 1;
                break;
            }
        }
        if (found) continue;
        ws->d[j++] = ci;
        if (LITVAL(s, cl[0]) == -1) {
            while (i < nws) ws->d[j++] = ws->d[i++];
            ws->n = j;
            s->confl.n = 0;
            for (int k = 0; k < len; k++) iv_push(&s->confl, cl[k]);
            return 1;
        }
        s_assign(s, cl[0], CLAUSE, ci);
    }
    ws->n = j;
    return 0;
}

static int s_removable(Search *s, int t, int u) {
    int ft = m_test(s->free, t), fu = m_test(s->free, u);
    if (ft && fu) return 1;
    if (!s->lift || !(ft || fu)) return 0;
    if (!ft) { int x = t; t = u; u = x; }
    mask q = s->present;
    m_clr(&q, t);
    return freeness(s->g, u, q);
}

static mask s_remove(Search *s, int t, int u) {
    const Geom *g = s->g;
    mask rm = m_or(m_bit(t), m_bit(u));
    mask p = m_andnot(s->present, rm);
    s->present = p;
    mask touched = m_and(m_or(g->affect[t], g->affect[u]), p);
    mask fr = m_andnot(s->free, rm);
    mask m = touched;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        if (freeness(g, j, p)) m_set(&fr, j); else m_clr(&fr, j);
    }
    s->free = fr;
    s->rem_a[s->nrem] = t < u ? t : u;
    s->rem_b[s->nrem] = t < u ? u : t;
    s->nrem++;
    return touched;
}

static void s_greedy(Search *s) {
    mask d = m_and(s->dirty, s->present);
    s->dirty = m_zero();
    for (int j; (j = m_low(d)) >= 0;) {
        m_clr(&d, j);
        if (!m_test(s->present, j)) continue;
        int u = s->partner[j];
        if (u >= 0 && s_removable(s, j, u)) d = m_or(d, s_remove(s, j, u));
    }
}

static mask s_core(Search *s, int seed, mask R) {
    const Geom *g = s->g;
    mask S = m_zero(), todo = m_bit(seed);
    for (int j; (j = m_low(todo)) >= 0;) {
        m_clr(&todo, j);
        if (m_test(S, j)) continue;
        m_set(&S, j);
        mask c = m_and(g->cover[j], R);
        mask left = m_and(g->left[j], R), right = m_and(g->right[j], R);
        int lr = m_any(left) && m_any(right);
        if (s->lift && (m_any(c) || lr)) {
            todo = m_or(todo, c);
            if (lr) todo = m_or(todo, m_or(left, right));
        } else if (m_any(c)) {
            mask pick = m_and(c, S);
            if (!m_any(pick)) pick = c;
            todo = m_or(todo, m_lowmask(pick));
        } else if (lr) {
            mask pl = m_and(left, S), pr = m_and(right, S);
            if (!m_any(pl)) pl = left;
            if (!m_any(pr)) pr = right;
            todo = m_or(todo, m_or(m_lowmask(pl), m_lowmask(pr)));
        } else {
            for (int e = 0; e < s->tvn[j]; e++) {
                int w = s->tvl[s->tvs[j] + e];
                if (s->val[w] != -1) m_set(&todo, OTHER(s, w, j));
            }
        }
    }
    return S;
}

static void s_clause_of(Search *s, mask S, IVec *out) {
    out->n = 0;
    mask m = S;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        if (!freeness(s->g, j, S)) continue;
        mask q = S;
        if (s->lift) m_clr(&q, j);
        for (int e = 0; e < s->tvn[j]; e++) {
            int w = s->tvl[s->tvs[j] + e];
            int k = OTHER(s, w, j);
            if (!(m_test(S, k) && !freeness(s->g, k, q)) && s->lev[w] > 0) iv_push(out, 2 * w);
        }
    }
}

/* relaxed scan: 0 if it clears the board, else 1 with s->confl = the explanation */
static int s_relaxed(Search *s) {
    const Geom *g = s->g;
    mask p = s->present;
    mask work = m_and(s->free, p), wait = m_zero();
    for (int j; (j = m_low(work)) >= 0;) {
        m_clr(&work, j);
        if (!m_test(p, j)) continue;
        if (!freeness(g, j, p)) continue;
        mask q = p;
        if (s->lift) m_clr(&q, j);
        int ok = 0;
        for (int e = 0; e < s->tvn[j]; e++) {
            int w = s->tvl[s->tvs[j] + e];
            if (s->val[w] != -1) {
                int k = OTHER(s, w, j);
                if (!m_test(p, k) || freeness(g, k, q)) { ok = 1; break; }
            }
        }
        if (!ok) { m_set(&wait, j); continue; }
        m_clr(&p, j);
        mask touched = m_and(g->affect[j], p);
        work = m_or(work, touched);
        if (m_any(wait)) {
            mask grp = s->gmt[j];
            for (int x; (x = m_low(touched)) >= 0; m_clr(&touched, x)) grp = m_or(grp, s->gmt[x]);
            grp = m_and(grp, wait);
            work = m_or(work, grp);
            wait = m_andnot(wait, grp);
        }
    }
    if (!m_any(p)) return 0;
    /* explain: the shortest clause over the cores grown from each free tile of p */
    int have = 0;
    s->best.n = 0;
    mask m = p;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        if (!freeness(g, j, p)) continue;
        s_clause_of(s, s_core(s, j, p), &s->cand);
        if (!have || s->cand.n < s->best.n) {
            s->best.n = 0;
            for (int k = 0; k < s->cand.n; k++) iv_push(&s->best, s->cand.d[k]);
            have = 1;
        }
    }
    s->confl.n = 0;
    for (int k = 0; k < s->best.n; k++) iv_push(&s->confl, s->best.d[k]);
    return 1;
}

static void s_backtrack(Search *s, int level) {
    if (s->nlim <= level) return;
    int stop = s->lim[level];
    while (s->ntrail > stop) {
        int lit = s->trail[--s->ntrail];
        int v = lit >> 1;
        if (s->qhead > s->ntrail) {
            int a = s->va[v], b = s->vb[v];
            if (lit & 1) { s->nf[a]--; s->nf[b]--; }
            else {
                s->partner[a] = s->partner[b] = -1;
                m_set(&s->unc, a); m_set(&s->unc, b);
            }
        }
        s->val[v] = 0;
    }
    s->qhead = s->ntrail;
    s->present = s->sv_present[level];
    s->free = s->sv_free[level];
    s->nrem = s->sv_nrem[level];
    s->nlim = level;
    s->dirty = m_zero();
}

/* reason clause of v: pointer + length (into a scratch pair for PAIR) */
static const int *s_reason(Search *s, int v, int *len, int *buf2) {
    int kind = s->rkind[v];
    if (kind == PAIR) {
        buf2[0] = 2 * v + 1;
        buf2[1] = 2 * s->rdata[v] + 1;
        *len = 2;
        return buf2;
    }
    if (kind == TILE) {
        /* positive literals of the tile's pairs: built in the cand scratch */
        int t = s->rdata[v];
        s->cand.n = 0;
        for (int e = 0; e < s->tvn[t]; e++) iv_push(&s->cand, 2 * s->tvl[s->tvs[t] + e]);
        *len = s->cand.n;
        return s->cand.d;
    }
    int ci = s->rdata[v];
    *len = s->cl_len.d[ci];
    return s->arena.d + s->cl_start.d[ci];
}

/* first UIP; learnt in s->learnt, returns the backjump level */
static int s_analyze(Search *s) {
    int cur = s->nlim;
    s->bumped.n = 0;
    s->learnt.n = 0;
    iv_push(&s->learnt, 0);
    int count = 0, idx = s->ntrail - 1, p = 0;
    const int *lits = s->confl.d;
    int len = s->confl.n, buf2[2];
    for (;;) {
        for (int k = 0; k < len; k++) {
            int q = lits[k], v = q >> 1;
            if (s->seen[v] || s->lev[v] == 0) continue;
            s->seen[v] = 1;
            iv_push(&s->bumped, v);
            if (s->lev[v] == cur) count++;
            else iv_push(&s->learnt, q);
        }
        while (!s->seen[s->trail[idx] >> 1]) idx--;
        p = s->trail[idx];
        idx--;
        count--;
        if (count == 0) break;
        lits = s_reason(s, p >> 1, &len, buf2);
    }
    s->learnt.d[0] = p ^ 1;
    for (int k = 0; k < s->bumped.n; k++) {
        int v = s->bumped.d[k];
        s->act[v] += s->inc;
        s->seen[v] = 0;
    }
    s->inc += s->inc >> 3;
    if (s->inc > ACT_LIMIT) {
        for (int v = 0; v < s->nv; v++) s->act[v] >>= ACT_SHIFT;
        s->inc >>= ACT_SHIFT;
    }
    if (s->learnt.n == 1) return 0;
    int *l = s->learnt.d, bi = 1;
    for (int k = 2; k < s->learnt.n; k++)
        if (s->lev[l[k] >> 1] > s->lev[l[bi] >> 1]) bi = k;
    int x = l[1]; l[1] = l[bi]; l[bi] = x;
    return s->lev[l[1] >> 1];
}

/* returns 0 to go on, 1 unsat, 2 budget */
static int s_conflict(Search *s) {
    s->nodes++;
    if (s->nodes > s->budget) return 2;
    int top = 0;
    for (int k = 0; k < s->confl.n; k++) {
        int l = s->lev[s->confl.d[k] >> 1];
        if (l > top) top = l;
    }
    if (top == 0) return 1;
    s_backtrack(s, top);
    int back = s_analyze(s);
    s_backtrack(s, back);
    if (s->learnt.n == 1) {
        s_assign(s, s->learnt.d[0], UNIT, 0);
        return 0;
    }
    int ci = s->cl_start.n;
    if (iv_push(&s->cl_start, s->arena.n) || iv_push(&s->cl_len, s->learnt.n)) { s->oom = 1; return 0; }
    for (int k = 0; k < s->learnt.n; k++)
        if (iv_push(&s->arena, s->learnt.d[k])) { s->oom = 1; return 0; }
    if (iv_push(&s->watches[s->learnt.d[0]], ci) || iv_push(&s->watches[s->learnt.d[1]], ci)) s->oom = 1;
    s_assign(s, s->learnt.d[0], CLAUSE, ci);
    return 0;
}

static int s_gain(Search *s, int t, int u) {
    const Geom *g = s->g;
    mask p = s->present;
    m_clr(&p, t); m_clr(&p, u);
    mask m = m_andnot(m_and(m_or(g->affect[t], g->affect[u]), p), s->free);
    int n = 0;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) n += freeness(g, j, p);
    return n;
}

static int s_safe_pair(Search *s) {
    mask m = m_and(s->free, s->unc);
    for (int t; (t = m_low(m)) >= 0; m_clr(&m, t)) {
        if (m_any(m_andnot(m_and(s->gmask[s->gof[t]], s->unc), s->free))) continue;
        for (int e = 0; e < s->tvn[t]; e++) {
            int w = s->tvl[s->tvs[t] + e];
            if (s->val[w] == 0) return w;
        }
    }
    return -1;
}

static int s_choose(Search *s) {
    int best = -1, bgain = -1;
    int64_t bact = 0;
    int bopts = 0;
    mask m = m_and(s->free, s->unc);
    int prog[MAXT];
    for (int t; (t = m_low(m)) >= 0; m_clr(&m, t)) {
        int np = 0, rest = 0;
        mask q = s->present;
        m_clr(&q, t);
        for (int e = 0; e < s->tvn[t]; e++) {
            int w = s->tvl[s->tvs[t] + e];
            if (s->val[w] == 0) {
                int k = OTHER(s, w, t);
                if (m_test(s->free, k) || (s->lift && freeness(s->g, k, q))) prog[np++] = w;
                else rest = 1;
            }
        }
        int opts = np + rest;
        for (int e = 0; e < np; e++) {
            int w = prog[e];
            /* key = (act, -opts), compared lexicographically */
            int cmp = 0;
            if (best >= 0) {
                if (s->act[w] != bact) cmp = s->act[w] > bact ? 1 : -1;
                else if (opts != bopts) cmp = opts < bopts ? 1 : -1;
                if (cmp < 0) continue;
            }
            int gn = s_gain(s, t, OTHER(s, w, t));
            if (best < 0 || cmp > 0 || gn > bgain) { best = w; bact = s->act[w]; bopts = opts; bgain = gn; }
        }
    }
    if (best < 0)
        for (int v = 0; v < s->nv; v++) if (s->val[v] == 0) { best = v; break; }
    return best;
}

static int64_t luby(int64_t i) {
    int k = 1;
    while (((int64_t)1 << k) - 1 < i) k++;
    for (;;) {
        if (i == ((int64_t)1 << k) - 1) return (int64_t)1 << (k - 1);
        i -= ((int64_t)1 << (k - 1)) - 1;
        k = 1;
        while (((int64_t)1 << k) - 1 < i) k++;
    }
}

/* 1 solvable (plan in rem_a/rem_b), 0 unsolvable, -1 budget, -2 out of memory */
static int s_run(Search *s) {
    if (!s->ok) return 0;
    for (int t = 0; t < s->n; t++)
        if (m_test(s->present, t) && s->deg[t] == 1 && s->val[s->tvl[s->tvs[t]]] == 0)
            s_assign(s, 2 * s->tvl[s->tvs[t]], TILE, t);
    int64_t restarts = 1, limit = luby(restarts) * RESTART_UNIT, since = 0;
    for (;;) {
        if (s->oom) return -2;
        int confl = s_propagate(s);
        if (!confl) {
            s_greedy(s);
            if (!m_any(s->present)) return 1;
            confl = s_relaxed(s);
        }
        if (confl) {
            int r = s_conflict(s);
            if (r == 1) return 0;
            if (r == 2) return -1;
            since++;
            continue;
        }
        if (since >= limit && s->nlim) {
            s_backtrack(s, 0);
            restarts++;
            limit = luby(restarts) * RESTART_UNIT;
            since = 0;
            continue;
        }
        int w = s_safe_pair(s);
        if (w < 0) {
            s->nodes++;
            if (s->nodes > s->budget) return -1;
            w = s_choose(s);
        }
        s->lim[s->nlim] = s->ntrail;
        s->sv_present[s->nlim] = s->present;
        s->sv_free[s->nlim] = s->free;
        s->sv_nrem[s->nlim] = s->nrem;
        s->nlim++;
        s_assign(s, 2 * w, DECISION, 0);
    }
}

/* =============================================================================================
 * The version-1 trap probe (solver_v1.py under T-6, one depth-first pass: budgets below the
 * first restart, as the level generator uses it).
 */
#define V1_RESTART_UNIT 64

typedef struct {
    const Geom *g;
    int n;
    int64_t nodes, limit;
    mask present, free, unc;
    int partner[MAXT], cls[MAXT];
    mask part[MAXT], forb[MAXT], inc[MAXT];
    /* groups in first-appearance order (the Python dict's order) and in class order */
    int ngroups;
    int gcls[MAXT];
    mask gm[MAXT];
    int gidx_of_cls_first[MAXT];
    /* pair ids: per tile its group (class order), its position in the group */
    int pgroup[MAXT], ppos[MAXT];
    int gbase[MAXT], gsize[MAXT];
    mask gmask_sorted[MAXT];
    int nsorted;
    int npid, W;
    uint64_t *ckey, *fkey;
    /* trail */
    int *tr_type, *tr_t, *tr_u;
    mask *tr_free;
    int *tr_done_start, *tr_done_n;
    IVec done;  /* pairs (x, y) of forbid records */
    int ntr, trcap;
    /* failed-state table: open addressing over keys of K words */
    int K;
    uint64_t *keys;
    int64_t *slots;
    int64_t nkeys, cap;
    uint64_t *keybuf;
    int oom;
} V1;

static int v1_pid(V1 *s, int x, int y) {
    int g = s->pgroup[x], sz = s->gsize[g];
    int i = s->ppos[x], j = s->ppos[y];
    if (i > j) { int t = i; i = j; j = t; }
    return s->gbase[g] + i * (2 * sz - i - 1) / 2 + (j - i - 1);
}
static inline void kx(uint64_t *k, int b) { k[b >> 6] ^= (uint64_t)1 << (b & 63); }
static inline int kt(const uint64_t *k, int b) { return (int)((k[b >> 6] >> (b & 63)) & 1); }

static int v1_tr_grow(V1 *s) {
    if (s->ntr < s->trcap) return 0;
    int cap = s->trcap ? 2 * s->trcap : 256;
    int *a = realloc(s->tr_type, sizeof(int) * (size_t)cap); if (!a) return -1; s->tr_type = a;
    a = realloc(s->tr_t, sizeof(int) * (size_t)cap); if (!a) return -1; s->tr_t = a;
    a = realloc(s->tr_u, sizeof(int) * (size_t)cap); if (!a) return -1; s->tr_u = a;
    a = realloc(s->tr_done_start, sizeof(int) * (size_t)cap); if (!a) return -1; s->tr_done_start = a;
    a = realloc(s->tr_done_n, sizeof(int) * (size_t)cap); if (!a) return -1; s->tr_done_n = a;
    mask *f = realloc(s->tr_free, sizeof(mask) * (size_t)cap); if (!f) return -1; s->tr_free = f;
    s->trcap = cap;
    return 0;
}

static void v1_commit(V1 *s, int t, int u) {
    s->partner[t] = u;
    s->partner[u] = t;
    m_clr(&s->unc, t); m_clr(&s->unc, u);
    kx(s->ckey, v1_pid(s, t, u));
    if (v1_tr_grow(s)) { s->oom = 1; return; }
    s->tr_type[s->ntr] = 0; s->tr_t[s->ntr] = t; s->tr_u[s->ntr] = u; s->ntr++;
}

static mask v1_remove(V1 *s, int t, int u) {
    const Geom *g = s->g;
    if (v1_tr_grow(s)) { s->oom = 1; return m_zero(); }
    s->tr_type[s->ntr] = 1; s->tr_t[s->ntr] = t; s->tr_u[s->ntr] = u; s->tr_free[s->ntr] = s->free; s->ntr++;
    mask rm = m_or(m_bit(t), m_bit(u));
    mask p = m_andnot(s->present, rm);
    s->present = p;
    kx(s->ckey, v1_pid(s, t, u));
    mask touched = m_and(m_or(g->affect[t], g->affect[u]), p);
    mask fr = m_andnot(s->free, rm);
    mask m = touched;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        if (freeness(g, j, p)) m_set(&fr, j); else m_clr(&fr, j);
    }
    s->free = fr;
    return touched;
}

static void v1_undo(V1 *s, int mark) {
    while (s->ntr > mark) {
        int r = --s->ntr;
        if (s->tr_type[r] == 2) {
            for (int k = 0; k < s->tr_done_n[r]; k++) {
                int x = s->done.d[s->tr_done_start[r] + 2 * k], y = s->done.d[s->tr_done_start[r] + 2 * k + 1];
                kx(s->fkey, v1_pid(s, x, y));
                m_clr(&s->forb[x], y);
                m_clr(&s->forb[y], x);
            }
            s->done.n = s->tr_done_start[r];
            continue;
        }
        int t = s->tr_t[r], u = s->tr_u[r];
        kx(s->ckey, v1_pid(s, t, u));
        if (s->tr_type[r] == 0) {
            s->partner[t] = s->partner[u] = -1;
            m_set(&s->unc, t); m_set(&s->unc, u);
        } else {
            m_set(&s->present, t); m_set(&s->present, u);
            s->free = s->tr_free[r];
        }
    }
}

static mask v1_gmask(V1 *s, int t) { return s->gm[s->gidx_of_cls_first[t]]; }

static int v1_auto_commit(V1 *s, int gi) {
    mask m = m_and(s->gm[gi], s->unc);
    if (m_any(m) && m_pop(m) == 2) {
        int x = m_low(m), y = m_high(m);
        if (m_test(s->inc[x], y)) return 0;
        v1_commit(s, x, y);
    }
    return 1;
}

static int v1_propagate(V1 *s, mask dirty) {
    for (int j; (j = m_low(dirty)) >= 0;) {
        m_clr(&dirty, j);
        if (!m_test(s->present, j)) continue;
        int u = s->partner[j];
        if (u >= 0) {
            if (m_test(s->free, j) && m_test(s->free, u)) dirty = m_or(dirty, v1_remove(s, j, u));
        } else if (m_test(s->free, j)) {
            mask g = m_and(v1_gmask(s, j), s->unc);
            if (!m_any(m_andnot(g, s->free))) {
                int ts[MAXT], k = 0;
                for (int x; (x = m_low(g)) >= 0; m_clr(&g, x)) ts[k++] = x;
                if (k % 2) return 0;
                for (int i = 0; i < k; i += 2) {
                    v1_commit(s, ts[i], ts[i + 1]);
                    dirty = m_or(dirty, v1_remove(s, ts[i], ts[i + 1]));
                }
            }
        }
    }
    return 1;
}

/* _relaxed6 of solver_v1.py */
static int v1_relaxed(V1 *s) {
    const Geom *g = s->g;
    mask p = s->present, unc = s->unc;
    mask F = m_and(s->free, p), work = F, wait = m_zero();
    for (int j; (j = m_low(work)) >= 0;) {
        m_clr(&work, j);
        if (!m_test(p, j)) continue;
        mask gg, cand;
        int u = s->partner[j];
        if (m_test(F, j)) {
            if (u >= 0) { gg = cand = m_bit(u); }
            else { gg = v1_gmask(s, j); cand = m_andnot(m_and(s->part[j], unc), s->forb[j]); }
        } else {
            if (!freeness(g, j, p)) continue;
            m_set(&F, j);
            if (u >= 0) { gg = cand = m_bit(u); }
            else { gg = v1_gmask(s, j); cand = m_andnot(m_and(s->part[j], unc), s->forb[j]); }
            work = m_or(work, m_and(m_and(gg, wait), p));
        }
        mask notp = {{~p.w[0], ~p.w[1], ~p.w[2]}};
        if (m_any(m_and(cand, m_or(F, notp)))) {  /* cand & (F | ~p) */
            m_clr(&p, j);
            work = m_or(work, m_and(m_or(g->affect[j], m_and(gg, wait)), p));
        } else {
            m_set(&wait, j);
        }
    }
    return !m_any(p);
}

static mask v1_options(V1 *s, int t) {
    mask others = m_and(v1_gmask(s, t), s->unc);
    m_clr(&others, t);
    mask cand = m_andnot(m_and(others, s->part[t]), s->forb[t]);
    if (m_any(cand) && m_pop(others) == 3) {
        mask m = cand;
        for (int b; (b = m_low(m)) >= 0; m_clr(&m, b)) {
            mask rest = others;
            m_clr(&rest, b);
            int x = m_low(rest), y = m_high(rest);
            if (m_test(s->forb[x], y) || m_test(s->inc[x], y)) m_clr(&cand, b);
        }
    }
    return cand;
}

static int v1_gain(V1 *s, int t, int u) {
    const Geom *g = s->g;
    mask p = s->present;
    m_clr(&p, t); m_clr(&p, u);
    mask m = m_andnot(m_and(m_or(g->affect[t], g->affect[u]), p), s->free);
    int n = 0;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) n += freeness(g, j, p);
    return n;
}

static void v1_forbid(V1 *s, int t, const int *us, int nu) {
    int start = s->done.n, cnt = 0;
    for (int k = 0; k < nu; k++) {
        int x = t, y = us[k];
        int b = v1_pid(s, x, y);
        if (!kt(s->fkey, b)) {
            kx(s->fkey, b);
            m_set(&s->forb[x], y);
            m_set(&s->forb[y], x);
            iv_push(&s->done, x);
            iv_push(&s->done, y);
            cnt++;
        }
    }
    if (cnt) {
        if (v1_tr_grow(s)) { s->oom = 1; return; }
        s->tr_type[s->ntr] = 2; s->tr_done_start[s->ntr] = start; s->tr_done_n[s->ntr] = cnt; s->ntr++;
    }
}

static uint64_t v1_hash(const uint64_t *k, int K) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < K; i++) {
        h ^= k[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

/* membership (add = 0) or insertion (add = 1) */
static int v1_table(V1 *s, const uint64_t *key, int add) {
    if (add && 2 * (s->nkeys + 1) > s->cap) {
        int64_t cap = s->cap ? 2 * s->cap : 256;
        int64_t *slots = malloc(sizeof(int64_t) * (size_t)cap);
        uint64_t *keys = realloc(s->keys, sizeof(uint64_t) * (size_t)(cap / 2) * (size_t)s->K);
        if (!slots || !keys) { free(slots); if (keys) s->keys = keys; s->oom = 1; return 0; }
        s->keys = keys;
        for (int64_t i = 0; i < cap; i++) slots[i] = -1;
        for (int64_t e = 0; e < s->nkeys; e++) {
            uint64_t h = v1_hash(s->keys + e * s->K, s->K) & (uint64_t)(cap - 1);
            while (slots[h] >= 0) h = (h + 1) & (uint64_t)(cap - 1);
            slots[h] = e;
        }
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    if (!s->cap) return 0;
    uint64_t h = v1_hash(key, s->K) & (uint64_t)(s->cap - 1);
    while (s->slots[h] >= 0) {
        if (!memcmp(s->keys + s->slots[h] * s->K, key, sizeof(uint64_t) * (size_t)s->K)) return 1;
        h = (h + 1) & (uint64_t)(s->cap - 1);
    }
    if (add) {
        memcpy(s->keys + s->nkeys * s->K, key, sizeof(uint64_t) * (size_t)s->K);
        s->slots[h] = s->nkeys++;
    }
    return 0;
}

/* the failed-state key: present, commitments, forbidden pairs of groups with undecided tiles */
static void v1_key(V1 *s, uint64_t *key) {
    for (int i = 0; i < NW; i++) key[i] = s->present.w[i];
    for (int i = 0; i < s->W; i++) { key[NW + i] = s->ckey[i]; key[NW + s->W + i] = 0; }
    for (int gi = 0; gi < s->nsorted; gi++) {
        if (s->gsize[gi] <= 2 || !m_any(m_and(s->gmask_sorted[gi], s->unc))) continue;
        int cnt = s->gsize[gi] * (s->gsize[gi] - 1) / 2;
        for (int b = s->gbase[gi]; b < s->gbase[gi] + cnt; b++)
            if (kt(s->fkey, b)) key[NW + s->W + (b >> 6)] |= (uint64_t)1 << (b & 63);
    }
}

/* 1 found, 0 failed, -1 budget */
static int v1_dfs(V1 *s, mask dirty) {
    int mark = s->ntr;
    if (!v1_propagate(s, dirty)) { v1_undo(s, mark); return 0; }
    if (!m_any(s->present)) return 1;
    uint64_t *key = s->keybuf;
    v1_key(s, key);
    if (v1_table(s, key, 0)) { v1_undo(s, mark); return 0; }
    mask cand = m_and(s->free, s->unc);
    int best_t = -1, best_rest = 0, dead = 0;
    mask best_prog = m_zero();
    int best_score = 1 << 30;
    for (int t; (t = m_low(cand)) >= 0;) {
        m_clr(&cand, t);
        mask opts = v1_options(s, t);
        if (!m_any(opts)) { dead = 1; break; }
        if (m_pop(opts) == 1) { best_t = t; best_prog = opts; best_rest = 0; best_score = 0; break; }
        mask prog = m_and(opts, s->free);
        if (!m_any(prog)) continue;
        int rest = !m_eq(opts, prog);
        int score = m_pop(prog) + rest;
        if (score < best_score) { best_t = t; best_prog = prog; best_rest = rest; best_score = score; }
    }
    if (dead || best_t < 0 || (best_score > 1 && !v1_relaxed(s))) {
        v1_table(s, key, 1);
        v1_undo(s, mark);
        return 0;
    }
    int t = best_t;
    int us[MAXT], gains[MAXT], hs[MAXT], nu = 0;
    for (int u; (u = m_low(best_prog)) >= 0; m_clr(&best_prog, u)) us[nu++] = u;
    if (nu > 1) {
        for (int k = 0; k < nu; k++) {
            gains[k] = v1_gain(s, t, us[k]);
            hs[k] = (int)((((uint64_t)(us[k] + 1) * 2246822519ULL) ^ 0) & 4095);
        }
        /* stable insertion sort by (-gain, hash) */
        for (int a = 1; a < nu; a++) {
            int u = us[a], gn = gains[a], h = hs[a], b = a - 1;
            while (b >= 0 && (gains[b] < gn || (gains[b] == gn && hs[b] > h))) {
                us[b + 1] = us[b]; gains[b + 1] = gains[b]; hs[b + 1] = hs[b]; b--;
            }
            us[b + 1] = u; gains[b + 1] = gn; hs[b + 1] = h;
        }
    }
    int gi = s->gidx_of_cls_first[t];
    for (int k = 0; k < nu; k++) {
        int u = us[k];
        s->nodes++;
        if (s->nodes > s->limit) return -1;
        int m2 = s->ntr;
        v1_commit(s, t, u);
        if (v1_auto_commit(s, gi)) {
            mask d = m_or(m_or(m_bit(t), m_bit(u)), m_and(s->gm[gi], s->present));
            int r = v1_dfs(s, d);
            if (r) return r;
        }
        v1_undo(s, m2);
    }
    if (best_rest) {
        s->nodes++;
        if (s->nodes > s->limit) return -1;
        int m2 = s->ntr;
        v1_forbid(s, t, us, nu);
        int r = v1_dfs(s, m_and(s->gm[gi], s->present));
        if (r) return r;
        v1_undo(s, m2);
    }
    /* the children used keybuf; the state is back to this node's: its key again */
    v1_key(s, key);
    v1_table(s, key, 1);
    v1_undo(s, mark);
    return 0;
}

static void v1_free(V1 *s) {
    free(s->ckey); free(s->fkey); free(s->tr_type); free(s->tr_t); free(s->tr_u); free(s->tr_free);
    free(s->tr_done_start); free(s->tr_done_n); iv_free(&s->done); free(s->keys); free(s->slots);
    free(s->keybuf);
}

/* 1 solvable, 0 unsolvable, -1 undecided, -2 out of memory */
static int v1_run(V1 *s, const Geom *g, const int *cls, mask present, int64_t budget) {
    memset(s, 0, sizeof(*s));
    int n = g->n;
    s->g = g;
    s->n = n;
    s->present = present;
    s->unc = present;
    s->free = m_zero();
    for (int i = 0; i < n; i++) if (m_test(present, i) && freeness(g, i, present)) m_set(&s->free, i);
    for (int i = 0; i < n; i++) { s->partner[i] = -1; s->cls[i] = cls[i]; }
    /* groups in first-appearance order */
    for (int i = 0; i < n; i++) {
        if (!m_test(present, i)) continue;
        int gi = -1;
        for (int k = 0; k < s->ngroups; k++) if (s->gcls[k] == cls[i]) { gi = k; break; }
        if (gi < 0) { gi = s->ngroups++; s->gcls[gi] = cls[i]; s->gm[gi] = m_zero(); }
        m_set(&s->gm[gi], i);
        s->gidx_of_cls_first[i] = gi;
    }
    /* pair ids: groups in class order, tiles ascending, pairs (x < y) in order */
    int order[MAXT];
    for (int k = 0; k < s->ngroups; k++) order[k] = k;
    for (int a = 1; a < s->ngroups; a++) {
        int x = order[a], b = a - 1;
        while (b >= 0 && s->gcls[order[b]] > s->gcls[x]) { order[b + 1] = order[b]; b--; }
        order[b + 1] = x;
    }
    int pid = 0;
    s->nsorted = s->ngroups;
    for (int k = 0; k < s->ngroups; k++) {
        mask m = s->gm[order[k]];
        s->gmask_sorted[k] = m;
        s->gbase[k] = pid;
        int sz = 0;
        for (int x; (x = m_low(m)) >= 0; m_clr(&m, x)) { s->pgroup[x] = k; s->ppos[x] = sz++; }
        s->gsize[k] = sz;
        pid += sz * (sz - 1) / 2;
    }
    s->npid = pid;
    s->W = (pid + 63) / 64 + 1;
    s->ckey = calloc((size_t)s->W, sizeof(uint64_t));
    s->fkey = calloc((size_t)s->W, sizeof(uint64_t));
    s->K = NW + 2 * s->W;
    s->keybuf = calloc((size_t)s->K, sizeof(uint64_t));
    if (!s->ckey || !s->fkey || !s->keybuf) return -2;
    for (int i = 0; i < n; i++) {
        s->inc[i] = m_zero(); s->part[i] = m_zero(); s->forb[i] = m_zero();
        if (!m_test(present, i)) continue;
        s->inc[i] = m_or(g->above[i], g->below[i]);
    }
    for (int i = 0; i < n; i++) {
        if (!m_test(present, i)) continue;
        mask p = v1_gmask(s, i);
        m_clr(&p, i);
        s->part[i] = m_andnot(p, s->inc[i]);
    }
    for (int k = 0; k < s->ngroups; k++) if (m_pop(s->gm[k]) % 2) return 0;
    for (int k = 0; k < s->ngroups; k++) if (!v1_auto_commit(s, k)) return 0;
    if (!v1_relaxed(s)) return 0;
    s->limit = budget < V1_RESTART_UNIT ? budget : V1_RESTART_UNIT;
    int r = v1_dfs(s, s->present);
    if (s->oom) return -2;
    if (r < 0) return -1;
    return r;
}

/* =============================================================================================
 * Python bindings
 */
static int to_mask(PyObject *obj, mask *out) {
    PyObject *x = PyNumber_Index(obj);
    if (!x) return -1;
    for (int i = 0; i < NW; i++) {
        out->w[i] = PyLong_AsUnsignedLongLongMask(x);
        if (PyErr_Occurred()) { Py_DECREF(x); return -1; }
        PyObject *sh = PyLong_FromLong(64);
        PyObject *y = PyNumber_Rshift(x, sh);
        Py_DECREF(sh);
        Py_DECREF(x);
        if (!y) return -1;
        x = y;
    }
    int rest = PyObject_IsTrue(x);
    Py_DECREF(x);
    if (rest) { PyErr_SetString(PyExc_ValueError, "tile set wider than 192 bits"); return -1; }
    return 0;
}

static const char *GEOM = "rivals.engine._core.Geometry";

static void geom_free(PyObject *cap) { free(PyCapsule_GetPointer(cap, GEOM)); }

static int mask_list(PyObject *seq, int n, mask *out) {
    PyObject *f = PySequence_Fast(seq, "expected a sequence of masks");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "wrong length"); return -1; }
    for (int i = 0; i < n; i++)
        if (to_mask(PySequence_Fast_GET_ITEM(f, i), &out[i])) { Py_DECREF(f); return -1; }
    Py_DECREF(f);
    return 0;
}

/* geometry(left, right, cover, affect, above, below, layer) -> capsule */
static PyObject *py_geometry(PyObject *self, PyObject *args) {
    PyObject *L, *R, *C, *A, *AB, *BE, *Z;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &L, &R, &C, &A, &AB, &BE, &Z)) return NULL;
    Py_ssize_t n = PySequence_Size(Z);
    if (n < 0) return NULL;
    if (n > 144) { PyErr_SetString(PyExc_ValueError, "at most 144 positions"); return NULL; }
    Geom *g = (Geom *)calloc(1, sizeof(Geom));
    if (!g) return PyErr_NoMemory();
    g->n = (int)n;
    if (mask_list(L, g->n, g->left) || mask_list(R, g->n, g->right) || mask_list(C, g->n, g->cover) ||
        mask_list(A, g->n, g->affect) || mask_list(AB, g->n, g->above) || mask_list(BE, g->n, g->below)) {
        free(g);
        return NULL;
    }
    for (int i = 0; i < g->n; i++) {
        PyObject *z = PySequence_GetItem(Z, i);
        if (!z) { free(g); return NULL; }
        g->layer[i] = (int)PyLong_AsLong(z);
        Py_DECREF(z);
        if (PyErr_Occurred()) { free(g); return NULL; }
    }
    PyObject *cap = PyCapsule_New(g, GEOM, geom_free);
    if (!cap) free(g);
    return cap;
}

static int parse_common(PyObject *gcap, PyObject *clsobj, PyObject *pobj, const Geom **g, int *cls, mask *present) {
    *g = (const Geom *)PyCapsule_GetPointer(gcap, GEOM);
    if (!*g) return -1;
    PyObject *f = PySequence_Fast(clsobj, "cls must be a sequence");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != (*g)->n) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "cls length"); return -1; }
    for (int i = 0; i < (*g)->n; i++) {
        cls[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    if (to_mask(pobj, present)) return -1;
    for (int i = (*g)->n; i < MAXT; i++)
        if (m_test(*present, i)) { PyErr_SetString(PyExc_ValueError, "tile outside the layout"); return -1; }
    for (int i = 0; i < (*g)->n; i++)
        if (m_test(*present, i) && cls[i] < 0) { PyErr_SetString(PyExc_ValueError, "a present tile has no face"); return -1; }
    return 0;
}

/* search(geometry, cls, present, lift, budget) -> (solvable: True/False/None, plan, nodes) */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *gcap, *clsobj, *pobj;
    int lift;
    long long budget;
    if (!PyArg_ParseTuple(args, "OOOpL", &gcap, &clsobj, &pobj, &lift, &budget)) return NULL;
    const Geom *g;
    int cls[MAXT];
    mask present;
    if (parse_common(gcap, clsobj, pobj, &g, cls, &present)) return NULL;
    Search *s = (Search *)malloc(sizeof(Search));
    if (!s) return PyErr_NoMemory();
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = s_init(s, g, cls, present, lift, budget < 0 ? ((int64_t)1 << 62) : (int64_t)budget);
    if (r == 0) r = s_run(s);
    else r = -2;
    Py_END_ALLOW_THREADS
    PyObject *res = NULL;
    if (r == -2) {
        PyErr_NoMemory();
    } else {
        PyObject *plan = PyList_New(r == 1 ? s->nrem : 0);
        if (plan) {
            if (r == 1)
                for (int k = 0; k < s->nrem; k++)
                    PyList_SET_ITEM(plan, k, Py_BuildValue("(ii)", s->rem_a[k], s->rem_b[k]));
            PyObject *verdict = r == 1 ? Py_True : r == 0 ? Py_False : Py_None;
            res = Py_BuildValue("(ONL)", verdict, plan, (long long)s->nodes);
        }
    }
    s_free(s);
    free(s);
    return res;
}

/* trap_probe(geometry, cls, present, budget) -> (solvable: True/False/None, nodes); T-6 only */
static PyObject *py_trap_probe(PyObject *self, PyObject *args) {
    PyObject *gcap, *clsobj, *pobj;
    long long budget;
    if (!PyArg_ParseTuple(args, "OOOL", &gcap, &clsobj, &pobj, &budget)) return NULL;
    if (budget < 0 || budget > V1_RESTART_UNIT) {
        PyErr_SetString(PyExc_ValueError, "the trap probe runs budgets up to the first restart (64)");
        return NULL;
    }
    const Geom *g;
    int cls[MAXT];
    mask present;
    if (parse_common(gcap, clsobj, pobj, &g, cls, &present)) return NULL;
    V1 *s = (V1 *)malloc(sizeof(V1));
    if (!s) return PyErr_NoMemory();
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = v1_run(s, g, cls, present, (int64_t)budget);
    Py_END_ALLOW_THREADS
    long long nodes = (long long)s->nodes;
    v1_free(s);
    free(s);
    if (r == -2) return PyErr_NoMemory();
    PyObject *verdict = r == 1 ? Py_True : r == 0 ? Py_False : Py_None;
    return Py_BuildValue("(OL)", verdict, nodes);
}

static PyMethodDef methods[] = {
    {"geometry", py_geometry, METH_VARARGS, "geometry(left, right, cover, affect, above, below, layer)"},
    {"search", py_search, METH_VARARGS, "search(geometry, cls, present, lift, budget) -> (solvable, plan, nodes)"},
    {"trap_probe", py_trap_probe, METH_VARARGS, "trap_probe(geometry, cls, present, budget) -> (solvable, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "The engine's compiled core.", -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
