/* core/view.c — a problem's views by concern (core/view-*.h, docs/design.md#views): the
 * only way a file outside core/ reads a problem's members (slpi_view_<concern>), or
 * changes those of a problem it is building (slpi_view_<concern>_edit). */
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

slpi_system_view *slpi_view_system_edit(slpi_problem *p)
{
    return &p->sys;
}

slpi_scheme_view *slpi_view_scheme_edit(slpi_problem *p)
{
    return &p->sch;
}

slpi_solver_view *slpi_view_solver_edit(slpi_problem *p)
{
    return &p->sol;
}

slpi_grid_view *slpi_view_grid_edit(slpi_problem *p)
{
    return &p->grid;
}

slpi_noise_view *slpi_view_noise_edit(slpi_problem *p)
{
    return &p->noise;
}

slpi_cert_view *slpi_view_cert_edit(slpi_problem *p)
{
    return &p->cert;
}
