/* The version-1 trap probe: solver_v1.py's search under T-6 in one depth-first pass (budgets up
 * to the first restart, as the level generator uses it). Mirrors it statement for statement. */
#ifndef RIVALS_TRAP_PROBE_H
#define RIVALS_TRAP_PROBE_H
#include "core.h"

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

/* 1 solvable, 0 unsolvable, -1 undecided, -2 out of memory; nodes in s->nodes */
int v1_run(V1 *s, const Geom *g, const int *cls, mask present, int64_t budget);
void v1_free(V1 *s);

#endif
