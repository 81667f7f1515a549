/* The exact search (search.py / theory.py): CDCL over pair variables with a relaxed-scan
 * theory. Mirrors the Python reference statement for statement. */
#ifndef RIVALS_SEARCH_H
#define RIVALS_SEARCH_H
#include "core.h"

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

/* 0 on success, -1 out of memory */
int search_init(Search *s, const Geom *g, const int *cls, mask present, int lift, int64_t budget);
/* 1 solvable (plan in rem_a/rem_b, nrem pairs), 0 unsolvable, -1 budget, -2 out of memory */
int search_run(Search *s);
void search_free(Search *s);

#endif
