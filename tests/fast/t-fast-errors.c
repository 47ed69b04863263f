/* t-fast-errors.c — every error path of fast/ (docs/schemes.md#solver solver policy, docs/systems.md#applicability
 * applicability): non-convergence at a huge step (FAIL, ACCEPT and fixed-iteration
 * policies, with iteration counts and residuals), NaN/Inf states and increments,
 * inapplicable pairs and options, bad parameters and initial conditions. */
#include "fastutil.h"

static slpi_problem base(slpi_system_id s, slpi_scheme_id k)
{
    slpi_problem p;
    slpi_problem_init(&p, s, k);
    return p;
}

/* Creation must fail with SLPI_EINPUT and a message containing `needle`. */
static void expect_reject(const slpi_problem *p, const char *needle, const char *what)
{
    slpi_fast *f = NULL;
    slpi_error err = { 0 };
    int rc = slpi_fast_create(&f, p, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && f == NULL, "%s: expected EINPUT, got %d", what, rc);
    TEST_CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
    slpi_fast_free(f);
}

static void check_rejections(void)
{
    slpi_problem p;
    p = base(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_ISOMP);
    expect_reject(&p, "J-quadratic", "isomp on heavy-top");
    p = base(SLPI_SYS_MANAKOV, SLPI_SCHEME_SVI);
    p.sch.svi_c = -0.25;
    expect_reject(&p, "svi_c=-0.25", "svi c=-1/4 on manakov");
    p = base(SLPI_SYS_MANAKOV, SLPI_SCHEME_SVI);
    p.sch.svi_output = SLPI_SVI_OUT_NODE;
    expect_reject(&p, "node", "svi node output on manakov");
    p = base(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_SVI);
    p.sch.svi_form = SLPI_SVI_FORM_SD;
    expect_reject(&p, "semidirect", "svi-sd on vortices");
    p = base(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
    p.sch.svi_form = SLPI_SVI_FORM_LP;
    expect_reject(&p, "semidirect", "svi-lp on heavy top");
    p = base(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    p.sys.ht.form = SLPI_HT_FORM_SVI;
    p.sys.ht.noise = SLPI_HT_NOISE_NONE;
    expect_reject(&p, "only with svi", "tmk on heavy-top SVI form");
    p = base(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    p.sys.ht.noise = SLPI_HT_NOISE_CASE1;
    expect_reject(&p, "SALT", "case 1 noise in the RKMK form");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
    p.sch.svi_c = 0.3;
    expect_reject(&p, "svi_c", "svi c = 0.3");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_RKMK_HEUN);
    p.sch.dexp_order = 7;
    expect_reject(&p, "dexp_order", "dexp order 7");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.sys.rb.inertia[1] = -1;
    expect_reject(&p, "inertia", "negative inertia");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.grid.h = 0;
    expect_reject(&p, "step size", "h = 0");
    p = base(SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
    p.sys.mk.n = 2;
    expect_reject(&p, "n=2", "manakov n = 2");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_IM_DIRECT);
    p.sol.solver = SLPI_SOLVER_NEWTON;
    expect_reject(&p, "fixed-point", "im newton");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.sys.system = SLPI_SYS_COUNT;
    expect_reject(&p, "unknown system", "system id out of range");
    p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.sch.scheme = SLPI_SCHEME_COUNT;
    expect_reject(&p, "unknown scheme", "scheme id out of range");
}

/* Initial conditions: NaN x0, wrong length; NaN state or increment at a step. */
static void check_bad_states(void)
{
    slpi_problem p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_error err = { 0 };
    slpi_fast *f = NULL;
    p.sys.n_x0 = 3;
    p.sys.x0[0] = NAN;
    p.sys.x0[1] = 0;
    p.sys.x0[2] = 1;
    expect_reject(&p, "x0: entry 1 is not finite", "NaN x0");
    p.sys.x0[0] = 0;
    p.sys.n_x0 = 2;
    expect_reject(&p, "x0: 2 values", "short x0");
    p.sys.n_x0 = 0;
    TEST_CHECK(slpi_fast_create(&f, &p, &err) == 0);
    double y[3] = { 0.1, NAN, 0.3 }, dw[3] = { 0, 0, 0 }, z[3] = { 0.1, 0.2, 0.3 }, dn[3] = { 0, INFINITY, 0 };
    slpi_step_info info;
    TEST_CHECK(slpi_fast_step(f, y, dw, &info) == SLPI_STEP_INVALID && slpi_step_failed(info.status));
    TEST_CHECK(slpi_fast_step(f, z, dn, &info) == SLPI_STEP_INVALID);
    TEST_CHECKF(z[0] == 0.1 && z[1] == 0.2 && z[2] == 0.3, "invalid step must not touch the state");
    TEST_CHECK(fu_diag(f, z, z, "failed") == 2);
    slpi_fast_free(f);
}

/* Huge steps: FAIL reports NOT_CONVERGED (or DIVERGED) with iterations and residual,
 * ACCEPT reports CAPPED, fixed_iters = k does exactly k iterations. */
static slpi_cap_policy g_cap;
static int g_fixed;
static void tw_huge(slpi_problem *p)
{
    p->grid.h = 8.0;
    p->sol.maxit = 20;
    p->sol.on_cap = g_cap;
    p->sol.fixed_iters = g_fixed;
}

static void check_policy(slpi_system_id s, slpi_scheme_id k)
{
    double x[6], dw[3] = { 0.5, -0.3, 0.2 };
    slpi_step_info info;
    g_cap = SLPI_CAP_FAIL;
    g_fixed = 0;
    slpi_fast *f = fu_make(s, k, tw_huge);
    if (!f) return;
    slpi_fast_initial_state(f, x, NULL);
    slpi_step_status st = slpi_fast_step(f, x, dw, &info);
    TEST_CHECKF(st == SLPI_STEP_NOT_CONVERGED || st == SLPI_STEP_DIVERGED, "%s/%s at h=8: status %s",
                slpi_system_name(s), slpi_scheme_name(k), slpi_step_status_name(st));
    TEST_CHECKF(info.iterations >= 1 && info.iterations <= 20 && info.residual > 1e-10,
                "non-convergence report: %d iterations, residual %g", info.iterations, info.residual);
    slpi_fast_free(f);
    g_fixed = 3;
    f = fu_make(s, k, tw_huge);
    slpi_fast_initial_state(f, x, NULL);
    st = slpi_fast_step(f, x, dw, &info);
    TEST_CHECKF(st == SLPI_STEP_CAPPED && info.iterations == 3, "fixed 3: %s after %d", slpi_step_status_name(st),
                info.iterations);
    TEST_CHECK(fu_diag(f, x, NULL, "capped") == 1);
    slpi_fast_free(f);
}

/* A grid given as T (or level) is resolved only by slpi_problem_finish: both paths refuse
 * the problem until then (h = 0.01, T = 1 once ran the default steps), and run its
 * T / h steps after; a key that leaves the grid alone keeps it finished. */
static void check_unfinished(void)
{
    slpi_problem p = base(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_error err = { 0 };
    slpi_ref *r = NULL;
    TEST_CHECK(slpi_problem_set(&p, "h", "0.01", &err) == SLPI_OK && slpi_problem_set(&p, "T", "1", &err) == SLPI_OK);
    expect_reject(&p, "slpi_problem_finish", "T without finish");
    TEST_CHECK(slpi_ref_create(&r, &p, &err) == SLPI_EINPUT && r == NULL && strstr(err.msg, "slpi_problem_finish"));
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK && p.grid.steps == 100);
    TEST_CHECK(slpi_problem_set(&p, "seed", "5", &err) == SLPI_OK);
    slpi_fast *f = NULL;
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_OK, "finished, then seed: %s", err.msg);
    slpi_fast_free(f);
    TEST_CHECK(slpi_problem_set(&p, "level", "3", &err) == SLPI_OK);
    expect_reject(&p, "slpi_problem_finish", "level after finish");
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK && p.grid.steps == 8 && p.grid.h == 0.125);
}

int main(void)
{
    test_start("t-fast-errors", 99);
    check_unfinished();
    check_rejections();
    check_bad_states();
    check_policy(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    check_policy(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    check_policy(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_IM_DIRECT);
    check_policy(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
    TEST_END();
}
