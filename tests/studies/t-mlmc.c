/* t-mlmc.c — multilevel Monte Carlo to a requested RMSE (studies/mlmc.c; docs/noise.md#mlmc):
 *  - the so(3) weak oracle (iso/so3/weak-exact, phi = x1, exact E x1(T) = exp(-amp^2 T/2)):
 *    R = 20 estimates with the noise seeds seed .. seed + 19 at rmse eps = 0.015, levels
 *    1..12; their root-mean-square error against the exact value must be <= 1.5 eps.
 *    The tolerance was fixed before any run was looked at: each estimate's MSE is meant to
 *    be <= eps^2 (variance <= eps^2/2 by the path counts, bias <= eps/sqrt 2 by the bias
 *    test); the mean of 20 squared errors of mean eps^2 exceeds 2.25 eps^2 with
 *    probability about 5e-4 for Gaussian errors (chi^2_20 / 20 > 2.25);
 *  - it stops only with the bias estimate max(|m_L|, |m_L-1|/2)/(2 - 1) <= eps/sqrt 2;
 *  - every level's paths meet Giles' count N_l >= ceil(2 eps^-2 sqrt(V_l/C_l) sum sqrt(V_k C_k))
 *    at the end, and the estimate's variance sum V_l/N_l is <= eps^2/2 (to rounding);
 *  - the estimate is the same bytes with 1 and 2 threads;
 *  - plain Monte Carlo (plain = 1) keeps one level and meets the variance rule too;
 *  - bad input (rmse 0, levels reversed, a callable phi with a checkpoint) is refused.
 * The seed (SLPI_TEST_SEED) is the first noise seed. */
#include <math.h>
#include <string.h>

#include "core/problem-struct.h"
#include "testutil.h"
#include "studies/mlmc.h"

static slpi_mlmc_cfg oracle_cfg(slpi_problem *p, uint64_t seed, double eps)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, "iso/so3/weak-exact", &err) != SLPI_OK) fprintf(stderr, "%s\n", err.msg);
    p->grid.level = -1;
    p->noise.seed = seed;
    slpi_mlmc_cfg c;
    slpi_mlmc_init(&c, p);
    slpi_conv_phi_set(&c.conv, "x1");
    c.rmse = eps;
    c.l0 = 1;
    c.lmax = 12;
    c.n0 = 200;
    c.conv.threads = 1;
    return c;
}

static char *printed(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    slpi_mlmc_print(c, r, f);
    fclose(f);
    return text;
}

static void check_counts(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, const char *what)
{
    double v = 0;
    for (int j = 0; j < r->nlev; j++) {
        long need = slpi_mlmc_paths_needed(c, r, j);
        TEST_CHECKF(r->n[j] >= need, "%s: level %d has %ld paths, Giles' count %ld", what, c->l0 + j, r->n[j], need);
        v += r->var[j] / (double)r->n[j];
    }
    TEST_CHECKF(v <= c->rmse * c->rmse / 2 * (1 + 1e-12), "%s: variance %.4e > eps^2/2 = %.4e", what, v,
                c->rmse * c->rmse / 2);
}

static int phi_fn(double *v, const double *x, int dim, void *data)
{
    (void)data;
    (void)dim;
    *v = x[0];
    return 0;
}

int main(void)
{
    test_start("t-mlmc", 1);
    uint64_t seed = test_rng_state_;
    const double eps = 0.015, exact = exp(-0.5);
    const int R = 20;
    double se2 = 0;
    slpi_error err = { 0, "" };
    for (int i = 0; i < R; i++) {
        slpi_problem c_p;
        slpi_mlmc_cfg c = oracle_cfg(&c_p, seed + (uint64_t)i, eps);
        slpi_mlmc_result r;
        int rc = slpi_mlmc_run(&c, &r, &err);
        TEST_CHECKF(rc == SLPI_OK, "seed %llu: rc %d: %s", (unsigned long long)(seed + (uint64_t)i), rc, err.msg);
        if (rc != SLPI_OK) continue;
        check_counts(&c, &r, "mlmc");
        TEST_CHECKF(r.converged, "seed %llu: not converged", (unsigned long long)(seed + (uint64_t)i));
        TEST_CHECKF(r.bias <= eps / sqrt(2.0), "seed %llu: stopped with the bias estimate %.3e > eps/sqrt 2",
                    (unsigned long long)(seed + (uint64_t)i), r.bias);
        se2 += (r.estimate - exact) * (r.estimate - exact);
        printf("seed %llu: estimate %.6f (error %+.2e), levels %d..%d, cost %.3e, plain MC %.3e\n",
               (unsigned long long)(seed + (uint64_t)i), r.estimate, r.estimate - exact, c.l0, c.l0 + r.nlev - 1,
               r.total_cost, r.mc_cost);
    }
    double rmse = sqrt(se2 / R);
    printf("empirical RMSE over %d estimates: %.4e (requested %.4e, tolerance 1.5x)\n", R, rmse, eps);
    TEST_CHECKF(rmse <= 1.5 * eps, "empirical RMSE %.4e > 1.5 eps = %.4e", rmse, 1.5 * eps);

    /* thread count: the same bytes */
    slpi_problem c1_p;
    slpi_mlmc_cfg c1 = oracle_cfg(&c1_p, seed, 0.02), c2 = c1;
    c2.conv.threads = 2;
    slpi_mlmc_result r1, r2;
    TEST_CHECK(slpi_mlmc_run(&c1, &r1, &err) == SLPI_OK && slpi_mlmc_run(&c2, &r2, &err) == SLPI_OK);
    char *t1 = printed(&c1, &r1), *t2 = printed(&c2, &r2);
    TEST_CHECKF(!strcmp(t1, t2), "1 and 2 threads print other bytes");
    free(t1);
    free(t2);

    /* plain Monte Carlo: one level, the variance rule */
    slpi_problem cp_p;
    slpi_mlmc_cfg cp = oracle_cfg(&cp_p, seed, 0.02);
    cp.plain = 1;
    cp.l0 = 4;
    slpi_mlmc_result rp;
    TEST_CHECK(slpi_mlmc_run(&cp, &rp, &err) == SLPI_OK);
    TEST_CHECKF(rp.nlev == 1 && rp.converged, "plain: %d levels", rp.nlev);
    check_counts(&cp, &rp, "plain");

    /* bad input */
    slpi_problem cb_p;
    slpi_mlmc_cfg cb = oracle_cfg(&cb_p, seed, 0);
    TEST_CHECKF(slpi_mlmc_run(&cb, &rp, &err) == SLPI_EINPUT && strstr(err.msg, "rmse"), "rmse 0: %s", err.msg);
    cb = oracle_cfg(&cb_p, seed, 0.1);
    cb.l0 = 5;
    cb.lmax = 4;
    TEST_CHECKF(slpi_mlmc_run(&cb, &rp, &err) == SLPI_EINPUT && strstr(err.msg, "levels"), "levels: %s", err.msg);
    cb = oracle_cfg(&cb_p, seed, 0.1);
    cb.conv.phi = SLPI_PHI_FN;
    cb.conv.phi_fn = phi_fn;
    cb.checkpoint = "/nonexistent/ck";
    TEST_CHECKF(slpi_mlmc_run(&cb, &rp, &err) == SLPI_EINPUT && strstr(err.msg, "callable"), "callable: %s", err.msg);
    TEST_END();
}
