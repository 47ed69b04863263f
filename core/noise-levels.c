/* noise-levels.c — the dyadic Brownian hierarchy of the canonical noise (docs/noise.md#coupling,
 * docs/noise.md#refine): increments at any level from the normals of core/noise.c
 * (slpi_noise_increments, slpi_noise_check_work, slpi.h) and whole hierarchies at once
 * (slpi_noise_levels, core/noise.h). Pure functions of their arguments, as core/noise.c.
 *
 * ---- Levels (docs/noise.md#coupling) --------------------------------------------------------------
 * Bottom-up: draws exist at the finest level only. With step size h and `refine` = r,
 * the fine increments are f_j = sigma * Z_j with sigma = sqrt(h * 2^-r) (one correctly
 * rounded square root of an exact product) and Z_j the normals of the stream; the
 * increment of step n is the dyadic pairwise binary64 sum of f_j, j = n 2^r .. (n+1) 2^r
 * - 1: each node of the binary tree is (left child) + (right child). Hence increment n at
 * (h, r) equals, bit for bit, increment 2n plus increment 2n+1 at (h/2, r-1): all levels
 * of a study share one Brownian path. Chosen over a top-down Brownian bridge because a
 * sum needs no extra normals, no square roots of level-dependent variances and keeps
 * each fine increment a plain stream element that a port regenerates alone.
 */
#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/noise.h"

#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "core/noise.h"

/* Fine normals are produced in chunks of NOISE_CHUNK and summed by slpi_noise_tree_add. */
#define NOISE_CHUNK (1 << SLPI_NOISE_CHUNK_LOG)

/* The interrupt flag (core/interrupt.c) is polled after every NOISE_POLL_DRAWS fine draws
 * (about 3 ms at ~3 ns a draw; one relaxed atomic load each), so a generation of at most
 * that many draws never polls: a generation at refine 31 takes seconds per increment, up
 * to 15 minutes in all (SLPI_NOISE_MAX_DRAWS). */
#define NOISE_POLL_DRAWS (1 << 20)

static int noise_interrupted(uint64_t at, slpi_error *err)
{
    return slpi_error_set(err, SLPI_EINTR, "slpi_noise_increments: interrupted at increment %llu",
                          (unsigned long long)at);
}

/* x[i] = sigma x[i], i < n: normals to increments. */
static void noise_scale(double *x, size_t n, double sigma)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = sigma * x[i];
    }
}

void slpi_noise_pair_sums(const double *in, size_t m, double *out)
{
    for (size_t i = 0; i < m; i++) {
        out[i] = in[2 * i] + in[2 * i + 1];
    }
}

void slpi_noise_tree_init(slpi_noise_tree *t, int refine)
{
    t->inner = refine < SLPI_NOISE_CHUNK_LOG ? refine : SLPI_NOISE_CHUNK_LOG;
    t->outer = refine - t->inner;
    t->root = 0;
}

size_t slpi_noise_tree_add(double *out, slpi_noise_tree *t, double *w, size_t len)
{
    size_t m = len;
    for (int level = 0; level < t->inner; level++) {
        m /= 2;
        slpi_noise_pair_sums(w, m, w);
    }
    if (t->outer == 0) { /* w[0..m): whole increments */
        memcpy(out, w, m * sizeof *w);
        return m;
    }
    double acc = w[0]; /* m == 1: one chunk root */
    int k = 0;
    while ((t->root >> k) & 1) { /* root's low set bits: complete the subtrees */
        acc = t->partial[k] + acc;
        k++;
    }
    t->partial[k] = acc;
    if (++t->root < UINT64_C(1) << t->outer) return 0;
    out[0] = acc;
    t->root = 0;
    return 1;
}

int slpi_noise_check_work(uint64_t count, int refine, slpi_error *err)
{
    if (refine < 0 || refine > SLPI_NOISE_MAX_REFINE || count == 0) return SLPI_OK; /* range: checked by the caller */
    if (count > (SLPI_NOISE_MAX_DRAWS >> refine))
        return slpi_error_set(err, SLPI_EINPUT,
                              "refine=%d: %llu increments of 2^%d fine draws each are %.3g draws, "
                              "more than the 2^38 (about 15 minutes) one generation may take (docs/noise.md#refine): "
                              "generate them in pieces (first/--first)",
                              refine, (unsigned long long)count, refine, ldexp((double)count, refine));
    return SLPI_OK;
}

/* The arguments of slpi_noise_increments (slpi.h states the rules). */
static int noise_args_check(double h, int refine, uint64_t first, size_t count, const double *out, slpi_error *err)
{
    const char *who = "slpi_noise_increments";
    if (!(h > 0 && h <= 1e6)) /* also NaN */
        return slpi_error_set(err, SLPI_EINPUT, "%s: h=%g: the step size must be finite and in (0, 1e6]", who, h);
    if (refine < 0 || refine > SLPI_NOISE_MAX_REFINE)
        return slpi_error_set(err, SLPI_EINPUT, "%s: refine=%d: out of range [0, %d]", who, refine,
                              SLPI_NOISE_MAX_REFINE);
    if (count > 0 && !out) return slpi_error_set(err, SLPI_EINPUT, "%s: out is NULL for %zu increments", who, count);
    const uint64_t lim = UINT64_C(1) << (62 - refine);
    if (first >= lim || (uint64_t)count >= lim - first)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: first=%llu, count=%zu, refine=%d: (first + count) 2^refine "
                              "must be below 2^62",
                              who, (unsigned long long)first, count, refine);
    return slpi_noise_check_work(count, refine, err);
}

int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h, int refine, uint64_t first,
                          size_t count, double *out, slpi_error *err)
{
    int rc = noise_args_check(h, refine, first, count, out, err);
    if (rc != SLPI_OK) return rc;
    const double sigma = sqrt(ldexp(h, -refine));
    slpi_noise_tree tree;
    slpi_noise_tree_init(&tree, refine);
    double z[NOISE_CHUNK];
    uint64_t j = first << refine; /* next fine index */
    const uint64_t end = (first + count) << refine;
    size_t n = 0; /* next increment */

    if (refine == 0) { /* the increments are the scaled normals, in blocks between polls */
        for (size_t i = 0; i < count; i += NOISE_POLL_DRAWS) {
            if (i > 0 && slpi_interrupt_pending()) return noise_interrupted(first + i, err);
            const size_t len = count - i < NOISE_POLL_DRAWS ? count - i : NOISE_POLL_DRAWS;
            slpi_noise_normals(seed, path, component, first + i, len, out + i);
            noise_scale(out + i, len, sigma);
        }
        return SLPI_OK;
    }
    for (uint64_t chunks = 0; j < end; chunks++) {
        if (chunks > 0 && chunks % (NOISE_POLL_DRAWS / NOISE_CHUNK) == 0 && slpi_interrupt_pending())
            return noise_interrupted(first + n, err);
        const size_t len = end - j < NOISE_CHUNK ? (size_t)(end - j) : NOISE_CHUNK;
        slpi_noise_normals(seed, path, component, j, len, z);
        j += len;
        noise_scale(z, len, sigma);
        n += slpi_noise_tree_add(out + n, &tree, z, len);
    }
    return SLPI_OK;
}

void slpi_noise_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h, int nup,
                       uint64_t first, size_t count, double *const *lev)
{
    const size_t stride = (size_t)nup + 1;
    const double sigma = sqrt(h); /* slpi_noise_increments at refine 0 */
    slpi_noise_normals_paths(SLPI_NOISE_BEST, seed, path, npaths, component, first, count, lev, stride);
    for (size_t q = 0; q < npaths; q++) {
        double *const *l = lev + q * stride;
        noise_scale(l[0], count, sigma);
        for (int i = 1; i <= nup; i++) {
            slpi_noise_pair_sums(l[i - 1], count >> i, l[i]);
        }
    }
}
