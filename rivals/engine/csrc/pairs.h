/* The removable-pair listing (T-6 / T-6a) of board.py's ``removable_pairs_py``, in the compiled
 * core: the same pairs in the same order. */
#ifndef RIVALS_PAIRS_H
#define RIVALS_PAIRS_H
#include "core.h"

/* partners[a] = the tiles b > a with (a, b) removable; returns how many pairs there are */
int removable_pairs_masks(const Geom *g, const int *cls, mask present, int lift, mask *partners);

#endif
