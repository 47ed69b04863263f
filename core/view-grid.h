/* core/view-grid.h — the time grid and the output rows: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_grid(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_GRID_H
#define SLPI_CORE_VIEW_GRID_H

#include "slpi/limits.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The time grid and the output rows (docs/design.md#views). */
typedef struct slpi_grid_view {
    /* time grid: h and steps. Set either (h, steps), (h, T) or (T, level): then
     * slpi_problem_finish gives h = T 2^-level and steps = T / h, never rounded. */
    double h;
    long steps;
    double T;                    /* 0: not given */
    int level;                   /* -1: not given */
    int output_every;            /* write every k-th step (1 = all) */
    char save_at[SLPI_PATH_MAX]; /* key save_at: "t1,t2,...", rows at these times on the step
                                    grid instead of every output_every-th step ("": none) */
} slpi_grid_view;

/* p's grid view: owned by p, valid while p lives and unchanged. */
const slpi_grid_view *slpi_view_grid(const slpi_problem *p);
/* p's grid view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_grid_view *slpi_view_grid_edit(slpi_problem *p);

#endif
