/* ensemble-lanes.h — the lock-step route of the handle API's ensembles (api/ensemble.c):
 * a block of paths advanced together in the SIMD lanes of fast/ensemble.c, each path's rows
 * bit for bit those slpi_stepper_advance writes for it. Not part of slpi.h. */
#ifndef SLPI_ENSEMBLE_LANES_H
#define SLPI_ENSEMBLE_LANES_H

#include <stdint.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_plan slpi_plan;

typedef struct slpi_ens_lanes slpi_ens_lanes; /* one per thread */

/* The route for the plan's problem q on the fast path: *out NULL and *why the reason when
 * no lane kernel integrates q bit-identically to the general path (the caller then steps
 * each path alone); the lanes' run objects are made from the plan (its model parsed once).
 * SLPI_EINPUT (err set) out of memory. */
int slpi_ens_lanes_new(slpi_ens_lanes **out, const slpi_plan *plan, long every, const char **why, slpi_error *err);
void slpi_ens_lanes_free(slpi_ens_lanes *L);

/* The kernel of the canonical noise drawn across the lanes (core/noise.h's SLPI_NOISE_*;
 * default BEST): the same bits with any (tests/api/t-ensemble-lanes.c runs PORTABLE too). */
void slpi_ens_lanes_set_noise_isa(slpi_ens_lanes *L, int isa);

/* What a block's row is handed to: row `row` of the n lanes (paths in order), lane l's
 * values (the state, then the diagnostics) at val + l nq. */
typedef void (*slpi_ens_row_fn)(void *ctx, long row, int n, const double *val);

/* The n <= SLPI_ENSEMBLE_BLOCK paths on noise paths path0 .. path0 + n - 1 (or the given
 * x0[n][dim] and dW[n][steps][M], NULL: the problem's), every saved row handed to fn in
 * row order. Returns 0, or 1 when a path cannot be run here (a step failed, an initial
 * state or an increment is refused, an interrupt is pending): the rows handed so far are
 * then void, and the general path, run on the same paths, fails too and words the reason. */
int slpi_ens_lanes_run(slpi_ens_lanes *L, uint64_t path0, int n, const double *x0, const double *dW, slpi_ens_row_fn fn,
                       void *ctx);
/* The increments clipped and the steps capped (on_cap=accept) by the runs since the last
 * call (or slpi_ens_lanes_new), into *clipped and *capped; the counts start again at 0. */
void slpi_ens_lanes_take_counts(slpi_ens_lanes *L, long *clipped, long *capped);

#endif
