/* props/cases.c — generators of the property harness (props/): a case
 * (props.h) becomes an slpi_problem with drawn inertia (generic, repeated or
 * near-degenerate eigenvalues), noise model and amplitude, an explicit random initial
 * state in core's layout (slpi.h), random group elements by the Cayley map, and its own
 * Wiener increments (truncated as in docs/noise.md#truncation); plus runners over both paths. */
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "core/expr.h"
#include "props/props.h"

static slpi_system_view model_sys; /* the model's system view: its model member is all a case takes */
static int have_model;

void slpi_props_set_model(const slpi_problem *model)
{
    have_model = model != NULL;
    if (model) model_sys = *slpi_view_system(model);
}

const slpi_system_view *slpi_props_algebra_twin(const slpi_problem *p, slpi_system_view *sys)
{
    const slpi_algebra *alg = slpi_problem_algebra(p);
    if (!alg) return slpi_view_system(p);
    slpi_problem *q = slpi_problem_alloc();
    if (!q) return NULL;
    slpi_algebra a = *alg;
    switch (a.kind) {
    case SLPI_ALGEBRA_SO3:
        slpi_problem_init(q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        break;
    case SLPI_ALGEBRA_SE3:
        slpi_problem_init(q, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
        break;
    case SLPI_ALGEBRA_SON:
        slpi_problem_init(q, SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
        slpi_view_system_edit(q)->mk.n = a.n;
        break;
    case SLPI_ALGEBRA_SUN:
        slpi_problem_init(q, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
        slpi_view_system_edit(q)->ez.N = a.n;
        break;
    case SLPI_ALGEBRA_SO3K:
        slpi_problem_init(q, SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP);
        slpi_view_system_edit(q)->pv.n = a.n;
        break;
    }
    *sys = *slpi_view_system(q);
    slpi_problem_free(q);
    return sys;
}

uint64_t slpi_props_rng_u64(slpi_props_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double slpi_props_rng_uniform(slpi_props_rng *r, double a, double b)
{
    return a + (b - a) * ((double)(slpi_props_rng_u64(r) >> 11) * 0x1p-53);
}

long slpi_props_rng_int(slpi_props_rng *r, long n)
{
    return (long)(slpi_props_rng_u64(r) % (uint64_t)n);
}

double slpi_props_rng_normal(slpi_props_rng *r)
{
    double u = slpi_props_rng_uniform(r, 0x1p-53, 1.0), v = slpi_props_rng_uniform(r, 0.0, 1.0);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int slpi_props_dim_min(slpi_system_id s)
{
    switch (s) {
    case SLPI_SYS_MANAKOV:
        return 3;
    case SLPI_SYS_POINT_VORTICES:
        return 2;
    case SLPI_SYS_EULER_ZEITLIN:
        return 2;
    default:
        return 3;
    }
}

int slpi_props_dim_max(slpi_system_id s)
{
    switch (s) {
    case SLPI_SYS_MANAKOV:
        return 6;
    case SLPI_SYS_POINT_VORTICES:
        return 5;
    case SLPI_SYS_EULER_ZEITLIN:
        return 4;
    case SLPI_SYS_SINE_EULER:
        return 5;
    default:
        return 3;
    }
}

static int setf(slpi_problem *p, const char *key, const char *fmt, double v, slpi_error *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return slpi_problem_set(p, key, buf, err);
}

static int setv(slpi_problem *p, const char *key, const double *v, slpi_error *err)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g", v[0], v[1], v[2]);
    return slpi_problem_set(p, key, buf, err);
}

static void draw_inertia(const slpi_props_case *c, slpi_props_rng *r, double *I)
{
    for (int i = 0; i < 3; i++) I[i] = slpi_props_rng_uniform(r, 0.5, 3.0);
    if (c->inertia == 1) I[1] = I[0];
    if (c->inertia == 2) I[1] = I[0] * (1 + 1e-9);
    if (c->inertia == 3) {
        I[0] = 1;
        I[1] = 2;
        I[2] = 3;
    }
    if (c->inertia == 4) {
        I[0] = 1e-2;
        I[1] = 1;
        I[2] = 2;
    }
}

/* x (3 doubles) = mag (e_axis + 1e-6 g) / |...| with g Gaussian: near an equilibrium axis. */
static void near_axis(slpi_props_rng *r, int axis, double mag, double *x)
{
    double n2 = 0;
    for (int i = 0; i < 3; i++) {
        x[i] = (i == axis) + 1e-6 * slpi_props_rng_normal(r);
        n2 += x[i] * x[i];
    }
    for (int i = 0; i < 3; i++) x[i] *= mag / sqrt(n2);
}

/* The axis of the state corner: 1 the middle moment's (the separatrix of the free rigid
 * body), 2 e_3 (a pole). */
static int corner_axis(const slpi_problem *p, int state)
{
    if (state == 2 || slpi_view_system(p)->system != SLPI_SYS_RIGID_BODY) return 2;
    const double *I = slpi_view_system(p)->rb.inertia;
    for (int i = 0; i < 3; i++)
        if ((I[i] - I[(i + 1) % 3]) * (I[i] - I[(i + 2) % 3]) <= 0) return i;
    return 1;
}

void slpi_props_cayley_rotation(const double *x, double *R)
{
    double n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], a = 4.0 / (4.0 + n2);
    double X[9] = { 0, -x[2], x[1], x[2], 0, -x[0], -x[1], x[0], 0 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double X2 = 0;
            for (int k = 0; k < 3; k++) X2 += X[3 * i + k] * X[3 * k + j];
            R[3 * i + j] = (i == j) + a * (X[3 * i + j] + 0.5 * X2);
        }
}

void slpi_props_random_rotation(slpi_props_rng *r, double *R)
{
    double x[3];
    for (int i = 0; i < 3; i++) x[i] = 2 * slpi_props_rng_normal(r);
    slpi_props_cayley_rotation(x, R);
}

/* Unit vectors at pairwise distance > 0.5 (point vortices away from collisions); with
 * pole set, the first one near the north pole. */
static void vortex_positions(slpi_props_rng *r, int n, int pole, double *x)
{
    for (int i = 0; i < n; i++) {
        for (int tries = 0;; tries++) {
            double v[3], s = 0;
            for (int k = 0; k < 3; k++) {
                v[k] = slpi_props_rng_normal(r);
                s += v[k] * v[k];
            }
            s = sqrt(s);
            for (int k = 0; k < 3; k++) x[3 * i + k] = v[k] / s;
            if (i == 0 && pole) near_axis(r, 2, 1.0, x);
            int ok = 1;
            for (int j = 0; j < i && tries < 1000; j++) {
                double d = 0;
                for (int k = 0; k < 3; k++) d += (x[3 * i + k] - x[3 * j + k]) * (x[3 * i + k] - x[3 * j + k]);
                if (d < 0.25) ok = 0;
            }
            if (ok) break;
        }
    }
}

static void normals(slpi_props_rng *r, double *x, int n, double scale)
{
    for (int i = 0; i < n; i++) x[i] = scale * slpi_props_rng_normal(r);
}

/* Packed su(N): traceless diagonal, the rest Gaussian (slpi.h layout). */
static void random_sun(slpi_props_rng *r, int N, double mag, double *x)
{
    normals(r, x, N * N, mag / N);
    double tr = 0;
    for (int a = 0; a < N; a++) tr += x[a];
    for (int a = 0; a < N; a++) x[a] -= tr / N;
}

/* Half the Euler-Zeitlin cases are of its family (docs/systems.md#zeitlin-family): a
 * deformation kappa drawn in [0, 3] (where it is above 2, L is instead the multiplier
 * -l(l+1) - (l(l+1))^2/(8 kappa), a hyperviscous-type operator), a rotation and one zonal
 * background mode (F stays invariant under the rotations about the axis that the
 * equivariance property applies), and the cases of reading (L) become transport noise on
 * two random modes (noise=modes). */
static int zeitlin_family(const slpi_props_case *c, slpi_props_rng *r, slpi_problem *p, slpi_error *err)
{
    int N = c->dim, l = 1 + (int)slpi_props_rng_int(r, N - 1);
    char buf[160];
    double kappa = slpi_props_rng_uniform(r, 0, 3);
    int rc = kappa <= 2 ? setf(p, "kappa", "%.17g", kappa, err)
                        : setf(p, "multiplier", "-l*(l+1)-(l*(l+1))^2/%.17g", 8 * kappa, err);
    /* F below a fifth of the state's size: the order studies' rates assume the noise, not
     * a fast background flow, sets the error at their levels */
    if (!rc) rc = setf(p, "rotation", "%.17g", slpi_props_rng_uniform(r, -0.05, 0.05) * c->mag, err);
    snprintf(buf, sizeof buf, "%d:0:%.17g", l, 0.1 * slpi_props_rng_normal(r) * c->mag);
    if (!rc) rc = slpi_problem_set(p, "background_modes", buf, err);
    if (rc || slpi_view_system(p)->ez.noise != SLPI_EZ_NOISE_L) return rc;
    int l1 = 1 + (int)slpi_props_rng_int(r, N - 1), l2 = 1 + (int)slpi_props_rng_int(r, N - 1);
    int m1 = (int)slpi_props_rng_int(r, 2 * l1 + 1) - l1;
    double a1 = c->amp * slpi_props_rng_normal(r);
    int m2 = (int)slpi_props_rng_int(r, 2 * l2 + 1) - l2;
    /* the draws one by one (an argument list's order of evaluation is the compiler's);
     * two distinct modes (a mode given twice is refused): the second moves to the next m
     * of its l, cyclically */
    if (l2 == l1 && m2 == m1) m2 = m2 < l2 ? m2 + 1 : -l2;
    snprintf(buf, sizeof buf, "%d:%d:%.17g,%d:%d:%.17g", l1, m1, a1, l2, m2, c->amp * slpi_props_rng_normal(r));
    rc = slpi_problem_set(p, "noise", "modes", err);
    return rc ? rc : slpi_problem_set(p, "noise_modes", buf, err);
}

static int system_keys(const slpi_props_case *c, slpi_props_rng *r, slpi_problem *p, slpi_error *err)
{
    static const char *const rb_noise[] = { "iso-quad", "iso-quad1", "svi-lin", "svi-lin1" };
    static const char *const ht_noise[] = { "case1", "case2", "case3", "case3-pi" };
    double I[3], v[3];
    int rc = SLPI_OK;
    switch (c->system) {
    case SLPI_SYS_RIGID_BODY:
        draw_inertia(c, r, I);
        rc = setv(p, "inertia", I, err);
        if (!rc) rc = slpi_problem_set(p, "noise", rb_noise[slpi_props_rng_int(r, 4)], err);
        if (!rc) rc = setf(p, "amp", "%.17g", c->amp, err);
        break;
    case SLPI_SYS_HEAVY_TOP:
        draw_inertia(c, r, I);
        rc = setv(p, "inertia", I, err);
        normals(r, v, 3, 1.0);
        if (c->inertia == 1) v[0] = v[1] = 0; /* a symmetric (Lagrange) top */
        if (!rc) rc = setv(p, "mga", v, err);
        normals(r, v, 3, c->amp);
        if (c->inertia == 1) v[0] = v[1] = 0;
        if (slpi_view_system(p)->ht.form == SLPI_HT_FORM_RKMK) {
            if (!rc) rc = slpi_problem_set(p, "noise", "salt", err);
            if (!rc) rc = setv(p, "alpha", v, err);
        } else {
            if (!rc) rc = slpi_problem_set(p, "noise", ht_noise[slpi_props_rng_int(r, 4)], err);
            char k[64];
            snprintf(k, sizeof k, "%.17g,%.17g", c->amp, 0.5 * c->amp);
            if (!rc) rc = slpi_problem_set(p, "k", k, err);
            if (!rc) rc = setf(p, "mg", "%.17g", slpi_props_rng_uniform(r, 0.2, 1.5), err);
        }
        break;
    case SLPI_SYS_MANAKOV:
        rc = setf(p, "n", "%.0f", c->dim, err);
        if (!rc) rc = slpi_problem_set(p, "noise", "quad", err);
        if (!rc) rc = setf(p, "amp", "%.17g", c->amp, err);
        break;
    case SLPI_SYS_POINT_VORTICES:
        rc = setf(p, "n", "%.0f", c->dim, err);
        if (!rc) rc = slpi_problem_set(p, "model", slpi_props_rng_int(r, 2) ? "B" : "A", err);
        if (!rc) rc = slpi_problem_set(p, "noise", "quad", err);
        if (!rc) rc = setf(p, "amp", "%.17g", c->amp, err);
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        rc = setf(p, "N", "%.0f", c->dim, err);
        if (!rc) rc = setf(p, "ic_lmax", "%.0f", c->dim - 1, err);
        if (!rc) rc = slpi_problem_set(p, "noise", slpi_props_rng_int(r, 3) == 0 ? "L" : "Q", err);
        if (!rc) rc = setf(p, "amp", "%.17g", c->amp, err);
        if (!rc && slpi_props_rng_int(r, 2)) rc = zeitlin_family(c, r, p, err);
        break;
    case SLPI_SYS_SINE_EULER:
        rc = setf(p, "N", "%.0f", c->dim, err);
        if (!rc) rc = slpi_problem_set(p, "noise", "two-mode", err);
        if (!rc) rc = setf(p, "amp", "%.17g", c->amp, err);
        break;
    case SLPI_SYS_MODEL: /* the model's own Hamiltonians: amp and inertia do not apply */
        if (!have_model) return slpi_error_set(err, SLPI_EINPUT, "no model given (slpi props --config MODEL)");
        slpi_view_system_edit(p)->model = model_sys.model;
        break;
    default:
        rc = slpi_error_set(err, SLPI_EINPUT, "props: no cases for system %s (props/cases.c)",
                            slpi_system_name(c->system));
    }
    return rc;
}

static int initial_state(const slpi_props_case *c, slpi_props_rng *r, const slpi_problem *p, double *x, slpi_error *err)
{
    int d = slpi_problem_state_dim(p);
    slpi_system_view twin;
    const slpi_system_view *sys = slpi_props_algebra_twin(p, &twin);
    if (!sys) return slpi_error_set(err, SLPI_EINPUT, "props: out of memory");
    switch (sys->system) { /* a model: as its algebra's built-in */
    case SLPI_SYS_HEAVY_TOP:
        normals(r, x, 3, c->mag);
        if (c->state) near_axis(r, corner_axis(p, c->state), c->mag, x);
        if (slpi_view_system(p)->ht.form == SLPI_HT_FORM_SVI) {
            double R[9], g[3];
            slpi_props_random_rotation(r, R);
            if (c->state == 2) { /* upright: R near the identity, Gamma near e_3 */
                normals(r, g, 3, 1e-6);
                slpi_props_cayley_rotation(g, R);
            }
            for (int i = 0; i < 3; i++) x[3 + i] = R[3 * 2 + i]; /* Gamma = R^T e_3 */
            memcpy(x + 6, R, sizeof R);
        } else {
            normals(r, x + 3, 3, 1.0);
            if (c->state == 2) near_axis(r, 2, 1.0, x + 3); /* sleeping upright */
        }
        break;
    case SLPI_SYS_POINT_VORTICES:
        vortex_positions(r, d / 3, c->state == 2, x);
        for (int i = 0; i < d; i++) x[i] *= c->mag;
        break;
    case SLPI_SYS_EULER_ZEITLIN:
    case SLPI_SYS_SINE_EULER:
        random_sun(r, (int)lround(sqrt(d)), c->mag, x);
        break;
    default: { /* a random direction of norm mag; the corners near a coordinate axis */
        double n2 = 0;
        normals(r, x, d, 1.0);
        if (c->state) {
            for (int i = 0; i < d; i++) x[i] *= 1e-6;
            x[corner_axis(p, c->state)] = 1;
        }
        for (int i = 0; i < d; i++) n2 += x[i] * x[i];
        for (int i = 0; i < d; i++) x[i] *= c->mag / sqrt(n2);
    }
    }
    return SLPI_OK;
}

int slpi_props_problem(const slpi_props_case *c, slpi_problem *p, slpi_error *err)
{
    slpi_props_rng r = { c->seed ^ 0x5851f42d4c957f2dULL };
    if ((unsigned)c->system >= SLPI_SYS_COUNT || (unsigned)c->scheme >= SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "props: bad system or scheme");
    if (c->dim < slpi_props_dim_min(c->system) || c->dim > slpi_props_dim_max(c->system) ||
        (c->system == SLPI_SYS_SINE_EULER && c->dim % 2 == 0))
        return slpi_error_set(err, SLPI_EINPUT, "props: dim=%d out of range for %s", c->dim,
                              slpi_system_name(c->system));
    if (!(c->h > 0) || c->steps < 1 || !(c->mag > 0) || c->amp < 0)
        return slpi_error_set(err, SLPI_EINPUT, "props: need h > 0, steps >= 1, mag > 0, amp >= 0");
    if (c->inertia < 0 || c->inertia > 4 || c->state < 0 || c->state > 2)
        return slpi_error_set(err, SLPI_EINPUT, "props: inertia=%d (0..4) or state=%d (0..2) out of range", c->inertia,
                              c->state);
    slpi_problem_init(p, c->system, c->scheme);
    int rc = system_keys(c, &r, p, err);
    if (rc) return rc;
    slpi_grid_view *grid = slpi_view_grid_edit(p);
    grid->h = c->h;
    grid->steps = c->steps;
    /* every case truncates where the rule applies (docs/noise.md#truncation, trunc_ell = 2) [choice] */
    slpi_view_noise_edit(p)->truncate = grid->h < 1 ? SLPI_TRUNC_ON : SLPI_TRUNC_OFF;
    if (c->scheme == SLPI_SCHEME_SVI) slpi_view_scheme_edit(p)->svi_c = c->variant ? -0.25 : 0.25;
    if (c->scheme == SLPI_SCHEME_ISOMP)
        slpi_view_scheme_edit(p)->isomp_update = c->variant ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
    int d = slpi_problem_state_dim(p);
    if (d > SLPI_MAX_X0) return slpi_error_set(err, SLPI_EINPUT, "props: state of %d doubles too large", d);
    rc = initial_state(c, &r, p, slpi_view_system_edit(p)->x0, err);
    if (rc) return rc;
    slpi_view_system_edit(p)->n_x0 = d;
    return slpi_problem_validate(p, err);
}

int slpi_props_problem_new(slpi_problem **out, const slpi_props_case *c, slpi_error *err)
{
    *out = slpi_problem_alloc();
    if (!*out) return slpi_error_set(err, SLPI_EINPUT, "props: out of memory");
    int rc = slpi_props_problem(c, *out, err);
    if (rc) {
        slpi_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

int slpi_props_problem_check(const slpi_props_case *c, slpi_error *err)
{
    slpi_problem *p;
    int rc = slpi_props_problem_new(&p, c, err);
    slpi_problem_free(p);
    return rc;
}

int slpi_props_noise_count(const slpi_props_case *c)
{
    slpi_problem *p;
    slpi_error err;
    if (slpi_props_problem_new(&p, c, &err)) return 0;
    int M = slpi_problem_noise_count(p);
    slpi_problem_free(p);
    return M;
}

void slpi_props_increments(const slpi_props_case *c, const slpi_problem *p, long n, double *dW)
{
    int M = slpi_problem_noise_count(p), on = c->noises < M ? c->noises : M;
    slpi_noise_rows(dW, c->seed, 0, on, slpi_view_grid(p)->h, 0, (uint64_t)n, 1, slpi_problem_noise_threshold(p));
    for (int k = on; k < M; k++) dW[k] = 0.0;
}

/* Increments of the i-th step of a run in direction dir (mapped, negated backwards);
 * returns the index of the step they belong to. */
static long run_increments(const slpi_props_case *c, const slpi_problem *p, long i, int dir, slpi_props_noise_map map,
                           const void *map_ctx, int M, double *dW)
{
    long s = dir > 0 ? i : c->steps - 1 - i;
    slpi_props_increments(c, p, s, dW);
    if (map) map(map_ctx, M, dW);
    for (int k = 0; dir < 0 && k < M; k++) dW[k] = -dW[k];
    return s;
}

slpi_step_status slpi_props_run_fast(const slpi_props_case *c, const slpi_problem *p, double *x, int dir,
                                     slpi_props_noise_map map, const void *map_ctx, char *why, size_t n)
{
    slpi_fast *f = NULL;
    slpi_error err = { 0, "" };
    if (slpi_fast_create(&f, p, &err) != SLPI_OK) {
        snprintf(why, n, "fast: %s", err.msg);
        return SLPI_STEP_INVALID;
    }
    int M = slpi_problem_noise_count(p);
    double dW[4096];
    slpi_step_status st = SLPI_STEP_CONVERGED;
    if (dir < 0) { /* back from step N: step -N of the grid of -h is at t0 + N h (docs/models.md#time) */
        slpi_fast_set_step(f, -slpi_view_grid(p)->h);
        slpi_fast_set_step_index(f, -c->steps);
    }
    for (long i = 0; i < c->steps && !slpi_step_failed(st); i++) {
        long s = run_increments(c, p, i, dir, map, map_ctx, M, dW);
        slpi_step_info info;
        st = slpi_fast_step(f, x, dW, &info);
        if (slpi_step_failed(st))
            snprintf(why, n, "fast step %ld: %s (residual %.3g after %d iterations)", s, slpi_step_status_name(st),
                     info.residual, info.iterations);
    }
    slpi_fast_free(f);
    return st;
}

slpi_step_status slpi_props_run_ref(const slpi_props_case *c, const slpi_problem *p, arb_ptr x, int dir,
                                    slpi_props_noise_map map, const void *map_ctx, char *why, size_t n)
{
    slpi_ref *s = NULL;
    slpi_error err = { 0, "" };
    if (slpi_ref_create(&s, p, &err) != SLPI_OK) {
        snprintf(why, n, "ref: %s", err.msg);
        return SLPI_STEP_INVALID;
    }
    int M = slpi_problem_noise_count(p);
    double dW[4096];
    slpi_step_status st = SLPI_STEP_CONVERGED;
    if (dir < 0) {
        slpi_ref_set_step(s, -slpi_view_grid(p)->h);
        slpi_ref_set_step_index(s, -c->steps);
    }
    for (long i = 0; i < c->steps && !slpi_step_failed(st); i++) {
        run_increments(c, p, i, dir, map, map_ctx, M, dW);
        slpi_step_info info;
        st = slpi_ref_step(s, x, dW, &info);
        if (slpi_step_failed(st)) snprintf(why, n, "ref: %s", slpi_ref_unable_reason(s));
    }
    slpi_ref_free(s);
    return st;
}
