/* The exact search: see search.h. Memory is taken once per call (search_init); the loop itself
 * does not allocate, except that the learned-clause arena and the watch lists grow by doubling. */
#include "search.h"

static void s_assign(Search *s, int lit, int kind, int data) {
    int v = lit >> 1;
    s->val[v] = (lit & 1) ? -1 : 1;
    s->lev[v] = s->nlim;
    s->rkind[v] = (unsigned char)kind;
    s->rdata[v] = data;
    s->trail[s->ntrail++] = lit;
}

void search_free(Search *s) {
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

int search_init(Search *s, const Geom *g, const int *cls, mask present, int lift, int64_t budget) {
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
    s->free = free_after(g, p, s->free, rm, touched);
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

/* stops once `limit` literals are found (such a clause would not be kept) */
static void s_clause_of(Search *s, mask S, IVec *out, int limit) {
    out->n = 0;
    mask m = S;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        if (!freeness(s->g, j, S)) continue;
        mask q = S;
        if (s->lift) m_clr(&q, j);
        for (int e = 0; e < s->tvn[j]; e++) {
            int w = s->tvl[s->tvs[j] + e];
            int k = OTHER(s, w, j);
            if (!(m_test(S, k) && !freeness(s->g, k, q)) && s->lev[w] > 0) {
                iv_push(out, 2 * w);
                if (out->n >= limit) return;
            }
        }
    }
}

/* relaxed scan: 0 if it clears the board, else 1 with s->confl = the explanation */
static int s_relaxed(Search *s) {
    const Geom *g = s->g;
    mask p = s->present;
    mask F = m_and(s->free, p);  /* the free tiles of p, kept exact as tiles go */
    mask work = F, wait = m_zero();
    for (int j; (j = m_low(work)) >= 0;) {
        m_clr(&work, j);
        if (!m_test(F, j)) continue;  /* gone, or blocked */
        int ok = 0;
        for (int e = 0; e < s->tvn[j]; e++) {
            int w = s->tvl[s->tvs[j] + e];
            if (s->val[w] != -1) {
                int k = OTHER(s, w, j);
                if (!m_test(p, k) || m_test(F, k)) { ok = 1; break; }
                if (s->lift && m_test(g->affect[j], k)) {  /* T-6a: free once j is lifted */
                    mask q = p;
                    m_clr(&q, j);
                    if (freeness(g, k, q)) { ok = 1; break; }
                }
            }
        }
        if (!ok) { m_set(&wait, j); continue; }
        m_clr(&p, j);
        m_clr(&F, j);
        mask touched = m_and(g->affect[j], p);
        F = free_after(g, p, F, m_zero(), touched);
        work = m_or(work, m_and(touched, F));
        if (m_any(wait)) {
            mask grp = s->gmt[j];
            mask tt = touched;
            for (int x; (x = m_low(tt)) >= 0; m_clr(&tt, x)) grp = m_or(grp, s->gmt[x]);
            grp = m_and(grp, wait);
            work = m_or(work, grp);
            wait = m_andnot(wait, grp);
        }
    }
    if (!m_any(p)) return 0;
    /* explain: the shortest clause over the cores grown from each free tile of p */
    int have = 0;
    s->best.n = 0;
    mask m = F;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) {
        s_clause_of(s, s_core(s, j, p), &s->cand, have ? s->best.n : (1 << 30));
        if (!have || s->cand.n < s->best.n) {
            s->best.n = 0;
            for (int k = 0; k < s->cand.n; k++) iv_push(&s->best, s->cand.d[k]);
            have = 1;
            if (s->best.n == 0) break;  /* nothing is shorter */
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

static int s_gain(Search *s, int t, int u) { return freed_by(s->g, s->present, s->free, t, u); }

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

int search_run(Search *s) {
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
