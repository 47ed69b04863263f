/* identities.c — three audit computations on closed forms and the fast path's own
 * algebra (docs/claims.md; gaps.h documents each):
 *  - R19 (docs/schemes.md#rkmk, E-R6; RKMK eqs. (32), (34)): sigma' = dexp^{-1}_sigma(v) makes
 *    O_exp(sigma(t); mu0) solve mu' = ad*_v mu only with B1+ = +1/2, checked by finite
 *    differences against the printed expansion v + [v,sigma]/2 + ...;
 *  - V18 (docs/schemes.md#svi-cayley, docs/schemes.md#svi-so3; SVI Rem. 3.2, eq. (30)): Ad*_{tau(x)} A(x) = A(-x);
 *  - V20 (docs/schemes.md#svi-so3; SVI eqs. (54)-(64)): the identities of a converged SVI-SO3 step
 *    and the printed variant (c = -1/4) as the implicit midpoint with step Delta t/s^2. */
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "core/steps.h"
#include "fast/lie-ops.h"
#include "gaps/gaps.h"

#define U_ROUND 0x1p-53

static double rnd(uint64_t seed, int trial, int comp, int j)
{
    return slpi_noise_normal(seed, (uint64_t)trial, (uint32_t)comp, (uint64_t)j);
}

/* ------------------------------------------------------------------ R19 */

enum { NBERN = 31 };

/* b_j = B_j / j! from x/(e^x - 1) = sum b_j x^j (B1 = -1/2), then B1+ = +1/2. */
static void bernoulli(double *b)
{
    b[0] = 1;
    for (int m = 1; m < NBERN; m++) {
        double s = 0, f = 1; /* f = 1/(m+1-k)! built from k = m down */
        for (int k = m - 1; k >= 0; k--) {
            f /= (double)(m + 1 - k);
            s += b[k] * f;
        }
        b[m] = -s; /* the coefficient of b_m is 1/1! */
    }
    b[1] = 0.5;
}

/* sum_j b_j (sg ad_sigma)^j v: sg = +1 the Sigma form, sg = -1 the printed expansion. */
static void dexpinv(const slpi_fast *f, const double *b, double sg, const double *sigma, const double *v, double *out)
{
    int n = slpi_fast_algebra_dim(f);
    double t[8], u[8];
    memcpy(t, v, sizeof(double) * (size_t)n);
    memcpy(out, v, sizeof(double) * (size_t)n);
    for (int j = 1; j < NBERN; j++) {
        slpi_fast_lie(f, u, sigma, t);
        for (int i = 0; i < n; i++) t[i] = sg * u[i];
        for (int i = 0; i < n; i++) out[i] += b[j] * t[i];
    }
}

int slpi_gaps_dexpinv(slpi_system_id sys, int printed, int trials, uint64_t seed, double *defect, slpi_error *err)
{
    slpi_problem *p = slpi_problem_alloc();
    if (!p) return slpi_error_set(err, SLPI_EINPUT, "dexpinv: out of memory");
    slpi_problem_init(p, sys, SLPI_SCHEME_TMK);
    slpi_view_grid_edit(p)->h = 0.01;
    slpi_view_grid_edit(p)->steps = 1;
    slpi_fast *f = NULL;
    int rc = slpi_fast_create(&f, p, err);
    slpi_problem_free(p);
    if (rc) return rc;
    int n = slpi_fast_algebra_dim(f);
    if (!slpi_fast_has_algebra(f) || n > 8) {
        slpi_fast_free(f);
        return slpi_error_set(err, SLPI_EINPUT,
                              "dexpinv: %s has no orbit map and bracket "
                              "on the fast path",
                              slpi_system_name(sys));
    }
    double b[NBERN];
    bernoulli(b);
    const double eps = 1e-3;
    *defect = 0;
    for (int t = 0; t < trials; t++) {
        double mu0[8], sigma[8], v[8], ds[8], mu[8], target[8], sp[8], d[8], ym[4][8];
        double norm = 0, r = 0.2 + 1.8 * (double)(t % 10) / 9; /* |sigma| = 0.2 .. 2 */
        for (int i = 0; i < n; i++) {
            mu0[i] = rnd(seed, t, 0, i);
            sigma[i] = rnd(seed, t, 1, i);
            v[i] = rnd(seed, t, 2, i);
            norm += sigma[i] * sigma[i];
        }
        for (int i = 0; i < n; i++) sigma[i] *= r / sqrt(norm);
        dexpinv(f, b, printed ? -1.0 : 1.0, sigma, v, ds);
        static const double off[4] = { -2, -1, 1, 2 };
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < n; i++) sp[i] = sigma[i] + off[k] * eps * ds[i];
            slpi_fast_orbit(f, ym[k], sp, mu0);
        }
        slpi_fast_orbit(f, mu, sigma, mu0);
        slpi_fast_coad(f, target, v, mu);
        for (int i = 0; i < n; i++) /* fourth-order central difference */
            d[i] = (ym[0][i] - 8 * ym[1][i] + 8 * ym[2][i] - ym[3][i]) / (12 * eps) - target[i];
        *defect = fmax(*defect, slpi_vec_maxabs(d, n) / (slpi_vec_maxabs(v, n) * slpi_vec_maxabs(mu, n)));
    }
    slpi_fast_free(f);
    return SLPI_OK;
}

/* ------------------------------------------------------------------ V18 */

static void ac_apply(double c, const double *x, const double *P, double *out)
{
    double xc[3], xp = slpi_fast_dot3(x, P);
    slpi_fast_cross(xc, x, P);
    for (int i = 0; i < 3; i++) out[i] = P[i] + 0.5 * xc[i] + c * xp * x[i];
}

double slpi_gaps_cayley_ad_so3(int trials, uint64_t seed)
{
    double worst = 0;
    for (int t = 0; t < trials; t++) {
        double x[3], mx[3], P[3], tau[9], a[3], l[3], r[3];
        double scale = 0.1 + 0.9 * (double)(t % 10); /* |x| from ~0.2 to ~15 */
        for (int i = 0; i < 3; i++) {
            x[i] = scale * rnd(seed, t, 3, i);
            mx[i] = -x[i];
            P[i] = rnd(seed, t, 4, i);
        }
        slpi_fast_cayley3(tau, x);
        for (int k = 0; k < 2; k++) {
            double c = k ? -0.25 : 0.25;
            ac_apply(c, mx, P, l);
            ac_apply(c, x, P, a);
            slpi_fast_mat3t_vec(r, tau, a);
            for (int i = 0; i < 3; i++) l[i] -= r[i];
            worst = fmax(worst, slpi_vec_maxabs(l, 3) / (slpi_vec_maxabs(P, 3) * (1 + slpi_fast_dot3(x, x))));
        }
    }
    return worst;
}

enum { NMAX = 8 };

/* out = A B for n x n row-major (out may alias neither). */
static void mmul(int n, const double *A, const double *B, double *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
            out[i * n + j] = s;
        }
}

/* out = (I + a x)^{-1} (I + b x); -1 if I + a x is singular. */
static int cayley_n(int n, double a, double b, const double *x, double *out)
{
    double L[NMAX * NMAX];
    lapack_int piv[NMAX];
    for (int i = 0; i < n * n; i++) {
        L[i] = a * x[i];
        out[i] = b * x[i];
    }
    for (int i = 0; i < n; i++) {
        L[i * n + i] += 1;
        out[i * n + i] += 1;
    }
    return LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, n, L, n, piv, out, n) ? -1 : 0;
}

/* A_s(x) mu = mu + [x, mu]/2 - s x mu x/4. */
static void a_son(int n, int s, const double *x, const double *mu, double *out)
{
    double xm[NMAX * NMAX], mx[NMAX * NMAX], xmx[NMAX * NMAX];
    mmul(n, x, mu, xm);
    mmul(n, mu, x, mx);
    mmul(n, xm, x, xmx);
    for (int i = 0; i < n * n; i++) out[i] = mu[i] + 0.5 * (xm[i] - mx[i]) - 0.25 * s * xmx[i];
}

int slpi_gaps_cayley_ad_son(int n, int s, int trials, uint64_t seed, double *defect, slpi_error *err)
{
    if (n < 2 || n > NMAX || (s != 1 && s != -1))
        return slpi_error_set(err, SLPI_EINPUT,
                              "cayleyad: n = %d must be 2..%d and the sign "
                              "+ or -",
                              n, NMAX);
    *defect = 0;
    for (int t = 0; t < trials; t++) {
        double x[NMAX * NMAX], mx[NMAX * NMAX], mu[NMAX * NMAX], tau[NMAX * NMAX], taui[NMAX * NMAX], a[NMAX * NMAX],
            w[NMAX * NMAX], l[NMAX * NMAX], r[NMAX * NMAX];
        double scale = 0.1 + 0.3 * (double)(t % 6);
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
                double xv = i == j ? 0 : scale * rnd(seed, t, 5, i * n + j);
                double mv = i == j ? 0 : rnd(seed, t, 6, i * n + j);
                x[i * n + j] = xv;
                x[j * n + i] = -xv;
                mu[i * n + j] = mv;
                mu[j * n + i] = -mv;
            }
        for (int i = 0; i < n * n; i++) mx[i] = -x[i];
        if (cayley_n(n, -0.5, 0.5, x, tau) || cayley_n(n, 0.5, -0.5, x, taui))
            return slpi_error_set(err, SLPI_ENUMERIC, "cayleyad: I -+ x/2 singular (trial %d)", t);
        a_son(n, s, x, mu, a);
        mmul(n, taui, a, w);
        mmul(n, w, tau, l);
        a_son(n, s, mx, mu, r);
        for (int i = 0; i < n * n; i++) l[i] -= r[i];
        *defect =
            fmax(*defect,
                 slpi_vec_maxabs(l, n * n) / (slpi_vec_maxabs(mu, n * n) * (1 + pow(slpi_vec_maxabs(x, n * n), 2))));
    }
    return SLPI_OK;
}

/* ------------------------------------------------------------------ V20 */

/* Solve M y = v for the 3 x 3 row-major M (copied). */
static int solve3(const double *M, const double *v, double *y)
{
    double L[9];
    lapack_int piv[3];
    memcpy(L, M, sizeof L);
    memcpy(y, v, 3 * sizeof *y);
    return LAPACKE_dgesv(LAPACK_ROW_MAJOR, 3, 1, L, 3, piv, y, 1) ? -1 : 0;
}

/* The matrix of A_c(x): I + hat(x)/2 + c x x^T. */
static void ac_matrix(double c, const double *x, double *M)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[3 * i + j] = (i == j) + c * x[i] * x[j];
    M[1] -= 0.5 * x[2];
    M[2] += 0.5 * x[1];
    M[3] += 0.5 * x[2];
    M[5] -= 0.5 * x[0];
    M[6] -= 0.5 * x[1];
    M[7] += 0.5 * x[0];
}

/* From the output R_{k+1} = tau(x)^2 of one SVI-SO3 step with R_k = I, the converged x
 * (tau^{-1}(tau^2) halved along the axis: |x|/2 = tan(atan(|y|/2)/2)), then A and B of (62):
 * A = A_c(x)^{-1} Pi_k, B = A_c(x)^{-1} A_c(-x) A. -1 if A_c(x) is singular. */
static int svi_recover(double c, const double *Pk, const double *T, double *xx, double *A, double *B)
{
    double y[3], Am[9], Bm[9], rhs[3];
    double k2 = 2 / (1 + T[0] + T[4] + T[8]); /* y = tau^{-1}(tau^2) (docs/schemes.md#svi-so3) */
    y[0] = k2 * (T[7] - T[5]);
    y[1] = k2 * (T[2] - T[6]);
    y[2] = k2 * (T[3] - T[1]);
    double yy = slpi_fast_dot3(y, y);
    for (int i = 0; i < 3; i++) xx[i] = y[i] / (1 + sqrt(1 + 0.25 * yy));
    ac_matrix(c, xx, Am);
    double mxx[3] = { -xx[0], -xx[1], -xx[2] };
    ac_matrix(c, mxx, Bm);
    if (solve3(Am, Pk, A)) return -1;
    slpi_fast_mat3_vec(rhs, Bm, A);
    return solve3(Am, rhs, B) ? -1 : 0;
}

/* Check the problem of an SVI-SO3 gap computation; 0 or an input error. */
static int svi_so3_problem(const char *what, const slpi_problem *p, slpi_error *err)
{
    if (slpi_view_system(p)->system != SLPI_SYS_RIGID_BODY || slpi_view_scheme(p)->scheme != SLPI_SCHEME_SVI ||
        slpi_view_system(p)->rb.form != SLPI_RB_FORM_SVI)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: needs scheme svi on the rigid body "
                              "(SVI form), not %s/%s",
                              what, slpi_scheme_name(slpi_view_scheme(p)->scheme),
                              slpi_system_name(slpi_view_system(p)->system));
    return slpi_problem_validate(p, err);
}

/* slpi_gaps_svi_identities on p, a copy of the caller's problem, with q the storage for
 * its IM-DIRECT twin: both the caller's to free. */
static int svi_identities(slpi_problem *p, slpi_problem *q, long steps, slpi_gaps_svi_result *r, slpi_error *err)
{
    slpi_view_system_edit(p)->rb.track_R = 1;
    slpi_grid_view *grid = slpi_view_grid_edit(p);
    grid->steps = steps;
    grid->T = 0;
    grid->level = -1;
    memset(r, 0, sizeof *r);
    r->smin = 1;
    int rc = svi_so3_problem("sviident", p, err);
    slpi_problem_copy(q, p);
    slpi_view_scheme_edit(q)->scheme = SLPI_SCHEME_IM_DIRECT;
    slpi_view_system_edit(q)->rb.track_R = 0;
    slpi_fast *f = NULL, *g = NULL;
    double x[12], eta[9];
    slpi_fast_at at = { NULL, x };
    slpi_steps stepping = { 0 };
    int M = slpi_problem_noise_count(p);
    if (!rc) rc = slpi_problem_validate(q, err);
    if (!rc) rc = slpi_fast_create(&f, p, err);
    if (!rc) rc = slpi_fast_create(&g, q, err);
    if (!rc) rc = slpi_fast_initial_state(f, x, err);
    at.f = f;
    if (!rc) rc = slpi_steps_open(&stepping, p, slpi_fast_step_at, &at, 1, err);
    if (!rc && M > 8) rc = slpi_error_set(err, SLPI_EINPUT, "sviident: %d noises (at most 8)", M);
    double c = slpi_view_scheme(p)->svi_c;
    for (long k = 0; !rc && k < steps; k++) {
        double Pk[3], Pn[3], xx[3], A[3], B[3], S[3], D[3], e[3];
        slpi_step_info info;
        static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
        memcpy(x + 3, I3, sizeof I3); /* R_k = I: then R_{k+1} = tau^2 */
        memcpy(Pk, x, sizeof Pk);
        slpi_step_status st;
        rc = slpi_steps_take(&stepping, k, NULL, &st, err);
        if (!rc && slpi_step_failed(st))
            rc = slpi_error_set(err, SLPI_ENUMERIC, "sviident: step %ld failed (residual %.2e)", k,
                                stepping.info.residual);
        if (rc) break;
        const double *dW = stepping.dW;
        memcpy(Pn, x, sizeof Pn);
        if (svi_recover(c, Pk, x + 3, xx, A, B)) {
            rc = slpi_error_set(err, SLPI_ENUMERIC, "sviident: A_c(x) singular");
            break;
        }
        /* the recovered x is the fixed point: x = Delta t xi((A+B)/2) */
        double Mv[3];
        for (int i = 0; i < 3; i++) Mv[i] = 0.5 * (A[i] + B[i]);
        eta[0] = grid->h;
        for (int i = 0; i < M; i++) eta[1 + i] = dW[i];
        if (slpi_fast_gradient_sum(f, e, eta, Mv)) {
            rc = slpi_error_set(err, SLPI_EINPUT, "sviident: out of memory");
            break;
        }
        for (int i = 0; i < 3; i++) e[i] = 0.5 * e[i] - xx[i];
        r->xi = fmax(r->xi, slpi_vec_maxabs(e, 3) / (3 * U_ROUND * fmax(1, slpi_vec_maxabs(xx, 3))));
        /* identities: Pi_{k+1} - Pi_k = -x x (A+B); Pi_k + Pi_{k+1} = s (A+B) + (1/4+c)(x.(A+B)) x */
        double xx2 = slpi_fast_dot3(xx, xx), s = 1 - 0.25 * xx2, AB[3], cr[3];
        for (int i = 0; i < 3; i++) AB[i] = A[i] + B[i];
        slpi_fast_cross(cr, xx, AB);
        double xab = slpi_fast_dot3(xx, AB), scale = 3 * U_ROUND * slpi_vec_maxabs(Pk, 3);
        for (int i = 0; i < 3; i++) {
            D[i] = Pn[i] - Pk[i] + cr[i];
            S[i] = Pk[i] + Pn[i] - s * AB[i] - (0.25 + c) * xab * xx[i];
        }
        r->ident = fmax(r->ident, fmax(slpi_vec_maxabs(D, 3), slpi_vec_maxabs(S, 3)) / scale);
        /* the implicit midpoint rule with step Delta t/s^2 and increments dW/s */
        double z[3], dWs[8];
        memcpy(z, Pk, sizeof z);
        for (int i = 0; i < M; i++) dWs[i] = dW[i] / s;
        rc = slpi_fast_set_step(g, grid->h / (s * s));
        if (!rc && slpi_step_failed(slpi_fast_step(g, z, dWs, &info)))
            rc = slpi_error_set(err, SLPI_ENUMERIC, "sviident: IM-DIRECT step %ld failed", k);
        for (int i = 0; i < 3; i++) z[i] -= Pn[i];
        r->mid = fmax(r->mid, slpi_vec_maxabs(z, 3) / slpi_vec_maxabs(Pk, 3));
        r->smin = fmin(r->smin, s);
        r->steps = k + 1;
    }
    slpi_steps_close(&stepping);
    slpi_fast_free(f);
    slpi_fast_free(g);
    return rc;
}

int slpi_gaps_svi_identities(const slpi_problem *p0, long steps, slpi_gaps_svi_result *r, slpi_error *err)
{
    slpi_problem *p = slpi_problem_dup(p0), *q = slpi_problem_alloc();
    int rc = p && q ? svi_identities(p, q, steps, r, err) : slpi_error_set(err, SLPI_EINPUT, "sviident: out of memory");
    slpi_problem_free(p);
    slpi_problem_free(q);
    return rc;
}

/* ------------------------------------------------------------------ V25 */

/* slpi_gaps_svi_orbit on p, a copy of the caller's problem (the caller's to free). */
static int svi_orbit(slpi_problem *p, int grid, slpi_gaps_svi_orbit_result *r, double *map, slpi_error *err)
{
    slpi_view_system_edit(p)->rb.track_R = 1;
    slpi_grid_view *pgrid = slpi_view_grid_edit(p);
    pgrid->steps = 1;
    pgrid->T = 0;
    pgrid->level = -1;
    memset(r, 0, sizeof *r);
    r->nmin = INFINITY;
    if (grid < 2 || grid > 512) return slpi_error_set(err, SLPI_EINPUT, "sviorbit: grid %d must be 2..512", grid);
    int rc = svi_so3_problem("sviorbit", p, err);
    int M = slpi_problem_noise_count(p);
    if (!rc && M > 8) rc = slpi_error_set(err, SLPI_EINPUT, "sviorbit: %d noises (at most 8)", M);
    slpi_fast *f = NULL;
    double x[12], dW[8];
    if (!rc) rc = slpi_fast_create(&f, p, err);
    if (!rc) rc = slpi_fast_initial_state(f, x, err);
    double R = rc ? 0 : sqrt(slpi_fast_dot3(x, x)), c = slpi_view_scheme(p)->svi_c;
    r->R = R;
    r->D = slpi_problem_noise_threshold(p);
    if (!rc && !isfinite(r->D))
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "sviorbit: the case must truncate its noise (the "
                            "largest increment is the clipping threshold)");
    long ncomb = 1;
    for (int i = 0; i < M; i++) ncomb *= 3;
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    const double pi = acos(-1.0);
    for (int la = 0; !rc && la < grid; la++)
        for (int lo = 0; !rc && lo < 2 * grid; lo++)
            for (long m = 0; !rc && m < ncomb; m++) {
                double th = pi * (la + 0.5) / grid, ph = pi * (lo + 0.5) / grid;
                double Pk[3] = { R * sin(th) * cos(ph), R * sin(th) * sin(ph), R * cos(th) };
                double xx[3], A[3], B[3];
                long q = m;
                for (int i = 0; i < M; i++, q /= 3) dW[i] = (double)(q % 3 - 1) * r->D;
                memcpy(x, Pk, sizeof Pk);
                memcpy(x + 3, I3, sizeof I3);
                slpi_step_info info;
                double *cell = map ? map + (size_t)la * (size_t)(2 * grid) + (size_t)lo : NULL;
                if (cell && m == 0) *cell = 0;
                r->points++;
                if (slpi_step_failed(slpi_fast_step(f, x, dW, &info)) || svi_recover(c, Pk, x + 3, xx, A, B)) {
                    r->failed++;
                    if (cell) *cell = NAN;
                    continue;
                }
                double na = sqrt(slpi_fast_dot3(A, A)), nb = sqrt(slpi_fast_dot3(B, B));
                double nab = sqrt(na * na + nb * nb);
                if (cell && !isnan(*cell)) *cell = fmax(*cell, nab);
                r->nmin = fmin(r->nmin, nab);
                r->nmax = fmax(r->nmax, nab);
                r->ratio = fmax(r->ratio, fmax(na, nb) / R);
                if (info.iterations > r->maxit) r->maxit = info.iterations;
            }
    slpi_fast_free(f);
    return rc;
}

int slpi_gaps_svi_orbit(const slpi_problem *p0, int grid, slpi_gaps_svi_orbit_result *r, double *map, slpi_error *err)
{
    slpi_problem *p = slpi_problem_dup(p0);
    int rc = p ? svi_orbit(p, grid, r, map, err) : slpi_error_set(err, SLPI_EINPUT, "sviorbit: out of memory");
    slpi_problem_free(p);
    return rc;
}
