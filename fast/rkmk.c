/* rkmk.c — explicit stochastic RKMK (docs/schemes.md#rkmk [derived extension]; RKMK §4, Def. 4.1,
 * eqs. (21), (34)-(36)): Lie–Euler (s = 1) and Heun (a21 = 1, b = (1/2, 1/2)) with the
 * left-trivialized dexp^{-1} truncated at order q (p->dexp_order, 0..4):
 *   dexp^{-1,[q]}_T(v) = v + [T,v]/2 + [T,[T,v]]/12 - ad_T^4 v / 720.
 * Lie–Euler runs where core's slpi_problem_le_consistent holds (checked by the problem
 * validator: Stratonovich-consistent for every noise model here, docs/schemes.md#rkmk, claim X4). */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "core/view-scheme.h"
#include "core/check.h"
#include "fast/fast.h"
#include "fast/vector-field.h"

typedef struct {
    int q;
    double *K1, *K2, *sigma, *mu2, *adj, *tmp;
} rkmk_work;

static int rkmk_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const char *name = slpi_scheme_name(slpi_view_scheme(p)->scheme);
    if (!s->coad || !s->orbit)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s is not applicable to %s in this form "
                              "(docs/systems.md#applicability)",
                              name, s->name);
    int q = slpi_view_scheme(p)->dexp_order;
    if (q < 0 || q > 4) return slpi_error_set(err, SLPI_EINPUT, "%s: dexp_order = %d must be in 0..4", name, q);
    /* every system file that gives coad and orbit gives lie with them */
    if (SLPI_NEVER(q > 0 && !s->lie))
        return slpi_error_set(err, SLPI_EINPUT, "%s: %s has no bracket for dexp_order > 0", name, s->name);
    return SLPI_OK;
}

static int rkmk_init(slpi_fast *f, slpi_error *err)
{
    int d = f->sys.dim;
    double *buf = slpi_fast_work_new(f, sizeof(rkmk_work), 6 * (size_t)d, err);
    if (!buf) return err->code;
    rkmk_work *w = f->work;
    w->q = slpi_view_scheme(f->p)->dexp_order;
    w->K1 = buf;
    w->K2 = buf + d;
    w->sigma = buf + 2 * d;
    w->mu2 = buf + 3 * d;
    w->adj = buf + 4 * d;
    w->tmp = buf + 5 * d;
    return SLPI_OK;
}

/* out += b * dexp^{-1,[q]}_T(v). */
static void dexpinv_add(const slpi_fast_system *s, int q, const double *T, const double *v, double b, double *out,
                        rkmk_work *w)
{
    static const double coef[5] = { 1, 0.5, 1.0 / 12, 0, -1.0 / 720 };
    int d = s->dim;
    memcpy(w->adj, v, sizeof *v * (size_t)d);
    for (int i = 0; i < d; i++) out[i] += b * v[i];
    for (int j = 1; j <= q; j++) {
        s->lie(s, w->tmp, T, w->adj);
        memcpy(w->adj, w->tmp, sizeof *w->adj * (size_t)d);
        if (coef[j] != 0)
            for (int i = 0; i < d; i++) out[i] += b * coef[j] * w->adj[i];
    }
}

static slpi_step_status rkmk_le_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    rkmk_work *w = f->work;
    slpi_fast_time(s, 0, delta); /* c = 0: t_n */
    slpi_fast_gen_sum(s, w->K1, w->tmp, delta, x);
    if (s->orbit(s, w->mu2, w->K1, x)) return SLPI_STEP_DIVERGED;
    memcpy(x, w->mu2, sizeof *x * (size_t)s->dim);
    info->iterations = 0;
    return SLPI_STEP_CONVERGED;
}

static slpi_step_status rkmk_heun_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    rkmk_work *w = f->work;
    int d = s->dim;
    slpi_fast_time(s, 0, delta);                                  /* c_1 = 0: t_n */
    slpi_fast_gen_sum(s, w->K1, w->tmp, delta, x);                /* Theta_1 = 0 */
    if (s->orbit(s, w->mu2, w->K1, x)) return SLPI_STEP_DIVERGED; /* Theta_2 = K1 */
    slpi_fast_time(s, 2, delta);                                  /* c_2 = a_21 = 1: t_n + h */
    slpi_fast_gen_sum(s, w->K2, w->tmp, delta, w->mu2);
    for (int i = 0; i < d; i++) w->sigma[i] = 0.5 * w->K1[i];
    dexpinv_add(s, w->q, w->K1, w->K2, 0.5, w->sigma, w);
    if (s->orbit(s, w->mu2, w->sigma, x)) return SLPI_STEP_DIVERGED;
    memcpy(x, w->mu2, sizeof *x * (size_t)d);
    info->iterations = 0;
    return SLPI_STEP_CONVERGED;
}

const slpi_fast_scheme slpi_fast_scheme_rkmk_le = {
    .id = SLPI_SCHEME_RKMK_LE,
    .check = rkmk_check,
    .step = rkmk_le_step,
    .init = rkmk_init,
};
const slpi_fast_scheme slpi_fast_scheme_rkmk_heun = {
    .id = SLPI_SCHEME_RKMK_HEUN,
    .check = rkmk_check,
    .step = rkmk_heun_step,
    .init = rkmk_init,
};
