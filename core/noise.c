/* noise.c — the canonical noise generator (docs/noise.md#increments, docs/noise.md#contract): Philox4x32-10
 * counters and a bit-reproducible uniform -> standard normal map, with the portable
 * kernels and the choice of kernel. Everything here is a pure function of its arguments
 * (no state, no allocation), so any number can be produced alone, in any order, on any
 * thread or rank. Step 1 for one block and steps 2-4 are in core/noise-kernel.h (shared
 * with the x86-64 kernels of core/noise-avx.c); the bottom-up dyadic Brownian hierarchy
 * (docs/noise.md#coupling) is in core/noise-levels.c, the threshold and clipping of
 * docs/noise.md#truncation in core/noise-trunc.c.
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
 *     (< 2^-57.9 |x|): below 1 ulp of the exact Phi^{-1}(U), which tests/core/t-noise-normal.c
 *     checks against Arb on >= 10^6 samples, tails included, and on every table row.
 *
 * Why this construction: Phi^{-1} of a precisely defined dyadic uniform is monotone and
 * one-to-one (one 64-bit word per normal, so the index arithmetic is trivial and the
 * truncation count is a plain tail count); it needs no libm transcendental, only + - *
 * and a table read, with no division, square root or data-dependent branch, so it is
 * both fast and bit-identical under any IEEE binary64 compiler that honours
 * -ffp-contract=off. Box-Muller would need our own log, sin and cos to 1/4 ulp and gives
 * pairs; the ziggurat consumes a variable number of words and claims no function value.
 * ---- Speed (every bit as above) ----------------------------------------------------
 * slpi_noise_normals works in batches and keeps the bits of slpi_noise_normal, which is
 * Random123's philox4x32_R plus noise_map on one word (tests/core/t-noise-batch.c checks
 * every kernel against it; tests/kat/noise.sha256 pins the bits for gcc -O0..-O3
 * -march=native and clang):
 *  - portable kernels: Philox for up to 32 blocks in lock-step, two blocks per SSE2
 *    register with pmuludq for the 32x32->64 products (noise_words; Random123 block by
 *    block off x86), then the map on 8 words at a time as 4 independent pairs of GNU C
 *    vectors (noise_map), the 17 row entries gathered lane by lane. A short run or tail
 *    is rounded up to a multiple of 8 normals; runs of <= 4 go one by one.
 *  - AVX-512 kernel, chosen at run time where the processor has AVX-512F (runs of >= 96;
 *    below, its set-up costs more than it saves): Philox for a span of 256 normals at 8
 *    blocks per register, then the map on 8 words per register with the top 32 table
 *    rows (4 binades, 15/16 of all draws) held in registers column by column, so that
 *    each of the 13 entries that vary within a binade costs two vpermt2pd and a blend
 *    per 8 lanes instead of 8 loads, and each of the 4 that do not one vpermpd; the 1/16 of lanes below those rows are collected without a branch
 *    (vpcompressq) and mapped by the portable noise_map at the end of the span.
 *  - increments: each chunk of 2048 fine normals is scaled and summed level by level in
 *    place.
 * The floating-point operations are the header's, in its order, each a correctly rounded
 * binary64 + - x; the vector forms only run several lanes at once. Products and sums
 * stay apart because the library is built with -ffp-contract=off (the AVX-512 target
 * has fused multiply-adds; objdump shows none in any build of tests/toolchain/t-noise-builds.sh).
 * Measured by bench/bench-noise.c (gcc 12 -O2, thread CPU time, one core of the shared
 * 2-core AMD EPYC (Zen 4, 3.6 GHz) at load 4-10, best of 7 over four runs, the worst
 * of the 28 trials in brackets): 221-234 (172) M normals/s, 5.1-5.2x a libm Box-Muller on
 * the same Philox words (43-45 M/s); the portable kernels alone 118-127 (97) M/s;
 * before this work 77-89 M/s. Increments: 173-205 M/s at refine 0, 165-198 M fine
 * draws/s at refine 4; one increment per call (core/noise-source.c's pattern, the
 * one-number path) 22-25 M/s. Where the AVX-512 kernel's ~4.4 ns per normal go
 * (measured by switching parts off): Philox 0.9 ns, the lanes below the fast rows
 * 0.6 ns, the map 2.9 ns (~13 instructions a normal). The portable map is bounded the same
 * way with ~50 instructions per normal (17 of them gathering the row entries).
 * The columns s, g, gh and gl are constant within each of the four fast binades, so one
 * vpermpd on the binade reads each of them in place of two vpermt2pd and a blend (8 of
 * ~95 instructions per 8 lanes, the same bits). Tried on 23 Nov 2026 and not kept
 * (bench/bench-noise 331-338 M/s with it against 337-338 without, load ~6); kept on
 * 29 Nov with the lanes' kernel measured alone in alternating runs (64 paths x 64 steps
 * x 3 components, thread CPU time, load 12): 3.91-3.98 ns a normal against 4.11-4.30,
 * one path's runs 4.12-4.15 against 4.29-4.40. Switching parts off (same runs) puts the
 * table reads at 1.5 ns of the lanes' 4.2 ns a normal and Philox with the stores at 1.2;
 * four registers' Horner chains interleaved gained nothing, so the map is bound by its
 * instruction count, not by a chain. The lanes' kernel also computes the Philox rounds
 * 0-2 that its eight paths share once per block (0.08 ns a normal).
 */
#include "slpi/noise.h"

#include <math.h>
#include <string.h>

#include "core/cpu.h"
#include "core/noise.h"
#include "core/noise-kernel.h"

/* Philox blocks per batch of slpi_noise_normals: 2 NOISE_BLOCKS normals at a time; runs
 * of at most NOISE_SINGLE_MAX normals go one by one (a batch of 8 costs more). */
#define NOISE_BLOCKS 32
#define NOISE_SINGLE_MAX 4

#if defined(__SSE2__)
#include <emmintrin.h>
#include <stdint.h>
#include <stddef.h>
/* Step 1 for blocks b .. b+n-1 (n a multiple of 4, <= NOISE_BLOCKS) with SSE2 (baseline
 * on x86-64): the ten rounds of Random123 (PHILOX_M4x32_*, noise_round_keys), two blocks
 * per 128-bit register, one 64-bit lane per block holding each 32-bit counter word in
 * its low half, so that pmuludq forms the two 32x32->64 products of a round directly
 * (the high halves of the lanes carry junk that only ever reaches other high halves).
 * Two registers (four blocks) go through the rounds together to overlap the multiply
 * latencies. tests/core/t-noise-batch.c checks the words, through the normals, against
 * philox4x32_R. */
static void noise_words(uint64_t seed, uint64_t path, uint32_t component, uint64_t b, int n, uint64_t *w)
{
    uint32_t k0[10], k1[10];
    noise_round_keys(seed, k0, k1);
    __m128i kv0[10], kv1[10];
    for (int round = 0; round < 10; round++) {
        kv0[round] = _mm_set1_epi64x(k0[round]);
        kv1[round] = _mm_set1_epi64x(k1[round]);
    }
    const __m128i m0 = _mm_set1_epi64x(PHILOX_M4x32_0), m1 = _mm_set1_epi64x(PHILOX_M4x32_1);
    const __m128i lo32 = _mm_set1_epi64x(0xffffffff);
    for (int l = 0; l < n; l += 4) {
        __m128i x0[2], x1[2], x2[2], x3[2];
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            const uint64_t bl = b + (uint64_t)(l + 2 * h);
            x0[h] = _mm_set_epi64x((long long)(bl + 1), (long long)bl);
            x1[h] = _mm_srli_epi64(x0[h], 32);
            x2[h] = _mm_set1_epi64x(component);
            x3[h] = _mm_set1_epi64x((uint32_t)path);
        }
#pragma GCC unroll 10
        for (int round = 0; round < 10; round++) {
#pragma GCC unroll 2
            for (int h = 0; h < 2; h++) {
                const __m128i p0 = _mm_mul_epu32(x0[h], m0), p1 = _mm_mul_epu32(x2[h], m1);
                x0[h] = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(p1, 32), x1[h]), kv0[round]);
                x2[h] = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(p0, 32), x3[h]), kv1[round]);
                x1[h] = p1;
                x3[h] = p0;
            }
        }
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            const __m128i even = _mm_or_si128(_mm_slli_epi64(x1[h], 32), _mm_and_si128(x0[h], lo32));
            const __m128i odd = _mm_or_si128(_mm_slli_epi64(x3[h], 32), _mm_and_si128(x2[h], lo32));
            _mm_storeu_si128((__m128i *)(w + 2 * (l + 2 * h)), _mm_unpacklo_epi64(even, odd));
            _mm_storeu_si128((__m128i *)(w + 2 * (l + 2 * h) + 2), _mm_unpackhi_epi64(even, odd));
        }
    }
}
#else
/* Step 1 for blocks b .. b+n-1, one block after the other. */
static void noise_words(uint64_t seed, uint64_t path, uint32_t component, uint64_t b, int n, uint64_t *w)
{
    for (int l = 0; l < n; l++) {
        noise_block(seed, path, component, b + (uint64_t)l, w + 2 * l);
    }
}
#endif

/* One word through noise_map (in lane 0). */
static double noise_map1(uint64_t w)
{
    const uint64_t wv[2] = { w, w };
    double z[2];
    noise_map(wv, z, 1);
    return z[0];
}

double slpi_noise_word_normal(uint64_t w)
{
    return noise_map1(w);
}

double slpi_noise_normal(uint64_t seed, uint64_t path, uint32_t component, uint64_t j)
{
    uint64_t w[2];
    noise_block(seed, path, component, j >> 1, w);
    return noise_map1(w[j & 1]);
}

int slpi_noise_isa_available(int isa)
{
    switch (isa) {
    case SLPI_NOISE_PORTABLE:
    case SLPI_NOISE_BEST:
        return 1;
#ifdef NOISE_AVX512
    case SLPI_NOISE_AVX2:
        return slpi_cpu_supports(SLPI_CPU_AVX2);
    case SLPI_NOISE_AVX512:
        return slpi_cpu_supports(SLPI_CPU_AVX512);
#endif
    default:
        return 0;
    }
}

void slpi_noise_normals_paths(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                              size_t count, double *const *out, size_t stride)
{
    const size_t head = count > 0 && (first & 1);
#ifdef NOISE_AVX512
    const size_t n512 = count - head >= NOISE_AVX512_MIN && (isa == SLPI_NOISE_BEST || isa == SLPI_NOISE_AVX512) &&
            slpi_noise_isa_available(SLPI_NOISE_AVX512)
        ? (count - head) & ~(size_t)15
        : 0;
    const size_t n256 = !n512 && count - head >= NOISE_AVX512_MIN &&
            (isa == SLPI_NOISE_BEST || isa == SLPI_NOISE_AVX2) && slpi_noise_isa_available(SLPI_NOISE_AVX2)
        ? (count - head) / (4 * NOISE_AVX2_W) * (4 * NOISE_AVX2_W)
        : 0;
    noise512_setup u;
    if (n512) slpi_noise_avx512_prepare(&u, seed);
#else
    (void)isa;
    const size_t n512 = 0, n256 = 0;
#endif
    for (size_t q = 0; q < npaths; q++) {
        const uint64_t pq = path + q;
        double *const o = out[q * stride];
        size_t i = 0;
        if (head) {
            o[i++] = slpi_noise_normal(seed, pq, component, first);
        }
#ifdef NOISE_AVX512
        if (n512) {
            slpi_noise_avx512_normals(&u, pq, component, first + i, n512, o + i);
        } else if (n256) {
            slpi_noise_avx2_normals(seed, pq, component, first + i, n256, o + i);
        }
        i += n512 + n256;
#endif
        while (count - i > NOISE_SINGLE_MAX) { /* batches; the last one rounded up */
            uint64_t w[2 * NOISE_BLOCKS];
            double z[2 * NOISE_BLOCKS];
            const size_t left = count - i;
            const int nw = left < 2 * NOISE_BLOCKS ? (int)((left + 7) & ~(size_t)7) : 2 * NOISE_BLOCKS;
            double *to = left >= (size_t)nw ? o + i : z;
            noise_words(seed, pq, component, (first + i) >> 1, nw / 2, w);
            for (int l = 0; l < nw; l += NOISE_VL) {
                noise_map(w + l, to + l, NOISE_VH);
            }
            const size_t done = left < (size_t)nw ? left : (size_t)nw;
            if (to == z) {
                memcpy(o + i, z, done * sizeof *z);
            }
            i += done;
        }
        for (; i < count; i++) {
            o[i] = slpi_noise_normal(seed, pq, component, first + i);
        }
    }
}

void slpi_noise_normals_lanes(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                              size_t count, double *out, size_t stride)
{
    size_t i = 0;
    if (count > 0 && (first & 1)) { /* an odd start: one normal a path */
        for (size_t q = 0; q < npaths; q++) {
            out[q] = slpi_noise_normal(seed, path + q, component, first);
        }
        i = 1;
    }
#ifdef NOISE_AVX512
    if (count - i >= 2 && (isa == SLPI_NOISE_BEST || isa == SLPI_NOISE_AVX512) &&
        slpi_noise_isa_available(SLPI_NOISE_AVX512)) {
        noise512_setup u;
        slpi_noise_avx512_prepare(&u, seed);
        const size_t n2 = (count - i) & ~(size_t)1;
        slpi_noise_avx512_lanes(&u, path, npaths, component, first + i, n2, out + i * stride, stride);
        i += n2;
    }
#endif
    while (i < count) { /* elsewhere (and an odd end): path by path, in pieces */
        double z[2 * NOISE_BLOCKS * 4];
        const size_t len = count - i < sizeof z / sizeof z[0] ? count - i : sizeof z / sizeof z[0];
        for (size_t q = 0; q < npaths; q++) {
            double *to = z;
            slpi_noise_normals_paths(isa == SLPI_NOISE_AVX512 ? SLPI_NOISE_BEST : isa, seed, path + q, 1, component,
                                     first + i, len, &to, 1);
            for (size_t t = 0; t < len; t++) {
                out[(i + t) * stride + q] = z[t];
            }
        }
        i += len;
    }
}

void slpi_noise_normals_isa(int isa, uint64_t seed, uint64_t path, uint32_t component, uint64_t first, size_t count,
                            double *out)
{
    slpi_noise_normals_paths(isa, seed, path, 1, component, first, count, &out, 1);
}

void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component, uint64_t first, size_t count, double *out)
{
    slpi_noise_normals_isa(SLPI_NOISE_BEST, seed, path, component, first, count, out);
}
