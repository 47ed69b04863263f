/* bench-strong.c — the ISO strong studies (Figs. 5 left, 7, 9, 11) at the paper's grid:
 * T = 2^-3, levels 4..9 (h = 2^-7..2^-12) and reference 13 (h = 2^-16), each ISO strong
 * preset (rigid body, Manakov, point vortices, Euler–Zeitlin N = 12) through slpi
 * converge's engine (studies/converge.c) on BENCH_STRONG_PATHS paths (default 16) with 2
 * OpenMP threads: CPU and wall seconds, CPU microseconds per realization-step (8192 + 1008
 * per path), and the projection to the paper's 500 paths on 2 cores against the issue's
 * 5-minute goal. CPU seconds are the robust figure on a shared machine. */
#include <stdlib.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "bench/benchutil.h"
#include "studies/studies.h"
#include "slpi/problem-build.h"

/* The strong study of preset on R paths, built into the problem storage p (the study's
 * base), and its line; 1 on error. */
static int strong_study(slpi_problem *p, const char *preset, long R, double steps)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, preset, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    slpi_view_grid_edit(p)->level = -1;
    slpi_conv_cfg c;
    slpi_conv_init(&c, p);
    c.kind = SLPI_CONV_STRONG;
    c.kmin = 4;
    c.kmax = 9;
    c.L = 13;
    c.paths = R;
    c.threads = 2;
    c.boot = 0;
    slpi_conv_result res;
    double w0 = bench_wall(), t0 = bench_cpu();
    if (slpi_conv_run(&c, NULL, NULL, &res, &err)) {
        fprintf(stderr, "%s: %s\n", preset, err.msg);
        return 1;
    }
    double w = bench_wall() - w0, t = bench_cpu() - t0, proj = t / (double)R * 500 / 2;
    printf("%-22s %6.2f s wall, %7.2f s CPU: %9.3f us CPU per realization-step, %.2f iterations"
           " per step; 500 paths on 2 cores: %8.1f s (goal 300 s: ratio %.2f)\n",
           preset, w, t, 1e6 * t / ((double)R * steps), (double)res.iters / ((double)R * steps), proj, proj / 300);
    return 0;
}

int main(void)
{
    static const char *const presets[] = { "iso/rigid-body/strong", "iso/manakov/strong", "iso/vortices/strong",
                                           "iso/zeitlin/strong" };
    const char *e = getenv("BENCH_STRONG_PATHS");
    long R = e ? atol(e) : 16;
    const double steps = 8192 + 1008; /* reference 2^13, levels 2^4..2^9 */
    printf("bench-strong: ISO strong studies, T = 2^-3, levels 4..9, reference 13 (h = 2^-7..2^-12,"
           " 2^-16), %ld paths, 2 threads; projection to 500 paths on 2 cores (goal 5 min)\n",
           R);
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench-strong: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof presets / sizeof presets[0]; i++)
        rc = strong_study(p, presets[i], R, steps);
    slpi_problem_free(p);
    return rc;
}
