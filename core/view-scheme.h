/* core/view-scheme.h — the scheme and its per-scheme switches: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_scheme(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_SCHEME_H
#define SLPI_CORE_VIEW_SCHEME_H

#include "slpi/registry-ids.h"
#include "core/problem-options.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The scheme (docs/schemes.md) and its switches. */
typedef struct slpi_scheme_view {
    slpi_scheme_id scheme;
    slpi_isomp_update isomp_update;
    int reproject;
    double svi_c; /* +0.25 (true Cayley) or -0.25 (as printed) */
    slpi_svi_form svi_form;
    slpi_svi_output svi_output;
    int dexp_order; /* q of the truncated dexp^{-1} (RKMK) */
    int warm_start; /* ISOMP: 1 starts from the previous step's correction, 2 extrapolates two */
    slpi_predictor
        predictor; /* ISOMP's cold start: Euler predictor (default), X_n, or the Cayley congruence at the Euler predictor */
} slpi_scheme_view;

/* p's scheme view: owned by p, valid while p lives and unchanged. */
const slpi_scheme_view *slpi_view_scheme(const slpi_problem *p);
/* p's scheme view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_scheme_view *slpi_view_scheme_edit(slpi_problem *p);

#endif
