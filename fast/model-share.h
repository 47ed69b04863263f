/* fast/model-share.h — the nodes of a model's tape on the double path, built from core's
 * parsed Hamiltonians (fast/model-share.c: identical subtrees shared, a product that
 * repeats a factor made a product of powers; docs/models.md#speed). fast/model-tape.c
 * builds its tapes on it. */
#ifndef SLPI_FAST_MODEL_SHARE_H
#define SLPI_FAST_MODEL_SHARE_H

#include "fast/model-tape.h"

/* t's nodes, dep, tdep, owner and roots (nroot = nk, root[j] H_ks[j]'s value) for the
 * Hamiltonians ks[0..nk) of m, in an evaluation order. On error (SLPI_EINPUT, out of
 * memory) what was allocated is t's, for slpi_fast_tapes_clear. */
int slpi_fast_tape_share(slpi_fast_tape *t, const slpi_model *m, const int *ks, int nk, slpi_error *err);

#endif
