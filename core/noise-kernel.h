/* noise-kernel.h — core-private: the parts of the canonical noise generator that its
 * kernels share (core/noise.c, the portable kernels and the contract in its header;
 * core/noise-avx.c, the AVX-512 and AVX2 kernels): step 1 (Philox) for one block and its
 * round keys, steps 2-4 (the word -> normal map) on pairs of words, and the x86-64
 * kernels' entry points. Included by core/noise*.c only. */
#ifndef SLPI_NOISE_KERNEL_H
#define SLPI_NOISE_KERNEL_H


#include <string.h>

#include <Random123/philox.h>
#include <stdint.h>
#include <stddef.h>

#include "core/noise-table.h"

/* Step 1 of the header for one block: Random123's philox4x32_R(10, ...) itself. */
static inline void noise_block(uint64_t seed, uint64_t path, uint32_t component, uint64_t b, uint64_t w[2])
{
    const philox4x32_key_t key = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
    const philox4x32_ctr_t ctr = { { (uint32_t)b, (uint32_t)(b >> 32), component, (uint32_t)path } };
    const philox4x32_ctr_t r = philox4x32_R(10, ctr, key);
    w[0] = (uint64_t)r.v[1] << 32 | r.v[0];
    w[1] = (uint64_t)r.v[3] << 32 | r.v[2];
}

/* The ten round keys of philox4x32_R(10, ...) for the key of seed (Random123's bump). */
static inline void noise_round_keys(uint64_t seed, uint32_t k0[10], uint32_t k1[10])
{
    philox4x32_key_t key = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
    for (int round = 0; round < 10; round++) {
        k0[round] = key.v[0];
        k1[round] = key.v[1];
        key = _philox4x32bumpkey(key);
    }
}

/* The map runs on NOISE_VH pairs of words at a time, each pair in a GNU C vector of two
 * binary64 (one SSE2 register on x86-64; a pair of scalars elsewhere). Their arithmetic
 * is lane-wise binary64 + - x, rounded to nearest like the scalar operations, and
 * -ffp-contract=off keeps products and sums apart (no fused multiply-add). Several
 * independent pairs side by side let the processor overlap their Horner chains. */
#define NOISE_VH 4
#define NOISE_VL (2 * NOISE_VH) /* words per full noise_map */
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
#define NOISE_COL(h, j) ((noise_vd){ t[2 * (h)][j], t[2 * (h) + 1][j] })
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NOISE_AVX512 1
#define NOISE_FAST_ROWS 32
#define NOISE_COLS (7 + NOISE_TABLE_DEG) /* c, s, A, g, gh, gl, a0..a10 */
#define NOISE_AVX512_MIN 96              /* shorter runs are not worth the set-up */
#define NOISE_AVX2_W 8                   /* word registers mapped together: 32 normals per round trip */

/* The kernel's fast rows column by column (col[j][8 g + l] = entry j of fast row 8 g + l),
 * and the columns s, g, gh and gl, which are constant within each of the four fast
 * binades, by binade (bin[c][g] = entry NOISE_BIN_COL(c) of fast binade g, g < 4; 0
 * above): one copy a process, filled on first use. */
#define NOISE_BIN_COL(c) ((c) == 0 ? 1 : (c) + 2) /* c = 0..3: columns s, g, gh, gl */
typedef struct {
    _Alignas(64) double col[NOISE_COLS][32];
    _Alignas(64) double bin[4][8];
} noise512_rows;
/* The kernel's set-up for one seed, shared by the runs of many paths: the fast rows and
 * the round keys. */
typedef struct {
    const noise512_rows *rows;
    uint32_t k0[10], k1[10];
} noise512_setup;
void slpi_noise_avx512_prepare(noise512_setup *u, uint64_t seed);
/* Normals first .. first+count-1 of (u's seed, path, component), first even, count a
 * multiple of 16; the processor must have AVX-512F. */
void slpi_noise_avx512_normals(const noise512_setup *u, uint64_t path, uint32_t component, uint64_t first, size_t count,
                               double *out);
/* Normals first .. first+count-1 (first and count even) of the npaths paths path, path + 1,
 * ...: normal first + i of path + q to out[i stride + q]; the processor must have AVX-512F. */
void slpi_noise_avx512_lanes(const noise512_setup *u, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                             size_t count, double *out, size_t stride);
/* The same with AVX2, count a multiple of 4 NOISE_AVX2_W. */
void slpi_noise_avx2_normals(uint64_t seed, uint64_t path, uint32_t component, uint64_t first, size_t count,
                             double *out);
#endif

#endif
