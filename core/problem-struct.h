/* core/problem-struct.h — the members of a problem (slpi_problem, opaque in slpi.h:
 * docs/design.md#opaque-problem), grouped by concern into the views of core/view-*.h
 * (docs/design.md#views). The library reads them here; a file outside core/ reads the
 * views it needs (core/view.c's accessors), and tests/repo/t-architecture.sh counts the
 * files outside core/ that still see this header: the count may only go down. Not
 * installed. */
#ifndef SLPI_CORE_PROBLEM_STRUCT_H
#define SLPI_CORE_PROBLEM_STRUCT_H

#include "core/view-system.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-cert.h"

struct slpi_problem {
    slpi_system_view sys;  /* the system, its parameters, the initial condition */
    slpi_scheme_view sch;  /* the scheme and its switches */
    slpi_solver_view sol;  /* the solver policy */
    slpi_grid_view grid;   /* the time grid and the output rows */
    slpi_noise_view noise; /* the canonical noise */
    slpi_cert_view cert;   /* the certified path */

    /* 1 after slpi_problem_set changed the time grid of a problem with T or level in
     * force, until slpi_problem_finish resolves it: slpi_fast_create and slpi_ref_create
     * refuse the problem then */
    int unfinished;
};

#endif
