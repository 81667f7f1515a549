/* The engine's compiled core, rivals.engine._core: Python bindings of the exact search
 * (search.c, mirroring search.py) and of the version-1 trap probe (trap_probe.c, mirroring
 * solver_v1.py). Both give the same verdicts, plans and node counts as their references
 * (tests/engine/test_core_equivalence.py). The GIL is released while they run. And the replays
 * the fair-play analysis asks for (replay.c): the same answers as the engine's Python
 * (tests/fairplay/test_analysis_core.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "search.h"
#include "trap_probe.h"
#include "replay.h"

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
    r = search_init(s, g, cls, present, lift, budget < 0 ? ((int64_t)1 << 62) : (int64_t)budget);
    if (r == 0) r = search_run(s);
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
    search_free(s);
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

/* removable_pairs(geometry, cls, present, lift) -> sorted [(a, b)] (Board.removable_pairs) */
#define RP_CAP 4096
static PyObject *py_removable_pairs(PyObject *self, PyObject *args) {
    PyObject *gcap, *clsobj, *pobj;
    int lift;
    if (!PyArg_ParseTuple(args, "OOOp", &gcap, &clsobj, &pobj, &lift)) return NULL;
    const Geom *g;
    int cls[MAXT];
    mask present;
    if (parse_common(gcap, clsobj, pobj, &g, cls, &present)) return NULL;
    int *pa = (int *)malloc(sizeof(int) * 2 * RP_CAP);
    if (!pa) return PyErr_NoMemory();
    int k = rp_removable(g, cls, present, lift, pa, pa + RP_CAP, RP_CAP);
    if (k == -2) { free(pa); return PyErr_NoMemory(); }
    if (k < 0) { free(pa); PyErr_SetString(PyExc_ValueError, "too many removable pairs"); return NULL; }
    PyObject *out = PyList_New(k);
    if (out)
        for (int i = 0; i < k; i++) {
            PyObject *t = Py_BuildValue("(ii)", pa[i], pa[RP_CAP + i]);
            if (!t) { Py_DECREF(out); out = NULL; break; }
            PyList_SET_ITEM(out, i, t);
        }
    free(pa);
    return out;
}

/* The pair (a, b) and a sequence of pairs of tiles of the layout into xs/ys (at most MAXT): 0, or -1
 * with a ValueError (a tile outside the layout, too many pairs) or TypeError set. */
static int parse_pairs(const Geom *g, PyObject *seq, int a, int b, const char *not_pairs, const char *too_many,
                       int *xs, int *ys, int *count) {
    if (a < 0 || a >= g->n || b < 0 || b >= g->n) { PyErr_SetString(PyExc_ValueError, "tile outside the layout"); return -1; }
    PyObject *f = PySequence_Fast(seq, not_pairs);
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > MAXT) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, too_many); return -1; }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, k), "ii", &xs[k], &ys[k])) { Py_DECREF(f); return -1; }
        if (xs[k] < 0 || xs[k] >= g->n || ys[k] < 0 || ys[k] >= g->n) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "tile outside the layout");
            return -1;
        }
    }
    Py_DECREF(f);
    *count = (int)n;
    return 0;
}

/* plan_repair(geometry, present, lift, plan, a, b) -> 0, 1 or 2 (replay.h) */
static PyObject *py_plan_repair(PyObject *self, PyObject *args) {
    PyObject *gcap, *pobj, *plan;
    int lift, a, b;
    if (!PyArg_ParseTuple(args, "OOpOii", &gcap, &pobj, &lift, &plan, &a, &b)) return NULL;
    const Geom *g = (const Geom *)PyCapsule_GetPointer(gcap, GEOM);
    if (!g) return NULL;
    mask present;
    if (to_mask(pobj, &present)) return NULL;
    int xs[MAXT], ys[MAXT], n;
    if (parse_pairs(g, plan, a, b, "plan must be a sequence of pairs", "plan too long", xs, ys, &n)) return NULL;
    return PyLong_FromLong(rp_repair(g, present, lift, xs, ys, n, a, b));
}

/* matching_empties(geometry, cls, present, lift, pairs, a, b) -> bool (replay.h) */
static PyObject *py_matching_empties(PyObject *self, PyObject *args) {
    PyObject *gcap, *clsobj, *pobj, *pairs;
    int lift, a, b;
    if (!PyArg_ParseTuple(args, "OOOpOii", &gcap, &clsobj, &pobj, &lift, &pairs, &a, &b)) return NULL;
    const Geom *g;
    int cls[MAXT];
    mask present;
    if (parse_common(gcap, clsobj, pobj, &g, cls, &present)) return NULL;
    int xs[MAXT], ys[MAXT], n;
    if (parse_pairs(g, pairs, a, b, "pairs must be a sequence of pairs", "too many pairs", xs, ys, &n)) return NULL;
    return PyBool_FromLong(rp_matching_empties(g, cls, present, lift, xs, ys, n, a, b));
}

static PyMethodDef methods[] = {
    {"geometry", py_geometry, METH_VARARGS, "geometry(left, right, cover, affect, above, below, layer)"},
    {"search", py_search, METH_VARARGS, "search(geometry, cls, present, lift, budget) -> (solvable, plan, nodes)"},
    {"trap_probe", py_trap_probe, METH_VARARGS, "trap_probe(geometry, cls, present, budget) -> (solvable, nodes)"},
    {"removable_pairs", py_removable_pairs, METH_VARARGS, "removable_pairs(geometry, cls, present, lift) -> [(a, b)]"},
    {"plan_repair", py_plan_repair, METH_VARARGS,
     "plan_repair(geometry, present, lift, plan, a, b) -> 0 none, 1 the swap, 2 another order"},
    {"matching_empties", py_matching_empties, METH_VARARGS,
     "matching_empties(geometry, cls, present, lift, pairs, a, b) -> whether the pairs, mended, empty the board"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "The engine's compiled core.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
