/* noise.c — the canonical noise generator (SPEC §2.1, §2.3; DESIGN §4): Philox4x32-10
 * counters, a bit-reproducible uniform -> standard normal map, and the bottom-up dyadic
 * Brownian hierarchy. Everything here is a pure function of its arguments (no state, no
 * allocation), so any number can be produced alone, in any order, on any thread or rank.
 * The threshold and clipping of SPEC §2.2 are in core/noise-trunc.c.
 *
 * ---- Normal number j of stream (seed, path, component) --------------------------------
 * This paragraph is the contract; an external port (GPU, another language) reproduces
 * the bits from it and core/noise-table.h alone.
 *
 *  1. Philox4x32-10 (Salmon et al., SC'11; Random123's philox4x32_R(10, ctr, key)) with
 *       key = { seed mod 2^32, seed >> 32 }
 *       ctr = { b mod 2^32, b >> 32, component, path },   b = j >> 1 (block index).
 *     The path must be < 2^32 (the entry points that take a problem reject larger ones).
 *     Output words r[0..3]. Normal 2b uses w = r[1]·2^32 + r[0]; normal 2b+1 uses
 *     w = r[3]·2^32 + r[2].
 *  2. From the 64-bit word w: sign bit s = bit 63; m = bits 11..62 (52 bits, i.e.
 *     (w >> 11) mod 2^52); bits 0..10 are unused. The tail probability
 *       p = (2m + 1) / 2^54   in (0, 1/2), an exact binary64 (2m + 1 < 2^53),
 *     and the uniform U = p if s = 0, U = 1 - p if s = 1: U is the midpoint of one of
 *     2^53 equal cells of (0, 1), so its law is symmetric and no cell is privileged.
 *  3. The normal is Z = Phi^{-1}(U), i.e. x = Phi^{-1}(p) < 0 and Z = x (s = 0) or -x
 *     (s = 1, by flipping the sign bit). |Z| <= -Phi^{-1}(2^-54) = 8.2924...
 *  4. x is evaluated from the table row of p (core/noise-table.h, 424 rows): p's binade
 *     e = floor(log2 p) in -54..-2 and the eighth k of the binade (the three mantissa
 *     bits below the leading one) give row = 8 (e + 54) + k, read from p's binary64
 *     representation. With the row t = {c, s, A, g, gh, gl, a0..a10}, in this order, in
 *     binary64, round to nearest, no contraction:
 *       tau = (p - c) * s                         exact (Sterbenz; s a power of two)
 *       v   = p - 0.5                             (exact where g != 0)
 *       cv = 134217729 * v; vh = cv - (cv - v); vl = v - vh          Veltkamp split
 *       ph = v * g; pl = ((vh*gh - ph) + vh*gl + vl*gh) + vl*gl       Dekker: ph+pl = v g
 *       q  = a0 + tau*(a1 + tau*(a2 + ... + tau*(a9 + tau*a10)))      Horner
 *       x  = (A + ph) + (pl + q)
 *     In the top binade (p >= 1/4, |Z| <= 0.6745) A = 0 and g = sqrt(2 pi), so x is the
 *     exact product v g plus a correction q of at most 7.1% of |x|; elsewhere g = 0 and
 *     A is Phi^{-1} at the segment centre, with |q| <= 3.7% of |x|. The last row (p in
 *     [15/32, 1/2)) is expanded about c = 1/2 with a0 = 0, so x keeps full relative
 *     accuracy as p -> 1/2. Error: the final addition (0.5 ulp) plus the rounding errors
 *     of q (a few ulps of a term <= 7.1% of |x|) plus the table's approximation error
 *     (< 2^-57.9 |x|): below 1 ulp of the exact Phi^{-1}(U), which tests/t-noise-normal.c
 *     checks against Arb on >= 10^6 samples, tails included, and on every table row.
 *
 * Why this construction: Phi^{-1} of a precisely defined dyadic uniform is monotone and
 * one-to-one (one 64-bit word per normal, so the index arithmetic is trivial and the
 * truncation count is a plain tail count); it needs no libm transcendental, only + - *
 * and a table read, with no division, square root or data-dependent branch, so it is
 * both fast and bit-identical under any IEEE binary64 compiler that honours
 * -ffp-contract=off. Box-Muller would need our own log, sin and cos to 1/4 ulp and gives
 * pairs; the ziggurat consumes a variable number of words and claims no function value.
 * Throughput (bench/bench-noise.c, -O2, one core of the shared 2-core EPYC): about 85-90
 * M normals/s, twice a libm Box-Muller on the same Philox words; the Philox blocks and
 * the map run 8 lanes side by side (noise_words, noise_map) to overlap their latencies.
 *
 * ---- Levels (SPEC §2.3) --------------------------------------------------------------
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
#include "slpi.h"

#include <math.h>
#include <string.h>

#include <Random123/philox.h>

#include "noise.h"
#include "noise-table.h"

/* Words mapped per batch in slpi_noise_normals (a multiple of 2). */
#define NOISE_LANES 8

/* Step 1 of the header: the 2n words of blocks b .. b+n-1 (n <= NOISE_LANES/2), with
 * Random123's Philox rounds and key schedule applied to the n blocks in lock-step (the
 * rounds of philox4x32_R(10, ...), interleaved so that the multiplications of different
 * blocks overlap; tests/t-noise-normal.c checks the words against philox4x32_R). */
static inline void noise_words(uint64_t seed, uint64_t path, uint32_t component, uint64_t b,
                               int n, uint64_t *w)
{
    philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    philox4x32_ctr_t c[NOISE_LANES / 2];
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        uint64_t bl = b + (uint64_t)l;
        philox4x32_ctr_t cl = {{(uint32_t)bl, (uint32_t)(bl >> 32), component, (uint32_t)path}};
        c[l] = _philox4x32round(cl, key);
    }
    for (int round = 1; round < 10; round++) {
        key = _philox4x32bumpkey(key);
#pragma GCC unroll 4
        for (int l = 0; l < n; l++) {
            c[l] = _philox4x32round(c[l], key);
        }
    }
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        w[2 * l] = ((uint64_t)c[l].v[1] << 32) | c[l].v[0];
        w[2 * l + 1] = ((uint64_t)c[l].v[3] << 32) | c[l].v[2];
    }
}

/* Steps 2-4 of the header on n <= NOISE_LANES words, stage by stage across the words:
 * the same operations on each word, but independent chains side by side, so that the
 * processor overlaps the long Horner latency of one word with the others. */
static inline void noise_map(const uint64_t *w, int n, double *out)
{
    const double *t[NOISE_LANES] = {NULL};   /* (initialised for the compiler's sake) */
    double p[NOISE_LANES], tau[NOISE_LANES] = {0}, q[NOISE_LANES];
#pragma GCC unroll 8
    for (int l = 0; l < n; l++) {
        const uint64_t m = (w[l] >> 11) & ((UINT64_C(1) << 52) - 1);
        p[l] = (double)(int64_t)(2 * m + 1) * 0x1p-54;
        uint64_t bits;
        memcpy(&bits, &p[l], sizeof bits);
        t[l] = noise_table[(int)((bits >> 52) - (uint64_t)(1023 + NOISE_TABLE_EMIN)) * 8
                           + (int)((bits >> 49) & 7)];
        tau[l] = (p[l] - t[l][0]) * t[l][1];
        q[l] = t[l][6 + NOISE_TABLE_DEG];
    }
#pragma GCC unroll 10
    for (int k = NOISE_TABLE_DEG - 1; k >= 0; k--) {
#pragma GCC unroll 8
        for (int l = 0; l < n; l++) {
            q[l] = t[l][6 + k] + tau[l] * q[l];
        }
    }
#pragma GCC unroll 8
    for (int l = 0; l < n; l++) {
        const double v = p[l] - 0.5;
        const double cv = 134217729.0 * v;
        const double vh = cv - (cv - v);
        const double vl = v - vh;
        const double ph = v * t[l][3];
        const double pl = ((vh * t[l][4] - ph) + vh * t[l][5] + vl * t[l][4]) + vl * t[l][5];
        const double x = (t[l][2] + ph) + (pl + q[l]);
        uint64_t xb;
        memcpy(&xb, &x, sizeof xb);
        xb ^= w[l] & (UINT64_C(1) << 63);
        memcpy(&out[l], &xb, sizeof xb);
    }
}

double slpi_noise_word_normal(uint64_t w)
{
    double z;
    noise_map(&w, 1, &z);
    return z;
}

double slpi_noise_normal(uint64_t seed, uint64_t path, uint32_t component, uint64_t j)
{
    uint64_t w[2];
    noise_words(seed, path, component, j >> 1, 1, w);
    return slpi_noise_word_normal(w[j & 1]);
}

void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component,
                        uint64_t first, size_t count, double *out)
{
    size_t i = 0;
    if (count > 0 && (first & 1)) {
        out[i++] = slpi_noise_normal(seed, path, component, first);
    }
    for (; i + NOISE_LANES <= count; i += NOISE_LANES) {
        uint64_t w[NOISE_LANES];
        noise_words(seed, path, component, (first + i) >> 1, NOISE_LANES / 2, w);
        noise_map(w, NOISE_LANES, out + i);
    }
    for (; i < count; i++) {
        out[i] = slpi_noise_normal(seed, path, component, first + i);
    }
}

/* Fine normals are produced in chunks of this many (a multiple of 2). */
#define NOISE_CHUNK 512

void slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                           int refine, uint64_t first, size_t count, double *out)
{
    const double sigma = sqrt(ldexp(h, -refine));
    const uint64_t nfine = UINT64_C(1) << refine;
    double z[NOISE_CHUNK];
    double partial[64];   /* partial[k]: pending left subtree of 2^k fine increments */
    uint64_t j = first << refine;   /* next fine index */
    size_t have = 0, used = 0;      /* z[used..have) are pending normals */

    for (size_t n = 0; n < count; n++) {
        double acc = 0.0;
        for (uint64_t i = 0; i < nfine; i++) {
            if (used == have) {
                uint64_t left = (first + count) * nfine - j;
                have = left < NOISE_CHUNK ? (size_t)left : NOISE_CHUNK;
                slpi_noise_normals(seed, path, component, j, have, z);
                j += have;
                used = 0;
            }
            acc = sigma * z[used++];
            int k = 0;
            while ((i >> k) & 1) {   /* i's low set bits: complete the subtrees */
                acc = partial[k] + acc;
                k++;
            }
            partial[k] = acc;
        }
        out[n] = acc;
    }
}
