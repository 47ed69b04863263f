/* t-mlmc-summary.c — the numbers an MLMC report states (studies/mlmc.c, docs/noise.md#mlmc),
 * computed again here from the documented formulas:
 *  - slpi_mlmc_summary on made-up sums (1..6 levels, random counts, means, variances, weak
 *    order alpha and rmse): each level's mean s1/n and variance (s2 - s1^2/n)/(n - 1), the
 *    estimate (their sum) and its SE sqrt(sum V_l/N_l), the cost per path (2^l0 at level
 *    l0, 2^l + 2^(l-1) above) and the total over the drawn paths, the bias estimate
 *    max(|m_L|, |m_L-1|/2^alpha)/(2^alpha - 1) (m_L-1 only when it is a difference; none
 *    with one level), plain MC's variance at the top level from its sums of P_L and its
 *    cost ceil(2 var/E^2) 2^L; relative tolerance 1e-12 (a few roundings of each);
 *  - a real estimate (the so(3) weak oracle, levels 1..4): plain MC's variance is the sample
 *    variance of P_L = x1(T) over the top level's own paths (j 2^27, j 2^27 + 1, ... as many
 *    as it drew), computed here from slpi_integrate_ensemble's final states of those paths
 *    at h = T 2^-L; tolerance 1e-9 relative (the same doubles summed in another order: a
 *    pooled variance off by a factor (n + 1)/(n - 1) is 1e-2 away).
 * The seed (SLPI_TEST_SEED) draws the made-up sums and is the estimate's noise seed. */
#include <math.h>
#include <string.h>

#include "core/problem-struct.h"
#include "testutil.h"
#include "studies/mlmc.h"

static int close_rel(double a, double b, double tol)
{
    return a == b || fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* made-up sums of n values of mean m and sample variance v */
static void sums(double *s1, double *s2, long n, double m, double v)
{
    *s1 = m * (double)n;
    *s2 = v * (double)(n - 1) + m * m * (double)n;
}

static void made_up(const slpi_mlmc_cfg *c, long it)
{
    slpi_mlmc_result r;
    memset(&r, 0, sizeof r);
    r.nlev = 1 + (int)test_rand_int(6);
    for (int j = 0; j < r.nlev; j++) {
        r.n[j] = 2 + test_rand_int(5000);
        r.drawn[j] = r.n[j] + (test_rand_int(3) ? 0 : test_rand_int(50));
        double m = test_rand_uniform(-1, 1) * ldexp(1.0, -(int)test_rand_int(12)), v = test_rand_uniform(0, 2);
        sums(&r.s1[j], &r.s2[j], r.n[j], m, v);
        sums(&r.p1[j], &r.p2[j], r.n[j], test_rand_uniform(-1, 1), test_rand_uniform(0, 1));
    }
    slpi_mlmc_summary(c, &r);
    double est = 0, v = 0, total = 0;
    for (int j = 0; j < r.nlev; j++) {
        double n = (double)r.n[j], m = r.s1[j] / n, var = (r.s2[j] - r.s1[j] * r.s1[j] / n) / (n - 1);
        int l = c->l0 + j;
        double cost = j == 0 ? ldexp(1.0, l) : ldexp(1.0, l) + ldexp(1.0, l - 1);
        TEST_CHECKF(close_rel(r.mean[j], m, 1e-12) && close_rel(r.var[j], var, 1e-12) && r.cost[j] == cost,
                    "case %ld level %d: mean %g (want %g), var %g (want %g), cost %g (want %g)", it, l, r.mean[j], m,
                    r.var[j], var, r.cost[j], cost);
        est += m;
        v += var / n;
        total += (double)r.drawn[j] * cost;
    }
    TEST_CHECKF(close_rel(r.estimate, est, 1e-12) && close_rel(r.se, sqrt(v), 1e-12) &&
                    close_rel(r.total_cost, total, 1e-12),
                "case %ld: estimate %g (want %g), se %g (want %g), cost %g (want %g)", it, r.estimate, est, r.se,
                sqrt(v), r.total_cost, total);
    int L = r.nlev - 1;
    double a = pow(2.0, c->alpha), bias = NAN;
    if (r.nlev >= 2) {
        double top = fabs(r.s1[L] / (double)r.n[L]),
               below = r.nlev >= 3 ? fabs(r.s1[L - 1] / (double)r.n[L - 1]) / a : 0;
        bias = fmax(top, below) / (a - 1);
    }
    TEST_CHECKF(isnan(bias) ? isnan(r.bias) : close_rel(r.bias, bias, 1e-12),
                "case %ld (%d levels, alpha %g): bias estimate %g, want %g", it, r.nlev, c->alpha, r.bias, bias);
    double n = (double)r.n[L], vf = (r.p2[L] - r.p1[L] * r.p1[L] / n) / (n - 1);
    double mc = ceil(2 * vf / (c->rmse * c->rmse)) * ldexp(1.0, c->l0 + L);
    TEST_CHECKF(close_rel(r.var_fine, vf, 1e-12) && close_rel(r.mc_cost, mc, 1e-9),
                "case %ld: plain MC's variance %g (want %g), cost %g (want %g)", it, r.var_fine, vf, r.mc_cost, mc);
}

int main(void)
{
    test_start("t-mlmc-summary", 71);
    uint64_t seed = test_rng_state_;
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(&p, "iso/so3/weak-exact", &err) != SLPI_OK) fprintf(stderr, "%s\n", err.msg);
    p.grid.level = -1;
    p.noise.seed = seed;
    slpi_mlmc_cfg c;
    slpi_mlmc_init(&c, &p);
    long iters = test_iters(500);
    for (long it = 0; it < iters; it++) {
        c.l0 = 1 + (int)test_rand_int(6);
        c.alpha = it % 3 == 0 ? 1.0 : test_rand_uniform(0.5, 2.5);
        c.rmse = test_rand_uniform(1e-3, 0.2);
        made_up(&c, it);
    }

    /* a real estimate: plain MC's variance from the top level's own paths */
    slpi_mlmc_init(&c, &p);
    slpi_conv_phi_set(&c.conv, "x1");
    c.rmse = 0.05;
    c.l0 = 1;
    c.lmax = 4;
    c.conv.threads = 1;
    slpi_mlmc_result r;
    int rc = slpi_mlmc_run(&c, &r, &err);
    TEST_CHECKF(rc == SLPI_OK, "mlmc: rc %d: %s", rc, err.msg);
    if (rc == SLPI_OK) {
        int top = r.nlev - 1;
        slpi_problem q = p;
        q.grid.level = c.l0 + top;
        TEST_CHECK(slpi_problem_finish(&q, &err) == SLPI_OK);
        long n = r.drawn[top];
        double *fin = malloc((size_t)n * 3 * sizeof *fin);
        TEST_CHECK(fin && slpi_integrate_ensemble(&q, (uint64_t)top * SLPI_MLMC_LEVEL_PATHS, n, fin) == SLPI_OK);
        double s = 0, ss = 0, k = 0;
        for (long i = 0; fin && i < n; i++)
            if (isfinite(fin[3 * i])) s += fin[3 * i], k++;
        for (long i = 0; fin && i < n; i++)
            if (isfinite(fin[3 * i])) ss += (fin[3 * i] - s / k) * (fin[3 * i] - s / k);
        double vf = ss / (k - 1);
        TEST_CHECKF(k == (double)r.n[top] && close_rel(r.var_fine, vf, 1e-9),
                    "levels %d..%d: plain MC's variance %.17g over %ld paths, theirs here %.17g over %.0f", c.l0,
                    c.l0 + top, r.var_fine, r.n[top], vf, k);
        printf("levels %d..%d, top level's %ld paths: variance of x1(T) %.6g (the report's %.6g)\n", c.l0, c.l0 + top,
               n, vf, r.var_fine);
        free(fin);
    }
    TEST_END();
}
