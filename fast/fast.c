/* fast.c — the public double-path API of slpi.h (slpi_fast_create/step/...): dispatch
 * of p->system to the system files and p->scheme to the scheme files (docs/systems.md#applicability pairs),
 * the increment vector of docs/conventions.md#sde, NaN/Inf checks and the solver statistics (docs/schemes.md#solver). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/diag.h"
#include "slpi/fast.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/problem-finish.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "core/check.h"
#include "core/fpmode.h"
#include "core/plan.h"
#include "fast/fast.h"
#include "fast/dense.h"
#include "fast/ensemble.h"

/* The system files' constructors (fast/<name>.c), indexed by slpi_system_id, and the
 * schemes' tables by slpi_scheme_id (a model's system is built from the plan's parsed
 * model: system_create); a built-in system without its row is refused by name
 * (tests/core/t-system.c builds every one). */
slpi_fast_system_ctor slpi_fast_sys_rigid_body, slpi_fast_sys_heavy_top, slpi_fast_sys_manakov,
    slpi_fast_sys_point_vortices, slpi_fast_sys_euler_zeitlin, slpi_fast_sys_sine_euler;
static slpi_fast_system_ctor *const system_ctor[SLPI_SYS_COUNT] = {
    [SLPI_SYS_RIGID_BODY] = slpi_fast_sys_rigid_body,
    [SLPI_SYS_HEAVY_TOP] = slpi_fast_sys_heavy_top,
    [SLPI_SYS_MANAKOV] = slpi_fast_sys_manakov,
    [SLPI_SYS_POINT_VORTICES] = slpi_fast_sys_point_vortices,
    [SLPI_SYS_EULER_ZEITLIN] = slpi_fast_sys_euler_zeitlin,
    [SLPI_SYS_SINE_EULER] = slpi_fast_sys_sine_euler,
};

static const slpi_fast_scheme *const scheme_table[] = {
    [SLPI_SCHEME_TMK] = &slpi_fast_scheme_tmk,
    [SLPI_SCHEME_RKMK_LE] = &slpi_fast_scheme_rkmk_le,
    [SLPI_SCHEME_RKMK_HEUN] = &slpi_fast_scheme_rkmk_heun,
    [SLPI_SCHEME_IM_DIRECT] = &slpi_fast_scheme_im_direct,
    [SLPI_SCHEME_TRAP_DIRECT] = &slpi_fast_scheme_trap_direct,
    [SLPI_SCHEME_ISOMP] = &slpi_fast_scheme_isomp,
    [SLPI_SCHEME_SVI] = &slpi_fast_scheme_svi,
};
_Static_assert(sizeof scheme_table / sizeof scheme_table[0] == SLPI_SCHEME_COUNT, "fast/fast.c: one scheme a row");

void slpi_fast_policy_set(slpi_fast_policy *pol, const slpi_problem *p)
{
    const slpi_solver_view *sol = slpi_view_solver(p);
    pol->tol = sol->tol; /* core's defaults per scheme (core/problem.c) */
    pol->tol_h = sol->tol_scale == SLPI_TOL_STEP ? fabs(slpi_view_grid(p)->h) : 0;
    pol->maxit = sol->maxit;
    pol->fixed_iters = sol->fixed_iters;
    pol->on_cap = sol->on_cap;
}

static int system_create(slpi_fast_system *s, const slpi_plan *plan, slpi_error *err)
{
    const slpi_problem *p = slpi_plan_problem(plan);
    slpi_fpmode r = slpi_round_nearest(); /* its tables round as every caller's: core/fpmode.h */
    slpi_system_id id = slpi_view_system(p)->system;
    int rc = id == SLPI_SYS_MODEL ? slpi_fast_sys_model(s, p, plan, err)
        : system_ctor[id]
        ? system_ctor[id](s, p, err)
        : slpi_error_set(err, SLPI_EINPUT, "fast: system %s has no row in fast/fast.c's table", slpi_system_name(id));
    slpi_round_restore(r);
    return rc;
}

int slpi_fast_create(slpi_fast **out, const slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    if ((unsigned)slpi_view_system(p)->system >= SLPI_SYS_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "fast: unknown system id %d", (int)slpi_view_system(p)->system);
    if ((unsigned)slpi_view_scheme(p)->scheme >= SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "fast: unknown scheme id %d", (int)slpi_view_scheme(p)->scheme);
    /* applicability, ranges and cross-key rules live in one place: core/problem-validate.c */
    slpi_plan *plan;
    if (slpi_problem_check_finished(p, "fast", err) != SLPI_OK || slpi_plan_compile(&plan, p, err) != SLPI_OK)
        return SLPI_EINPUT;
    int rc = slpi_fast_create_plan(out, plan, err);
    slpi_plan_unref(plan);
    return rc;
}

int slpi_fast_create_plan(slpi_fast **out, const slpi_plan *plan, slpi_error *err)
{
    *out = NULL;
    const slpi_problem *p = slpi_plan_problem(plan);
    const slpi_fast_scheme *sch = scheme_table[slpi_view_scheme(p)->scheme];
    if (SLPI_NEVER(sch == NULL)) /* the validator knows every scheme id */
        return slpi_error_set(err, SLPI_EINPUT, "fast: scheme id %d has no table", (int)slpi_view_scheme(p)->scheme);
    slpi_fast *f = calloc(1, sizeof *f);
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "fast: out of memory");
    f->plan = slpi_plan_ref(plan);
    f->p = p;
    f->h = slpi_view_grid(p)->h;
    f->scheme = sch;
    int rc = system_create(&f->sys, plan, err);
    if (rc == SLPI_OK) {
        slpi_fast_policy_set(&f->pol, p);
        /* invariants: the system builds core's layout, and a tracked R (state_dim > dim)
         * exists only in the SVI forms, which core's validator allows with svi alone */
        if (SLPI_NEVER(f->sys.state_dim != slpi_problem_state_dim(p) || f->sys.M != slpi_problem_noise_count(p)))
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "fast: %s builds %d state doubles and %d noises; "
                                "core's layout says %d and %d",
                                f->sys.name, f->sys.state_dim, f->sys.M, slpi_problem_state_dim(p),
                                slpi_problem_noise_count(p));
        else if (SLPI_NEVER(f->sys.state_dim != f->sys.dim && slpi_view_scheme(p)->scheme != SLPI_SCHEME_SVI))
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "fast: %s with a tracked rotation R runs only "
                                "with svi",
                                f->sys.name);
    }
    if (rc == SLPI_OK) {
        f->delta = calloc((size_t)f->sys.M + 1, sizeof *f->delta);
        rc = !f->delta                               ? slpi_error_set(err, SLPI_EINPUT, "fast: out of memory")
            : sch->check(&f->sys, p, err) == SLPI_OK ? sch->init(f, err)
                                                     : err->code;
    }
    if (rc != SLPI_OK) {
        slpi_fast_free(f);
        return rc;
    }
    *out = f;
    return SLPI_OK;
}

const slpi_problem *slpi_fast_problem(const slpi_fast *f)
{
    return f->p;
}

void slpi_fast_free(slpi_fast *f)
{
    if (!f) return;
    slpi_fast_work_free(f);
    if (f->sys.clear) f->sys.clear(&f->sys);
    free(f->delta);
    free(f->coef);
    slpi_plan_unref(f->plan);
    free(f);
}

/* Core's description of the initial state; coefficients mapped with sys's basis. */
static int initial_state(const slpi_fast_system *sys, const slpi_problem *p, double *x, slpi_error *err)
{
    int rc;
    if (slpi_problem_initial_kind(p) == SLPI_INITIAL_VALUES) {
        rc = slpi_problem_initial_state(p, x, err);
    } else {
        double *c = malloc((size_t)slpi_problem_initial_size(p) * sizeof *c);
        if (!c) return slpi_error_set(err, SLPI_EINPUT, "initial state of %s: out of memory", sys->name);
        rc = slpi_problem_initial_state(p, c, err);
        slpi_fpmode r = slpi_round_nearest(); /* the basis map rounds as every caller's: core/fpmode.h */
        if (rc == SLPI_OK) rc = sys->initial_map(sys, x, c, err);
        slpi_round_restore(r);
        free(c);
    }
    if (rc) return rc;
    if (!slpi_fast_all_finite(x, sys->state_dim))
        return slpi_error_set(err, SLPI_EINPUT, "initial state of %s has NaN/Inf", sys->name);
    return SLPI_OK;
}

int slpi_fast_initial_state(const slpi_fast *f, double *x, slpi_error *err)
{
    return initial_state(&f->sys, f->p, x, err);
}

int slpi_fast_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err)
{
    if ((unsigned)slpi_view_system(p)->system >= SLPI_SYS_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "fast: unknown system id %d", (int)slpi_view_system(p)->system);
    slpi_plan *plan;
    if (slpi_plan_compile(&plan, p, err) != SLPI_OK) return SLPI_EINPUT;
    slpi_fast_system sys;
    memset(&sys, 0, sizeof sys);
    int rc = system_create(&sys, plan, err);
    if (rc == SLPI_OK) rc = initial_state(&sys, p, x, err);
    if (sys.clear) sys.clear(&sys);
    slpi_plan_unref(plan);
    return rc;
}

slpi_step_status slpi_fast_step(slpi_fast *f, double *x, const double *dW, slpi_step_info *info)
{
    memset(info, 0, sizeof *info);
    if (f->sys.fault) f->sys.fault(&f->sys, f->why, sizeof f->why); /* forget earlier evaluations' */
    f->why[0] = 0;
    f->delta[0] = f->h;
    for (int k = 0; k < f->sys.M; k++) f->delta[k + 1] = dW[k];
    slpi_fpmode mode = slpi_fpmode_set(1); /* to nearest, flushing: core/fpmode.h */
    slpi_fast_ingredients_apply(f, f->delta);
    if (!slpi_fast_all_finite(x, f->sys.state_dim) || !slpi_fast_all_finite(f->delta, f->sys.M + 1)) {
        slpi_fpmode_restore(mode);
        info->status = SLPI_STEP_INVALID;
        info->residual = NAN;
    } else {
        info->status = f->scheme->step(f, x, f->delta, info);
        slpi_fpmode_restore(mode);
        if (!slpi_step_failed(info->status) && !slpi_fast_all_finite(x, f->sys.state_dim))
            info->status = SLPI_STEP_DIVERGED;
        /* a fault anywhere in the step fails it with its reason, whatever the scheme concluded */
        if (f->sys.fault && f->sys.fault(&f->sys, f->why, sizeof f->why) && !slpi_step_failed(info->status))
            info->status = SLPI_STEP_DIVERGED;
    }
    f->sys.step++;
    f->steps++;
    f->iters += info->iterations;
    if (info->iterations > f->max_iters) f->max_iters = info->iterations;
    if (info->status == SLPI_STEP_STAGNATED) f->stagnated++;
    if (info->status == SLPI_STEP_CAPPED) f->capped++;
    if (slpi_step_failed(info->status)) f->failed++;
    return info->status;
}

const char *slpi_fast_failure_reason(const slpi_fast *f)
{
    return f->why;
}

int slpi_fast_set_step(slpi_fast *f, double h)
{
    if (!(h != 0) || !isfinite(h)) return SLPI_EINPUT;
    f->h = h;
    if (f->pol.tol_h > 0) f->pol.tol_h = fabs(h);
    return SLPI_OK;
}

void slpi_fast_set_step_index(slpi_fast *f, long n)
{
    f->sys.step = n;
}

void slpi_fast_counters(const slpi_fast *f, long c[SLPI_FAST_NCOUNTERS])
{
    c[0] = f->steps;
    c[1] = f->iters;
    c[2] = f->max_iters;
    c[3] = f->stagnated;
    c[4] = f->capped;
    c[5] = f->failed;
}

void slpi_fast_set_counters(slpi_fast *f, const long c[SLPI_FAST_NCOUNTERS])
{
    f->steps = c[0];
    f->iters = c[1];
    f->max_iters = c[2];
    f->stagnated = c[3];
    f->capped = c[4];
    f->failed = c[5];
}

int slpi_fast_carry_get(const slpi_fast *f, double *buf)
{
    return f->scheme->carry_get ? f->scheme->carry_get(f, buf) : 0;
}

int slpi_fast_carry_set(slpi_fast *f, const double *x, const double *buf, int n)
{
    if (!f->scheme->carry_set) return n == 0 ? SLPI_OK : SLPI_EINPUT;
    return f->scheme->carry_set(f, x, buf, n);
}

int slpi_fast_fields(slpi_fast *f, double *xi, double *V, const double *x)
{
    const slpi_fast_system *s = &f->sys;
    double *g = malloc(2 * (size_t)s->dim * sizeof *g), *v = g + s->dim, h = f->h;
    if (!g) return -1;
    slpi_fast_time(s, 0, &h); /* at t0 + n h, as the diagnostics (docs/models.md#time) */
    for (int k = 0; k <= s->M; k++) {
        s->gen(s, k, g, x);
        s->coad(s, v, g, x);
        if (xi) memcpy(xi + (size_t)k * s->dim, g, (size_t)s->dim * sizeof *g);
        if (V) memcpy(V + (size_t)k * s->dim, v, (size_t)s->dim * sizeof *v);
    }
    free(g);
    return s->dim;
}

void slpi_fast_diagnostics(slpi_fast *f, const double *x, const double *x0, slpi_diag *d)
{
    double h = f->h;
    slpi_fast_time(&f->sys, 0, &h); /* H0 at the state's time t0 + n h (docs/models.md#time) */
    f->sys.diagnostics(&f->sys, d, x, x0);
    slpi_diag_add(d, "mean_iters", f->steps ? (double)f->iters / f->steps : 0);
    slpi_diag_add(d, "max_iters", (double)f->max_iters);
    slpi_diag_add(d, "stagnated", (double)f->stagnated);
    slpi_diag_add(d, "capped", (double)f->capped);
    slpi_diag_add(d, "failed", (double)f->failed);
}
