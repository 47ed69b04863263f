/* props/outcome.c — what the property checks share to judge a result: max norms, ball
 * containment, an UNABLE outcome, a check run on the case's problem on the heap, the
 * control case and the "moves too fast" guard. The
 * bottom of props/: the property files use it, it calls none of them. */
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem.h"
#include "core/slpi-flint.h"
#include "props/props.h"

int slpi_props_balls_contain(arb_srcptr x, const double *v, int n, double *excess)
{
    int all = 1;
    *excess = 0;
    arb_t t;
    arb_init(t);
    for (int i = 0; i < n; i++) {
        arb_set_d(t, v[i]);
        if (arb_contains(x + i, t)) continue;
        all = 0;
        double mid = arf_get_d(arb_midref(x + i), ARF_RND_NEAR), rad = mag_get_d(arb_radref(x + i));
        *excess = fmax(*excess, fabs(v[i] - mid) - rad);
    }
    arb_clear(t);
    return all;
}

void slpi_props_outcome_unable(slpi_props_outcome *o, const char *why)
{
    o->holds = -1;
    snprintf(o->msg, sizeof o->msg, "%s", why);
}

void slpi_props_check_with(const slpi_props_case *c, int use_ref, slpi_props_outcome *o, slpi_props_body body)
{
    slpi_problem *p;
    slpi_error err;
    if (slpi_props_problem_new(&p, c, &err)) {
        slpi_props_outcome_unable(o, err.msg);
        return;
    }
    body(c, p, use_ref, o);
    slpi_problem_free(p);
}

void slpi_props_control_case(slpi_props_case *c)
{
    if (c->h < 0.25) c->h = 0.25;
    c->mag = fmin(fmax(c->mag, 0.5), 2.0);
    c->inertia = 3;
    c->state = 0; /* near an equilibrium even TRAP-DIRECT keeps Casimirs to rounding */
    if (c->amp < 0.5) c->amp = 0.5;
    if (c->steps < 2) c->steps = 2;
    if ((c->system == SLPI_SYS_POINT_VORTICES || c->system == SLPI_SYS_EULER_ZEITLIN) && c->dim < 3) c->dim = 3;
    c->noises = slpi_props_noise_count(c);
}

int slpi_props_too_fast(const slpi_props_case *c, const double *x0, const double *x, int d, slpi_props_outcome *o)
{
    if (!(slpi_vec_maxdiff(x, x0, d) > 0.5 * c->steps * slpi_vec_maxabs(x0, d))) return 0;
    slpi_props_outcome_unable(
        o, "the state moves by more than half its size per step: the implicit solve need not be unique");
    return 1;
}
