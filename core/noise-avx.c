/* noise-avx.c — the x86-64 kernels of the canonical noise generator (core/noise.c's
 * header: the contract they keep bit for bit, and their speed), chosen at run time by
 * core/noise.c's slpi_noise_isa_available: AVX-512F, else AVX2, else the portable ones. */
#include "core/noise-kernel.h"

#ifdef NOISE_AVX512
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>

/* ---- AVX-512 kernel (processors with AVX-512F, chosen at run time) ------------------
 * Eight counters or eight words per 512-bit register. Philox as in core/noise.c's
 * noise_words (one 64-bit lane per block, vpmuludq), then steps 2-4 with the table read from registers:
 * the rows of the top NOISE_FAST_ROWS / 8 binades (p >= 1/32, 15/16 of all normals) are
 * held column by column, and vpermt2pd picks each lane's entry (16 rows per
 * instruction) instead of 17 loads per normal. Lanes whose row lies below are mapped by
 * noise_map afterwards. The arithmetic is the header's, operation for operation, with
 * the intrinsics' plain binary64 + - x (-ffp-contract=off keeps the compiler from fusing
 * them into the vfmadd that avx512f offers), so every lane has the bits of noise_map. */
#define NOISE_FAST_FIRST (NOISE_TABLE_ROWS - NOISE_FAST_ROWS)
#define NOISE_FIX_SPAN 256 /* a multiple of 16 and of NOISE_VL */

#define NOISE_AVX512_FN __attribute__((target("avx512f")))
#define NOISE_AVX512_INLINE __attribute__((target("avx512f"), always_inline)) static inline

/* Column j of the fast rows, for the lanes' offsets idx (bits 0-4) into them. */
NOISE_AVX512_INLINE __m512d noise_col512(const __m512d *col, __m512i idx, __mmask8 upper)
{
    return _mm512_mask_blend_pd(upper, _mm512_permutex2var_pd(col[0], idx, col[1]),
                                _mm512_permutex2var_pd(col[2], idx, col[3]));
}

/* Steps 2-4 on eight words; *fast gets the lanes whose row was among the fast rows. The
 * columns s, g, gh, gl are read by binade from bin (one vpermpd each, in place of two
 * vpermt2pd and a blend: the same entries, slpi_noise_avx512_prepare). */
NOISE_AVX512_INLINE __m512d noise_map512(const __m512d col[][4], const __m512d *bin, __m512i w, __mmask8 *fast)
{
    const __m512i m =
        _mm512_and_si512(_mm512_srli_epi64(w, 11), _mm512_set1_epi64((long long)((UINT64_C(1) << 52) - 1)));
    const __m512d p =
        _mm512_mul_pd(_mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(m, _mm512_set1_epi64(0x4330000000000000))),
                                    _mm512_set1_pd(0x1p52 - 0.5)),
                      _mm512_set1_pd(0x1p-53));
    const __m512i idx = _mm512_sub_epi64(_mm512_srli_epi64(_mm512_castpd_si512(p), 49),
                                         _mm512_set1_epi64(8 * (1023 + NOISE_TABLE_EMIN) + NOISE_FAST_FIRST));
    const __mmask8 upper = _mm512_test_epi64_mask(idx, _mm512_set1_epi64(NOISE_FAST_ROWS / 2));
    *fast = _mm512_cmp_epi64_mask(idx, _mm512_setzero_si512(), _MM_CMPINT_NLT);
    const __m512i binade = _mm512_srli_epi64(idx, 3);
#define NOISE_C(j) noise_col512(col[j], idx, upper)
#define NOISE_B(c) _mm512_permutexvar_pd(binade, bin[c])
    const __m512d tau = _mm512_mul_pd(_mm512_sub_pd(p, NOISE_C(0)), NOISE_B(0));
    __m512d q = NOISE_C(6 + NOISE_TABLE_DEG);
    for (int k = NOISE_TABLE_DEG - 1; k >= 0; k--) {
        q = _mm512_add_pd(NOISE_C(6 + k), _mm512_mul_pd(tau, q));
    }
    const __m512d v = _mm512_sub_pd(p, _mm512_set1_pd(0.5));
    const __m512d cv = _mm512_mul_pd(_mm512_set1_pd(134217729.0), v);
    const __m512d vh = _mm512_sub_pd(cv, _mm512_sub_pd(cv, v));
    const __m512d vl = _mm512_sub_pd(v, vh);
    const __m512d gh = NOISE_B(2), gl = NOISE_B(3);
    const __m512d ph = _mm512_mul_pd(v, NOISE_B(1));
    const __m512d pl =
        _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(_mm512_mul_pd(vh, gh), ph), _mm512_mul_pd(vh, gl)),
                                    _mm512_mul_pd(vl, gh)),
                      _mm512_mul_pd(vl, gl));
    const __m512d x = _mm512_add_pd(_mm512_add_pd(NOISE_C(2), ph), _mm512_add_pd(pl, q));
#undef NOISE_C
#undef NOISE_B
    return _mm512_castsi512_pd(_mm512_xor_si512(
        _mm512_castpd_si512(x), _mm512_and_si512(w, _mm512_set1_epi64((long long)(UINT64_C(1) << 63)))));
}

static noise512_rows noise512_fast; /* filled once (noise512_fill), read by every seed's kernels */
static pthread_once_t noise512_once = PTHREAD_ONCE_INIT;

static void noise512_fill(void)
{
    for (int j = 0; j < NOISE_COLS; j++) {
        for (int r = 0; r < 32; r++) {
            noise512_fast.col[j][r] = noise_table[NOISE_FAST_FIRST + r][j];
        }
    }
    for (int c = 0; c < 4; c++) {
        for (int g = 0; g < 8; g++) {
            noise512_fast.bin[c][g] = g < 4 ? noise_table[NOISE_FAST_FIRST + 8 * g][NOISE_BIN_COL(c)] : 0;
        }
    }
}

void slpi_noise_avx512_prepare(noise512_setup *u, uint64_t seed)
{
    pthread_once(&noise512_once, noise512_fill);
    u->rows = &noise512_fast;
    noise_round_keys(seed, u->k0, u->k1);
}

/* Philox4x32-10 on eight counters at once: each 64-bit lane holds one 32-bit word of
 * the counter (x0..x3, low halves), the round keys kv0, kv1 broadcast; rounds from..9,
 * on the state after rounds 0..from-1. Both AVX-512 kernels below draw their blocks with
 * it. */
NOISE_AVX512_INLINE void noise_philox512(__m512i *x0, __m512i *x1, __m512i *x2, __m512i *x3, const __m512i *kv0,
                                         const __m512i *kv1, int from)
{
    const __m512i m0 = _mm512_set1_epi64(PHILOX_M4x32_0), m1 = _mm512_set1_epi64(PHILOX_M4x32_1);
    for (int round = from; round < 10; round++) {
        const __m512i p0 = _mm512_mul_epu32(*x0, m0), p1 = _mm512_mul_epu32(*x2, m1);
        *x0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), *x1), kv0[round]);
        *x2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), *x3), kv1[round]);
        *x1 = p1;
        *x3 = p0;
    }
}

/* The hand-back list's nfix words through noise_map (fix_z: room for nfix rounded up to
 * NOISE_VL), to their places in out; both AVX-512 kernels end their spans with it. */
static void noise_fix_flush(uint64_t *fix_w, const uint64_t *fix_at, int nfix, double *fix_z, double *out)
{
    for (int f = nfix; f % NOISE_VL; f++) {
        fix_w[f] = 0; /* fill the last group with valid (unused) words */
    }
    for (int f = 0; f < nfix; f += NOISE_VL) {
        noise_map(fix_w + f, fix_z + f, NOISE_VH);
    }
    for (int f = 0; f < nfix; f++) {
        out[fix_at[f]] = fix_z[f];
    }
}

/* Normals first .. first+count-1, first even, count a multiple of 16. */
NOISE_AVX512_FN void slpi_noise_avx512_normals(const noise512_setup *u, uint64_t path, uint32_t component,
                                               uint64_t first, size_t count, double *out)
{
    const __m512d(*col)[4] = (const __m512d(*)[4])u->rows->col, *bin = (const __m512d *)u->rows->bin;
    __m512i kv0[10], kv1[10];
    for (int round = 0; round < 10; round++) {
        kv0[round] = _mm512_set1_epi64(u->k0[round]);
        kv1[round] = _mm512_set1_epi64(u->k1[round]);
    }
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
        __m512i words[NOISE_FIX_SPAN / 8]; /* per 16 normals: even, odd words */
        for (size_t i = span; i < end; i += 16) {
            __m512i x0 = _mm512_add_epi64(_mm512_set1_epi64((long long)((first + i) >> 1)), lanes);
            __m512i x1 = _mm512_srli_epi64(x0, 32);
            __m512i x2 = _mm512_set1_epi64(component), x3 = _mm512_set1_epi64((uint32_t)path);
            noise_philox512(&x0, &x1, &x2, &x3, kv0, kv1, 0);
            /* even words r[1]:r[0], odd words r[3]:r[2] */
            words[(i - span) / 8] = _mm512_mask_blend_epi32(0xAAAA, x0, _mm512_slli_epi64(x1, 32));
            words[(i - span) / 8 + 1] = _mm512_mask_blend_epi32(0xAAAA, x2, _mm512_slli_epi64(x3, 32));
        }
        for (size_t i = span; i < end; i += 16) {
            const __m512i we = words[(i - span) / 8], wo = words[(i - span) / 8 + 1];
            __mmask8 fe, fo;
            const __m512d ze = noise_map512(col, bin, we, &fe);
            const __m512d zo = noise_map512(col, bin, wo, &fo);
            _mm512_storeu_pd(out + i, _mm512_permutex2var_pd(ze, lo, zo));
            _mm512_storeu_pd(out + i + 8, _mm512_permutex2var_pd(ze, hi, zo));
            const __m512i at = _mm512_add_epi64(_mm512_set1_epi64((long long)i), even);
            _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64((__mmask8)~fe, we));
            _mm512_storeu_si512(fix_at + nfix, _mm512_maskz_compress_epi64((__mmask8)~fe, at));
            nfix += 8 - __builtin_popcount(fe);
            _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64((__mmask8)~fo, wo));
            _mm512_storeu_si512(fix_at + nfix,
                                _mm512_maskz_compress_epi64((__mmask8)~fo, _mm512_add_epi64(at, _mm512_set1_epi64(1))));
            nfix += 8 - __builtin_popcount(fo);
        }
        noise_fix_flush(fix_w, fix_at, nfix, fix_z, out);
    }
}

/* ---- AVX-512 kernel across paths (the ensembles' lanes) -------------------------------
 * Normals first .. first+count-1 (first even, count even) of the npaths paths path,
 * path + 1, ...: normal first + i of path + q to out[i stride + q]. The eight 64-bit
 * lanes of a register hold eight paths' counters for one block (the path word differs,
 * the block word is shared), so the block's even and odd words are the normals of two
 * consecutive steps for eight paths, already in the lanes' layout. A last group of fewer
 * than eight paths runs in full and is stored under a mask. Same Philox, same map and the
 * same hand-back of the slow lanes as slpi_noise_avx512_normals: the bits of noise_map. */
#define NOISE_LANES_FIX 256  /* hand-back list: flushed when a group might overflow it */
#define NOISE_LANES_GROUPS 8 /* groups of eight paths whose Philox runs side by side */

NOISE_AVX512_FN void slpi_noise_avx512_lanes(const noise512_setup *u, uint64_t path, size_t npaths, uint32_t component,
                                             uint64_t first, size_t count, double *out, size_t stride)
{
    const __m512d(*col)[4] = (const __m512d(*)[4])u->rows->col, *bin = (const __m512d *)u->rows->bin;
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    __m512i kv0[10], kv1[10];
    for (int round = 0; round < 10; round++) {
        kv0[round] = _mm512_set1_epi64(u->k0[round]);
        kv1[round] = _mm512_set1_epi64(u->k1[round]);
    }
    uint64_t fix_w[NOISE_LANES_FIX + NOISE_VL], fix_at[NOISE_LANES_FIX + NOISE_VL];
    double fix_z[NOISE_LANES_FIX + NOISE_VL];
    int nfix = 0;
    for (size_t i = 0; i < count; i += 2) {
        /* Philox for every group of this block first (independent chains, side by side),
         * then the map: the even words r[1]:r[0] (normal first + i), the odd r[3]:r[2] */
        const uint64_t b = (first + i) >> 1;
        /* Rounds 0-2 where every lane agrees, once per block in scalars: the lanes share
         * the block and component words, so of round 0 only x2 = (p0 >> 32) ^ x3 ^ k1
         * differs between them, of round 1 only x0 and x1 (the product of x2), of round 2
         * only x0, x2 and x3 (the product of x0). The scalars are the 64-bit lanes'
         * values bit for bit (vpmuludq is the product of the low halves). */
        const uint64_t r0p0 = (uint64_t)(uint32_t)b * PHILOX_M4x32_0, r0p1 = (uint64_t)component * PHILOX_M4x32_1;
        const uint64_t r0x0 = (r0p1 >> 32) ^ (b >> 32) ^ u->k0[0];
        const uint64_t r1p0 = (uint64_t)(uint32_t)r0x0 * PHILOX_M4x32_0;
        const uint64_t r1x2 = (r1p0 >> 32) ^ r0p0 ^ u->k1[1];
        const uint64_t r2p1 = (uint64_t)(uint32_t)r1x2 * PHILOX_M4x32_1;
        const __m512i r0k = _mm512_set1_epi64((long long)((r0p0 >> 32) ^ u->k1[0]));
        const __m512i r1k = _mm512_set1_epi64((long long)(r0p1 ^ u->k0[1]));
        const __m512i r2k0 = _mm512_set1_epi64((long long)((r2p1 >> 32) ^ u->k0[2]));
        const __m512i r2k1 = _mm512_set1_epi64((long long)(r1p0 ^ u->k1[2]));
        const __m512i m0 = _mm512_set1_epi64(PHILOX_M4x32_0), m1 = _mm512_set1_epi64(PHILOX_M4x32_1);
        __m512i words[2 * NOISE_LANES_GROUPS];
        for (size_t g = 0; g < npaths; g += 8 * NOISE_LANES_GROUPS) {
            const size_t ng = (npaths - g + 7) / 8 < NOISE_LANES_GROUPS ? (npaths - g + 7) / 8 : NOISE_LANES_GROUPS;
            for (size_t r = 0; r < ng; r++) {
                __m512i x3 = _mm512_add_epi64(_mm512_set1_epi64((long long)(uint32_t)(path + g + 8 * r)), lanes);
                __m512i x2 = _mm512_xor_si512(x3, r0k); /* round 0 */
                __m512i x1 = _mm512_mul_epu32(x2, m1);  /* round 1 */
                __m512i x0 = _mm512_xor_si512(_mm512_srli_epi64(x1, 32), r1k);
                x3 = _mm512_mul_epu32(x0, m0); /* round 2 */
                x0 = _mm512_xor_si512(x1, r2k0);
                x2 = _mm512_xor_si512(_mm512_srli_epi64(x3, 32), r2k1);
                x1 = _mm512_set1_epi64((long long)r2p1);
                noise_philox512(&x0, &x1, &x2, &x3, kv0, kv1, 3);
                words[2 * r] = _mm512_mask_blend_epi32(0xAAAA, x0, _mm512_slli_epi64(x1, 32));
                words[2 * r + 1] = _mm512_mask_blend_epi32(0xAAAA, x2, _mm512_slli_epi64(x3, 32));
            }
            for (size_t r = 0; r < ng; r++) {
                const size_t q = g + 8 * r;
                const __mmask8 in = npaths - q >= 8 ? 0xff : (__mmask8)((1u << (npaths - q)) - 1);
                const __m512i we = words[2 * r], wo = words[2 * r + 1];
                __mmask8 fe, fo;
                const __m512d ze = noise_map512(col, bin, we, &fe);
                const __m512d zo = noise_map512(col, bin, wo, &fo);
                const size_t at = i * stride + q;
                _mm512_mask_storeu_pd(out + at, in, ze);
                _mm512_mask_storeu_pd(out + at + stride, in, zo);
                const __mmask8 se = (__mmask8)(~fe & in), so = (__mmask8)(~fo & in);
                const __m512i ate = _mm512_add_epi64(_mm512_set1_epi64((long long)at), lanes);
                _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64(se, we));
                _mm512_storeu_si512(fix_at + nfix, _mm512_maskz_compress_epi64(se, ate));
                nfix += __builtin_popcount(se);
                _mm512_storeu_si512(fix_w + nfix, _mm512_maskz_compress_epi64(so, wo));
                _mm512_storeu_si512(
                    fix_at + nfix,
                    _mm512_maskz_compress_epi64(so, _mm512_add_epi64(ate, _mm512_set1_epi64((long long)stride))));
                nfix += __builtin_popcount(so);
                if (nfix > NOISE_LANES_FIX - 16) {
                    noise_fix_flush(fix_w, fix_at, nfix, fix_z, out);
                    nfix = 0;
                }
            }
        }
    }
    noise_fix_flush(fix_w, fix_at, nfix, fix_z, out);
}

/* ---- AVX2 kernel (processors with AVX2 but not AVX-512F, chosen at run time) --------
 * Four counters or four words per 256-bit register: Philox as in slpi_noise_avx512_normals
 * (one 64-bit lane per block, vpmuludq), then steps 2-4 with the four lanes' table rows
 * read as 4 x 4 blocks of consecutive entries and transposed in registers (unpack,
 * vperm2f128) into columns: every row, so no lane is handed back (vgatherqpd is slower
 * than the plain loads on the processors measured). The arithmetic is noise_map's,
 * operation for operation, with the intrinsics' plain binary64 + - x (no vfmadd:
 * -ffp-contract=off), so every lane has the bits of noise_map (tests/core/t-noise-batch.c
 * forces this kernel on any AVX2 machine). */
#define NOISE_AVX2_FN __attribute__((target("avx2")))
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
        const __m256i m =
            _mm256_and_si256(_mm256_srli_epi64(w[h], 11), _mm256_set1_epi64x((long long)((UINT64_C(1) << 52) - 1)));
        p[h] =
            _mm256_mul_pd(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(m, _mm256_set1_epi64x(0x4330000000000000))),
                                        _mm256_set1_pd(0x1p52 - 0.5)),
                          _mm256_set1_pd(0x1p-53));
        uint64_t row[4];
        _mm256_storeu_si256((__m256i *)row,
                            _mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(p[h]), 49),
                                             _mm256_set1_epi64x(8 * (1023 + NOISE_TABLE_EMIN))));
        const double *const t[4] = { noise_table[row[0]], noise_table[row[1]], noise_table[row[2]],
                                     noise_table[row[3]] };
        __m256d tail[NOISE_COLS];
#pragma GCC unroll 4
        for (int b = 0; b + 4 <= NOISE_COLS; b += 4) { /* columns 0..15 */
            noise_cols256(t, b, col[h]);
        }
        noise_cols256(t, NOISE_COLS - 4, tail); /* the last one, within the row */
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
        const __m256d pl =
            _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(_mm256_mul_pd(vh, gh), ph), _mm256_mul_pd(vh, gl)),
                                        _mm256_mul_pd(vl, gh)),
                          _mm256_mul_pd(vl, gl));
        const __m256d x = _mm256_add_pd(_mm256_add_pd(col[h][2], ph), _mm256_add_pd(pl, q[h]));
        z[h] = _mm256_castsi256_pd(_mm256_xor_si256(
            _mm256_castpd_si256(x), _mm256_and_si256(w[h], _mm256_set1_epi64x((long long)(UINT64_C(1) << 63)))));
    }
}

/* Normals first .. first+count-1, first even, count a multiple of 4 NOISE_AVX2_W. */
NOISE_AVX2_FN void slpi_noise_avx2_normals(uint64_t seed, uint64_t path, uint32_t component, uint64_t first,
                                           size_t count, double *out)
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
        for (int h = 0; h < NOISE_AVX2_W / 2; h++) { /* even words r[1]:r[0], odd words r[3]:r[2] */
            w[2 * h] = _mm256_blend_epi32(x0[h], _mm256_slli_epi64(x1[h], 32), 0xAA);
            w[2 * h + 1] = _mm256_blend_epi32(x2[h], _mm256_slli_epi64(x3[h], 32), 0xAA);
        }
        noise_map256(w, z);
#pragma GCC unroll 4
        for (int h = 0; h < NOISE_AVX2_W / 2; h++) { /* normals 2b and 2b+1 interleaved */
            const __m256d ze = z[2 * h], zo = z[2 * h + 1];
            const __m256d lo = _mm256_unpacklo_pd(ze, zo), hi = _mm256_unpackhi_pd(ze, zo);
            _mm256_storeu_pd(out + i + 8 * h, _mm256_permute2f128_pd(lo, hi, 0x20));
            _mm256_storeu_pd(out + i + 8 * h + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
        }
    }
}
#endif
