/* core/view-system.h — the system a problem integrates: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_system(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_SYSTEM_H
#define SLPI_CORE_VIEW_SYSTEM_H

#include <stdint.h>
#include "slpi/registry-ids.h"
#include "core/problem-options.h"
#include "slpi/limits.h"
#include "core/algebra-type.h"
#include "core/system-list.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The system, its parameters by system (one member a built-in system, named by its line of
 * core/system-list.h; each system's type in its header core/system-<name>.h) and the
 * initial condition. */
typedef struct slpi_system_view {
    slpi_system_id system;
    char preset[64]; /* docs/experiments.md case name, "" if none */

#define SLPI_SYSTEM_MEMBER(ID, stem, params, member) params member;
    SLPI_SYSTEM_LIST(SLPI_SYSTEM_MEMBER)
#undef SLPI_SYSTEM_MEMBER

    /* initial condition: explicit values (n_x0 > 0), a file, or the system default */
    int n_x0;
    double x0[SLPI_MAX_X0];
    char x0_file[SLPI_PATH_MAX];
} slpi_system_view;

/* p's system view: owned by p, valid while p lives and unchanged. */
const slpi_system_view *slpi_view_system(const slpi_problem *p);
/* p's system view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_system_view *slpi_view_system_edit(slpi_problem *p);

#endif
