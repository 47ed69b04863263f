/* core/view-solver.h — the implicit solver's policy: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_solver(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_SOLVER_H
#define SLPI_CORE_VIEW_SOLVER_H

#include "core/problem-options.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The solver policy (docs/schemes.md#solver). */
typedef struct slpi_solver_view {
    double tol; /* 0 = the scheme's default */
    int maxit;  /* 0 = the scheme's default */
    slpi_cap_policy on_cap;
    int fixed_iters; /* > 0: exactly this many iterations, then ACCEPT */
    slpi_solver_kind solver;
    slpi_tol_scale tol_scale; /* what tol is relative to (docs/schemes.md#solver) */
} slpi_solver_view;

/* p's solver view: owned by p, valid while p lives and unchanged. */
const slpi_solver_view *slpi_view_solver(const slpi_problem *p);
/* p's solver view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_solver_view *slpi_view_solver_edit(slpi_problem *p);

#endif
