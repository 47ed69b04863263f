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
 *     (s = 1, by flipping the sign bit). |Z| <= -Phi^{-1}(2^-54) = 8.1258...
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
 *     exact product v g plus a correction q of at most 8% of |x|; elsewhere g = 0 and A
 *     is Phi^{-1} at the segment centre, with |q| <= 6% of |x|. The last row (p in
 *     [15/32, 1/2)) is expanded about c = 1/2 with a0 = 0, so x keeps full relative
 *     accuracy as p -> 1/2. Error: the final addition (0.5 ulp) plus the rounding errors
 *     of q (a few ulps of a term <= 8% of |x|) plus the table's approximation error
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

/* Philox4x32-10 block b of stream (seed, path, component): the four output words. */
static void noise_block(uint64_t seed, uint64_t path, uint32_t component, uint64_t b,
                        uint32_t r[4])
{
    philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    philox4x32_ctr_t ctr = {{(uint32_t)b, (uint32_t)(b >> 32), component, (uint32_t)path}};
    philox4x32_ctr_t out = philox4x32_R(10, ctr, key);
    memcpy(r, out.v, sizeof out.v);
}

/* Steps 2-4 of the header: the standard normal of one 64-bit word. */
static inline double noise_map(uint64_t w)
{
    const uint64_t m = (w >> 11) & ((UINT64_C(1) << 52) - 1);
    const double p = (double)(int64_t)(2 * m + 1) * 0x1p-54;
    uint64_t bits;
    memcpy(&bits, &p, sizeof bits);
    const int row = (int)((bits >> 52) - (uint64_t)(1023 + NOISE_TABLE_EMIN)) * 8
                    + (int)((bits >> 49) & 7);
    const double *t = noise_table[row];
    const double *a = t + 6;

    const double tau = (p - t[0]) * t[1];
    const double v = p - 0.5;
    const double cv = 134217729.0 * v;
    const double vh = cv - (cv - v);
    const double vl = v - vh;
    const double ph = v * t[3];
    const double pl = ((vh * t[4] - ph) + vh * t[5] + vl * t[4]) + vl * t[5];
    const double q = a[0] + tau * (a[1] + tau * (a[2] + tau * (a[3] + tau * (a[4]
                   + tau * (a[5] + tau * (a[6] + tau * (a[7] + tau * (a[8]
                   + tau * (a[9] + tau * a[10])))))))));
    const double x = (t[2] + ph) + (pl + q);

    uint64_t xb;
    memcpy(&xb, &x, sizeof xb);
    xb ^= w & (UINT64_C(1) << 63);
    double z;
    memcpy(&z, &xb, sizeof z);
    return z;
}

double slpi_noise_word_normal(uint64_t w)
{
    return noise_map(w);
}

double slpi_noise_normal(uint64_t seed, uint64_t path, uint32_t component, uint64_t j)
{
    uint32_t r[4];
    noise_block(seed, path, component, j >> 1, r);
    const int o = (int)(j & 1) * 2;
    return noise_map(((uint64_t)r[o + 1] << 32) | r[o]);
}

void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component,
                        uint64_t first, size_t count, double *out)
{
    size_t i = 0;
    if (count > 0 && (first & 1)) {
        out[i++] = slpi_noise_normal(seed, path, component, first);
    }
    for (; i + 2 <= count; i += 2) {
        uint32_t r[4];
        noise_block(seed, path, component, (first + i) >> 1, r);
        out[i] = noise_map(((uint64_t)r[1] << 32) | r[0]);
        out[i + 1] = noise_map(((uint64_t)r[3] << 32) | r[2]);
    }
    if (i < count) {
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
