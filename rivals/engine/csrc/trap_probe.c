/* The version-1 trap probe: see trap_probe.h. */
#include "trap_probe.h"


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
    s->free = free_after(g, p, s->free, rm, touched);
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

static int v1_gain(V1 *s, int t, int u) { return freed_by(s->g, s->present, s->free, t, u); }

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

void v1_free(V1 *s) {
    free(s->ckey); free(s->fkey); free(s->tr_type); free(s->tr_t); free(s->tr_u); free(s->tr_free);
    free(s->tr_done_start); free(s->tr_done_n); iv_free(&s->done); free(s->keys); free(s->slots);
    free(s->keybuf);
}

int v1_run(V1 *s, const Geom *g, const int *cls, mask present, int64_t budget) {
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
