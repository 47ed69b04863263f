/* core/view.c — a problem's read-only views by concern (core/view-*.h,
 * docs/design.md#views): the only way a file outside core/ reads a problem's members. */
#include "core/problem-struct.h"

const slpi_system_view *slpi_view_system(const slpi_problem *p)
{
    return &p->sys;
}

const slpi_scheme_view *slpi_view_scheme(const slpi_problem *p)
{
    return &p->sch;
}

const slpi_solver_view *slpi_view_solver(const slpi_problem *p)
{
    return &p->sol;
}

const slpi_grid_view *slpi_view_grid(const slpi_problem *p)
{
    return &p->grid;
}

const slpi_noise_view *slpi_view_noise(const slpi_problem *p)
{
    return &p->noise;
}

const slpi_cert_view *slpi_view_cert(const slpi_problem *p)
{
    return &p->cert;
}
