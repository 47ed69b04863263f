/* noise.c — the canonical noise generator (docs/noise.md#increments, docs/noise.md#coupling; docs/noise.md#contract): Philox4x32-10
 * counters, a bit-reproducible uniform -> standard normal map, and the bottom-up dyadic
 * Brownian hierarchy. Everything here is a pure function of its arguments (no state, no
 * allocation), so any number can be produced alone, in any order, on any thread or rank.
 * The threshold and clipping of docs/noise.md#truncation are in core/noise-trunc.c.
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
 * ---- Speed (every bit as above) ----------------------------------------------------
 * slpi_noise_normals works in batches and keeps the bits of slpi_noise_normal, which is
 * Random123's philox4x32_R plus noise_map on one word (tests/t-noise-batch.c checks
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
 *    each of the 17 entries costs two vpermt2pd and a blend per 8 lanes instead of 8
 *    loads; the 1/16 of lanes below those rows are collected without a branch
 *    (vpcompressq) and mapped by the portable noise_map at the end of the span.
 *  - increments: each chunk of 2048 fine normals is scaled and summed level by level in
 *    place.
 * The floating-point operations are the header's, in its order, each a correctly rounded
 * binary64 + - x; the vector forms only run several lanes at once. Products and sums
 * stay apart because the library is built with -ffp-contract=off (the AVX-512 target
 * has fused multiply-adds; objdump shows none in any build of tests/t-noise-builds.sh).
 * Measured by bench/bench-noise.c (gcc 12 -O2, thread CPU time, one core of the shared
 * 2-core AMD EPYC (Zen 4, 3.6 GHz) at load 4-10, best of 7 over four runs, the worst
 * of the 28 trials in brackets): 221-234 (172) M normals/s, 5.1-5.2x a libm Box-Muller on
 * the same Philox words (43-45 M/s); the portable kernels alone 118-127 (97) M/s;
 * before this work 77-89 M/s. Increments: 173-205 M/s at refine 0, 165-198 M fine
 * draws/s at refine 4; one increment per call (core/noise-source.c's pattern, the
 * one-number path) 22-25 M/s. Where the AVX-512 kernel's ~4.4 ns per normal go
 * (measured by switching parts off): Philox 0.9 ns, the lanes below the fast rows
 * 0.6 ns, the map 2.9 ns, which is bounded by the instructions in flight (~13 per
 * normal, waiting on Horner's 10 dependent multiply-add pairs, ~60 cycles a lane) more
 * than by the 512-bit units' throughput (~1.7 ns). The portable map is bounded the same
 * way with ~50 instructions per normal (17 of them gathering the row entries).
 * Tried and not kept (23 Nov 2026, 2-core AMD EPYC with AVX-512, load ~6): the columns
 * s, g, gh and gl are constant within each of the four fast binades, so one vpermpd on
 * the binade could replace their two vpermt2pd and a blend (8 of ~95 instructions per 8
 * lanes, the same bits): bench/bench-noise gave 331-338 M/s with it against 337-338
 * without, in alternating runs, so the gathers are not what bounds the map.
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
#include "slpi.h"

#include <math.h>
#include <string.h>

#include <Random123/philox.h>

#include "core/noise.h"
#include "core/noise-table.h"

/* Philox blocks per batch of slpi_noise_normals: 2 NOISE_BLOCKS normals at a time; runs
 * of at most NOISE_SINGLE_MAX normals go one by one (a batch of 8 costs more). */
#define NOISE_BLOCKS 32
#define NOISE_SINGLE_MAX 4

/* Step 1 of the header for one block: Random123's philox4x32_R(10, ...) itself. */
static inline void noise_block(uint64_t seed, uint64_t path, uint32_t component, uint64_t b,
                               uint64_t w[2])
{
    const philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    const philox4x32_ctr_t ctr = {{(uint32_t)b, (uint32_t)(b >> 32), component, (uint32_t)path}};
    const philox4x32_ctr_t r = philox4x32_R(10, ctr, key);
    w[0] = (uint64_t)r.v[1] << 32 | r.v[0];
    w[1] = (uint64_t)r.v[3] << 32 | r.v[2];
}

/* The ten round keys of philox4x32_R(10, ...) for the key of seed (Random123's bump). */
static inline void noise_round_keys(uint64_t seed, uint32_t k0[10], uint32_t k1[10])
{
    philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    for (int round = 0; round < 10; round++) {
        k0[round] = key.v[0];
        k1[round] = key.v[1];
        key = _philox4x32bumpkey(key);
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
/* Step 1 for blocks b .. b+n-1 (n a multiple of 4, <= NOISE_BLOCKS) with SSE2 (baseline
 * on x86-64): the ten rounds of Random123 (PHILOX_M4x32_*, noise_round_keys), two blocks
 * per 128-bit register, one 64-bit lane per block holding each 32-bit counter word in
 * its low half, so that pmuludq forms the two 32x32->64 products of a round directly
 * (the high halves of the lanes carry junk that only ever reaches other high halves).
 * Two registers (four blocks) go through the rounds together to overlap the multiply
 * latencies. tests/t-noise-batch.c checks the words, through the normals, against
 * philox4x32_R. */
static void noise_words(uint64_t seed, uint64_t path, uint32_t component, uint64_t b, int n,
                        uint64_t *w)
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
static void noise_words(uint64_t seed, uint64_t path, uint32_t component, uint64_t b, int n,
                        uint64_t *w)
{
    for (int l = 0; l < n; l++) {
        noise_block(seed, path, component, b + (uint64_t)l, w + 2 * l);
    }
}
#endif

/* The map runs on NOISE_VH pairs of words at a time, each pair in a GNU C vector of two
 * binary64 (one SSE2 register on x86-64; a pair of scalars elsewhere). Their arithmetic
 * is lane-wise binary64 + - x, rounded to nearest like the scalar operations, and
 * -ffp-contract=off keeps products and sums apart (no fused multiply-add). Several
 * independent pairs side by side let the processor overlap their Horner chains. */
#define NOISE_VH 4
#define NOISE_VL (2 * NOISE_VH)   /* words per full noise_map */
typedef double noise_vd __attribute__((vector_size(16)));
typedef uint64_t noise_vu __attribute__((vector_size(16)));

/* Steps 2-4 of the header on the 2 nh words w[0..2nh-1], nh <= NOISE_VH. p = (2m+1) 2^-54 is
 * formed exactly without an integer conversion: the binary64 with bits 0x433 m is
 * 2^52 + m, and (2^52 + m) - (2^52 - 1/2) = m + 1/2 and its product by 2^-53 are exact.
 * The table row's entries are gathered into vectors lane by lane (NOISE_COL). */
static inline void noise_map(const uint64_t *w, double *out, int nh)
{
    noise_vu wv[NOISE_VH];
    noise_vd p[NOISE_VH], tau[NOISE_VH], q[NOISE_VH];
    const double *t[NOISE_VL];
    memcpy(wv, w, (size_t)nh * sizeof wv[0]);
#pragma GCC unroll 4
    for (int h = 0; h < nh; h++) {
        const noise_vu m = (wv[h] >> 11) & ((UINT64_C(1) << 52) - 1);
        p[h] = ((noise_vd)(m | UINT64_C(0x4330000000000000)) - (0x1p52 - 0.5)) * 0x1p-53;
        const noise_vu row = ((noise_vu)p[h] >> 49) - (uint64_t)(8 * (1023 + NOISE_TABLE_EMIN));
        t[2 * h] = noise_table[row[0]];
        t[2 * h + 1] = noise_table[row[1]];
    }
#define NOISE_COL(h, j) ((noise_vd){t[2 * (h)][j], t[2 * (h) + 1][j]})
#pragma GCC unroll 4
    for (int h = 0; h < nh; h++) {
        tau[h] = (p[h] - NOISE_COL(h, 0)) * NOISE_COL(h, 1);
        q[h] = NOISE_COL(h, 6 + NOISE_TABLE_DEG);
    }
#pragma GCC unroll 10
    for (int k = NOISE_TABLE_DEG - 1; k >= 0; k--) {
#pragma GCC unroll 4
        for (int h = 0; h < nh; h++) {
            q[h] = NOISE_COL(h, 6 + k) + tau[h] * q[h];
        }
    }
#pragma GCC unroll 4
    for (int h = 0; h < nh; h++) {
        const noise_vd v = p[h] - 0.5;
        const noise_vd cv = 134217729.0 * v;
        const noise_vd vh = cv - (cv - v);
        const noise_vd vl = v - vh;
        const noise_vd gh = NOISE_COL(h, 4), gl = NOISE_COL(h, 5);
        const noise_vd ph = v * NOISE_COL(h, 3);
        const noise_vd pl = ((vh * gh - ph) + vh * gl + vl * gh) + vl * gl;
        const noise_vd x = (NOISE_COL(h, 2) + ph) + (pl + q[h]);
        wv[h] = (noise_vu)x ^ (wv[h] & (UINT64_C(1) << 63));
    }
#undef NOISE_COL
    memcpy(out, wv, (size_t)nh * sizeof wv[0]);
}

/* One word through noise_map (in lane 0). */
static double noise_map1(uint64_t w)
{
    const uint64_t wv[2] = {w, w};
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NOISE_AVX512 1

/* ---- AVX-512 kernel (processors with AVX-512F, chosen at run time) ------------------
 * Eight counters or eight words per 512-bit register. Philox as in noise_words (one
 * 64-bit lane per block, vpmuludq), then steps 2-4 with the table read from registers:
 * the rows of the top NOISE_FAST_ROWS / 8 binades (p >= 1/32, 15/16 of all normals) are
 * held column by column, and vpermt2pd picks each lane's entry (16 rows per
 * instruction) instead of 17 loads per normal. Lanes whose row lies below are mapped by
 * noise_map afterwards. The arithmetic is the header's, operation for operation, with
 * the intrinsics' plain binary64 + - x (-ffp-contract=off keeps the compiler from fusing
 * them into the vfmadd that avx512f offers), so every lane has the bits of noise_map. */
#define NOISE_FAST_ROWS 32
#define NOISE_FAST_FIRST (NOISE_TABLE_ROWS - NOISE_FAST_ROWS)
#define NOISE_COLS (7 + NOISE_TABLE_DEG)   /* c, s, A, g, gh, gl, a0..a10 */
#define NOISE_AVX512_MIN 96                /* shorter runs are not worth the set-up */
#define NOISE_FIX_SPAN 256                 /* a multiple of 16 and of NOISE_VL */

#define NOISE_AVX512_FN __attribute__((target("avx512f")))
#define NOISE_AVX512_INLINE __attribute__((target("avx512f"), always_inline)) static inline

/* Column j of the fast rows, for the lanes' offsets idx (bits 0-4) into them. */
NOISE_AVX512_INLINE __m512d noise_col512(const __m512d *col, __m512i idx, __mmask8 upper)
{
    return _mm512_mask_blend_pd(upper, _mm512_permutex2var_pd(col[0], idx, col[1]),
                                _mm512_permutex2var_pd(col[2], idx, col[3]));
}

/* Steps 2-4 on eight words; *fast gets the lanes whose row was among the fast rows. */
NOISE_AVX512_INLINE __m512d noise_map512(const __m512d col[][4], __m512i w, __mmask8 *fast)
{
    const __m512i m = _mm512_and_si512(_mm512_srli_epi64(w, 11),
                                       _mm512_set1_epi64((long long)((UINT64_C(1) << 52) - 1)));
    const __m512d p = _mm512_mul_pd(
        _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(m, _mm512_set1_epi64(0x4330000000000000))),
                      _mm512_set1_pd(0x1p52 - 0.5)),
        _mm512_set1_pd(0x1p-53));
    const __m512i idx = _mm512_sub_epi64(_mm512_srli_epi64(_mm512_castpd_si512(p), 49),
                                         _mm512_set1_epi64(8 * (1023 + NOISE_TABLE_EMIN) + NOISE_FAST_FIRST));
    const __mmask8 upper = _mm512_test_epi64_mask(idx, _mm512_set1_epi64(NOISE_FAST_ROWS / 2));
    *fast = _mm512_cmp_epi64_mask(idx, _mm512_setzero_si512(), _MM_CMPINT_NLT);
#define NOISE_C(j) noise_col512(col[j], idx, upper)
    const __m512d tau = _mm512_mul_pd(_mm512_sub_pd(p, NOISE_C(0)), NOISE_C(1));
    __m512d q = NOISE_C(6 + NOISE_TABLE_DEG);
    for (int k = NOISE_TABLE_DEG - 1; k >= 0; k--) {
        q = _mm512_add_pd(NOISE_C(6 + k), _mm512_mul_pd(tau, q));
    }
    const __m512d v = _mm512_sub_pd(p, _mm512_set1_pd(0.5));
    const __m512d cv = _mm512_mul_pd(_mm512_set1_pd(134217729.0), v);
    const __m512d vh = _mm512_sub_pd(cv, _mm512_sub_pd(cv, v));
    const __m512d vl = _mm512_sub_pd(v, vh);
    const __m512d gh = NOISE_C(4), gl = NOISE_C(5);
    const __m512d ph = _mm512_mul_pd(v, NOISE_C(3));
    const __m512d pl = _mm512_add_pd(
        _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(_mm512_mul_pd(vh, gh), ph), _mm512_mul_pd(vh, gl)),
                      _mm512_mul_pd(vl, gh)),
        _mm512_mul_pd(vl, gl));
    const __m512d x = _mm512_add_pd(_mm512_add_pd(NOISE_C(2), ph), _mm512_add_pd(pl, q));
#undef NOISE_C
    return _mm512_castsi512_pd(_mm512_xor_si512(
        _mm512_castpd_si512(x), _mm512_and_si512(w, _mm512_set1_epi64((long long)(UINT64_C(1) << 63)))));
}

/* The kernel's set-up for one seed, shared by the runs of many paths: the fast rows
 * column by column (col[j][8 g + l] = entry j of fast row 8 g + l) and the round keys. */
typedef struct {
    _Alignas(64) double col[NOISE_COLS][32];
    uint32_t k0[10], k1[10];
} noise512_setup;

static void noise512_prepare(noise512_setup *u, uint64_t seed)
{
    for (int j = 0; j < NOISE_COLS; j++) {
        for (int r = 0; r < 32; r++) {
            u->col[j][r] = noise_table[NOISE_FAST_FIRST + r][j];
        }
    }
    noise_round_keys(seed, u->k0, u->k1);
}

/* Normals first .. first+count-1, first even, count a multiple of 16. */
NOISE_AVX512_FN static void noise_normals_avx512(const noise512_setup *u, uint64_t path, uint32_t component,
                                                 uint64_t first, size_t count, double *out)
{
    __m512d col[NOISE_COLS][4];
    for (int j = 0; j < NOISE_COLS; j++) {
        for (int g = 0; g < 4; g++) {
            col[j][g] = _mm512_load_pd(&u->col[j][8 * g]);
        }
    }
    __m512i kv0[10], kv1[10];
    for (int round = 0; round < 10; round++) {
        kv0[round] = _mm512_set1_epi64(u->k0[round]);
        kv1[round] = _mm512_set1_epi64(u->k1[round]);
    }
    const __m512i m0 = _mm512_set1_epi64(PHILOX_M4x32_0), m1 = _mm512_set1_epi64(PHILOX_M4x32_1);
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    /* Words of the lanes below the fast rows, and their places in out, are collected
     * (vpcompressq, no branch) and mapped by noise_map after every NOISE_FIX_SPAN normals. */
    uint64_t fix_w[NOISE_FIX_SPAN + 8], fix_at[NOISE_FIX_SPAN + 8];
    double fix_z[NOISE_FIX_SPAN + 8];
    for (size_t span = 0; span < count; span += NOISE_FIX_SPAN) {
        const size_t end = count - span < NOISE_FIX_SPAN ? count : span + NOISE_FIX_SPAN;
        int nfix = 0;
        __m512i words[NOISE_FIX_SPAN / 8];   /* per 16 normals: even, odd words */
        for (size_t i = span; i < end; i += 16) {
            __m512i x0 = _mm512_add_epi64(_mm512_set1_epi64((long long)((first + i) >> 1)), lanes);
            __m512i x1 = _mm512_srli_epi64(x0, 32);
            __m512i x2 = _mm512_set1_epi64(component), x3 = _mm512_set1_epi64((uint32_t)path);
            for (int round = 0; round < 10; round++) {
                const __m512i p0 = _mm512_mul_epu32(x0, m0), p1 = _mm512_mul_epu32(x2, m1);
                x0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), x1), kv0[round]);
                x2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), x3), kv1[round]);
                x1 = p1;
                x3 = p0;
            }
            /* even words r[1]:r[0], odd words r[3]:r[2] */
            words[(i - span) / 8] = _mm512_mask_blend_epi32(0xAAAA, x0, _mm512_slli_epi64(x1, 32));
            words[(i - span) / 8 + 1] = _mm512_mask_blend_epi32(0xAAAA, x2, _mm512_slli_epi64(x3, 32));
        }
        for (size_t i = span; i < end; i += 16) {
            const __m512i we = words[(i - span) / 8], wo = words[(i - span) / 8 + 1];
            __mmask8 fe, fo;
            const __m512d ze = noise_map512((const __m512d(*)[4])col, we, &fe);
            const __m512d zo = noise_map512((const __m512d(*)[4])col, wo, &fo);
            _mm512_storeu_pd(out + i, _mm512_permutex2var_pd(ze, lo, zo));
            _mm512_storeu_pd(out + i + 8, _mm512_permutex2var_pd(ze, hi, zo));
            const __m512i at = _mm512_add_epi64(_mm512_set1_epi64((long long)i), even);
            _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64((__mmask8)~fe, we));
            _mm512_storeu_si512(fix_at + nfix, _mm512_maskz_compress_epi64((__mmask8)~fe, at));
            nfix += 8 - __builtin_popcount(fe);
            _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64((__mmask8)~fo, wo));
            _mm512_storeu_si512(fix_at + nfix, _mm512_maskz_compress_epi64(
                                                   (__mmask8)~fo, _mm512_add_epi64(at, _mm512_set1_epi64(1))));
            nfix += 8 - __builtin_popcount(fo);
        }
        for (int f = nfix; f % NOISE_VL; f++) {
            fix_w[f] = 0;   /* fill the last group with valid (unused) words */
        }
        for (int f = 0; f < nfix; f += NOISE_VL) {
            noise_map(fix_w + f, fix_z + f, NOISE_VH);
        }
        for (int f = 0; f < nfix; f++) {
            out[fix_at[f]] = fix_z[f];
        }
    }
}

/* ---- AVX2 kernel (processors with AVX2 but not AVX-512F, chosen at run time) --------
 * Four counters or four words per 256-bit register: Philox as in noise_normals_avx512
 * (one 64-bit lane per block, vpmuludq), then steps 2-4 with the four lanes' table rows
 * read as 4 x 4 blocks of consecutive entries and transposed in registers (unpack,
 * vperm2f128) into columns: every row, so no lane is handed back (vgatherqpd is slower
 * than the plain loads on the processors measured). The arithmetic is noise_map's,
 * operation for operation, with the intrinsics' plain binary64 + - x (no vfmadd:
 * -ffp-contract=off), so every lane has the bits of noise_map (tests/t-noise-batch.c
 * forces this kernel on any AVX2 machine). */
#define NOISE_AVX2_FN __attribute__((target("avx2")))
#define NOISE_AVX2_W 8   /* word registers mapped together: 32 normals per round trip */
#define NOISE_AVX2_INLINE __attribute__((target("avx2"), always_inline)) static inline

/* Columns b..b+3 of the rows t[0..3] (col[b + j] lane l = t[l][b + j]); b <= NOISE_COLS - 4. */
NOISE_AVX2_INLINE void noise_cols256(const double *const t[4], int b, __m256d *col)
{
    const __m256d r0 = _mm256_loadu_pd(t[0] + b), r1 = _mm256_loadu_pd(t[1] + b);
    const __m256d r2 = _mm256_loadu_pd(t[2] + b), r3 = _mm256_loadu_pd(t[3] + b);
    const __m256d a = _mm256_unpacklo_pd(r0, r1), c = _mm256_unpacklo_pd(r2, r3);
    const __m256d e = _mm256_unpackhi_pd(r0, r1), d = _mm256_unpackhi_pd(r2, r3);
    col[b] = _mm256_permute2f128_pd(a, c, 0x20);
    col[b + 1] = _mm256_permute2f128_pd(e, d, 0x20);
    col[b + 2] = _mm256_permute2f128_pd(a, c, 0x31);
    col[b + 3] = _mm256_permute2f128_pd(e, d, 0x31);
}

/* Steps 2-4 on NOISE_AVX2_W registers of four words, side by side (their Horner chains
 * overlap). */
NOISE_AVX2_INLINE void noise_map256(const __m256i *w, __m256d *z)
{
    __m256d p[NOISE_AVX2_W], col[NOISE_AVX2_W][NOISE_COLS], tau[NOISE_AVX2_W], q[NOISE_AVX2_W];
    #pragma GCC unroll 8
    for (int h = 0; h < NOISE_AVX2_W; h++) {
        const __m256i m = _mm256_and_si256(_mm256_srli_epi64(w[h], 11),
                                           _mm256_set1_epi64x((long long)((UINT64_C(1) << 52) - 1)));
        p[h] = _mm256_mul_pd(
            _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(m, _mm256_set1_epi64x(0x4330000000000000))),
                          _mm256_set1_pd(0x1p52 - 0.5)),
            _mm256_set1_pd(0x1p-53));
        uint64_t row[4];
        _mm256_storeu_si256((__m256i *)row,
                            _mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(p[h]), 49),
                                             _mm256_set1_epi64x(8 * (1023 + NOISE_TABLE_EMIN))));
        const double *const t[4] = {noise_table[row[0]], noise_table[row[1]], noise_table[row[2]],
                                    noise_table[row[3]]};
        __m256d tail[NOISE_COLS];
        #pragma GCC unroll 4
        for (int b = 0; b + 4 <= NOISE_COLS; b += 4) {   /* columns 0..15 */
            noise_cols256(t, b, col[h]);
        }
        noise_cols256(t, NOISE_COLS - 4, tail);          /* the last one, within the row */
        col[h][NOISE_COLS - 1] = tail[NOISE_COLS - 1];
        tau[h] = _mm256_mul_pd(_mm256_sub_pd(p[h], col[h][0]), col[h][1]);
        q[h] = col[h][6 + NOISE_TABLE_DEG];
    }
    #pragma GCC unroll 10
    for (int k = NOISE_TABLE_DEG - 1; k >= 0; k--) {
        #pragma GCC unroll 8
        for (int h = 0; h < NOISE_AVX2_W; h++) {
            q[h] = _mm256_add_pd(col[h][6 + k], _mm256_mul_pd(tau[h], q[h]));
        }
    }
    #pragma GCC unroll 8
    for (int h = 0; h < NOISE_AVX2_W; h++) {
        const __m256d v = _mm256_sub_pd(p[h], _mm256_set1_pd(0.5));
        const __m256d cv = _mm256_mul_pd(_mm256_set1_pd(134217729.0), v);
        const __m256d vh = _mm256_sub_pd(cv, _mm256_sub_pd(cv, v));
        const __m256d vl = _mm256_sub_pd(v, vh);
        const __m256d gh = col[h][4], gl = col[h][5];
        const __m256d ph = _mm256_mul_pd(v, col[h][3]);
        const __m256d pl = _mm256_add_pd(
            _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(_mm256_mul_pd(vh, gh), ph), _mm256_mul_pd(vh, gl)),
                          _mm256_mul_pd(vl, gh)),
            _mm256_mul_pd(vl, gl));
        const __m256d x = _mm256_add_pd(_mm256_add_pd(col[h][2], ph), _mm256_add_pd(pl, q[h]));
        z[h] = _mm256_castsi256_pd(_mm256_xor_si256(
            _mm256_castpd_si256(x), _mm256_and_si256(w[h], _mm256_set1_epi64x((long long)(UINT64_C(1) << 63)))));
    }
}

/* Normals first .. first+count-1, first even, count a multiple of 4 NOISE_AVX2_W. */
NOISE_AVX2_FN static void noise_normals_avx2(uint64_t seed, uint64_t path, uint32_t component,
                                             uint64_t first, size_t count, double *out)
{
    uint32_t k0[10], k1[10];
    noise_round_keys(seed, k0, k1);
    __m256i kv0[10], kv1[10];
    for (int round = 0; round < 10; round++) {
        kv0[round] = _mm256_set1_epi64x(k0[round]);
        kv1[round] = _mm256_set1_epi64x(k1[round]);
    }
    const __m256i m0 = _mm256_set1_epi64x(PHILOX_M4x32_0), m1 = _mm256_set1_epi64x(PHILOX_M4x32_1);
    const __m256i lanes = _mm256_set_epi64x(3, 2, 1, 0), four = _mm256_set1_epi64x(4);
    for (size_t i = 0; i < count; i += 4 * NOISE_AVX2_W) {
        __m256i x0[NOISE_AVX2_W / 2], x1[NOISE_AVX2_W / 2], x2[NOISE_AVX2_W / 2], x3[NOISE_AVX2_W / 2];
        x0[0] = _mm256_add_epi64(_mm256_set1_epi64x((long long)((first + i) >> 1)), lanes);
        for (int h = 1; h < NOISE_AVX2_W / 2; h++) {
            x0[h] = _mm256_add_epi64(x0[h - 1], four);
        }
        #pragma GCC unroll 4
        for (int h = 0; h < NOISE_AVX2_W / 2; h++) {
            x1[h] = _mm256_srli_epi64(x0[h], 32);
            x2[h] = _mm256_set1_epi64x(component);
            x3[h] = _mm256_set1_epi64x((uint32_t)path);
        }
        #pragma GCC unroll 10
        for (int round = 0; round < 10; round++) {
            #pragma GCC unroll 4
            for (int h = 0; h < NOISE_AVX2_W / 2; h++) {
                const __m256i p0 = _mm256_mul_epu32(x0[h], m0), p1 = _mm256_mul_epu32(x2[h], m1);
                x0[h] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), x1[h]), kv0[round]);
                x2[h] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), x3[h]), kv1[round]);
                x1[h] = p1;
                x3[h] = p0;
            }
        }
        __m256i w[NOISE_AVX2_W];
        __m256d z[NOISE_AVX2_W];
        #pragma GCC unroll 4
        for (int h = 0; h < NOISE_AVX2_W / 2; h++) {   /* even words r[1]:r[0], odd words r[3]:r[2] */
            w[2 * h] = _mm256_blend_epi32(x0[h], _mm256_slli_epi64(x1[h], 32), 0xAA);
            w[2 * h + 1] = _mm256_blend_epi32(x2[h], _mm256_slli_epi64(x3[h], 32), 0xAA);
        }
        noise_map256(w, z);
        #pragma GCC unroll 4
        for (int h = 0; h < NOISE_AVX2_W / 2; h++) {   /* normals 2b and 2b+1 interleaved */
            const __m256d ze = z[2 * h], zo = z[2 * h + 1];
            const __m256d lo = _mm256_unpacklo_pd(ze, zo), hi = _mm256_unpackhi_pd(ze, zo);
            _mm256_storeu_pd(out + i + 8 * h, _mm256_permute2f128_pd(lo, hi, 0x20));
            _mm256_storeu_pd(out + i + 8 * h + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
        }
    }
}
#endif

int slpi_noise_isa_available(int isa)
{
    switch (isa) {
    case SLPI_NOISE_PORTABLE:
    case SLPI_NOISE_BEST: return 1;
#ifdef NOISE_AVX512
    case SLPI_NOISE_AVX2: return __builtin_cpu_supports("avx2");
    case SLPI_NOISE_AVX512: return __builtin_cpu_supports("avx512f");
#endif
    default: return 0;
    }
}

/* slpi_noise_normals_isa on npaths paths from path (path + q to out[q stride]), with the
 * AVX-512 kernel's set-up made once for all of them. */
static void noise_normals_paths(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component,
                                uint64_t first, size_t count, double *const *out, size_t stride)
{
    const size_t head = count > 0 && (first & 1);
#ifdef NOISE_AVX512
    const size_t n512 = count - head >= NOISE_AVX512_MIN && (isa == SLPI_NOISE_BEST || isa == SLPI_NOISE_AVX512)
                                && slpi_noise_isa_available(SLPI_NOISE_AVX512)
                            ? (count - head) & ~(size_t)15
                            : 0;
    const size_t n256 = !n512 && count - head >= NOISE_AVX512_MIN && (isa == SLPI_NOISE_BEST || isa == SLPI_NOISE_AVX2)
                                && slpi_noise_isa_available(SLPI_NOISE_AVX2)
                            ? (count - head) / (4 * NOISE_AVX2_W) * (4 * NOISE_AVX2_W)
                            : 0;
    noise512_setup u;
    if (n512) noise512_prepare(&u, seed);
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
            noise_normals_avx512(&u, pq, component, first + i, n512, o + i);
        } else if (n256) {
            noise_normals_avx2(seed, pq, component, first + i, n256, o + i);
        }
        i += n512 + n256;
#endif
        while (count - i > NOISE_SINGLE_MAX) {   /* batches; the last one rounded up */
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

void slpi_noise_normals_isa(int isa, uint64_t seed, uint64_t path, uint32_t component,
                            uint64_t first, size_t count, double *out)
{
    noise_normals_paths(isa, seed, path, 1, component, first, count, &out, 1);
}

void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component,
                        uint64_t first, size_t count, double *out)
{
    slpi_noise_normals_isa(SLPI_NOISE_BEST, seed, path, component, first, count, out);
}

/* Fine normals are produced in chunks of NOISE_CHUNK = 2^NOISE_CHUNK_LOG and summed level
 * by level inside a chunk (z[i] = z[2i] + z[2i+1]: each node is left child + right child);
 * when 2^refine exceeds a chunk, the chunks' roots are combined by a binary counter over
 * the remaining levels (partial[k]: the pending left subtree of 2^k chunk roots). */
#define NOISE_CHUNK_LOG 11
#define NOISE_CHUNK (1 << NOISE_CHUNK_LOG)

/* x[i] = sigma x[i], i < n: normals to increments. */
static void noise_scale(double *x, size_t n, double sigma)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = sigma * x[i];
    }
}

/* One level up the hierarchy: out[i] = in[2i] + in[2i+1], i < m (each node is left child
 * + right child; out == in allowed). */
static void noise_pair_sums(const double *in, size_t m, double *out)
{
    for (size_t i = 0; i < m; i++) {
        out[i] = in[2 * i] + in[2 * i + 1];
    }
}

int slpi_noise_check_work(uint64_t count, int refine, slpi_error *err)
{
    if (refine < 0 || refine > SLPI_NOISE_MAX_REFINE || count == 0) return SLPI_OK;   /* range: checked by the caller */
    if (count > (SLPI_NOISE_MAX_DRAWS >> refine))
        return slpi_error_set(err, SLPI_EINPUT, "refine=%d: %llu increments of 2^%d fine draws each are %.3g draws, "
                              "more than the 2^38 (about 15 minutes) one generation may take (docs/noise.md#refine): "
                              "generate them in pieces (first/--first)", refine, (unsigned long long)count, refine,
                              ldexp((double)count, refine));
    return SLPI_OK;
}

/* The arguments of slpi_noise_increments (slpi.h states the rules). */
static int noise_args_check(double h, int refine, uint64_t first, size_t count, const double *out, slpi_error *err)
{
    const char *who = "slpi_noise_increments";
    if (!(h > 0 && h <= 1e6))   /* also NaN */
        return slpi_error_set(err, SLPI_EINPUT, "%s: h=%g: the step size must be finite and in (0, 1e6]", who, h);
    if (refine < 0 || refine > SLPI_NOISE_MAX_REFINE)
        return slpi_error_set(err, SLPI_EINPUT, "%s: refine=%d: out of range [0, %d]", who, refine,
                              SLPI_NOISE_MAX_REFINE);
    if (count > 0 && !out) return slpi_error_set(err, SLPI_EINPUT, "%s: out is NULL for %zu increments", who, count);
    const uint64_t lim = UINT64_C(1) << (62 - refine);
    if (first >= lim || (uint64_t)count >= lim - first)
        return slpi_error_set(err, SLPI_EINPUT, "%s: first=%llu, count=%zu, refine=%d: (first + count) 2^refine "
                              "must be below 2^62", who, (unsigned long long)first, count, refine);
    return slpi_noise_check_work(count, refine, err);
}

int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                          int refine, uint64_t first, size_t count, double *out, slpi_error *err)
{
    int rc = noise_args_check(h, refine, first, count, out, err);
    if (rc != SLPI_OK) return rc;
    const double sigma = sqrt(ldexp(h, -refine));
    const int inner = refine < NOISE_CHUNK_LOG ? refine : NOISE_CHUNK_LOG;
    const int outer = refine - inner;
    double z[NOISE_CHUNK];
    double partial[64];
    uint64_t j = first << refine;                       /* next fine index */
    const uint64_t end = (first + count) << refine;
    uint64_t root = 0;                                  /* chunk root within its increment */
    size_t n = 0;                                       /* next increment */

    if (refine == 0) {   /* the increments are the scaled normals: no chunks, no copy */
        slpi_noise_normals(seed, path, component, first, count, out);
        noise_scale(out, count, sigma);
        return SLPI_OK;
    }
    while (j < end) {
        const size_t len = end - j < NOISE_CHUNK ? (size_t)(end - j) : NOISE_CHUNK;
        slpi_noise_normals(seed, path, component, j, len, z);
        j += len;
        noise_scale(z, len, sigma);
        size_t m = len;
        for (int level = 0; level < inner; level++) {
            m /= 2;
            noise_pair_sums(z, m, z);
        }
        if (outer == 0) {   /* z[0..m): whole increments */
            memcpy(out + n, z, m * sizeof *z);
            n += m;
            continue;
        }
        double acc = z[0];   /* m == 1: one chunk root */
        int k = 0;
        while ((root >> k) & 1) {   /* root's low set bits: complete the subtrees */
            acc = partial[k] + acc;
            k++;
        }
        partial[k] = acc;
        if (++root == UINT64_C(1) << outer) {
            out[n++] = acc;
            root = 0;
        }
    }
    return SLPI_OK;
}

void slpi_noise_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h,
                       int nup, uint64_t first, size_t count, double *const *lev)
{
    const size_t stride = (size_t)nup + 1;
    const double sigma = sqrt(h);   /* slpi_noise_increments at refine 0 */
    noise_normals_paths(SLPI_NOISE_BEST, seed, path, npaths, component, first, count, lev, stride);
    for (size_t q = 0; q < npaths; q++) {
        double *const *l = lev + q * stride;
        noise_scale(l[0], count, sigma);
        for (int i = 1; i <= nup; i++) {
            noise_pair_sums(l[i - 1], count >> i, l[i]);
        }
    }
}
