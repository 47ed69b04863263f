/* problem.c — the problem model's defaults: the papers' parameters of each system and form
 * (docs/systems.md, docs/experiments.md: each system's in its descriptor,
 * core/system-<name>.c) and each scheme's solver defaults, set by slpi_problem_init and
 * reset by the keys system, scheme and form (core/problem-keys.c).
 * The other concerns of a problem each have a file of their own: its keys (the one key
 * table, parsing, presets, writing: core/problem-keys.c), validation and finishing
 * (core/problem-validate.c), the consistency rule of stochastic Lie-Euler
 * (core/lie-euler.c), its shape (state layout, noises, truncation: core/problem-shape.c)
 * and its initial state (core/initial-state.c). */
#include <string.h>

#include "slpi/registry-ids.h"
#include "slpi/problem-build.h"
#include "core/problem-struct.h"
#include "core/problem.h"
#include "core/system.h"

void slpi_problem_form_defaults(slpi_problem *p, int form)
{
    slpi_system_get(p->sys.system)->form_defaults(p, form);
}

void slpi_problem_system_defaults(slpi_problem *p)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (d) d->defaults(p);
}

/* docs/schemes.md#solver, docs/schemes.md#svi solver defaults. */
void slpi_problem_scheme_defaults(slpi_problem *p)
{
    p->sol.on_cap = SLPI_CAP_FAIL;
    p->sol.fixed_iters = 0;
    p->sol.tol = 1e-15;
    /* ISOMP on Euler-Zeitlin (its descriptor's isomp_warm_start) starts each solve from the
     * previous step's correction on top of the Euler predictor (docs/schemes.md#solver:
     * never more iterations in the measured runs, half of them on a weakly noisy one, one
     * fewer without noise); sine-Euler's TMK solves to its descriptor's tmk_tol */
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    p->sch.warm_start = p->sch.scheme == SLPI_SCHEME_ISOMP && d && d->isomp_warm_start;
    switch (p->sch.scheme) {
    case SLPI_SCHEME_TMK:
        p->sol.maxit = 50;
        if (d && d->tmk_tol > 0) p->sol.tol = d->tmk_tol;
        break;
    case SLPI_SCHEME_IM_DIRECT:
    case SLPI_SCHEME_TRAP_DIRECT:
    case SLPI_SCHEME_ISOMP:
        p->sol.maxit = 100;
        break;
    case SLPI_SCHEME_SVI:
        p->sol.maxit = 200;
        break;
    default:
        p->sol.maxit = 1; /* explicit schemes: no solver */
        break;
    }
}

void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k)
{
    memset(p, 0, sizeof *p);
    p->sys.system = s;
    p->sch.scheme = k;
    p->grid.T = 0.0;
    p->grid.level = -1;
    p->grid.output_every = 1;
    p->noise.seed = 1;
    p->noise.path = 0;
    p->noise.truncate = SLPI_TRUNC_AUTO;
    p->noise.trunc_ell = 2.0;
    p->sch.isomp_update = SLPI_ISO_UPDATE_COMM;
    p->sch.svi_c = 0.25;
    p->sch.svi_form = SLPI_SVI_FORM_AUTO;
    p->sch.svi_output = SLPI_SVI_OUT_ROTATION;
    p->sch.dexp_order = 0;
    p->sol.solver = SLPI_SOLVER_FIXED_POINT;
    p->cert.prec = 128;
    p->cert.prec_max = 1024;
    p->cert.ref_lohner = SLPI_PROPAGATION_AUTO;
    slpi_problem_system_defaults(p);
    slpi_problem_scheme_defaults(p);
}
