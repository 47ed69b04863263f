/* props/order-study.c — the coupled convergence study behind the order properties and
 * cross-scheme agreement (docs/noise.md#coupling, docs/noise.md#estimators, §3.6): each
 * level of a scheme runs to T on coupled paths of the canonical hierarchy
 * (slpi_noise_increments with refine, truncated per level) and is compared with a fine
 * level, a partner scheme or the exact so(3) solution; the slope of the error over levels
 * gets a bootstrap CI over paths [docs/noise.md#estimators choice]. Also the rules a CI is
 * judged by and the case fitting of the order studies (props/order-study.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/problem-shape.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "props/props.h"
#include "props/order-study.h"

#define T_END 0.25
#define LMIN 4
#define NLEV SLPI_PROPS_ORDER_LEVELS
#define LREF 11

slpi_props_expect slpi_props_order_expect(const slpi_props_case *c)
{
    (void)c;
    return SLPI_PROPS_HOLDS;
}

const char *slpi_props_order_why_not(const slpi_props_case *c, int ref)
{
    (void)c;
    if (ref) return "N/A: an order study is statistical; ref-fast ties the fast path to the certified one";
    return NULL;
}

void slpi_props_order_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    c->mag = 1;
    c->inertia = 3; /* well separated: nearly equal moments make slow, rounding-level runs */
    /* su(2) Zeitlin and two vortices move by rigid rotations that every scheme gets
     * exactly right: no error to measure */
    if ((c->system == SLPI_SYS_EULER_ZEITLIN || c->system == SLPI_SYS_POINT_VORTICES) && c->dim < 3) c->dim = 3;
}

void slpi_props_order_adjust_strong(slpi_props_case *c, slpi_props_rng *r)
{
    slpi_props_order_adjust(c, r);
    int M = slpi_props_noise_count(c);
    if (c->noises < 1) c->noises = 1;
    if (c->noises > M) c->noises = M;
    if (c->noises == 2) c->noises = 3 <= M ? 3 : 1;
    /* amplitude x |x|: 1 makes the Levy-area term (order 1/2) dominate with several
     * noises; one noise at 1 is pre-asymptotic on these levels, 1/2 is not */
    c->amp = c->noises == 1 ? 0.5 : 1.0;
}

/* Run level L of path `path` to T_END; x in/out. Increments of the hierarchy whose
 * finest level is `finest` (refine = finest - L), components >= c->noises set to 0; every
 * level truncates (the papers' rule at each level's h). A failed solve is described
 * in why[n]. */
static int run_level(const slpi_props_case *c, const slpi_problem *p0, int L, int finest, uint64_t path, double *x,
                     char *why, size_t n)
{
    const char *scheme = slpi_scheme_name(slpi_view_scheme(p0)->scheme);
    slpi_error err;
    slpi_problem *p = slpi_problem_dup(p0);
    if (!p) {
        slpi_error_set(&err, SLPI_EINPUT, "props: out of memory");
        snprintf(why, n, "%.150s", err.msg);
        return -1;
    }
    slpi_view_noise_edit(p)->truncate = SLPI_TRUNC_ON;
    slpi_fast *f = NULL;
    slpi_grid_view *grid = slpi_view_grid_edit(p);
    grid->h = ldexp(T_END, -L);
    grid->steps = 1L << L;
    slpi_view_solver_edit(p)->maxit = 2000; /* coarse levels of a noisy path can contract slowly [choice] */
    int rc = 0;
    if (slpi_fast_create(&f, p, &err)) {
        snprintf(why, n, "%s: %.150s", scheme, err.msg);
        rc = -1;
    }
    int M = slpi_problem_noise_count(p);
    double dW[16], D = slpi_problem_noise_threshold(p);
    int on = c->noises < M ? c->noises : M;
    for (long s = 0; s < grid->steps && rc == 0; s++) {
        slpi_noise_rows(dW, c->seed, path, on, grid->h, finest - L, (uint64_t)s, 1, D);
        for (int k = on; k < M; k++) dW[k] = 0;
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) {
            rc = -1;
            snprintf(why, n, "%s, path %" PRIu64 ", level %d, step %ld: %s (residual %.3g after %d iterations)", scheme,
                     path, L, s, slpi_step_status_name(info.status), info.residual, info.iterations);
        }
    }
    slpi_fast_free(f);
    slpi_problem_free(p);
    return rc;
}

/* Least-squares slope of log e against log h (h halves per level). */
static double slope(const double *e)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < NLEV; i++) {
        double xx = -(LMIN + i) * log(2.0), yy = log(e[i]);
        sx += xx;
        sy += yy;
        sxx += xx * xx;
        sxy += xx * yy;
    }
    return (NLEV * sxy - sx * sy) / (NLEV * sxx - sx * sx);
}

/* The exact solution at T_END of the so(3) weak problem on path r (order-weak below):
 * dx = x x grad H_1 o dW with H_1 = amp x_3 rotates x about e_3, (x_1, x_2)(T) =
 * (x_1 cos t + x_2 sin t, -x_1 sin t + x_2 cos t), t = amp W(T), W(T) the untruncated sum
 * of the hierarchy's finest increments. */
static void exact_so3(const slpi_props_case *c, const slpi_problem *p, int finest, uint64_t r, double *x)
{
    double W;
    slpi_noise_rows(&W, c->seed, r, 1, T_END, finest, 0, 1, INFINITY);
    double t = slpi_view_system(p)->rb.amp * W;
    memcpy(x, slpi_view_system(p)->x0, 3 * sizeof *x);
    x[0] = slpi_view_system(p)->x0[0] * cos(t) + slpi_view_system(p)->x0[1] * sin(t);
    x[1] = -slpi_view_system(p)->x0[0] * sin(t) + slpi_view_system(p)->x0[1] * cos(t);
}

/* err[kept * NLEV + i]: the error at T_END of level LMIN + i of p, on each path whose
 * solves all converged: the squared distance from the reference (SLPI_PROPS_ORDER_FINE, SLPI_PROPS_ORDER_PARTNER:
 * q), or x_1 - x_1(exact) (SLPI_PROPS_ORDER_EXACT). The hierarchy's finest level is LREF against a
 * fine run, else the finest level studied. A coarse fixed point may stop contracting on
 * a rare large increment: that path is dropped and counted (the study is UNABLE when
 * more than 1/8 are). Returns the number of paths kept. */
static int errors(const slpi_props_case *c, const slpi_problem *p, const slpi_problem *q, slpi_props_order_versus vs,
                  int paths, double *err2, char *why, size_t n)
{
    int d = slpi_problem_state_dim(p), kept = 0, finest = vs == SLPI_PROPS_ORDER_FINE ? LREF : LMIN + NLEV - 1;
    for (int r = 0; r < paths; r++) {
        double ref[SLPI_MAX_X0], x[SLPI_MAX_X0], e[NLEV];
        int ok = 1;
        memcpy(ref, slpi_view_system(p)->x0, sizeof ref);
        if (vs == SLPI_PROPS_ORDER_FINE) ok = run_level(c, p, LREF, finest, (uint64_t)r, ref, why, n) == 0;
        if (vs == SLPI_PROPS_ORDER_EXACT) exact_so3(c, p, finest, (uint64_t)r, ref);
        for (int i = 0; i < NLEV && ok; i++) {
            if (vs == SLPI_PROPS_ORDER_PARTNER) {
                memcpy(ref, slpi_view_system(q)->x0, sizeof ref);
                ok = run_level(c, q, LMIN + i, finest, (uint64_t)r, ref, why, n) == 0;
            }
            memcpy(x, slpi_view_system(p)->x0, sizeof x);
            ok = ok && run_level(c, p, LMIN + i, finest, (uint64_t)r, x, why, n) == 0;
            e[i] = 0;
            for (int j = 0; j < d; j++) e[i] += (x[j] - ref[j]) * (x[j] - ref[j]);
            if (vs == SLPI_PROPS_ORDER_EXACT) e[i] = x[0] - ref[0];
        }
        if (!ok) continue;
        memcpy(err2 + kept * NLEV, e, sizeof e);
        kept++;
    }
    return kept;
}

/* Slope of the per-level error over paths: the rms of err2 (squared distances), or with
 * weak set the |mean| of err2 (signed differences of a test function). */
static double path_slope(const double *err2, const int *pick, int paths, int weak)
{
    double e[NLEV];
    for (int i = 0; i < NLEV; i++) {
        double s = 0;
        for (int r = 0; r < paths; r++) s += err2[(pick ? pick[r] : r) * NLEV + i];
        e[i] = weak ? fabs(s / paths) : sqrt(s / paths);
    }
    return slope(e);
}

/* The lower-bound rule: the CI (+ SLPI_PROPS_ORDER_SLACK) reaches `order`; and the CI (+- SLPI_PROPS_ORDER_SLACK)
 * contains it. */
int slpi_props_order_reaches(const slpi_props_order_study *st, double order)
{
    return order <= st->hi + SLPI_PROPS_ORDER_SLACK;
}

int slpi_props_order_contains(const slpi_props_order_study *st, double order)
{
    return slpi_props_order_reaches(st, order) && order >= st->lo - SLPI_PROPS_ORDER_SLACK;
}

void slpi_props_order_bootstrap(slpi_props_order_study *st, const double *err2, int paths, int weak, uint64_t seed)
{
    enum { B = 200 };
    double bs[B];
    int *pick = malloc((size_t)paths * sizeof *pick);
    slpi_props_rng r = { seed ^ 0x13198a2e03707344ULL };
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < paths; i++) pick[i] = (int)slpi_props_rng_int(&r, paths);
        bs[b] = path_slope(err2, pick, paths, weak);
    }
    free(pick);
    for (int i = 1; i < B; i++) /* insertion sort: B is small */
        for (int j = i; j > 0 && bs[j] < bs[j - 1]; j--) {
            double t = bs[j];
            bs[j] = bs[j - 1];
            bs[j - 1] = t;
        }
    st->s = path_slope(err2, NULL, paths, weak);
    st->lo = bs[B / 40];
    st->hi = bs[B - 1 - B / 40];
}

/* Run the study of p (against q, or its own level LREF when q is NULL) on `paths`
 * coupled paths; 0, or -1 with o UNABLE. Errors at rounding level on the finest level
 * studied are UNABLE too (nothing to measure). */
int slpi_props_order_run(slpi_props_order_study *st, slpi_props_outcome *o, const slpi_props_case *c,
                         const slpi_problem *p, const slpi_problem *q, slpi_props_order_versus vs, int paths)
{
    double *err2 = malloc((size_t)paths * NLEV * sizeof *err2);
    char failure[200] = "";
    int kept = errors(c, p, q, vs, paths, err2, failure, sizeof failure);
    if (8 * (paths - kept) > paths || kept == 0) {
        snprintf(o->msg, sizeof o->msg, "%d of %d paths had a failed solve, e.g. %s", paths - kept, paths, failure);
        o->holds = -1;
        free(err2);
        return -1;
    }
    st->paths = kept;
    st->dropped = paths - kept;
    double last = 0;
    for (int r = 0; r < kept; r++) last = fmax(last, fabs(err2[r * NLEV + NLEV - 1]));
    if (vs == SLPI_PROPS_ORDER_EXACT) last *= last;
    int rc = 0;
    if (!(sqrt(last) > 1e-11 * fmax(1.0, slpi_vec_maxabs(slpi_view_system(p)->x0, slpi_problem_state_dim(p))))) {
        slpi_props_outcome_unable(o, "errors at rounding level");
        rc = -1;
    } else if (kept == 1) {
        st->s = st->lo = st->hi = path_slope(err2, NULL, 1, vs == SLPI_PROPS_ORDER_EXACT);
    } else {
        slpi_props_order_bootstrap(st, err2, kept, vs == SLPI_PROPS_ORDER_EXACT, c->seed);
    }
    free(err2);
    return rc;
}

/* Active noises of the case, and the strong order its scheme owes: 1 with one noise
 * (a lower bound), 1/2 with several; deterministic 2 (RKMK-LE: 1). */
int slpi_props_order_noises(const slpi_props_case *c, const slpi_problem *p)
{
    int M = slpi_problem_noise_count(p);
    return c->amp == 0 ? 0 : c->noises < M ? c->noises : M;
}

double slpi_props_order_owed(const slpi_props_case *c, int active)
{
    return active == 0 ? (c->scheme == SLPI_SCHEME_RKMK_LE ? 1 : 2) : active == 1 ? 1 : 0.5;
}

int slpi_props_order_paths(const slpi_props_case *c)
{
    return 48 * (c->depth > 1 ? c->depth : 1);
}
