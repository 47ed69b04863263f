/* consistency.c — claim X4 computed: the Stratonovich consistency of stochastic Lie–Euler
 * (RKMK-LE; docs/schemes.md#rkmk). The mathematics (the missed drift
 * d(mu) = 1/2 sum_k ad*_{D xi_k(mu)[V_k]} mu, V_k = ad*_{xi_k(mu)} mu, and why it vanishes
 * for every noise model here but not for the control H_1 = a x_1 x_2 on so(3)) lives in one
 * place, core/lie-euler.c, whose rule the validator applies. Here both statements are
 * computed with one code: the missed drift from the fast path's generators and ad* (D xi_k
 * by central differences, exact up to rounding for the linear generators of quadratic
 * H_k), and the rms gap between Lie–Euler and the consistent RKMK-Heun (q = 0) on coupled
 * paths, which shrinks with h exactly when d = 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/noise.h"
#include "slpi/fast.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "core/problem-store.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "fast/lie-ops.h"
#include "gaps/gaps.h"

enum { MAXN = 256 };

/* The generators xi_k(mu), k = 1..M: the fast path's (eta = e_k), or the so(3) controls. */
typedef struct {
    const slpi_fast *f;
    int n, M;
    int control; /* 0: the fast path's noise; 1: a x_1 x_2; 2: a x_1^2 / 2 */
    double a;
    double *eta; /* M + 1 */
} generators;

static int generator(generators *g, int k, const double *mu, double *xi)
{
    if (g->control) {
        xi[0] = g->a * (g->control == 1 ? mu[1] : mu[0]);
        xi[1] = g->control == 1 ? g->a * mu[0] : 0;
        xi[2] = 0;
        return SLPI_OK;
    }
    memset(g->eta, 0, sizeof(double) * (size_t)(g->M + 1));
    g->eta[k] = 1;
    return slpi_fast_gradient_sum(g->f, xi, g->eta, mu);
}

/* |d(mu)|_max / sum_k |xi_k|_max |V_k|_max at one mu; -1 on failure. */
static double drift_at(generators *g, const double *mu)
{
    int n = g->n;
    double xi[MAXN], V[MAXN], mp[MAXN], mm[MAXN], xp[MAXN], xm[MAXN], D[MAXN], w[MAXN], d[MAXN] = { 0 }, scale = 0;
    for (int k = 1; k <= g->M; k++) {
        if (generator(g, k, mu, xi)) return -1;
        slpi_fast_coad(g->f, V, xi, mu);
        double vn = slpi_vec_maxabs(V, n), eps = vn > 0 ? 1e-3 * slpi_vec_maxabs(mu, n) / vn : 0;
        if (vn == 0) continue;
        for (int i = 0; i < n; i++) {
            mp[i] = mu[i] + eps * V[i];
            mm[i] = mu[i] - eps * V[i];
        }
        if (generator(g, k, mp, xp) || generator(g, k, mm, xm)) return -1;
        for (int i = 0; i < n; i++) D[i] = (xp[i] - xm[i]) / (2 * eps);
        slpi_fast_coad(g->f, w, D, mu);
        for (int i = 0; i < n; i++) d[i] += 0.5 * w[i];
        scale += slpi_vec_maxabs(xi, n) * vn;
    }
    return scale > 0 ? slpi_vec_maxabs(d, n) / scale : 0;
}

static int open_generators(const slpi_problem *p, int control, generators *g, slpi_fast **f, slpi_error *err)
{
    memset(g, 0, sizeof *g);
    int rc = slpi_fast_create(f, p, err);
    if (rc) return rc;
    g->f = *f;
    if (!slpi_fast_has_algebra(*f))
        return slpi_error_set(err, SLPI_EINPUT,
                              "drift: %s/%s has no coordinate operations on the "
                              "fast path (RKMK-LE does not run there)",
                              slpi_system_name(slpi_view_system(p)->system),
                              slpi_scheme_name(slpi_view_scheme(p)->scheme));
    g->n = slpi_fast_algebra_dim(*f);
    g->M = control ? 1 : slpi_problem_noise_count(p);
    g->control = control;
    g->a = 0.5;
    if (g->n > MAXN) return slpi_error_set(err, SLPI_EINPUT, "drift: %d algebra coordinates (at most %d)", g->n, MAXN);
    if (control && (slpi_view_system(p)->system != SLPI_SYS_RIGID_BODY || g->n != 3))
        return slpi_error_set(err, SLPI_EINPUT, "drift: the so(3) controls need the rigid body");
    g->eta = calloc((size_t)g->M + 1, sizeof *g->eta);
    return g->eta ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "drift: out of memory");
}

int slpi_gaps_missed_drift(const slpi_problem *p, int control, int trials, uint64_t seed, double *drift,
                           slpi_error *err)
{
    slpi_fast *f = NULL;
    generators g;
    *drift = 0;
    int rc = open_generators(p, control, &g, &f, err);
    for (int t = 0; !rc && t < trials; t++) {
        double mu[MAXN];
        for (int i = 0; i < g.n; i++) mu[i] = slpi_noise_normal(seed, (uint64_t)t, 12, (uint64_t)i);
        double r = drift_at(&g, mu);
        if (r < 0)
            rc = slpi_error_set(err, SLPI_ENUMERIC, "drift: a generator failed");
        else
            *drift = fmax(*drift, r);
    }
    free(g.eta);
    slpi_fast_free(f);
    return rc;
}

/* sigma = h xi_0(x) + dW xi_1(x) (xi_0 = grad H_0 of the fast rigid body). */
static int le_sigma(generators *g, double h, double dW, const double *x, double *s)
{
    double xi[3], eta[1] = { h };
    int rc = slpi_fast_gradient_sum(g->f, s, eta, x);
    if (!rc) rc = generator(g, 1, x, xi);
    for (int i = 0; i < 3; i++) s[i] += dW * xi[i];
    return rc;
}

/* One Lie-Euler step, x <- exp(ad*_sigma(x)) x. */
static int lie_euler(generators *g, double h, double w, double *x)
{
    double s[3], z[3];
    int rc = le_sigma(g, h, w, x, s);
    if (!rc) rc = slpi_fast_orbit(g->f, z, s, x);
    if (!rc) memcpy(x, z, sizeof z);
    return rc;
}

/* One RKMK-Heun step (q = 0): K1 = sigma(x), K2 = sigma(exp(K1) x), x <- exp((K1+K2)/2) x. */
static int heun(generators *g, double h, double w, double *x)
{
    double s1[3], s2[3], z[3];
    int rc = le_sigma(g, h, w, x, s1);
    if (!rc) rc = slpi_fast_orbit(g->f, z, s1, x);
    if (!rc) rc = le_sigma(g, h, w, z, s2);
    for (int i = 0; i < 3; i++) s1[i] = 0.5 * (s1[i] + s2[i]);
    if (!rc) rc = slpi_fast_orbit(g->f, z, s1, x);
    if (!rc) memcpy(x, z, sizeof z);
    return rc;
}

int slpi_gaps_le_gap_paths(int control, double T, int kmin, int kmax, long paths, uint64_t seed, double *gap2,
                           slpi_error *err)
{
    slpi_problem *p = slpi_problem_alloc();
    if (!p) return slpi_error_set(err, SLPI_EINPUT, "le-gap: out of memory");
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(p, "noise", "none", err);
    if (!rc && (kmin < 1 || kmax < kmin || kmax > 16 || paths < 1))
        rc = slpi_error_set(err, SLPI_EINPUT, "le-gap: levels %d..%d, %ld paths", kmin, kmax, paths);
    if (rc) {
        slpi_problem_free(p);
        return rc;
    }
    slpi_fast *f = NULL;
    generators g;
    rc = open_generators(p, control, &g, &f, err);
    long nf = 1L << kmax;
    int nl = kmax - kmin + 1;
    double *dW = malloc(sizeof(double) * (size_t)nf);
    if (!rc && !dW) rc = slpi_error_set(err, SLPI_EINPUT, "le-gap: out of memory");
    for (long r = 0; !rc && r < paths; r++) {
        double hf = T / (double)nf;
        for (long j = 0; j < nf; j++) dW[j] = sqrt(hf) * slpi_noise_normal(seed, (uint64_t)r, 0, (uint64_t)j);
        for (int l = kmin; !rc && l <= kmax; l++) {
            long n = 1L << l, m = nf / n;
            double h = T / (double)n, x[3] = { 0.6, 0.64, 0.48 }, y[3] = { 0.6, 0.64, 0.48 };
            for (long s = 0; !rc && s < n; s++) {
                double w = 0;
                for (long j = 0; j < m; j++) w += dW[s * m + j];
                rc = lie_euler(&g, h, w, x);
                if (!rc) rc = heun(&g, h, w, y);
            }
            double e2 = 0;
            for (int i = 0; i < 3; i++) e2 += (x[i] - y[i]) * (x[i] - y[i]);
            gap2[r * nl + (l - kmin)] = e2;
        }
    }
    if (rc && !err->msg[0]) rc = slpi_error_set(err, SLPI_ENUMERIC, "le-gap: a step failed");
    free(dW);
    free(g.eta);
    slpi_fast_free(f);
    slpi_problem_free(p);
    return rc;
}

int slpi_gaps_le_gap(int control, double T, int kmin, int kmax, long paths, uint64_t seed, double *gap, slpi_error *err)
{
    int nl = kmax - kmin + 1;
    double *gap2 = paths > 0 && nl > 0 ? malloc(sizeof(double) * (size_t)paths * (size_t)nl) : NULL;
    if (!gap2) return slpi_error_set(err, SLPI_EINPUT, "le-gap: levels %d..%d, %ld paths", kmin, kmax, paths);
    int rc = slpi_gaps_le_gap_paths(control, T, kmin, kmax, paths, seed, gap2, err);
    for (int i = 0; !rc && i < nl; i++) {
        double s = 0;
        for (long r = 0; r < paths; r++) s += gap2[r * nl + i] / (double)paths;
        gap[i] = sqrt(s);
    }
    free(gap2);
    return rc;
}
