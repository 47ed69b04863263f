/* bench-noise.c — throughput of the canonical noise (core/noise.c; docs/noise.md#contract; the noise speed work):
 * standard normals per second per core from slpi_noise_normals (the kernel this processor
 * gets: AVX-512 where it has AVX-512F) and from its portable kernels alone
 * (slpi_noise_normals_isa(SLPI_NOISE_PORTABLE, ...)) and its AVX2 kernel forced, increments per second through the hierarchy (refine 0
 * and 4, runs of 4096), one increment per call as core/noise-source.c asks for them
 * (slpi_noise_increments with count 1: the one-number path), an ensemble block's chunk of
 * 64 paths x 64 steps across the paths (slpi_noise_normals_lanes, as api/ensemble-lanes.c
 * draws them) and path by path (slpi_noise_increments, as it drew them before), and, in the same run, a
 * plain libm Box–Muller fed by the same Philox4x32-10 counters, as a ratio. Rates use the
 * thread's CPU time (so that other load on a shared machine does not count),
 * single-threaded; each is the best of TRIALS, with the worst as the spread. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <Random123/philox.h>

#include "slpi.h"
#include "core/noise.h"

#define CHUNK 4096
#define TRIALS 7

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Box–Muller with libm: two normals per Philox block (53-bit uniforms in (0, 1)). */
static void box_muller(uint64_t seed, uint64_t first_block, size_t count, double *out)
{
    philox4x32_key_t key = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
    for (size_t i = 0; i + 2 <= count; i += 2) {
        uint64_t b = first_block + i / 2;
        philox4x32_ctr_t c = { { (uint32_t)b, (uint32_t)(b >> 32), 0, 0 } };
        philox4x32_ctr_t r = philox4x32_R(10, c, key);
        uint64_t w0 = (uint64_t)r.v[1] << 32 | r.v[0], w1 = (uint64_t)r.v[3] << 32 | r.v[2];
        double u1 = ((double)(w0 >> 11) + 0.5) * 0x1p-53;
        double u2 = (double)(w1 >> 11) * 0x1p-53;
        double rad = sqrt(-2 * log(u1));
        out[i] = rad * cos(6.283185307179586 * u2);
        out[i + 1] = rad * sin(6.283185307179586 * u2);
    }
}

typedef enum { CANONICAL, PORTABLE, AVX2, BOX_MULLER, HIER0, HIER4, STEP, LANES, LANES_PER_PATH } kind;
enum { KINDS = LANES_PER_PATH + 1 };

/* Values per CPU second of one kind, over at least `budget` CPU seconds. */
static double rate(kind k, double budget, double *sink)
{
    static double buf[CHUNK];
    size_t done = 0;
    double t0 = cpu_seconds(), t;
    do {
        for (int rep = 0; rep < 64; rep++, done += CHUNK) {
            switch (k) {
            case CANONICAL:
                slpi_noise_normals(1, 0, 0, done, CHUNK, buf);
                break;
            case PORTABLE:
                slpi_noise_normals_isa(SLPI_NOISE_PORTABLE, 1, 0, 0, done, CHUNK, buf);
                break;
            case AVX2:
                slpi_noise_normals_isa(SLPI_NOISE_AVX2, 1, 0, 0, done, CHUNK, buf);
                break;
            case BOX_MULLER:
                box_muller(1, done / 2, CHUNK, buf);
                break;
            case HIER0:
                slpi_noise_increments(1, 0, 0, 0x1p-7, 0, done, CHUNK, buf, NULL);
                break;
            case HIER4:
                slpi_noise_increments(1, 0, 0, 0x1p-7, 4, done, CHUNK, buf, NULL);
                break;
            case LANES: /* an ensemble block's chunk: 64 paths x 64 steps, across the paths */
                slpi_noise_normals_lanes(SLPI_NOISE_BEST, 1, done / 64, 64, 0, 0, 64, buf, 64);
                break;
            case LANES_PER_PATH: /* the same chunk path by path (the lanes before 26 Nov) */
                for (size_t q = 0; q < 64; q++) {
                    slpi_noise_increments(1, done / 64 + q, 0, 0x1p-7, 0, 0, 64, buf + 64 * q, NULL);
                }
                break;
            case STEP:
                for (size_t n = 0; n < CHUNK; n++) {
                    slpi_noise_increments(1, 0, 0, 0x1p-7, 0, done + n, 1, buf + n, NULL);
                }
                break;
            }
            *sink += buf[rep];
        }
        t = cpu_seconds() - t0;
    } while (t < budget);
    return (double)done / t;
}

int main(void)
{
    static const char *what[KINDS] = { "canonical normals (dispatched)",
                                       "canonical normals (portable)",
                                       "canonical normals (AVX2)",
                                       "libm Box-Muller",
                                       "increments, refine 0",
                                       "increments, refine 4",
                                       "increments, 1 per call",
                                       "across 64 paths, 64 steps",
                                       "64 paths x 64 steps, path by path" };
    double sink = 0, best[KINDS] = { 0 }, worst[KINDS];
    for (int k = 0; k < KINDS; k++) worst[k] = INFINITY;
    for (int trial = 0; trial < TRIALS; trial++) { /* interleaved: the same disturbances */
        for (int k = 0; k < KINDS; k++) {
            double r = rate((kind)k, 0.15, &sink);
            best[k] = fmax(best[k], r);
            worst[k] = fmin(worst[k], r);
        }
    }
    for (int k = 0; k < KINDS; k++) {
        printf("bench-noise: %-32s %7.1f M/s per core (worst of %d: %5.1f)%s\n", what[k], best[k] / 1e6, TRIALS,
               worst[k] / 1e6,
               k == CANONICAL ? " target 300 with AVX-512"
                   : k == AVX2
                   ? (slpi_noise_isa_available(SLPI_NOISE_AVX2) ? " target 180" : " (no AVX2 here: portable)")
                   : k == HIER4 ? " increments of 16 draws"
                                : "");
    }
    printf("bench-noise: canonical / Box-Muller %7.2f (portable kernels: %.2f)\n", best[CANONICAL] / best[BOX_MULLER],
           best[PORTABLE] / best[BOX_MULLER]);
    return sink == 12345.678 ? 1 : 0; /* keeps the work observable */
}
