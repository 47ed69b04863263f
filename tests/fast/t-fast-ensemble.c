/* t-fast-ensemble.c — the lock-step structure-of-arrays rigid-body ensembles of
 * fast/ensemble.c against the general path (slpi_fast_step) on the same increments:
 * ISOMP-COMM with iso-quad noise and SVI-SO3 (c = +-1/4) with svi-lin noise must agree
 * bit for bit, path by path, including each path's iteration count and failures, for
 * every kernel this processor can run (portable, AVX2, AVX-512F), lane counts that
 * leave a partial group, and solver policies that stop lanes of one group at different
 * iterations for different reasons: tolerance, stagnation (a tolerance below rounding),
 * fixed iterations, a cap accepted or failed, a NaN increment (the lane is invalid), a
 * lane whose sweep overflows into a NaN (diverged at its first iteration while the
 * other lanes go on), and a tolerance relative to the step (tol_scale=step: tol h |x|,
 * h the kernel call's step), and ISOMP's Cayley predictor (predictor=cayley). */
#include "fastutil.h"

typedef struct {
    const char *name;
    double tol;
    int maxit, fixed, fail_on_cap, nan_lane, tol_step, cayley;
} policy;

static const policy policies[] = {
    { "default", 0, 0, 0, 0, 0, 0, 0 },
    { "tol 1e-9 (lanes stop at different iterations)", 1e-9, 0, 0, 0, 0, 0, 0 },
    { "tol 1e-17 (stagnation, caps)", 1e-17, 0, 0, 0, 0, 0, 0 },
    { "fixed_iters 3", 0, 0, 3, 0, 0, 0, 0 },
    { "maxit 3, accept", 0, 3, 0, 0, 0, 0, 0 },
    { "maxit 3, fail", 0, 3, 0, 1, 0, 0, 0 },
    { "a NaN increment in lane 5", 0, 0, 0, 0, 1, 0, 0 },
    { "lane 5 at |x| = 1e300 (its sweep makes a NaN)", 0, 0, 0, 0, 2, 0, 0 },
    { "tol 1e-9 tol_scale=step (relative to h |x|)", 1e-9, 0, 0, 0, 0, 1, 0 },
    { "predictor=cayley", 0, 0, 0, 0, 0, 0, 1 },
    { "predictor=cayley, tol 1e-9", 1e-9, 0, 0, 0, 0, 0, 1 },
    { "predictor=cayley, a NaN increment in lane 5", 0, 0, 0, 0, 1, 0, 1 },
};

static const policy *g_pol;
static double g_c;

static void tw(slpi_problem *p)
{
    p->sch.svi_c = g_c;
    p->grid.h = 1.0 / 16;
    if (g_pol->tol > 0) p->sol.tol = g_pol->tol;
    if (g_pol->maxit > 0) p->sol.maxit = g_pol->maxit;
    p->sol.fixed_iters = g_pol->fixed;
    p->sol.tol_scale = g_pol->tol_step ? SLPI_TOL_STEP : SLPI_TOL_STATE;
    if (g_pol->cayley && p->sch.scheme == SLPI_SCHEME_ISOMP) p->sch.predictor = SLPI_PREDICTOR_CAYLEY;
    p->sol.on_cap = g_pol->fail_on_cap ? SLPI_CAP_FAIL : SLPI_CAP_ACCEPT;
}

static void compare(slpi_scheme_id k, double c, const policy *pol, slpi_fast_isa isa, int nl)
{
    g_c = c;
    g_pol = pol;
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, k, tw);
    if (!f) return;
    slpi_fast_rb_soa soa;
    slpi_error err = { 0 };
    TEST_CHECK(slpi_fast_rb_soa_init(&soa, f->p, &err) == 0);
    soa.isa = isa;
    enum { MAXL = 37, STEPS = 40 };
    double xs[3 * MAXL], xa[MAXL][3], dW[3 * MAXL];
    for (int r = 0; r < nl; r++)
        for (int i = 0; i < 3; i++) xs[i * nl + r] = xa[r][i] = 2 * fu_normal();
    long its_soa = 0, its = 0, bad_soa = 0, bad = 0, flags = 0;
    slpi_fast_lane lane[MAXL];
    for (int n = 0; n < STEPS; n++) {
        for (int i = 0; i < 3 * nl; i++) dW[i] = 4 * sqrt(f->h) * fu_normal();
        if (pol->nan_lane == 1 && nl > 5 && n == STEPS / 2) dW[nl + 5] = NAN;
        if (pol->nan_lane == 2 && nl > 5 && n == STEPS / 2)
            for (int i = 0; i < 3; i++) xs[i * nl + 5] = xa[5][i] = 1e300 * (i + 1);
        bad_soa += k == SLPI_SCHEME_ISOMP ? slpi_fast_rb_isomp_soa(&soa, nl, f->h, xs, dW, &its_soa, lane)
                                          : slpi_fast_rb_svi_soa(&soa, nl, f->h, xs, dW, &its_soa, lane);
        for (int r = 0; r < nl; r++) {
            double w[3] = { dW[r], dW[nl + r], dW[2 * nl + r] };
            slpi_step_info info;
            int fl = slpi_step_failed(slpi_fast_step(f, xa[r], w, &info));
            bad += fl;
            flags += lane[r].status != info.status || lane[r].iterations != info.iterations;
            its += info.iterations;
        }
    }
    int same = 1;
    for (int r = 0; r < nl; r++)
        for (int i = 0; i < 3; i++) same &= memcmp(&xs[i * nl + r], &xa[r][i], sizeof(double)) == 0;
    TEST_CHECKF(same && its == its_soa && bad == bad_soa && flags == 0,
                "%s c=%+.2f %s, %s kernel, %d lanes: bits %s, iterations %ld vs %ld, failures %ld vs %ld"
                " (%ld lane reports differ in status or iterations)",
                slpi_scheme_name(k), c, pol->name, fu_isa_name(isa), nl, same ? "equal" : "differ", its_soa, its,
                bad_soa, bad, flags);
    if (nl == MAXL)
        printf("  %-5s c=%+.2f %-46s %-8s: %ld iterations, %ld failures: %s\n", slpi_scheme_name(k), c, pol->name,
               fu_isa_name(isa), its, bad, same && its == its_soa && bad == bad_soa ? "identical" : "DIFFERENT");
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-fast-ensemble", 31337);
    int lanes[] = { 37, 1, 8, 13 };
    FU_EACH_ISA (isa)
        for (size_t p = 0; p < sizeof policies / sizeof policies[0]; p++)
            for (int l = 0; l < 4; l++) {
                compare(SLPI_SCHEME_ISOMP, 0.25, &policies[p], isa, lanes[l]);
                compare(SLPI_SCHEME_SVI, 0.25, &policies[p], isa, lanes[l]);
                compare(SLPI_SCHEME_SVI, -0.25, &policies[p], isa, lanes[l]);
            }
    TEST_END();
}
