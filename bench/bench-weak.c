/* bench-weak.c — the ISO weak study (Fig. 5 right; preset iso/rigid-body/weak, claim I4)
 * at the paper's grid: T = 2^-3, levels 4..10 (h = 2^-7..2^-13) and reference 13
 * (h = 2^-16), ISOMP with iso-quad noise, canonical noise, through slpi converge's engine
 * (studies/converge.c: lock-step blocks, vector lanes of fast/ensemble.c) on
 * BENCH_WEAK_PATHS paths (default 2048), with 1 and 2 OpenMP threads. Measured in the
 * same run, on the same paths:
 *   - the engine: CPU ns per realization-step (10224 per path: 8192 reference steps and
 *     2^4 + ... + 2^10 coarse ones) and wall seconds;
 *   - the noise alone: the same slpi_noise_levels calls (3 x 8192 fine normals per path
 *     and their pairwise sums), and the step kernel alone: slpi_fast_rb_isomp_soa on
 *     blocks of 64 paths over the same steps and levels on increments made beforehand,
 *     with the default predictor (fast/isomp.c) and, block by block in the same run, with
 *     each other (predictor=euler, cayley, none): iterations per step and ns each, and the
 *     ratios;
 *     noise + kernel (with the predictor) is the lower bound of the engine, printed with
 *     the engine's ratio to it and the noise share;
 *   - the projection of the full study, 10^7 paths, on 2 cores: CPU per path x 10^7 / 2
 *     (the engine's batches are independent; the 2-thread scaling is printed beside it).
 * The machine may be shared: CPU seconds are the robust figure; `uptime` belongs with it. */
#include <math.h>
#include <stdlib.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/noise.h"
#include "slpi/noise.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "fast/ensemble.h"
#include "bench/benchutil.h"
#include "studies/studies.h"

enum { KMIN = 4, KMAX = 10, REF = 13, LANES = 64, TILE = 8 };

static long steps_per_path(void)
{
    long n = 1L << REF;
    for (int k = KMIN; k <= KMAX; k++) n += 1L << k;
    return n;
}

/* The measurements on R paths, the study's problem built into the storage p (the
 * studies' base), the kernel's into q; the exit code. */
static int weak_bench(slpi_problem *p, slpi_problem *q, long R)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, "iso/rigid-body/weak", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    slpi_grid_view *grid = slpi_view_grid_edit(p);
    grid->level = -1;
    const long nsteps = steps_per_path();
    const double rs = (double)R * (double)nsteps;
    printf("bench-weak: ISO weak study at the paper's grid (T = 2^-3, levels %d..%d, reference %d:"
           " h = 2^-7..2^-13, 2^-16), %ld paths, %ld realization-steps per path\n",
           KMIN, KMAX, REF, R, nsteps);

    /* the engine, 1 and 2 threads */
    double eng_cpu[3] = { 0 }, eng_wall[3] = { 0 };
    long iters = 0;
    for (int th = 1; th <= 2; th++) {
        slpi_conv_cfg c;
        slpi_conv_init(&c, p);
        c.kind = SLPI_CONV_WEAK;
        c.kmin = KMIN;
        c.kmax = KMAX;
        c.L = REF;
        c.paths = R;
        c.threads = th;
        c.boot = 0;
        slpi_conv_result res;
        double w0 = bench_wall(), t0 = bench_cpu();
        if (slpi_conv_run(&c, NULL, NULL, &res, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        eng_wall[th] = bench_wall() - w0;
        eng_cpu[th] = bench_cpu() - t0;
        iters = res.iters;
        printf("engine, %d thread%s: %.2f s wall, %.2f s CPU: %.2f ns CPU per realization-step, "
               "%.2f solver iterations per step\n",
               th, th > 1 ? "s" : " ", eng_wall[th], eng_cpu[th], 1e9 * eng_cpu[th] / rs, (double)iters / rs);
    }

    /* the noise alone: the engine's slpi_noise_levels calls (tiles of TILE paths) */
    const long S = 1L << (REF - KMIN);
    double *hier = malloc(sizeof(double) * 2 * TILE * (size_t)S), *lev[TILE * (REF - KMIN + 1)];
    for (int q = 0; q < TILE; q++)
        for (int i = 0; i <= REF - KMIN; i++) lev[q * (REF - KMIN + 1) + i] = hier + (q + 1) * 2 * S - (2 * S >> i);
    double sink = 0, t0 = bench_cpu();
    for (long r = 0; r < R; r += TILE)
        for (uint32_t k = 0; k < 3; k++)
            for (long seg = 0; seg < 1L << KMIN; seg++) {
                slpi_noise_levels(slpi_view_noise(p)->seed, (uint64_t)r, TILE, k, ldexp(grid->T, -REF), REF - KMIN,
                                  (uint64_t)(seg * S), (size_t)S, lev);
                sink += lev[REF - KMIN][0];
            }
    double noise = bench_cpu() - t0;
    free(hier);

    /* the step kernel alone: blocks of LANES paths, every level, increments made before */
    slpi_fast_rb_soa soa;
    slpi_problem_copy(q, p);
    slpi_view_grid_edit(q)->level = REF;
    if (slpi_problem_finish(q, &err) || slpi_fast_rb_soa_init(&soa, q, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const long nw = 3L * LANES * 4096;
    double *dW = malloc(sizeof *dW * (size_t)nw), x[3 * LANES];
    for (long i = 0; i < nw; i++) dW[i] = slpi_noise_normal(7, 0, 0, (uint64_t)i);
    /* the predictors, block by block in the same run: the default (the problem's), then the others */
    enum { NV = 3 };
    const int def = soa.predict;
    int var[NV] = { def, 0, 0 };
    for (int v = 1, o = 0; v < NV; o++)
        if (o != def) var[v++] = o;
    static const char *const vname[] = { "predictor=none", "predictor=euler", "predictor=cayley" };
    double kt[NV] = { 0 };
    long kit[NV] = { 0 };
    double *w = malloc(sizeof *w * (size_t)nw);
    for (long b = 0; b < R / LANES; b++) {
        for (int l = KMIN; l <= REF; l += l == KMAX ? REF - KMAX : 1) {
            const double h = ldexp(grid->T, -l), sh = sqrt(h);
            for (long i = 0; i < nw; i++) w[i] = sh * dW[i];
            for (int v = 0; v < NV; v++) {
                soa.predict = var[v];
                for (int i = 0; i < 3 * LANES; i++) x[i] = i < LANES ? 0.0 : i < 2 * LANES ? 0.6 : 0.8;
                t0 = bench_cpu();
                for (long n = 0; n < 1L << l; n++)
                    slpi_fast_rb_isomp_soa(&soa, LANES, h, x, w + (size_t)(n % 4096) * 3 * LANES, &kit[v], NULL);
                kt[v] += bench_cpu() - t0;
                sink += x[0];
            }
        }
    }
    free(w);
    free(dW);
    const double kernel = kt[0];
    const double lower = noise + kernel;
    printf("noise alone: %.2f ns per realization-step (%.1f M normals/s); step kernel alone (%s, the "
           "default): %.2f ns per realization-step (%.2f iterations per step, %s lanes)\n",
           1e9 * noise / rs, 3.0 * (double)R * (double)(1L << REF) / noise / 1e6, vname[def], 1e9 * kernel / rs,
           (double)kit[0] / rs,
           soa.isa == SLPI_FAST_ISA_AVX512     ? "AVX-512"
               : soa.isa == SLPI_FAST_ISA_AVX2 ? "AVX2"
                                               : "portable");
    for (int v = 1; v < NV; v++)
        printf("step kernel with %s (same run): %.2f ns per realization-step (%.2f iterations per "
               "step); %s / this: %.3f in time, %.3f in iterations\n",
               vname[var[v]], 1e9 * kt[v] / rs, (double)kit[v] / rs, vname[def], kt[0] / kt[v],
               (double)kit[0] / (double)kit[v]);
    printf("lower bound (noise + kernel): %.2f ns per realization-step; engine / lower bound: %.2f; "
           "noise share of the engine: %.0f%%\n",
           1e9 * lower / rs, eng_cpu[1] / lower, 100 * noise / eng_cpu[1]);
    const double proj = eng_cpu[1] / (double)R * 1e7 / 2, projlb = lower / (double)R * 1e7 / 2;
    printf("projection, 10^7 paths on 2 cores: %.0f s = %.1f min (goal 12 min: ratio %.2f); at the "
           "lower bound %.1f min; measured 2-thread scaling %.2f (wall 1 / wall 2)\n",
           proj, proj / 60, proj / 720, projlb / 60, eng_wall[1] / eng_wall[2]);
    return sink == 12345.678 ? 1 : 0; /* keeps the work observable */
}

int main(void)
{
    const char *e = getenv("BENCH_WEAK_PATHS");
    long R = e ? atol(e) : 2048;
    R = R < LANES ? LANES : R / LANES * LANES;
    slpi_problem *p = slpi_problem_alloc(), *q = slpi_problem_alloc();
    int rc = 1;
    if (p && q)
        rc = weak_bench(p, q, R);
    else
        fprintf(stderr, "bench-weak: out of memory\n");
    slpi_problem_free(p);
    slpi_problem_free(q);
    return rc;
}
