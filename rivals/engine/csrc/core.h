/* Shared by the compiled core's sources: 192-bit tile masks, a layout's geometry, int vectors.
 * Tile sets are three 64-bit words; layouts have at most 144 positions. */
#ifndef RIVALS_CORE_H
#define RIVALS_CORE_H
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

/* the free tiles after the tiles `rm` left the board (p: the board without them): only the
 * tiles they touched can change */
static inline mask free_after(const Geom *g, mask p, mask free, mask rm, mask touched) {
    mask fr = m_andnot(free, rm);
    for (int j; (j = m_low(touched)) >= 0; m_clr(&touched, j)) {
        if (freeness(g, j, p)) m_set(&fr, j); else m_clr(&fr, j);
    }
    return fr;
}

/* how many tiles removing t and u frees (move ordering) */
static inline int freed_by(const Geom *g, mask present, mask free, int t, int u) {
    mask p = present;
    m_clr(&p, t); m_clr(&p, u);
    mask m = m_andnot(m_and(m_or(g->affect[t], g->affect[u]), p), free);
    int n = 0;
    for (int j; (j = m_low(m)) >= 0; m_clr(&m, j)) n += freeness(g, j, p);
    return n;
}

/* growable int vector */
typedef struct { int *d; int n, cap; } IVec;
static inline int iv_push(IVec *v, int x) {
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
static inline void iv_free(IVec *v) { free(v->d); v->d = NULL; v->n = v->cap = 0; }


#endif
