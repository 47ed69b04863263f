/* t-converge-ou.c — coupled studies under Ornstein-Uhlenbeck noise (docs/noise.md#ou-studies;
 * studies/converge-paths.c, studies/mlmc.c, core/noise-levels.c's slpi_noise_ou_levels):
 *  - the hierarchy: level i of slpi_noise_ou_levels (drawn in segments, eta carried) is, bit
 *    for bit, slpi_noise_ou_steps at (2^i h, refine i) and a plain run's noise source at
 *    that level and refine (its pairwise sums: the coarse increments are the fine sums);
 *  - the engine: a strong study with noise_tau per Hamiltonian (0.05, 0, 0.2) has, bit for
 *    bit, the mean squared errors of plain runs of each level (h_l, refine L - l, the
 *    problem's noise_tau) against a plain run of the reference level: every coarse path,
 *    and so every coupled MLMC level, is a plain run's;
 *  - MLMC level l0 (plain Monte Carlo) sums phi of plain runs at (h_l0, refine 0) under
 *    noise_tau, bit for bit;
 *  - the white-noise limit: at tau = 1e-8 the strong slope is within 0.02 of the white
 *    study's on the same paths, and at tau = 0.1 >> h it is the scheme's deterministic
 *    order (>= 1.5; ISOMP is order 2 on smooth noise); thresholds fixed from the law
 *    (docs/noise.md#ou: the OU increment differs from dW by a variance <= tau);
 *  - refused: the exact white-noise reference under noise_tau, and a noise file. */
#include <math.h>
#include <string.h>

#include "core/problem-struct.h"
#include "core/noise.h"
#include "studies/mlmc.h"
#include "testutil.h"
#include "slpi.h"

#define L_REF 7

static void check_levels(void)
{
    enum { NUP = 3, S = 32, SEGS = 3, NP = 2 };
    slpi_ou_coef o;
    const double h = 0x1p-9, tau = 0.01;
    TEST_CHECK(slpi_noise_ou_coef(&o, tau, h) == 0);
    static double store[NP][NUP + 1][S * SEGS];
    double eta[NP];
    const uint64_t seed = test_rand_u64() % 1000, path = 7;
    for (int q = 0; q < NP; q++) eta[q] = slpi_noise_ou_start(seed, path + (uint64_t)q, 2, &o);
    for (int s = 0; s < SEGS; s++) {
        double buf[NP][NUP + 1][S], *lev[NP * (NUP + 1)];
        for (int q = 0; q < NP; q++)
            for (int i = 0; i <= NUP; i++) lev[q * (NUP + 1) + i] = buf[q][i];
        int rc = slpi_noise_ou_levels(seed, path, NP, 2, h, NUP, &o, eta, (uint64_t)s * S, S, lev, NULL);
        TEST_CHECK(rc == SLPI_OK);
        for (int q = 0; q < NP; q++)
            for (int i = 0; i <= NUP; i++) memcpy(store[q][i] + s * (S >> i), buf[q][i], (S >> i) * sizeof(double));
    }
    for (int q = 0; q < NP; q++)
        for (int i = 0; i <= NUP; i++) {
            double want[S * SEGS], e0 = slpi_noise_ou_start(seed, path + (uint64_t)q, 2, &o);
            int rc = slpi_noise_ou_steps(seed, path + (uint64_t)q, 2, ldexp(h, i), i, &o, 0, (S * SEGS) >> i, &e0, want,
                                         NULL, NULL);
            TEST_CHECKF(rc == SLPI_OK && memcmp(want, store[q][i], ((S * SEGS) >> i) * sizeof(double)) == 0,
                        "seed %llu path %d level +%d: not slpi_noise_ou_steps' bits", (unsigned long long)seed, q, i);
            for (int n = 0; i > 0 && n < (S * SEGS) >> i; n++)
                TEST_CHECK(store[q][i][n] == store[q][i - 1][2 * n] + store[q][i - 1][2 * n + 1]);
        }
    /* a run's source at (2^3 h, refine 3), noise_tau on component 2 only */
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    char hs[32], sd[32];
    snprintf(hs, sizeof hs, "%a", ldexp(h, NUP));
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    int rc = slpi_problem_set(&p, "h", hs, &err) | slpi_problem_set(&p, "steps", "12", &err) |
        slpi_problem_set(&p, "refine", "3", &err) | slpi_problem_set(&p, "truncate", "off", &err) |
        slpi_problem_set(&p, "seed", sd, &err) | slpi_problem_set(&p, "path", "8", &err) |
        slpi_problem_set(&p, "noise_tau", "0,0,0.01", &err);
    slpi_noise_source *src = NULL;
    rc = rc == SLPI_OK ? slpi_noise_source_open(&src, &p, &err) : rc;
    for (long n = 0; rc == SLPI_OK && n < 12; n++) {
        double dw[3];
        rc = slpi_noise_source_step(src, n, dw, &err);
        TEST_CHECKF(rc == SLPI_OK && dw[2] == store[1][NUP][n], "run source step %ld: %a vs %a", n, dw[2],
                    store[1][NUP][n]);
    }
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    slpi_noise_source_close(src);
}

static void study_problem(slpi_problem *p, const char *tau)
{
    slpi_error err = { 0, "" };
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_preset(p, "iso/rigid-body/strong", &err);
    if (tau) rc |= slpi_problem_set(p, "noise_tau", tau, &err);
    TEST_CHECKF(rc == SLPI_OK, "problem: %s", err.msg);
    p->grid.level = -1;
}

/* The state at T of a plain run of level l (refine L_REF - l, or r0 when >= 0) on path p:
 * the fast path stepping on the run's own noise source. phi: its first coordinate. */
static void plain_run(const slpi_problem *base, int l, int r0, long path, double *x)
{
    slpi_problem q = *base;
    q.grid.level = l;
    q.noise.refine = r0 >= 0 ? r0 : L_REF - l;
    q.noise.path = (uint64_t)path;
    slpi_error err = { 0, "" };
    slpi_fast *f = NULL;
    slpi_noise_source *src = NULL;
    int rc = slpi_problem_finish(&q, &err);
    if (rc == SLPI_OK) rc = slpi_fast_create(&f, &q, &err);
    if (rc == SLPI_OK) rc = slpi_fast_initial_state(f, x, &err);
    if (rc == SLPI_OK) rc = slpi_noise_source_open(&src, &q, &err);
    for (long n = 0; rc == SLPI_OK && n < 1L << l; n++) {
        double dw[3];
        slpi_step_info info;
        rc = slpi_noise_source_step(src, n, dw, &err);
        if (rc == SLPI_OK && slpi_step_failed(slpi_fast_step(f, x, dw, &info))) rc = SLPI_ENUMERIC;
    }
    TEST_CHECKF(rc == SLPI_OK, "plain run level %d path %ld: %s", l, path, err.msg);
    slpi_noise_source_close(src);
    slpi_fast_free(f);
}

static void check_engine(void)
{
    slpi_problem p;
    study_problem(&p, "0.05,0,0.2");
    slpi_conv_cfg c;
    slpi_conv_init(&c, &p);
    c.kind = SLPI_CONV_STRONG;
    c.kmin = 2;
    c.kmax = 4;
    c.L = L_REF;
    c.paths = 24;
    c.path0 = test_rand_u64() % 1000;
    c.batches = 1;
    c.boot = 0;
    slpi_conv_result r;
    slpi_error err = { 0, "" };
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    double s[3] = { 0 }, xr[3], x[3];
    for (long k = 0; rc == SLPI_OK && k < c.paths; k++) {
        long path = (long)c.path0 + k;
        plain_run(&p, L_REF, 0, path, xr);
        for (int i = 0; i < 3; i++) {
            plain_run(&p, c.kmin + i, -1, path, x);
            s[i] += (x[0] - xr[0]) * (x[0] - xr[0]) + (x[1] - xr[1]) * (x[1] - xr[1]) + (x[2] - xr[2]) * (x[2] - xr[2]);
        }
    }
    for (int i = 0; rc == SLPI_OK && i < 3; i++)
        TEST_CHECKF(r.cell[SLPI_CONV_SELF][i].mean == s[i] / (double)c.paths,
                    "paths %llu..: level %d: engine %a, plain runs %a", (unsigned long long)c.path0, r.level[i],
                    r.cell[SLPI_CONV_SELF][i].mean, s[i] / (double)c.paths);

    /* MLMC's level l0 under noise_tau: plain runs at (h_l0, refine 0), summed in path order */
    slpi_problem w;
    study_problem(&w, "0.05,0,0.2");
    slpi_mlmc_cfg m;
    slpi_mlmc_init(&m, &w);
    slpi_conv_phi_set(&m.conv, "x1");
    m.rmse = 0.05;
    m.l0 = 3;
    m.lmax = 3;
    m.n0 = 20;
    m.plain = 1;
    m.conv.threads = 1;
    slpi_mlmc_result mr;
    rc = slpi_mlmc_run(&m, &mr, &err);
    TEST_CHECKF(rc == SLPI_OK, "mlmc: %s", err.msg);
    double s1 = 0;
    for (long k = 0; rc == SLPI_OK && k < mr.n[0]; k++) {
        plain_run(&w, 3, 0, k, x);
        s1 += x[0];
    }
    TEST_CHECKF(rc != SLPI_OK || mr.s1[0] == s1, "mlmc level 3 (%ld paths): %a, plain runs %a", mr.n[0], mr.s1[0], s1);
}

static double slope(const char *tau, long path0)
{
    slpi_problem p;
    study_problem(&p, tau);
    slpi_conv_cfg c;
    slpi_conv_init(&c, &p);
    c.kind = SLPI_CONV_STRONG;
    c.kmin = 2;
    c.kmax = 6;
    c.L = 9;
    c.paths = 100;
    c.path0 = (uint64_t)path0;
    c.boot = 0;
    slpi_conv_result r;
    slpi_error err = { 0, "" };
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    return r.fit[SLPI_CONV_SELF].slope;
}

static void check_limit(void)
{
    long path0 = (long)(test_rand_u64() % 100000);
    double white = slope(NULL, path0), tiny = slope("1e-8", path0), smooth = slope("0.1", path0);
    TEST_CHECKF(fabs(tiny - white) <= 0.02, "paths %ld..: slope at tau = 1e-8 %.4f, white %.4f", path0, tiny, white);
    TEST_CHECKF(smooth >= 1.5, "paths %ld..: slope at tau = 0.1 %.4f (white %.4f)", path0, smooth, white);
}

static void check_refused(void)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&p, "iso/so3/weak-exact", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "noise_tau", "0.1", &err) == SLPI_OK);
    p.grid.level = -1;
    slpi_conv_cfg c;
    slpi_conv_init(&c, &p);
    c.kind = SLPI_CONV_WEAK;
    slpi_conv_phi_set(&c, "x1");
    c.exact = 1;
    c.kmin = 2;
    c.kmax = 3;
    c.L = 5;
    c.paths = 4;
    slpi_conv_result r;
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "for white noise only; noise_tau=0.1"), "exact: %s", err.msg);
    c.exact = 0;
    strcpy(p.noise.noise_file, "/nonexistent/noise");
    rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "not a noise file"), "noise file: %s", err.msg);
}

int main(void)
{
    test_start("t-converge-ou", 1);
    check_levels();
    check_engine();
    check_limit();
    check_refused();
    TEST_END();
}
