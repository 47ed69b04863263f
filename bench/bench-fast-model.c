/* bench-fast-model.c — the cost of a model described as data on the double path
 * (docs/models.md#speed): two built-ins written as models and evaluated by fast/model.c's
 * automatic differentiation, against the built-ins themselves, per step, every scheme the
 * pair admits, in one run on the same increments:
 *   - the ISO rigid body (models/rigid-body.slpi: the built-in's inertia and iso-quad
 *     noise) against fast/rigid-body.c;
 *   - four point vortices (models/point-vortices.slpi, the twin of the hat-block built-in
 *     `system=point-vortices model=B`: a logarithmic H over six pairs, three shared noises)
 *     against fast/point-vortices.c.
 * The goal (docs/models.md#speed): each model within 3x of its built-in. CPU time of the
 * process, the minimum of 7 alternating repetitions of 20000 steps each (robust to other
 * load on the machine); the load average is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "slpi.h"
#include "bench/benchutil.h"

enum { STEPS = 20000, REPS = 7, M = 3, MAXDIM = 12 };

static double per_step(slpi_fast *f, const double *dW, const double *x0, int dim)
{
    double x[MAXDIM], t0 = bench_cpu();
    memcpy(x, x0, sizeof *x * (size_t)dim);
    for (int n = 0; n < STEPS; n++) {
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, dW + M * n, &info))) {
            fprintf(stderr, "bench-fast-model: step %d failed\n", n);
            exit(1);
        }
    }
    return 1e9 * (bench_cpu() - t0) / STEPS;
}

/* The built-in twin of model file `file` for scheme k. */
static void builtin(slpi_problem *p, const char *file, slpi_scheme_id k)
{
    if (strstr(file, "rigid-body")) {
        slpi_problem_init(p, SLPI_SYS_RIGID_BODY, k);
        slpi_system_view *sys = slpi_view_system_edit(p);
        sys->rb.form = SLPI_RB_FORM_ISO; /* the SVI scheme's default form is svi: the ISO one here */
        sys->rb.inertia[0] = 2;
        sys->rb.inertia[1] = 1;
        sys->rb.inertia[2] = 2.0 / 3;
        sys->rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        sys->rb.amp = 0.1;
    } else {
        slpi_problem_init(p, SLPI_SYS_POINT_VORTICES, k);
        slpi_view_system_edit(p)->pv.model = SLPI_VORTEX_MODEL_B;
    }
    slpi_view_grid_edit(p)->h = 0x1p-8;
}

/* Every scheme on the pair of file, built into the problem storage pb and pm; returns the
 * worst model/built-in ratio, -1 on error. */
static double pair_on(slpi_problem *pb, slpi_problem *pm, const char *file, const double *dW)
{
    double worst = 0;
    printf("%s vs its built-in\n%-12s %12s %12s %14s\n", file, "scheme", "built-in ns", "model ns", "model/built-in");
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        slpi_error err = { 0, "" };
        slpi_fast *fb = NULL, *fm = NULL;
        builtin(pb, file, (slpi_scheme_id)k);
        slpi_problem_init(pm, SLPI_SYS_MODEL, (slpi_scheme_id)k);
        int rc = slpi_problem_load(pm, file, &err);
        if (!rc) {
            slpi_view_scheme_edit(pm)->scheme = (slpi_scheme_id)k;
            slpi_view_grid_edit(pm)->h = 0x1p-8;
        }
        if (!rc && (slpi_problem_validate(pb, &err) || slpi_problem_validate(pm, &err))) {
            printf("%-12s (not applicable)\n", slpi_scheme_name((slpi_scheme_id)k));
            continue;
        }
        if (rc || slpi_fast_create(&fb, pb, &err) || slpi_fast_create(&fm, pm, &err)) {
            fprintf(stderr, "bench-fast-model: %s %s: %s\n", file, slpi_scheme_name((slpi_scheme_id)k), err.msg);
            return -1;
        }
        int dim = slpi_problem_state_dim(pm);
        double x0[MAXDIM], tb = INFINITY, tm = INFINITY;
        memcpy(x0, slpi_view_system(pm)->x0, sizeof *x0 * (size_t)dim);
        for (int r = 0; r < REPS; r++) {
            tb = fmin(tb, per_step(fb, dW, x0, dim));
            tm = fmin(tm, per_step(fm, dW, x0, dim));
        }
        printf("%-12s %12.1f %12.1f %14.2f\n", slpi_scheme_name((slpi_scheme_id)k), tb, tm, tm / tb);
        worst = fmax(worst, tm / tb);
        slpi_fast_free(fb);
        slpi_fast_free(fm);
    }
    return worst;
}

/* pair_on on problems of its own; -1 on error (out of memory said). */
static double pair(const char *file, const double *dW)
{
    slpi_problem *pb = slpi_problem_alloc(), *pm = slpi_problem_alloc();
    double worst = -1;
    if (pb && pm)
        worst = pair_on(pb, pm, file, dW);
    else
        fprintf(stderr, "bench-fast-model: out of memory\n");
    slpi_problem_free(pb);
    slpi_problem_free(pm);
    return worst;
}

int main(void)
{
    double load = NAN;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1) load = NAN;
        fclose(la);
    }
    printf("models vs built-ins, double path, ns per step (min of %d x %d steps, CPU time); load average %.2f\n", REPS,
           STEPS, load);
    double *dW = malloc(sizeof *dW * M * STEPS);
    uint64_t s = 12345;
    for (int i = 0; i < M * STEPS; i++) /* N(0, h) by the canonical generator, h = 2^-8 */
        dW[i] = sqrt(0x1p-8) * slpi_noise_normal(s, 0, (uint32_t)(i % M), (uint64_t)(i / M));
    double w1 = pair("models/rigid-body.slpi", dW), w2 = w1 < 0 ? -1 : pair("models/point-vortices.slpi", dW);
    free(dW);
    if (w2 < 0) return 1;
    la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1) load = NAN;
        fclose(la);
    }
    printf("worst model/built-in: rigid body %.2f, point vortices %.2f (goal <= 3); load average after %.2f\n", w1, w2,
           load);
    return 0;
}
