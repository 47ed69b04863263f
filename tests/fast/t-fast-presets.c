/* t-fast-presets.c — every docs/experiments.md preset (core's slpi_presets), Euler–Zeitlin and
 * sine-Euler included, builds on the double path and takes 20 steps (2 for states of
 * more than 4096 doubles: Euler–Zeitlin N = 128) with canonical increments
 * (slpi_noise_source) without a failed step, and its diagnostics are finite. */
#include "fastutil.h"

int main(void)
{
    test_start("t-fast-presets", 1);
    int n = 0;
    for (const slpi_preset *ps = slpi_presets(); ps->name; ps++) {
        slpi_problem p;
        slpi_error err = { 0 };
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        if (slpi_problem_preset(&p, ps->name, &err) != 0 || slpi_problem_finish(&p, &err) != 0) {
            TEST_CHECKF(0, "preset %s: %s", ps->name, err.msg);
            continue;
        }
        slpi_fast *f = NULL;
        if (slpi_fast_create(&f, &p, &err) != 0) {
            TEST_CHECKF(0, "preset %s: %s", ps->name, err.msg);
            continue;
        }
        slpi_noise_source *src = NULL;
        int dim = slpi_problem_state_dim(&p);
        long steps = dim > 4096 ? 2 : 20;
        if (steps > p.grid.steps) steps = p.grid.steps;
        double *x = malloc((size_t)dim * sizeof *x), *x0 = malloc((size_t)dim * sizeof *x0);
        double *dW = malloc(((size_t)slpi_problem_noise_count(&p) + 1) * sizeof *dW);
        TEST_CHECK(x && x0 && dW);
        int rc = slpi_fast_initial_state(f, x0, &err);
        if (rc == 0) rc = slpi_noise_source_open(&src, &p, &err);
        TEST_CHECKF(rc == 0, "preset %s: %s", ps->name, err.msg);
        memcpy(x, x0, (size_t)dim * sizeof *x);
        for (long s = 0; rc == 0 && s < steps; s++) {
            slpi_step_info info;
            rc = slpi_noise_source_step(src, s, dW, &err);
            TEST_CHECKF(rc == 0, "preset %s noise: %s", ps->name, err.msg);
            if (rc == 0 && slpi_step_failed(slpi_fast_step(f, x, dW, &info))) {
                TEST_CHECKF(0, "preset %s: step %ld %s (%d iterations, residual %g)", ps->name, s,
                            slpi_step_status_name(info.status), info.iterations, info.residual);
                rc = -1;
            }
        }
        slpi_diag d = { 0 };
        slpi_fast_diagnostics(f, x, x0, &d);
        for (int i = 0; i < d.n; i++)
            TEST_CHECKF(isfinite(d.value[i]), "preset %s: diagnostic %s = %g", ps->name, d.name[i], d.value[i]);
        if (src) slpi_noise_source_close(src);
        slpi_fast_free(f);
        free(x);
        free(x0);
        free(dW);
        n++;
    }
    printf("  %d presets ran\n", n);
    TEST_CHECK(n > 0);
    TEST_END();
}
