/* bench-weak.c — the ISO weak study (docs/experiments.md#iso iso/rigid-body/weak, claim I4): wall and
 * CPU time per coupled path of slpi converge's engine (reports/converge.c) at the paper's
 * levels h = T 2^-7..-13 with the reference T 2^-16, T = 0.125, on a reduced number of
 * paths (BENCH_WEAK_PATHS, default 32), 1 and 2 OpenMP threads; the canonical noise
 * hierarchy alone (slpi_conv_hierarchy); and the projection to the full 10^7 paths
 * against the 8-minute goal. The machine is shared: CPU seconds per path are
 * the robust number, wall seconds depend on the load. */
#include <stdlib.h>
#include <time.h>

#include "core/noise.h"
#include "reports/reports.h"

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    const char *e = getenv("BENCH_WEAK_PATHS");
    long R = e ? atol(e) : 32;
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(&p, "iso/rigid-body/weak", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    p.level = -1;
    /* noise hierarchy alone: 3 components x 2^16 fine normals, summed up to level 7 */
    double *U = malloc(sizeof(double) << 17), *lev[10];
    for (int i = 0; i <= 9; i++) lev[i] = U + (2 << 16) - ((2 << 16) >> i);
    double c0 = cpu();
    int nh = 64;
    for (int r = 0; r < nh; r++)
        for (uint32_t k = 0; k < 3; k++) slpi_noise_levels(1, (uint64_t)r, k, ldexp(p.T, -16), 9, 0, 1 << 16, lev);
    double noise = (cpu() - c0) / nh;
    free(U);
    printf("noise hierarchy: %.2f ms CPU per path (3 x 2^16 normals and sums)\n", 1e3 * noise);
    double per_path_cpu = 0;
    for (int th = 1; th <= 2; th++) {
        slpi_conv_cfg c;
        slpi_conv_init(&c, &p);
        c.kind = SLPI_CONV_WEAK;
        c.kmin = 7;
        c.kmax = 13;
        c.L = 16;
        c.paths = R;
        c.threads = th;
        c.boot = 0;
        slpi_conv_result res;
        double w0 = wall(), t0 = cpu();
        if (slpi_conv_run(&c, NULL, NULL, &res, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        double w = wall() - w0, t = cpu() - t0;
        per_path_cpu = t / (double)R;
        printf("%d thread%s: %ld paths in %.2f s wall, %.2f s CPU: %.1f ms CPU per path, "
               "%.1f solver iterations per step\n", th, th > 1 ? "s" : " ", R, w, t,
               1e3 * per_path_cpu, (double)res.iters / ((double)R * (65536 + 16256)));
    }
    double proj = per_path_cpu * 1e7 / 2;
    printf("projection, 10^7 paths on 2 cores: %.0f s = %.1f h (goal 480 s: %.0fx over); "
           "noise alone %.0f s\n", proj, proj / 3600, proj / 480, noise * 1e7 / 2);
    return 0;
}
