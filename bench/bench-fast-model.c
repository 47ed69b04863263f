/* bench-fast-model.c — the cost of a model described as data on the double path
 * (docs/models.md#speed): the ISO rigid body written as a model (models/rigid-body.slpi:
 * the built-in's inertia and iso-quad noise, evaluated by fast/model.c's automatic
 * differentiation) against the built-in (fast/rigid-body.c), per step, every scheme, in
 * one run on the same increments. The goal (docs/models.md#speed): the model within 3x of the
 * built-in. CPU time of the process, the minimum of 7 alternating repetitions of 20000
 * steps each (robust to other load on the machine); the load average is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "slpi.h"
#include "bench/benchutil.h"

enum { STEPS = 20000, REPS = 7 };

static double per_step(slpi_fast *f, const double *dW, const double *x0)
{
    double x[3] = { x0[0], x0[1], x0[2] }, t0 = bench_cpu();
    for (int n = 0; n < STEPS; n++) {
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, dW + 3 * n, &info))) {
            fprintf(stderr, "bench-fast-model: step %d failed\n", n);
            exit(1);
        }
    }
    return 1e9 * (bench_cpu() - t0) / STEPS;
}

int main(void)
{
    double load[3] = { 0 };
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) { if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = NAN; fclose(la); }
    printf("model rigid body (models/rigid-body.slpi) vs built-in, double path, ns per step "
           "(min of %d x %d steps, CPU time); load average %.2f\n", REPS, STEPS, load[0]);
    printf("%-12s %12s %12s %14s\n", "scheme", "built-in ns", "model ns", "model/built-in");
    double *dW = malloc(sizeof *dW * 3 * STEPS);
    uint64_t s = 12345;
    for (int i = 0; i < 3 * STEPS; i++) {   /* N(0, h) by the canonical generator, h = 2^-8 */
        dW[i] = sqrt(0x1p-8) * slpi_noise_normal(s, 0, (uint32_t)(i % 3), (uint64_t)(i / 3));
    }
    const double x0[3] = { 1, 0.5, 0.2 };
    double worst = 0;
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        slpi_problem pb, pm;
        slpi_error err = { 0, "" };
        slpi_fast *fb = NULL, *fm = NULL;
        slpi_problem_init(&pb, SLPI_SYS_RIGID_BODY, (slpi_scheme_id)k);
        pb.rb.form = SLPI_RB_FORM_ISO;   /* the SVI scheme's default form is svi: the ISO one here */
        pb.rb.inertia[0] = 2; pb.rb.inertia[1] = 1; pb.rb.inertia[2] = 2.0 / 3;
        pb.rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        pb.rb.amp = 0.1;
        pb.h = 0x1p-8;
        slpi_problem_init(&pm, SLPI_SYS_MODEL, (slpi_scheme_id)k);
        int rc = slpi_problem_load(&pm, "models/rigid-body.slpi", &err);
        if (!rc) { pm.scheme = (slpi_scheme_id)k; pm.h = 0x1p-8; }
        if (rc || slpi_fast_create(&fb, &pb, &err) || slpi_fast_create(&fm, &pm, &err)) {
            fprintf(stderr, "bench-fast-model: %s: %s\n", slpi_scheme_name((slpi_scheme_id)k), err.msg);
            return 1;
        }
        double tb = INFINITY, tm = INFINITY;
        for (int r = 0; r < REPS; r++) {
            tb = fmin(tb, per_step(fb, dW, x0));
            tm = fmin(tm, per_step(fm, dW, x0));
        }
        printf("%-12s %12.1f %12.1f %14.2f\n", slpi_scheme_name((slpi_scheme_id)k), tb, tm, tm / tb);
        worst = fmax(worst, tm / tb);
        slpi_fast_free(fb);
        slpi_fast_free(fm);
    }
    la = fopen("/proc/loadavg", "r");
    if (la) { if (fscanf(la, "%lf", &load[0]) != 1) load[0] = NAN; fclose(la); }
    printf("worst model/built-in %.2f (goal <= 3); load average after %.2f\n", worst, load[0]);
    free(dW);
    return 0;
}
