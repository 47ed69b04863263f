/* t-ref-tmk.c — unit test of the Munthe-Kaas-type Lie-group method (ref/tmk.c) on the
 * certified path: the steps at 128 and at 256 bits overlap (both contain the exact step)
 * and the wider precision is narrower; and the scheme keeps every Casimir (its balls of C - C(x0) contain 0), on every system it applies to
 * (tests/schemeutil.h); and the solver's iteration cap grows with the precision: one
 * sine-Euler step at h = 0.5 (a slow contraction of the midpoint iteration) is certified
 * at 640, 768 and 1024 bits (a fixed cap of 200 made it UNABLE from 768 bits on). */
#include "schemeutil.h"

static void cap_scales_with_precision(void)
{
    const long precs[] = { 640, 768, 1024 };
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        slpi_problem p;
        slpi_error err = { 0, "" };
        slpi_run_result res;
        slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_TMK);
        p.grid.h = 0.5;
        p.grid.steps = 1;
        p.cert.prec = p.cert.prec_max = precs[i];
        int rc = slpi_problem_finish(&p, &err);
        if (rc == SLPI_OK) rc = slpi_run(&p, slpi_ref_path(), NULL, 0, NULL, &res, &err);
        TEST_CHECKF(rc == SLPI_OK, "sine-Euler h = 0.5 at %ld bits: %s", precs[i], err.msg);
    }
}

int main(void)
{
    test_start("t-ref-tmk", 1);
    su_ref_structure(SLPI_SCHEME_TMK, SU_KEEPS_CASIMIRS);
    cap_scales_with_precision();
    TEST_END();
}
