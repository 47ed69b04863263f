/* t-noise-normal.c — the canonical uniform -> normal map of core/noise.c (docs/noise.md#increments,
 * docs/noise.md#contract): Random123's published Philox4x32-10 vectors; the documented counter and
 * word mapping, re-implemented here from core/noise.c's header; and the accuracy claim
 * |Z - Phi^{-1}(U)| < 1 ulp, checked with Arb on >= 10^6 stream samples plus every row
 * of the table (its end points, random interior points, both extreme uniforms). */
#include "slpi.h"
#include "core/noise.h"
#include "testutil.h"

#include <Random123/philox.h>

/* Published known answers (Random123 kat_vectors: counter, key -> output). */
static void check_philox_kat(void)
{
    static const uint32_t kat[3][10] = { { 0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 },
                                         { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                                           0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd },
                                         { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
                                           0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } };
    for (int i = 0; i < 3; i++) {
        philox4x32_ctr_t c = { { kat[i][0], kat[i][1], kat[i][2], kat[i][3] } };
        philox4x32_key_t k = { { kat[i][4], kat[i][5] } };
        philox4x32_ctr_t r = philox4x32_R(10, c, k);
        for (int w = 0; w < 4; w++) {
            TEST_CHECKF(r.v[w] == kat[i][6 + w], "philox KAT %d word %d: %08x != %08x", i, w, (unsigned)r.v[w],
                        (unsigned)kat[i][6 + w]);
        }
    }
}

/* The 64-bit word of normal j, from the header's description (independent of noise.c). */
static uint64_t word_of(uint64_t seed, uint64_t path, uint32_t comp, uint64_t j)
{
    uint64_t b = j / 2;
    philox4x32_ctr_t c = { { (uint32_t)(b & 0xffffffffu), (uint32_t)(b >> 32), comp, (uint32_t)path } };
    philox4x32_key_t k = { { (uint32_t)(seed & 0xffffffffu), (uint32_t)(seed >> 32) } };
    philox4x32_ctr_t r = philox4x32_R(10, c, k);
    return j % 2 ? (uint64_t)r.v[3] << 32 | r.v[2] : (uint64_t)r.v[1] << 32 | r.v[0];
}

static arb_t t_phi, t_dens, t_p, t_x, t_rt2, t_rt2pi;

/* Error of z against Phi^{-1}(U) in ulps of the exact value, U given by its tail
 * probability p = (2m+1)/2^54 and side (z >= 0 iff U = 1 - p). With x = -|z| the first
 * order estimate x - x* = (Phi(x) - p)/phi(x); the neglected term is O(|x| (x - x*)^2),
 * below 10^-12 of the result. */
static double ulp_error(double z, uint64_t m)
{
    double x = -fabs(z);
    arb_set_d(t_x, x);
    arb_set_ui(t_p, 2 * m + 1);
    arb_mul_2exp_si(t_p, t_p, -54);
    arb_mul_2exp_si(t_phi, t_x, -1); /* Phi(x) = erfc(-x/sqrt2)/2 */
    arb_mul(t_phi, t_phi, t_rt2, 128);
    arb_neg(t_phi, t_phi);
    arb_hypgeom_erfc(t_phi, t_phi, 128);
    arb_mul_2exp_si(t_phi, t_phi, -1);
    arb_sub(t_phi, t_phi, t_p, 128);
    arb_sqr(t_dens, t_x, 128); /* phi(x) = exp(-x^2/2)/sqrt(2 pi) */
    arb_mul_2exp_si(t_dens, t_dens, -1);
    arb_neg(t_dens, t_dens);
    arb_exp(t_dens, t_dens, 128);
    arb_div(t_dens, t_dens, t_rt2pi, 128);
    arb_div(t_phi, t_phi, t_dens, 128); /* x - x* */
    double d = arf_get_d(arb_midref(t_phi), ARF_RND_NEAR);
    int e;
    frexp(x - d, &e); /* ulp of x* in binary64: 2^(e-53) */
    return fabs(ldexp(d, 53 - e));
}

static double worst = 0;
static long nchecked = 0;

static void check_value(double z, uint64_t w, const char *what, uint64_t tag)
{
    uint64_t m = (w >> 11) & ((UINT64_C(1) << 52) - 1);
    int neg = !(w >> 63);
    double u = ulp_error(z, m);
    nchecked++;
    if (u > worst) worst = u;
    TEST_CHECKF(u < 1.0 && (z < 0) == neg, "%s %" PRIu64 ": m=%" PRIu64 " z=%a off by %.3f ulp", what, tag, m, z, u);
}

int main(void)
{
    test_start("t-noise-normal", 20261121);
    arb_init(t_phi);
    arb_init(t_dens);
    arb_init(t_p);
    arb_init(t_x);
    arb_init(t_rt2);
    arb_init(t_rt2pi);
    arb_sqrt_ui(t_rt2, 2, 128);
    arb_const_pi(t_rt2pi, 128);
    arb_mul_2exp_si(t_rt2pi, t_rt2pi, 1);
    arb_sqrt(t_rt2pi, t_rt2pi, 128);
    check_philox_kat();

    /* 1. stream samples: random keys, random indices, blocks of consecutive indices */
    long n = test_iters(1000000);
    double *z = malloc(64 * sizeof *z);
    for (long done = 0; done < n; done += 64) {
        uint64_t seed = test_rand_u64(), path = test_rand_u64() >> 32;
        uint32_t comp = (uint32_t)(test_rand_u64() >> 48);
        uint64_t first = test_rand_u64() >> test_rand_int(64);
        first = first > UINT64_MAX - 64 ? first - 64 : first;
        slpi_noise_normals(seed, path, comp, first, 64, z);
        for (int i = 0; i < 64; i++) {
            uint64_t w = word_of(seed, path, comp, first + i);
            TEST_CHECKF(z[i] == slpi_noise_normal(seed, path, comp, first + i),
                        "normals[] and normal() differ at %" PRIu64, first + i);
            check_value(z[i], w, "stream index", first + i);
        }
    }
    free(z);
    printf("t-noise-normal: %ld stream samples, worst error %.4f ulp\n", nchecked, worst);

    /* 2. every table row: p's binade e = -54..-2 and eighth k; m ranges over
     *    [lo, hi] with p = (2m+1)/2^54 in [2^e (1 + k/8), 2^e (1 + (k+1)/8)) */
    const uint64_t M52 = (UINT64_C(1) << 52) - 1;
    for (int e = -54; e <= -2; e++) {
        for (int k = 0; k < 8; k++) {
            /* 2m+1 >= P_lo = 2^(e+51) (8+k) and 2m+1 < P_hi = 2^(e+51) (9+k), exact in
             * binary64 (P < 2^53) */
            double plo = ldexp(8 + k, e + 51), phi = ldexp(9 + k, e + 51);
            double mlo = ceil((plo - 1) / 2), mhi = ceil((phi - 1) / 2) - 1;
            if (mlo > mhi) continue; /* no p = (2m+1)/2^54 falls in this row */
            uint64_t lo = (uint64_t)mlo, hi = (uint64_t)mhi;
            hi = hi > M52 ? M52 : hi;
            for (int i = 0; i < 18; i++) {
                uint64_t m = i == 0 ? lo : i == 1 ? hi : lo + test_rand_u64() % (hi - lo + 1);
                uint64_t w = m << 11 | (test_rand_u64() & 0x7ff) | (test_rand_u64() & (UINT64_C(1) << 63));
                check_value(slpi_noise_word_normal(w), w, "row probe, m", m);
            }
        }
    }
    /* 3. log-uniform tail probabilities */
    for (long i = 0; i < test_iters(100000); i++) {
        uint64_t m = (test_rand_u64() & M52) >> test_rand_int(53);
        uint64_t w = m << 11 | (test_rand_u64() & (UINT64_C(1) << 63));
        check_value(slpi_noise_word_normal(w), w, "tail probe, m", m);
    }
    printf("t-noise-normal: %ld samples in all, worst error %.4f ulp\n", nchecked, worst);
    TEST_END();
}
