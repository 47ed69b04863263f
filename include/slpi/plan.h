/* slpi/plan.h — a finished problem compiled once, immutable and reference-counted
 * (part of slpi.h). */
#ifndef SLPI_PUBLIC_PLAN_H
#define SLPI_PUBLIC_PLAN_H

#include "slpi/errors.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------- plans */

/* A plan: a finished problem compiled once (docs/design.md#opaque-problem), immutable and
 * reference-counted. It holds the validated keys (the noise configuration among them, its
 * files bound), a model's parsed Hamiltonians (system=model, parsed once here: both paths
 * created from the plan share them) and the output grid's shape. slpi_problem_plan
 * finishes p as slpi_problem_finish does (p is finished after it) and compiles it; later
 * changes to p do not reach the plan, which outlives p.
 * Owns: *out is the caller's, released by slpi_plan_unref.
 * Thread: safe: a plan is never changed; any threads may read one and take or drop
 * references at once. */
typedef struct slpi_plan slpi_plan;
int slpi_problem_plan(slpi_plan **out, slpi_problem *p, slpi_error *err);
/* One more reference to plan (returned); each is dropped by one slpi_plan_unref, the last
 * frees it. Thread: safe: the count is atomic. */
const slpi_plan *slpi_plan_ref(const slpi_plan *plan);
/* NULL: plan (nothing done). Thread: safe: the count is atomic. */
void slpi_plan_unref(const slpi_plan *plan);
/* The plan's finished problem (owned by the plan). */
const slpi_problem *slpi_plan_problem(const slpi_plan *plan);
/* slpi_problem_shape's numbers, fixed when the plan was made.
 * NULL: dim, noises, steps, rows, h, every (not asked). */
void slpi_plan_shape(const slpi_plan *plan, int *dim, int *noises, long *steps, long *rows, double *h, int *every);

#ifdef __cplusplus
}
#endif
#endif
