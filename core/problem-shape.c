/* problem-shape.c — the derived shape of a problem, which both paths, the files and the
 * ports read: the state layout (doubles of a state and their names), the number of noises
 * and whether the truncation rule of docs/noise.md#truncation applies; each system's part is
 * its descriptor's (core/system.h). */
#include <stdio.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "core/problem-struct.h"
#include "core/system.h"
#include "core/expr.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-shape.h"

int slpi_problem_state_dim(const slpi_problem *p)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    return d ? d->state_dim(p) : 0;
}

int slpi_problem_noise_count(const slpi_problem *p)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    return d ? d->noise_count(p) : 0;
}

int slpi_problem_truncates(const slpi_problem *p)
{
    if (p->noise.truncate != SLPI_TRUNC_AUTO) return p->noise.truncate == SLPI_TRUNC_ON;
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    return d && d->truncates(p) && p->grid.h < 1.0;
}

void slpi_problem_state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (d)
        d->state_name(p, i, buf, n);
    else
        snprintf(buf, n, "x%d", i + 1);
}

int slpi_problem_state_algebra(slpi_algebra *a, const slpi_problem *p)
{
    char text[64];
    slpi_error e;
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (!d || !d->layout_algebra(p, text, sizeof text)) return 0;
    if (slpi_algebra_parse(a, "algebra", text, &e) != SLPI_OK || a->dim != slpi_problem_state_dim(p)) return 0;
    for (int i = 0; i < a->dim; i++) { /* the names must be the layout's, one for one */
        char x[64], y[64];
        slpi_algebra_coord_name(a, i, x, sizeof x);
        slpi_problem_state_name(p, i, y, sizeof y);
        if (strcmp(x, y)) return 0;
    }
    return 1;
}
