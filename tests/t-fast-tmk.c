/* t-fast-tmk.c — unit test of the Munthe-Kaas-type Lie-group method (fast/tmk.c) on the
 * double path: on every system the scheme applies to, the same steps computed two ways,
 * here and by the certified path, must agree within the oracle's budget, and a state off
 * by 1e-9 must not (tests/schemeutil.h); on the heavy top also with the textbook Rodrigues
 * coefficients and the matrix exponential (exp_form, audit R2), each bitwise different
 * from the default and each within the oracle's budget of the certified path. */
#include "schemeutil.h"

static int form;
static void set_form(slpi_problem *p)
{
    p->ht.exp_form = form;
}

/* The final state of SU_STEPS noisy heavy-top TMK steps on the fast path with exp_form f. */
static void heavy_top_run(int f, double *x)
{
    slpi_problem p;
    slpi_error err;
    slpi_fast *fa = NULL;
    TEST_CHECK(su_problem(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, 128));
    p.ht.exp_form = f;
    double dW[8 * SU_STEPS];
    TEST_CHECK(slpi_problem_noise_count(&p) <= 8);
    su_increments(&p, dW);
    TEST_CHECKF(slpi_fast_problem_initial_state(&p, x, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECKF(slpi_fast_create(&fa, &p, &err) == SLPI_OK, "%s", err.msg);
    for (long n = 0; fa && n < SU_STEPS; n++) {
        slpi_step_info info;
        TEST_CHECK(!slpi_step_failed(slpi_fast_step(fa, x, dW + n * slpi_problem_noise_count(&p), &info)));
    }
    slpi_fast_free(fa);
}

int main(void)
{
    test_start("t-fast-tmk", 1);
    su_fast_vs_ref(SLPI_SCHEME_TMK);
    double x[3][6];
    for (form = 1; form <= 2; form++) su_fast_vs_ref_with(SLPI_SCHEME_TMK, SLPI_SYS_HEAVY_TOP, set_form);
    for (int f = 0; f < 3; f++) heavy_top_run(f, x[f]);
    for (int f = 1; f < 3; f++)   /* really another rounding, not the default again */
        TEST_CHECKF(memcmp(x[0], x[f], sizeof x[0]) != 0, "exp_form %d rounds as the default", f);
    TEST_END();
}
