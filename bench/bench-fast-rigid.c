/* bench-fast-rigid.c — benchmark P2 (fast-path performance): realization-steps per second per core of
 * the so(3) rigid-body ensembles (fast/ensemble.c, structure of arrays), ISOMP-COMM with
 * iso-quad noise (ISO §6.1) and SVI-SO3 with svi-lin noise (SVI §7.1), with OpenMP over
 * blocks of paths. Ratios measured in the same run: SoA kernel vs the general path
 * (slpi_fast_step) and 2 threads vs 1 (the ISO weak study itself, its lower bound and its
 * projection are bench/bench-weak.c's).
 * Times are process CPU seconds (so per core, robust to other load on the machine).
 * Two variants in the same run: the scheme kernels alone on increments made before
 * timing, and the full run with the canonical increments (slpi_noise_increments,
 * core/noise.c) generated per block in chunks of steps: across the paths
 * (slpi_noise_normals_lanes, the layout the lanes read) and, on 1 thread, path by path
 * and transposed to SoA, as the lanes drew them before 26 Nov 2026. */
#include <math.h>
#include <stdlib.h>
#include <omp.h>
#include <stdint.h>
#include <time.h>
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "slpi/fast.h"
#include "slpi/noise.h"
#include "slpi/problem-build.h"
#include "core/noise.h"
#include "fast/ensemble.h"

/* CPU time of the process (all threads): per-core cost even on a shared machine. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t rng = 0x1234567;
static double gauss(void)
{
    uint64_t a = (rng += 0x9e3779b97f4a7c15ULL), b = (rng += 0x9e3779b97f4a7c15ULL);
    a = (a ^ (a >> 31)) * 0xbf58476d1ce4e5b9ULL;
    a ^= a >> 29;
    b = (b ^ (b >> 31)) * 0x94d049bb133111ebULL;
    b ^= b >> 29;
    double u = ((a >> 11) + 0.5) * 0x1p-53, v = (b >> 11) * 0x1p-53;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

enum { BLOCK = 256 };

typedef struct {
    double ns_per_step, mean_iters;
} result;
enum { CHUNK_STEPS = 64 };

/* Canonical increments of steps n0..n0+CHUNK_STEPS-1 of the BLOCK paths from path0,
 * stored step-major in SoA: w[(n * 3 + k) * BLOCK + r]; across the paths
 * (slpi_noise_normals_lanes, as api/ensemble-lanes.c draws them) or path by path. */
static int across_paths = 1;
static void canonical_chunk(uint64_t path0, long n0, double h, double *w)
{
    if (across_paths) {
        for (int k = 0; k < 3; k++)
            slpi_noise_normals_lanes(SLPI_NOISE_BEST, 1, path0, BLOCK, (uint32_t)k, (uint64_t)n0, CHUNK_STEPS,
                                     w + k * BLOCK, 3 * BLOCK);
        const double sigma = sqrt(h);
        for (size_t i = 0; i < (size_t)CHUNK_STEPS * 3 * BLOCK; i++) w[i] = sigma * w[i];
        return;
    }
    double tmp[CHUNK_STEPS];
    for (int r = 0; r < BLOCK; r++)
        for (int k = 0; k < 3; k++) {
            slpi_noise_increments(1, path0 + r, (uint32_t)k, h, 0, (uint64_t)n0, CHUNK_STEPS, tmp, NULL);
            for (int n = 0; n < CHUNK_STEPS; n++) w[((size_t)n * 3 + k) * BLOCK + r] = tmp[n];
        }
}

/* nb blocks of BLOCK paths, `steps` steps each, on `threads` threads; dW == NULL: the
 * canonical increments are generated inside the timed region. */
static result run_soa(const slpi_fast_rb_soa *c, int svi, int nb, int steps, double h, const double *dW, int threads)
{
    double *x = malloc(sizeof *x * 3 * BLOCK * (size_t)nb);
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < 3 * BLOCK; i++)
            x[(size_t)b * 3 * BLOCK + i] = i < BLOCK ? sin(1.1) : i < 2 * BLOCK ? 0 : cos(1.1);
    long iters = 0, bad = 0;
    double t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : iters, bad)
    for (int b = 0; b < nb; b++) {
        double *xb = x + (size_t)b * 3 * BLOCK, wc[CHUNK_STEPS * 3 * BLOCK];
        for (int n = 0; n < steps; n++) {
            const double *w;
            if (dW) {
                w = dW + (size_t)n * 3 * BLOCK; /* the same increments for every block */
            } else {
                if (n % CHUNK_STEPS == 0) canonical_chunk((uint64_t)b * BLOCK, n, h, wc);
                w = wc + (size_t)(n % CHUNK_STEPS) * 3 * BLOCK;
            }
            bad += svi ? slpi_fast_rb_svi_soa(c, BLOCK, h, xb, w, &iters, NULL)
                       : slpi_fast_rb_isomp_soa(c, BLOCK, h, xb, w, &iters, NULL);
        }
    }
    double t = now() - t0, rs = (double)nb * BLOCK * steps;
    if (bad) printf("  (%ld failed path-steps)\n", bad);
    free(x);
    return (result){ 1e9 * t / rs, (double)iters / rs };
}

/* Baseline: the general path, one slpi_fast_step per path and step. */
static double run_general(slpi_fast *f, int np, int steps, const double *dW)
{
    double x[3], t0 = now();
    for (int r = 0; r < np; r++) {
        x[0] = sin(1.1);
        x[1] = 0;
        x[2] = cos(1.1);
        for (int n = 0; n < steps; n++) {
            const double *w = dW + (size_t)n * 3 * BLOCK;
            double d[3] = { w[r], w[BLOCK + r], w[2 * BLOCK + r] };
            slpi_step_info info;
            slpi_fast_step(f, x, d, &info);
        }
    }
    return 1e9 * (now() - t0) / ((double)np * steps);
}

int main(void)
{
    const double T = 0.125;
    const int level = 10, steps = 1 << level;
    const double h = T / steps;
    slpi_error err = { 0 };
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    printf("P2 rigid-body ensembles: h = T 2^-%d, T = %g, blocks of %d paths, %d steps\n", level, T, BLOCK, steps);
    double *dW = malloc(sizeof *dW * 3 * BLOCK * (size_t)steps);
    for (size_t i = 0; i < 3 * (size_t)BLOCK * steps; i++) dW[i] = sqrt(h) * gauss();
    for (int svi = 0; svi < 2; svi++) {
        slpi_problem_init(p, SLPI_SYS_RIGID_BODY, svi ? SLPI_SCHEME_SVI : SLPI_SCHEME_ISOMP);
        if (svi) {
            slpi_system_view *sys = slpi_view_system_edit(p);
            sys->rb.form = SLPI_RB_FORM_ISO;
            sys->rb.inertia[0] = 2;
            sys->rb.inertia[1] = 1;
            sys->rb.inertia[2] = 2.0 / 3;
        }
        slpi_view_grid_edit(p)->h = h;
        slpi_fast_rb_soa c;
        slpi_fast *f = NULL;
        if (slpi_fast_rb_soa_init(&c, p, &err) || slpi_fast_create(&f, p, &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            slpi_problem_free(p);
            return 1;
        }
        const char *name = svi ? "SVI-SO3 (svi-lin)" : "ISOMP-COMM (iso-quad)";
        result r1 = run_soa(&c, svi, 8, steps, h, dW, 1);
        result r2 = run_soa(&c, svi, 16, steps, h, dW, 2);
        result rn = run_soa(&c, svi, 16, steps, h, NULL, 2);
        result rn1 = run_soa(&c, svi, 8, steps, h, NULL, 1);
        across_paths = 0;
        result rp1 = run_soa(&c, svi, 8, steps, h, NULL, 1);
        across_paths = 1;
        double g = run_general(f, 64, steps, dW);
        printf("%-22s 1 thread: %6.2f ns/realization-step (%.3g steps/s/core), %.2f iterations/step\n", name,
               r1.ns_per_step, 1e9 / r1.ns_per_step, r1.mean_iters);
        printf("%-22s 2 threads: %6.2f ns per realization-step per core; scaling ratio %.2f\n", "", r2.ns_per_step,
               r1.ns_per_step / r2.ns_per_step);
        printf("%-22s general path (slpi_fast_step): %6.2f ns/step; SoA speed-up ratio %.2f\n", "", g,
               g / r1.ns_per_step);
        printf("%-22s with canonical noise, 2 threads: %6.2f ns per realization-step per core "
               "(%.3g steps/s/core); noise share %.0f%%\n",
               "", rn.ns_per_step, 1e9 / rn.ns_per_step, 100 * (1 - r2.ns_per_step / rn.ns_per_step));
        printf("%-22s with canonical noise, 1 thread: %6.2f ns/realization-step (noise across the paths), "
               "%6.2f (path by path)\n",
               "", rn1.ns_per_step, rp1.ns_per_step);
        slpi_fast_free(f);
    }
    free(dW);
    slpi_problem_free(p);
    return 0;
}
