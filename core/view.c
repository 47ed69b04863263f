/* core/view.c — a problem's views by concern (core/view-*.h, docs/design.md#views): the
 * only way a file outside core/ reads a problem's members (slpi_view_<concern>), or
 * changes those of a problem it is building (slpi_view_<concern>_edit). */
#include "core/problem-struct.h"

/* A concern's two accessors: its view to read, and to change while the problem is built. */
#define VIEW_ACCESSORS(concern, type, member)                                                                          \
    const type *slpi_view_##concern(const slpi_problem *p)                                                             \
    {                                                                                                                  \
        return &p->member;                                                                                             \
    }                                                                                                                  \
    type *slpi_view_##concern##_edit(slpi_problem *p)                                                                  \
    {                                                                                                                  \
        return &p->member;                                                                                             \
    }

VIEW_ACCESSORS(system, slpi_system_view, sys)
VIEW_ACCESSORS(scheme, slpi_scheme_view, sch)
VIEW_ACCESSORS(solver, slpi_solver_view, sol)
VIEW_ACCESSORS(grid, slpi_grid_view, grid)
VIEW_ACCESSORS(noise, slpi_noise_view, noise)
VIEW_ACCESSORS(cert, slpi_cert_view, cert)
