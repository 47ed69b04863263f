/* props/prop-geometry.c — equivariance and the Poisson-map property.
 *
 * Equivariance [derived from docs/conventions.md#brackets, docs/conventions.md#sde]: every scheme is built from ad*, the orbit
 * maps and the gradients, so for a Lie-algebra automorphism g with H_0∘g = H_0 and
 * H_k∘g = ±H_pi(k), step(g X, permuted dW) = g step(X, dW). Checked on
 *   rigid body (both forms): rotations by signed permutations that keep the inertia
 *     (repeated eigenvalues give more of them) and the noise model;
 *   heavy top, RKMK form (symmetric top, x and alpha along e_3): Cayley rotations about e_3;
 *     SVI form: the same rotations of space, R -> G R (Pi and Gamma = R^T e_3 are body
 *     quantities, left alone; the Noether symmetry of (R Pi)_z);
 *   Manakov: conjugation by diagonal sign matrices (each H_ij invariant);
 *   point vortices: random Cayley rotations without noise, signed permutations with
 *     the shared quadratic noises;
 *   Euler–Zeitlin: rotations exp(theta S_3) about the sphere's axis (random theta without
 *     noise, theta = pi with reading Q, which maps omega_lm to (-1)^m omega_lm);
 *   sine-Euler: the point reflection of the torus, omega_m -> omega_-m, i.e. X -> P X P with
 *     the permutation P e_a = e_(-a mod N) (P g P = g^-1, P h P = h^-1; H_0 and the two-mode
 *     noise Z_i = amp (T_n + T_-n) are invariant).
 * Not checked: Zeitlin under reading L.
 * Certified (ref path): the same statement with an action that is exact in binary64 (a
 * signed permutation of the coordinates: the rotations above that are signed
 * permutations, the quarter turn about e_3 for the heavy top, theta = pi for Zeitlin);
 * the ball of step(g x, g dW) must meet g applied to the ball of step(x, dW) in every
 * coordinate, since both contain the exact results of the discrete scheme.
 *
 * Poisson map (ISO Thm 4.5, SVI Prop. 4.4, V4/V5, I11): for fixed increments the
 * Jacobian D of the step (central differences) satisfies D J(x_n) D^T = J(x_{n+1});
 * ISOMP and SVI c = +1/4 claim it, SVI c = -1/4 is the negative control. Certified for
 * SVI on the rigid body and the heavy top and for ISOMP with update=comm
 * (slpi_ref_poisson_defect, the first step). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "slpi/ref.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "core/view-system.h"
#include "props/props.h"

#define EQ_RATIO 1e3
#define POISSON_TOL 1e-8 /* relative residual; FD error <= 3e-10 seen, SVI -1/4 defect >= 1e-7 */

typedef struct {
    double G[9];    /* rotation (rigid body, heavy top, vortices) */
    double sgn[64]; /* Manakov: diagonal signs */
    double theta;   /* Zeitlin: angle about the axis */
    int perm[3];
    double nsign[3]; /* M = 3: dW'_{perm[j]} = nsign[j] dW_j; M = 1: dW' = nsign[0] dW */
} action;

static void map_noise(const void *ctx, int M, double *dW)
{
    const action *g = ctx;
    if (M == 1) dW[0] *= g->nsign[0];
    if (M != 3) return;
    double v[3] = { dW[0], dW[1], dW[2] };
    for (int j = 0; j < 3; j++) dW[g->perm[j]] = g->nsign[j] * v[j];
}

static void rot3(const double *G, const double *v, double *out)
{
    double w[3];
    for (int i = 0; i < 3; i++) w[i] = G[3 * i] * v[0] + G[3 * i + 1] * v[1] + G[3 * i + 2] * v[2];
    memcpy(out, w, sizeof w);
}

void slpi_props_signed_perm(int idx, int *perm, double *s)
{
    static const int P[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };
    int pi = idx / 4, sg = idx % 4;
    double par = pi < 3 ? 1 : -1;
    for (int j = 0; j < 3; j++) perm[j] = P[pi][j];
    s[0] = sg & 1 ? -1 : 1;
    s[1] = sg & 2 ? -1 : 1;
    s[2] = par * s[0] * s[1]; /* det = parity * s0 s1 s2 = +1 */
}

/* Does the signed permutation keep H_0 and the rigid-body / vortex noise model? */
static int perm_allowed(const slpi_problem *p, const int *perm, const double *s)
{
    if (slpi_view_system(p)->system == SLPI_SYS_RIGID_BODY) {
        for (int j = 0; j < 3; j++)
            if (slpi_view_system(p)->rb.inertia[perm[j]] != slpi_view_system(p)->rb.inertia[j]) return 0;
        switch (slpi_view_system(p)->rb.noise) {
        case SLPI_RB_NOISE_ISO_QUAD1:
            return perm[0] == 0;
        case SLPI_RB_NOISE_SVI_LIN1:
            return s[0] > 0 && s[1] > 0 && s[2] > 0;
        case SLPI_RB_NOISE_CONST_E3:
            return perm[2] == 2;
        default:
            return 1;
        }
    }
    return 1;
}

/* exact: only actions that are signed permutations of the coordinates (the ref check). */
static void choose_action(const slpi_props_case *c, const slpi_problem *p, int exact, action *g)
{
    slpi_props_rng r = { c->seed ^ 0x243f6a8885a308d3ULL };
    memset(g, 0, sizeof *g);
    for (int j = 0; j < 3; j++) { /* the noise map is the identity unless set below */
        g->perm[j] = j;
        g->nsign[j] = 1;
    }
    switch (c->system) {
    case SLPI_SYS_RIGID_BODY:
    case SLPI_SYS_POINT_VORTICES:
        if (c->system == SLPI_SYS_POINT_VORTICES && c->noises == 0 && !exact) {
            slpi_props_random_rotation(&r, g->G);
            return;
        }
        for (int tries = 0; tries < 64; tries++) {
            double s[3];
            int perm[3];
            slpi_props_signed_perm((int)slpi_props_rng_int(&r, 24), perm, s);
            if (!perm_allowed(p, perm, s)) continue;
            memset(g->G, 0, sizeof g->G);
            for (int j = 0; j < 3; j++) {
                g->G[3 * perm[j] + j] = s[j];
                g->perm[j] = perm[j];
                g->nsign[j] = 1;
            }
            int rb = c->system == SLPI_SYS_RIGID_BODY;
            if (rb && slpi_view_system(p)->rb.noise == SLPI_RB_NOISE_SVI_LIN) /* h_j = amp e_j . Pi: signs follow */
                for (int j = 0; j < 3; j++) g->nsign[j] = s[j];
            if (rb && slpi_view_system(p)->rb.noise == SLPI_RB_NOISE_CONST_E3) g->nsign[0] = s[2];
            if (tries < 63 && perm[0] == 0 && perm[1] == 1 && s[0] > 0 && s[1] > 0) continue;
            return;
        }
        g->G[0] = g->G[4] = g->G[8] = 1; /* only the identity keeps this problem */
        for (int j = 0; j < 3; j++) {
            g->perm[j] = j;
            g->nsign[j] = 1;
        }
        return;
    case SLPI_SYS_HEAVY_TOP: {
        double axis[3] = { 0, 0, slpi_props_rng_normal(&r) };
        static const double quarter[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };
        if (exact)
            memcpy(g->G, quarter, sizeof quarter);
        else
            slpi_props_cayley_rotation(axis, g->G);
        return;
    }
    case SLPI_SYS_MANAKOV:
        for (int i = 0; i < c->dim; i++) g->sgn[i] = slpi_props_rng_int(&r, 2) ? 1 : -1;
        return;
    case SLPI_SYS_EULER_ZEITLIN:
        g->theta = c->noises || exact ? 3.14159265358979323846 : slpi_props_rng_uniform(&r, -3, 3);
        return;
    default:
        return;
    }
}

/* y = g . x in core's layout. With theta = pi the phases are exactly +-1. */
static void act(const slpi_props_case *c, const slpi_problem *p, const action *g, const double *x, double *y)
{
    int d = slpi_problem_state_dim(p);
    memcpy(y, x, (size_t)d * sizeof *y);
    switch (c->system) {
    case SLPI_SYS_RIGID_BODY:
    case SLPI_SYS_HEAVY_TOP:
    case SLPI_SYS_POINT_VORTICES:
        if (c->system == SLPI_SYS_HEAVY_TOP && slpi_view_system(p)->ht.form == SLPI_HT_FORM_SVI) {
            for (int j = 0; j < 3; j++) { /* R -> G R; Pi, Gamma = R^T e_3 stay */
                double col[3] = { x[6 + j], x[9 + j], x[12 + j] }, gc[3];
                rot3(g->G, col, gc);
                for (int i = 0; i < 3; i++) y[6 + 3 * i + j] = gc[i];
            }
            return;
        }
        for (int i = 0; i + 3 <= d; i += 3) rot3(g->G, x + i, y + i);
        return;
    case SLPI_SYS_MANAKOV:
        for (int i = 0, k = 0; i < c->dim; i++)
            for (int j = i + 1; j < c->dim; j++, k++) y[k] = g->sgn[i] * g->sgn[j] * x[k];
        return;
    case SLPI_SYS_EULER_ZEITLIN: {
        int N = c->dim;
        for (int a = 0, k = N; a < N; a++)
            for (int b = a + 1; b < N; b++, k += 2) {
                double ph = g->theta * (a - b), cs, sn;
                if (g->theta == 3.14159265358979323846) {
                    cs = (b - a) % 2 ? -1 : 1;
                    sn = 0;
                } else {
                    cs = cos(ph);
                    sn = sin(ph);
                }
                y[k] = cs * x[k] - sn * x[k + 1];
                y[k + 1] = sn * x[k] + cs * x[k + 1];
            }
        return;
    }
    case SLPI_SYS_SINE_EULER: { /* X -> P X P with P e_a = e_(-a mod N): omega_m -> omega_-m */
        int N = c->dim;
        double complex X[25], Y[25];
        slpi_props_sun_unpack(N, x, X);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) Y[a * N + b] = X[(N - a) % N * N + (N - b) % N];
        slpi_props_sun_pack(N, Y, y);
        return;
    }
    default:
        return;
    }
}

/* A model declares no symmetry (docs/models.md#props): nothing to be equivariant under. */
static slpi_props_expect equiv_expect(const slpi_props_case *c)
{
    return c->system == SLPI_SYS_MODEL ? SLPI_PROPS_NA : SLPI_PROPS_HOLDS;
}

static const char *equiv_why_not(const slpi_props_case *c, int ref)
{
    (void)ref;
    return c->system == SLPI_SYS_MODEL ? "N/A: a model declares no symmetry of its Hamiltonians" : NULL;
}

static void equiv_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    if (c->system == SLPI_SYS_HEAVY_TOP) c->inertia = 1; /* symmetric top: rotations about e_3 */
    if (c->system == SLPI_SYS_EULER_ZEITLIN) {
        slpi_problem *p;
        slpi_error err;
        if (slpi_props_problem_new(&p, c, &err) == SLPI_OK &&
            (slpi_view_system(p)->ez.noise == SLPI_EZ_NOISE_L || slpi_view_system(p)->ez.noise == SLPI_EZ_NOISE_MODES))
            c->noises = 0; /* linear noise: invariant only without its increments */
        slpi_problem_free(p);
    }
}

/* The certified check: g is a signed permutation of the coordinates, read off the images
 * of the basis vectors; coordinate i of the ball of step(x) maps to coordinate to[i] with
 * sign sg[i] and must overlap that coordinate of the ball of step(g x). */
static void equiv_ref(const slpi_props_case *c, const slpi_problem *p, slpi_props_outcome *o)
{
    int d = slpi_problem_state_dim(p), to[SLPI_MAX_X0];
    double sg[SLPI_MAX_X0], e[SLPI_MAX_X0], ge[SLPI_MAX_X0], y[SLPI_MAX_X0];
    action g;
    choose_action(c, p, 1, &g);
    for (int j = 0; j < d; j++) {
        memset(e, 0, sizeof e);
        e[j] = 1;
        act(c, p, &g, e, ge);
        int nz = 0;
        for (int i = 0; i < d; i++)
            if (ge[i] != 0) {
                nz++;
                to[j] = i;
                sg[j] = ge[i];
            }
        if (nz != 1 || fabs(sg[j]) != 1) {
            slpi_props_outcome_unable(o, "ref: the exact action is not a signed permutation");
            return;
        }
    }
    act(c, p, &g, slpi_view_system(p)->x0, y);
    arb_ptr a = _arb_vec_init(d), b = _arb_vec_init(d);
    arb_t t;
    arb_init(t);
    for (int i = 0; i < d; i++) {
        arb_set_d(a + i, slpi_view_system(p)->x0[i]);
        arb_set_d(b + i, y[i]);
    }
    char msg[sizeof o->msg];
    if (slpi_step_failed(slpi_props_run_ref(c, p, a, 1, NULL, NULL, msg, sizeof msg)) ||
        slpi_step_failed(slpi_props_run_ref(c, p, b, 1, map_noise, &g, msg, sizeof msg))) {
        o->holds = -1;
        memcpy(o->msg, msg, sizeof msg);
    }
    for (int j = 0; j < d && o->holds == 1; j++) {
        if (sg[j] > 0)
            arb_set(t, a + j);
        else
            arb_neg(t, a + j);
        if (arb_overlaps(t, b + to[j])) continue;
        o->holds = 0;
        snprintf(o->msg, sizeof o->msg,
                 "ref: coordinate %d of step(g x, g dW) is certified apart from "
                 "g step(x, dW) (%s coordinate %d)",
                 to[j], sg[j] > 0 ? "+" : "-", j);
    }
    arb_clear(t);
    _arb_vec_clear(a, d);
    _arb_vec_clear(b, d);
}

static void equiv_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    int d = slpi_problem_state_dim(p);
    action g;
    choose_action(c, p, 0, &g);
    double x[SLPI_MAX_X0], y[SLPI_MAX_X0], gx[SLPI_MAX_X0];
    memcpy(x, slpi_view_system(p)->x0, sizeof x);
    act(c, p, &g, slpi_view_system(p)->x0, y);
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, 1, NULL, NULL, o->msg, sizeof o->msg)) ||
        slpi_step_failed(slpi_props_run_fast(c, p, y, 1, map_noise, &g, o->msg, sizeof o->msg))) {
        o->holds = -1;
        return;
    }
    act(c, p, &g, x, gx);
    double e = slpi_vec_maxdiff(gx, y, d);
    o->ratio = e / (c->steps * DBL_EPSILON * fmax(slpi_vec_maxabs(x, d), 1.0));
    o->holds = o->ratio <= EQ_RATIO;
    snprintf(o->msg, sizeof o->msg, "fast: |step(g x, g dW) - g step(x, dW)| = %.3g (ratio %.3g)", e, o->ratio);
    if (use_ref && o->holds == 1) equiv_ref(c, p, o);
}

static void equiv_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    slpi_props_check_with(c, use_ref, o, equiv_body);
}

const slpi_props_property slpi_props_prop_equivariance = {
    "equivariance",
    "step(g X, transformed dW) = g step(X, dW) for symmetries g of H_0 and the noise",
    equiv_expect,
    equiv_adjust,
    equiv_check,
    1,
    0,
    equiv_why_not,
};

/* ------------------------------------------------------------- Poisson map */

static slpi_props_expect poisson_expect(const slpi_props_case *c)
{
    if (c->scheme == SLPI_SCHEME_ISOMP) return SLPI_PROPS_HOLDS;
    if (c->scheme == SLPI_SCHEME_SVI) return c->variant ? SLPI_PROPS_VIOLATED : SLPI_PROPS_HOLDS;
    return SLPI_PROPS_NA;
}

static const char *poisson_why_not(const slpi_props_case *c, int ref)
{
    if (c->scheme != SLPI_SCHEME_ISOMP && c->scheme != SLPI_SCHEME_SVI)
        return "N/A: the scheme claims no Poisson property (docs/schemes.md#summary)";
    if (ref && c->scheme == SLPI_SCHEME_SVI && c->system != SLPI_SYS_RIGID_BODY && c->system != SLPI_SYS_HEAVY_TOP)
        return "limitation: the certified defect (slpi_ref_poisson_defect) covers SVI in vector "
               "form only (rigid body, heavy top), not the matrix (LP) form";
    if (ref && c->scheme == SLPI_SCHEME_ISOMP && c->variant)
        return "limitation: the certified step Jacobian of ISOMP covers update=comm only";
    return NULL;
}

static void poisson_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    if (c->steps > 3) c->steps = 3;
    if (c->h < 0x1p-12) c->h = 0x1p-12; /* FD of a near-identity map says little */
    if (c->mag < 0.25) c->mag = 0.25;   /* solver tolerances are absolute below |x| = 1 */
    if (poisson_expect(c) == SLPI_PROPS_VIOLATED) slpi_props_control_case(c);
}

/* The certified defect of the first step (slpi_ref_poisson_defect): every entry contains 0
 * where the map is Poisson; an entry that excludes 0 proves it is not. A fast violation
 * the balls cannot confirm is UNABLE. */
static void poisson_ref(const slpi_props_case *c, const slpi_problem *p, slpi_props_outcome *o)
{
    int d = slpi_problem_state_dim(p),
        m = c->scheme == SLPI_SCHEME_ISOMP                   ? d
        : slpi_view_system(p)->system == SLPI_SYS_RIGID_BODY ? 3
                                                             : 6;
    double dW[4096];
    slpi_props_increments(c, p, 0, dW);
    slpi_ref *s = NULL;
    slpi_error err = { 0, "" };
    arb_ptr x = _arb_vec_init(d), D = _arb_vec_init(m * m);
    for (int i = 0; i < d; i++) arb_set_d(x + i, slpi_view_system(p)->x0[i]);
    int rc = slpi_ref_create(&s, p, &err);
    if (!rc) rc = slpi_ref_poisson_defect(s, x, dW, D, &err);
    int at = -1;
    for (int k = 0; !rc && k < m * m && at < 0; k++)
        if (!arb_contains_zero(D + k)) at = k;
    if (rc) {
        slpi_props_outcome_unable(o, err.msg);
    } else if (at >= 0 && o->holds == 1) {
        char *v = arb_get_str(D + at, 5, 0);
        o->holds = 0;
        snprintf(o->msg, sizeof o->msg, "ref: certified defect (D J D^T - J')[%d][%d] = %s excludes 0", at / m, at % m,
                 v);
        flint_free(v);
    } else if (at < 0 && o->holds == 0) {
        slpi_props_outcome_unable(o,
                                  "ref: every certified defect ball contains 0; the fast violation "
                                  "is not confirmed");
    }
    slpi_ref_free(s);
    _arb_vec_clear(x, d);
    _arb_vec_clear(D, m * m);
}

static void poisson_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    const slpi_system_view *sys = slpi_view_system(p);
    double J0[36 * 36], J1[36 * 36], D[36 * 36], x[SLPI_MAX_X0];
    int m = slpi_props_poisson_tensor(p, sys->x0, J0);
    if (m == 0 || m > 36) {
        slpi_props_outcome_unable(o, "no Poisson tensor for this system here");
        return;
    }
    memcpy(x, sys->x0, sizeof x);
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, 1, NULL, NULL, o->msg, sizeof o->msg))) {
        o->holds = -1;
        return;
    }
    slpi_props_poisson_tensor(p, x, J1);
    /* central differences, Richardson-extrapolated: D = (4 D(eps/2) - D(eps)) / 3 */
    double eps = 0x1p-14 * slpi_vec_maxabs(sys->x0, m);
    for (int j = 0; j < m; j++) {
        double col[2][36];
        for (int r = 0; r < 2; r++) {
            double xp[SLPI_MAX_X0], xm[SLPI_MAX_X0], e = r ? eps / 2 : eps;
            memcpy(xp, sys->x0, sizeof xp);
            memcpy(xm, sys->x0, sizeof xm);
            xp[j] += e;
            xm[j] -= e;
            if (slpi_step_failed(slpi_props_run_fast(c, p, xp, 1, NULL, NULL, o->msg, sizeof o->msg)) ||
                slpi_step_failed(slpi_props_run_fast(c, p, xm, 1, NULL, NULL, o->msg, sizeof o->msg))) {
                o->holds = -1;
                return;
            }
            for (int i = 0; i < m; i++) col[r][i] = (xp[i] - xm[i]) / (2 * e);
        }
        for (int i = 0; i < m; i++) D[i * m + j] = (4 * col[1][i] - col[0][i]) / 3;
    }
    double res = 0, scale = 1e-300;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int k = 0; k < m; k++)
                for (int l = 0; l < m; l++) s += D[i * m + k] * J0[k * m + l] * D[j * m + l];
            res = fmax(res, fabs(s - J1[i * m + j]));
            scale = fmax(scale, fabs(J1[i * m + j]));
        }
    o->ratio = res / scale;
    o->holds = o->ratio <= POISSON_TOL;
    snprintf(o->msg, sizeof o->msg, "fast: |D J(x0) D^T - J(x%ld)| / |J| = %.3g (tolerance %.0e)", c->steps, o->ratio,
             POISSON_TOL);
    if (use_ref && o->holds >= 0) poisson_ref(c, p, o);
}

static void poisson_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    slpi_props_check_with(c, use_ref, o, poisson_body);
}

const slpi_props_property slpi_props_prop_poisson = {
    "poisson",
    "Poisson map D J(x_n) D^T = J(x_n+1) (ISOMP, SVI c=+1/4; violated by SVI c=-1/4)",
    poisson_expect,
    poisson_adjust,
    poisson_check,
    1,
    0,
    poisson_why_not,
};
