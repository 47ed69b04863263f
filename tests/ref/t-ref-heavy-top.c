/* t-ref-heavy-top — certified steps on the heavy top (docs/systems.md#heavy-top) and the precision
 * policy of slpi_ref_step:
 *  - TMK, RKMK-LE/HEUN with SALT noise: 0 in C1(X_n) - C1(X_0), C2 likewise (R1);
 *    TMK in fixed-iteration mode (1 chord step) too (Casimirs for any sigma);
 *  - deterministic energy: 0 in H0(X_n) - H0(X_0) for TMK and IM (R4, converged);
 *  - IM keeps the quadratic Casimirs with noise; TRAP provably does not (R3);
 *  - SVI-SD on the gyroscope with the noise cases 1, 2, 3: Casimirs, Noether (R Pi)_z,
 *    and Gamma = R^T e3 (V8, V9, V24), both signs of c;
 *  - UNABLE: a step too large to certify reports UNABLE at the cap, leaves the state
 *    unchanged, and says why (after climbing the precision ladder to the cap); NaN
 *    increments are INVALID. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

static const double mu0[6] = { -0.70710678118654752, 0.70710678118654752, 0,
                               -0.70710678118654752, 0.70710678118654752, 0 };

/* run steps; returns the state (balls) and diagnostics; 0 on a failed step */
static int run(const slpi_problem *p, const double *x0, long steps, double dwamp, arb_ptr x, slpi_ref_diag *d,
               double *rad)
{
    slpi_error err;
    slpi_ref *r;
    if (slpi_ref_create(&r, p, &err) != SLPI_OK) {
        fprintf(stderr, "create: %s\n", err.msg);
        return 0;
    }
    int n = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p), ok = 1;
    arb_ptr xs = _arb_vec_init(n);
    for (int i = 0; i < n; i++) arb_set_d(xs + i, x0[i]);
    _arb_vec_set(x, xs, n);
    *rad = 0;
    for (long s = 0; s < steps && ok; s++) {
        double dW[2] = { dwamp * test_rand_uniform(-1, 1), dwamp * test_rand_uniform(-1, 1) };
        slpi_step_info info;
        ok = slpi_ref_step(r, x, M ? dW : NULL, &info) == SLPI_STEP_CONVERGED;
        if (!ok)
            fprintf(stderr, "step %ld: %s\n", s, slpi_ref_unable_reason(r));
        else if (info.radius > *rad)
            *rad = info.radius;
    }
    slpi_ref_diagnostics(r, x, xs, d);
    _arb_vec_clear(xs, n);
    slpi_ref_free(r);
    return ok;
}

static int zero_in(const slpi_ref_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return arb_contains_zero(d->value + i);
    return 0;
}

int main(void)
{
    test_start("t-ref-heavy-top", 7);
    slpi_problem p;
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    arb_ptr x = _arb_vec_init(15);
    double rad;

    const int orbit_schemes[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_RKMK_LE, SLPI_SCHEME_RKMK_HEUN, SLPI_SCHEME_TMK };
    for (int j = 0; j < 4; j++) {
        slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, orbit_schemes[j]);
        p.sol.fixed_iters = j == 3;
        p.grid.h = 0.05;
        TEST_CHECK(run(&p, mu0, 40, 0.3, x, &d, &rad));
        TEST_CHECKF(zero_in(&d, "C1_dev") && zero_in(&d, "C2_dev"), "%s (fixed %d): Casimirs not certified",
                    slpi_scheme_name(p.sch.scheme), p.sol.fixed_iters);
        TEST_CHECKF(rad < 1e-30, "%s: radius %g", slpi_scheme_name(p.sch.scheme), rad);
    }
    const int energy_schemes[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_IM_DIRECT };
    for (int j = 0; j < 2; j++) {
        slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, energy_schemes[j]);
        p.sys.ht.noise = SLPI_HT_NOISE_NONE;
        p.grid.h = 0.1;
        TEST_CHECK(run(&p, mu0, 30, 0, x, &d, &rad));
        TEST_CHECKF(zero_in(&d, "H0_dev"), "%s: energy", slpi_scheme_name(p.sch.scheme));
    }
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_IM_DIRECT);
    p.grid.h = 0.1;
    TEST_CHECK(run(&p, mu0, 20, 0.3, x, &d, &rad));
    TEST_CHECK(zero_in(&d, "C1_dev") && zero_in(&d, "C2_dev"));
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TRAP_DIRECT);
    p.grid.h = 0.1;
    TEST_CHECK(run(&p, mu0, 20, 0.3, x, &d, &rad));
    TEST_CHECK(!zero_in(&d, "C1_dev") && !zero_in(&d, "C2_dev"));

    /* SVI-SD, gyroscope (docs/systems.md#heavy-top-svi) */
    const double th = 0.15 * 3.14159265358979323846;
    const double gyro[15] = { 0, 0, 1, 0, -sin(th), cos(th), 1, 0, 0, 0, cos(th), sin(th), 0, -sin(th), cos(th) };
    const int cases[] = { SLPI_HT_NOISE_NONE,      SLPI_HT_NOISE_CASE1, SLPI_HT_NOISE_CASE2,
                          SLPI_HT_NOISE_CASE2_PI2, SLPI_HT_NOISE_CASE3, SLPI_HT_NOISE_CASE3_PI };
    for (int j = 0; j < 6; j++)
        for (int sign = -1; sign <= 1; sign += 2) {
            slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
            p.sys.ht.noise = cases[j];
            p.sch.svi_c = 0.25 * sign;
            p.grid.h = 0.05;
            TEST_CHECKF(run(&p, gyro, 20, 0.2, x, &d, &rad), "svi case %d", j);
            TEST_CHECKF(zero_in(&d, "C1_dev") && zero_in(&d, "C2_dev") && zero_in(&d, "p_phi_dev"),
                        "svi case %d c=%g: invariants", j, p.sch.svi_c);
            for (int i = 0; i < 3; i++) /* Gamma_i = (R^T e3)_i = R_{3i} */
                TEST_CHECK(arb_overlaps(x + 3 + i, x + 12 + i));
            TEST_CHECKF(rad < 1e-30, "svi case %d: radius %g", j, rad);
        }

    /* UNABLE at the cap: TMK on the rigid body with h = 1000 (Newton diverges) */
    {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
        p.grid.h = 1000;
        p.cert.prec_max = 256;
        slpi_error err;
        slpi_ref *r;
        TEST_CHECK(slpi_ref_create(&r, &p, &err) == SLPI_OK);
        for (int i = 0; i < 3; i++) arb_set_d(x + i, mu0[i]);
        double dW[3] = { 0.1, 0.1, 0.1 };
        slpi_step_info info;
        TEST_CHECK(slpi_ref_step(r, x, dW, &info) == SLPI_STEP_UNABLE);
        TEST_CHECK(info.prec == 256 && strlen(slpi_ref_unable_reason(r)) > 0);
        for (int i = 0; i < 3; i++) {
            arb_t t;
            arb_init(t);
            arb_set_d(t, mu0[i]);
            TEST_CHECK(arb_equal(x + i, t));
            arb_clear(t);
        }
        printf("UNABLE reason: %s\n", slpi_ref_unable_reason(r));
        /* invalid increments */
        dW[1] = NAN;
        TEST_CHECK(slpi_ref_step(r, x, dW, &info) == SLPI_STEP_INVALID);
        slpi_ref_free(r);
    }
    slpi_ref_diag_clear(&d);
    _arb_vec_clear(x, 15);
    flint_cleanup();
    TEST_END();
}
