/* t-fast-ensemble.c — the structure-of-arrays rigid-body ensembles of fast/ensemble.c
 * against the general path (slpi_fast_step) on the same increments: ISOMP-COMM with
 * iso-quad noise and SVI-SO3 (c = +-1/4) with svi-lin noise must agree bit for bit,
 * including the iteration counts. */
#include "fastutil.h"

static double g_c;
static void tw(slpi_problem *p) { p->svi_c = g_c; p->h = 1.0 / 64; }

static void compare(slpi_scheme_id k, double c)
{
    g_c = c;
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, k, tw);
    if (!f) return;
    slpi_fast_rb_soa soa;
    slpi_error err = {0};
    TEST_CHECK(slpi_fast_rb_soa_init(&soa, &f->p, &err) == 0);
    enum { NL = 37, STEPS = 200 };
    double xs[3 * NL], xa[NL][3], dW[3 * NL];
    for (int r = 0; r < NL; r++)
        for (int i = 0; i < 3; i++) xs[i * NL + r] = xa[r][i] = fu_normal();
    long its_soa = 0, its = 0, bad = 0;
    for (int n = 0; n < STEPS; n++) {
        for (int i = 0; i < 3 * NL; i++) dW[i] = sqrt(f->p.h) * fu_normal();
        bad += k == SLPI_SCHEME_ISOMP ? slpi_fast_rb_isomp_soa(&soa, NL, f->p.h, xs, dW, &its_soa)
                                      : slpi_fast_rb_svi_soa(&soa, NL, f->p.h, xs, dW, &its_soa);
        for (int r = 0; r < NL; r++) {
            double w[3] = {dW[r], dW[NL + r], dW[2 * NL + r]};
            slpi_step_info info;
            if (slpi_step_failed(slpi_fast_step(f, xa[r], w, &info))) bad++;
            its += info.iterations;
        }
    }
    double dmax = 0;
    for (int r = 0; r < NL; r++)
        for (int i = 0; i < 3; i++) dmax = fmax(dmax, fabs(xs[i * NL + r] - xa[r][i]));
    printf("  %s c=%+.2f: max difference %g, iterations %ld vs %ld\n", slpi_scheme_name(k), c,
           dmax, its_soa, its);
    TEST_CHECKF(dmax == 0 && its == its_soa && bad == 0, "%s soa vs general: %g, its %ld/%ld, bad %ld",
                slpi_scheme_name(k), dmax, its_soa, its, bad);
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-fast-ensemble", 31337);
    compare(SLPI_SCHEME_ISOMP, 0.25);
    compare(SLPI_SCHEME_SVI, 0.25);
    compare(SLPI_SCHEME_SVI, -0.25);
    TEST_END();
}
