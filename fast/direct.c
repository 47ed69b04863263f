/* direct.c — the baselines IM-DIRECT and TRAP-DIRECT applied to the LP equation
 * (docs/schemes.md#direct; RKMK §5 and §6), with V(mu) = sum_k Delta_k ad*_{xi_k(mu)} mu:
 *   IM:   mu_{n+1} = mu_n + V((mu_n + mu_{n+1})/2),
 *   TRAP: mu_{n+1} = mu_n + (V(mu_n) + V(mu_{n+1}))/2,
 * solved by fixed-point iteration from mu_n under the policy of docs/schemes.md#solver. */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/check.h"
#include "fast/fast.h"
#include "fast/solver.h"
#include "fast/vector-field.h"

typedef struct {
    int trap;
    double *mu, *mnew, *arg, *xi, *v, *vn, *tmp;
} direct_work;

static int direct_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const char *name = slpi_scheme_name(slpi_view_scheme(p)->scheme);
    if (SLPI_NEVER(!s->coad)) /* slpi_problem_validate refused it before (applicability) */
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s is not applicable to %s in this form "
                              "(docs/systems.md#applicability)",
                              name, s->name);
    if (slpi_view_solver(p)->solver != SLPI_SOLVER_FIXED_POINT)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: the double path solves by fixed-point "
                              "iteration only (solver=fixed-point)",
                              name);
    return SLPI_OK;
}

static int direct_init(slpi_fast *f, slpi_error *err)
{
    int d = f->sys.dim;
    double *buf = slpi_fast_work_new(f, sizeof(direct_work), 7 * (size_t)d, err);
    if (!buf) return err->code;
    direct_work *w = f->work;
    w->trap = slpi_view_scheme(f->p)->scheme == SLPI_SCHEME_TRAP_DIRECT;
    w->mu = buf;
    w->mnew = buf + d;
    w->arg = buf + 2 * d;
    w->xi = buf + 3 * d;
    w->v = buf + 4 * d;
    w->vn = buf + 5 * d;
    w->tmp = buf + 6 * d;
    return SLPI_OK;
}

/* out = V(mu) = ad*_{sum delta_k xi_k(mu)} mu */
static void field(const slpi_fast_system *s, const double *delta, const double *mu, double *out, direct_work *w)
{
    slpi_fast_gen_sum(s, w->xi, w->tmp, delta, mu);
    s->coad(s, out, w->xi, mu);
}

static slpi_step_status direct_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    direct_work *w = f->work;
    int d = s->dim;
    memcpy(w->mu, x, sizeof *x * (size_t)d);
    if (w->trap) { /* TRAP: V(mu_n) at t_n, V(mu_{n+1}) at t_n + h */
        slpi_fast_time(s, 0, delta);
        field(s, delta, x, w->vn, w);
        slpi_fast_time(s, 2, delta);
    } else {
        slpi_fast_time(s, 1, delta); /* IM: V at the midpoint, t_n + h/2 */
    }
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    int st;
    do {
        if (w->trap) {
            field(s, delta, w->mu, w->v, w);
            for (int i = 0; i < d; i++) w->mnew[i] = x[i] + 0.5 * (w->vn[i] + w->v[i]);
        } else {
            for (int i = 0; i < d; i++) w->arg[i] = 0.5 * (x[i] + w->mu[i]);
            field(s, delta, w->arg, w->v, w);
            for (int i = 0; i < d; i++) w->mnew[i] = x[i] + w->v[i];
        }
        double dm = slpi_vec_maxdiff(w->mnew, w->mu, d);
        memcpy(w->mu, w->mnew, sizeof *x * (size_t)d);
        st = slpi_fast_iter_check(&it, dm, slpi_vec_maxabs(w->mu, d));
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (!slpi_step_failed(st)) memcpy(x, w->mu, sizeof *x * (size_t)d);
    return st;
}

const slpi_fast_scheme slpi_fast_scheme_im_direct = {
    .id = SLPI_SCHEME_IM_DIRECT,
    .check = direct_check,
    .step = direct_step,
    .init = direct_init,
};
const slpi_fast_scheme slpi_fast_scheme_trap_direct = {
    .id = SLPI_SCHEME_TRAP_DIRECT,
    .check = direct_check,
    .step = direct_step,
    .init = direct_init,
};
