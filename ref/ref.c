/* ref/ref.c — public entry points of the certified path (slpi.h; docs/design.md#two-paths):
 * create/step/diagnostics/free, the scheme table, and the precision policy:
 * a step runs at p->prec bits and, when its enclosure fails, again at doubled
 * precision, the last try exactly at p->prec_max; beyond that it is UNABLE (never a
 * guess), with the reason in slpi_ref_unable_reason. A failed step leaves the state
 * unchanged. Its other concerns: the Lohner propagation (ref/lohner.c), the Poisson
 * defect (ref/poisson-defect.c), the diagnostics (ref/diagnostics.c). */
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/ref.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/callback.h"
#include "slpi/problem-finish.h"
#include "core/view-cert.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "core/check.h"
#include "core/plan.h"
#include <stdio.h>
#include <stddef.h>
#include "ref/ref.h"
#include "ref/accurate.h"
#include "ref/krawczyk.h"
#include "ref/mrmat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const slpi_ref_scheme *const scheme_table[SLPI_SCHEME_COUNT] = {
    [SLPI_SCHEME_TMK] = &slpi_ref_scheme_tmk,
    [SLPI_SCHEME_RKMK_LE] = &slpi_ref_scheme_rkmk_le,
    [SLPI_SCHEME_RKMK_HEUN] = &slpi_ref_scheme_rkmk_heun,
    [SLPI_SCHEME_IM_DIRECT] = &slpi_ref_scheme_im_direct,
    [SLPI_SCHEME_TRAP_DIRECT] = &slpi_ref_scheme_trap_direct,
    [SLPI_SCHEME_ISOMP] = &slpi_ref_scheme_isomp,
    [SLPI_SCHEME_SVI] = &slpi_ref_scheme_svi,
};

const slpi_ref_scheme *slpi_ref_scheme_get(slpi_scheme_id k)
{
    if ((int)k < 0 || k >= SLPI_SCHEME_COUNT) return NULL;
    return scheme_table[k];
}

int slpi_ref_create(slpi_ref **out, const slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    /* applicability, ranges and cross-key rules live in one place: core/problem-validate.c */
    slpi_plan *plan;
    if (slpi_problem_check_finished(p, "ref", err) != SLPI_OK || slpi_plan_compile(&plan, p, err) != SLPI_OK)
        return SLPI_EINPUT;
    int rc = slpi_ref_create_plan(out, plan, err);
    slpi_plan_unref(plan);
    return rc;
}

int slpi_ref_create_plan(slpi_ref **out, const slpi_plan *plan, slpi_error *err)
{
    *out = NULL;
    const slpi_problem *p = slpi_plan_problem(plan);
    char cb[256];
    if (slpi_problem_callbacks(p, cb, sizeof cb))
        return slpi_error_set(err, SLPI_EINPUT,
                              "ref: %s given as code (a callback): the certified path evaluates "
                              "only expressions, so a callback problem runs uncertified on the fast path alone "
                              "(docs/models.md#callbacks)",
                              cb);
    slpi_ref *s = calloc(1, sizeof *s);
    if (s == NULL) return slpi_error_set(err, SLPI_EINPUT, "ref: out of memory");
    s->plan = slpi_plan_ref(plan);
    s->p = p;
    s->h = slpi_view_grid(p)->h;
    int rc = slpi_ref_system_init(&s->sys, s->p, plan, err);
    if (rc != SLPI_OK) {
        slpi_plan_unref(s->plan);
        free(s);
        return rc;
    }
    s->scheme = slpi_ref_scheme_get(slpi_view_scheme(p)->scheme);
    /* the validator knows every scheme id; the system builds core's layout */
    if (SLPI_NEVER(s->scheme == NULL))
        rc = slpi_error_set(err, SLPI_EINPUT, "ref: scheme id %d has no table", (int)slpi_view_scheme(p)->scheme);
    else
        rc = s->scheme->check(&s->sys, s->p, err);
    if (rc == SLPI_OK &&
        SLPI_NEVER(s->sys.state_dim != slpi_problem_state_dim(p) || s->sys.M != slpi_problem_noise_count(p)))
        rc = slpi_error_set(err, SLPI_EINPUT, "ref: %d state doubles and %d noises; core's layout says %d and %d",
                            s->sys.state_dim, s->sys.M, slpi_problem_state_dim(p), slpi_problem_noise_count(p));
    if (rc != SLPI_OK) {
        slpi_ref_system_clear(&s->sys);
        free(s);
        return rc;
    }
    s->delta = calloc((size_t)s->sys.M + 1, sizeof(double));
    if (s->delta == NULL) {
        slpi_ref_system_clear(&s->sys);
        free(s);
        return slpi_error_set(err, SLPI_EINPUT, "ref: out of memory");
    }
    s->work = _arb_vec_init(s->sys.state_dim);
    /* propagation=auto: the mean-value form wherever the scheme has its step Jacobian */
    int lohner = slpi_view_cert(p)->ref_lohner == SLPI_PROPAGATION_LOHNER ||
        (slpi_view_cert(p)->ref_lohner == SLPI_PROPAGATION_AUTO && slpi_ref_has_step_jacobian(s));
    if (lohner && slpi_ref_set_lohner(s, 1) != SLPI_OK) {
        int available = slpi_ref_has_step_jacobian(s); /* else: out of memory */
        slpi_ref_free(s);
        if (available) return slpi_error_set(err, SLPI_EINPUT, "ref: out of memory (the mean-value propagation)");
        return slpi_error_set(err, SLPI_EINPUT,
                              "propagation=lohner: not available for %s on %s (it needs "
                              "ISOMP with update=comm and solved steps, on states of at most 64 entries)",
                              slpi_scheme_name(slpi_view_scheme(p)->scheme),
                              slpi_system_name(slpi_view_system(p)->system));
    }
    *out = s;
    return SLPI_OK;
}

void slpi_ref_free(slpi_ref *s)
{
    if (s == NULL) return;
    slpi_ref_lohner_free(s);
    if (s->inv0 != NULL) {
        _arb_vec_clear(s->inv0_x0, s->sys.state_dim);
        _arb_vec_clear(s->inv0, s->sys.n_inv);
    }
    _arb_vec_clear(s->work, s->sys.state_dim);
    free(s->delta);
    slpi_ref_system_clear(&s->sys);
    slpi_plan_unref(s->plan);
    free(s);
}

int slpi_ref_initial_state(slpi_ref *s, arb_ptr x, slpi_error *err)
{
    int n = slpi_problem_initial_size(s->p);
    double *c = malloc((size_t)n * sizeof *c);
    if (c == NULL) return slpi_error_set(err, SLPI_EINPUT, "ref: out of memory");
    int rc = slpi_problem_initial_state(s->p, c, err);
    for (int i = 0; rc == SLPI_OK && i < n; i++)
        if (!isfinite(c[i]))
            rc = slpi_error_set(err, SLPI_EINPUT, "initial state of %s has NaN/Inf",
                                slpi_system_name(slpi_view_system(s->p)->system));
    if (rc == SLPI_OK && slpi_problem_initial_kind(s->p) == SLPI_INITIAL_VALUES)
        for (int i = 0; i < n; i++) arb_set_d(x + i, c[i]);
    else if (rc == SLPI_OK)
        s->sys.initial_map(&s->sys, x, c, slpi_view_cert(s->p)->prec);
    free(c);
    return rc;
}

int slpi_ref_set_step(slpi_ref *s, double h)
{
    if (!(h != 0) || !isfinite(h)) return SLPI_EINPUT;
    s->h = h;
    return SLPI_OK;
}

void slpi_ref_set_step_index(slpi_ref *s, long n)
{
    s->sys.step = n;
}

long slpi_ref_next_prec(long prec, long prec_max)
{
    if (prec >= prec_max) return 0;
    return 2 * prec < prec_max ? 2 * prec : prec_max;
}

void slpi_ref_set_watch(slpi_ref *s, void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx)
{
    s->watch = fn;
    s->watch_ctx = ctx;
}

int slpi_ref_blas_route(const slpi_ref *s, long prec)
{
    return slpi_ref_mrmat_route(s->p, s->sys.N, prec);
}

const char *slpi_ref_unable_reason(const slpi_ref *s)
{
    return s->why;
}

/* slpi_ref_step's work: step n = s->sys.step (the grid index, slpi_ref_set_step_index) */
static slpi_step_status ref_step(slpi_ref *s, arb_ptr x, const double *dW, slpi_step_info *info)
{
    const slpi_cert_view *cert = slpi_view_cert(s->p);
    int n = s->sys.state_dim;
    long step = s->sys.step;
    s->why[0] = '\0';
    s->delta[0] = s->h;
    for (int k = 1; k <= s->sys.M; k++) {
        s->delta[k] = dW[k - 1];
        if (!isfinite(dW[k - 1])) {
            snprintf(s->why, sizeof s->why, "step %ld: increment dW[%d] is not finite", step, k - 1);
            return info->status = SLPI_STEP_INVALID;
        }
    }
    for (int i = 0; i < n; i++)
        if (!arb_is_finite(x + i)) {
            snprintf(s->why, sizeof s->why, "step %ld: state entry %d is not finite", step, i);
            return info->status = SLPI_STEP_INVALID;
        }
    char why[200] = "";
    int domain = 0; /* the last attempt met a domain error: no key is its remedy */
    slpi_ref_iterations_take();
    slpi_ref_watch_begin(s->watch, s->watch_ctx, step);
    for (long prec = cert->prec; prec > 0; prec = slpi_ref_next_prec(prec, cert->prec_max)) {
        slpi_ref_watch_prec(prec);
        _arb_vec_set(s->work, x, n);
        slpi_step_status st = SLPI_STEP_UNABLE;
        if (s->sys.fault != NULL) s->sys.fault(&s->sys, why, sizeof why); /* forget earlier evaluations' */
        if (s->lo != NULL) st = slpi_ref_lohner_step(s, s->work, prec, why, sizeof why);
        if (st != SLPI_STEP_CONVERGED) { /* the plain ball step */
            _arb_vec_set(s->work, x, n);
            st = s->scheme->step(&s->sys, s->work, s->delta, prec, why, sizeof why);
        }
        /* a domain error anywhere in the attempt (a model's log of a ball reaching 0,
         * ...) makes it UNABLE with its reason, whatever the scheme concluded */
        domain = s->sys.fault != NULL && s->sys.fault(&s->sys, why, sizeof why);
        if (domain) st = SLPI_STEP_UNABLE;
        info->prec = prec;
        info->iterations = (int)slpi_ref_iterations_take() + info->iterations;
        if (st == SLPI_STEP_CONVERGED) {
            slpi_ref_watch_end();
            _arb_vec_set(x, s->work, n);
            info->status = st;
            info->radius = slpi_ref_vec_radius(x, n);
            return st;
        }
    }
    slpi_ref_watch_end();
    /* the remedy, as the key to set: mean-value propagation where the scheme has its
     * certified step Jacobian and it is off, else a higher precision cap (none for a
     * domain error: the state, not the arithmetic, left the model's domain) */
    char remedy[96] = "";
    if (domain)
        ;
    else if (s->lo == NULL && slpi_ref_has_step_jacobian(s))
        snprintf(remedy, sizeof remedy, "set propagation=lohner (radii grow far slower)");
    else
        snprintf(remedy, sizeof remedy, "set prec_max=%ld (a higher precision cap), or fewer steps",
                 2 * cert->prec_max);
    snprintf(s->why, sizeof s->why, "step %ld: UNABLE at precision cap %ld bits: %.100s%s%s", step, cert->prec_max, why,
             remedy[0] ? "; " : "", remedy);
    info->radius = INFINITY;
    return info->status = SLPI_STEP_UNABLE;
}

slpi_step_status slpi_ref_step(slpi_ref *s, arb_ptr x, const double *dW, slpi_step_info *info)
{
    slpi_step_info local;
    if (info == NULL) info = &local;
    memset(info, 0, sizeof *info);
    int was = slpi_ref_solve_accurate(s->accurate);
    slpi_step_status st = ref_step(s, x, dW, info);
    slpi_ref_solve_accurate(was);
    s->sys.step++;
    return st;
}

void slpi_ref_set_accurate(slpi_ref *s, double u)
{
    slpi_ref_lohner_free(s);
    s->accurate = slpi_ref_accurate_stop_bits(u);
}
