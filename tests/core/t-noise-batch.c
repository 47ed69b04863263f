/* t-noise-batch.c — the batch entry points of the canonical noise (core/noise.c, core/noise-avx.c, the batched kernels
 * item 8) give the bits of the one-number definition: slpi_noise_normals (the best kernel
 * here), the AVX2 and the AVX-512F kernels forced one by one where the processor has them
 * (so an AVX-512 machine checks the AVX2 kernel too) = slpi_noise_normals_isa(PORTABLE,
 * ...) (portable kernels) = slpi_noise_normal index by index, over odd starts, short and long runs,
 * block counters that carry into their high word, the top of the index range, and
 * enough tail draws (p < 1/32, the lanes the AVX-512 kernel hands back) to exercise
 * every path; slpi_noise_normals_lanes (many paths at once, the ensembles' lanes) for
 * every kernel choice; and slpi_noise_increments = the pairwise tree of sigma Z_j written out
 * here recursively, for refine 0..14 (above 11 the tree spans several chunks). */
#include "slpi.h"
#include "core/noise.h"
#include "testutil.h"

#define MAXN 5000

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Sum of sigma z[0..n), n a power of 2, as the binary tree left + right. */
static double tree(const double *z, size_t n, double sigma)
{
    return n == 1 ? sigma * z[0] : tree(z, n / 2, sigma) + tree(z + n / 2, n / 2, sigma);
}

static long ntail = 0, nchecked = 0;

/* One run first .. first+count-1: the three ways agree; every index for short runs,
 * a sample of indices against the one-number function for long ones. */
static const char *const kname[] = { "portable", "best", "AVX2", "AVX-512F" };

static void check_run(uint64_t seed, uint64_t path, uint32_t comp, uint64_t first, size_t count)
{
    static double a[MAXN], b[MAXN];
    slpi_noise_normals_isa(SLPI_NOISE_PORTABLE, seed, path, comp, first, count, b);
    for (int isa = SLPI_NOISE_BEST; isa <= SLPI_NOISE_AVX512; isa++) {
        if (!slpi_noise_isa_available(isa)) continue;
        if (isa == SLPI_NOISE_BEST)
            slpi_noise_normals(seed, path, comp, first, count, a);
        else
            slpi_noise_normals_isa(isa, seed, path, comp, first, count, a);
        size_t bad = count;
        for (size_t i = 0; i < count && bad == count; i++) {
            if (!same(a[i], b[i])) bad = i;
            ntail += isa == SLPI_NOISE_BEST && fabs(a[i]) > 1.8627; /* -Phi^{-1}(1/32) = 1.86273...: p < 1/32 */
        }
        TEST_CHECKF(bad == count,
                    "seed %" PRIu64 " path %" PRIu64 " comp %u first %" PRIu64
                    " count %zu: the %s kernel differs from the portable one at +%zu: %a != %a",
                    seed, path, comp, first, count, kname[isa], bad, bad < count ? a[bad] : 0.0,
                    bad < count ? b[bad] : 0.0);
    }
    for (size_t i = 0; i < count; i += count < 200 ? 1 : 1 + (size_t)test_rand_int(40)) {
        double z = slpi_noise_normal(seed, path, comp, first + i);
        TEST_CHECKF(same(a[i], z), "first %" PRIu64 " count %zu: normals[%zu] = %a, normal() = %a", first, count, i,
                    a[i], z);
    }
    nchecked += (long)count;
}

int main(void)
{
    test_start("t-noise-batch", 3);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#endif
    for (int isa = SLPI_NOISE_AVX2; isa <= SLPI_NOISE_AVX512; isa++)
        printf("t-noise-batch: %s kernel %s\n", kname[isa],
               slpi_noise_isa_available(isa) ? "present: compared with the portable kernels"
                                             : "absent on this processor");
    /* 1. random runs: lengths around the kernels' thresholds and granules (4, 8, 16, 64,
     *    96, 256) and long ones */
    static const size_t lens[] = { 0,  1,  2,  4,  5,  7,   8,   9,   15,  16,   17,  63,
                                   64, 65, 95, 96, 97, 127, 255, 256, 257, 1000, MAXN };
    for (long it = 0; it < test_iters(400); it++) {
        uint64_t seed = test_rand_u64(), path = test_rand_u64() >> 32;
        uint32_t comp = (uint32_t)(test_rand_u64() >> 40);
        uint64_t first = test_rand_u64() >> test_rand_int(64);
        first = first > UINT64_MAX - MAXN ? first - MAXN : first;
        size_t count = it % 2 ? lens[test_rand_int(sizeof lens / sizeof lens[0])] : (size_t)test_rand_int(MAXN + 1);
        check_run(seed, path, comp, first, count);
    }
    /* 2. block counters whose low word wraps inside the run, and the end of the range */
    check_run(1, 2, 3, (UINT64_C(1) << 33) - 301, 600);
    check_run(UINT64_MAX, UINT32_MAX, UINT32_MAX, (UINT64_C(1) << 33) - 300, 600);
    check_run(5, 0, 0, UINT64_MAX - 999, 1000);
    printf("t-noise-batch: %ld normals compared, %ld with p < 1/32\n", nchecked, ntail);
    TEST_CHECKF(ntail > 1000, "only %ld draws below the AVX-512 kernel's fast rows", ntail);

    /* 3. increments against the recursive tree */
    static double z[1 << 15], inc[4];
    for (long it = 0; it < test_iters(60); it++) {
        uint64_t seed = test_rand_u64(), path = test_rand_u64() >> 32;
        uint32_t comp = (uint32_t)test_rand_int(8);
        int r = (int)(it % 15);
        size_t count = 1 + (size_t)test_rand_int(r > 12 ? 1 : 4);
        uint64_t first = test_rand_u64() >> (20 + r + test_rand_int(30));
        double h = ldexp(1.0 + (double)test_rand_int(7), -(int)test_rand_int(12));
        double sigma = sqrt(ldexp(h, -r));
        slpi_noise_increments(seed, path, comp, h, r, first, count, inc, NULL);
        for (size_t n = 0; n < count; n++) {
            size_t nf = (size_t)1 << r;
            slpi_noise_normals_isa(SLPI_NOISE_PORTABLE, seed, path, comp, (first + n) << r, nf, z);
            double want = tree(z, nf, sigma);
            TEST_CHECKF(same(inc[n], want), "refine %d step %" PRIu64 ": %a is not the tree sum %a", r, first + n,
                        inc[n], want);
        }
    }

    /* 4. whole hierarchies of several paths at once (slpi_noise_levels) = slpi_noise_increments
     * per path and level */
    static double lv[4][1 << 11], g[1 << 10];
    for (long it = 0; it < test_iters(6); it++) {
        uint64_t seed = test_rand_u64(), path = test_rand_u64() >> 32;
        int nup = 1 + (int)test_rand_int(9);
        size_t np = 1 + (size_t)test_rand_int(4);
        size_t count = (size_t)1 << (nup + (int)test_rand_int(2));
        uint64_t first = (test_rand_u64() >> 40) << nup;
        double h = ldexp(1.0 + (double)test_rand_int(7), -10 - (int)test_rand_int(8));
        double *lev[4 * 11];
        for (size_t q = 0; q < np; q++)
            for (int i = 0; i <= nup; i++)
                lev[q * (size_t)(nup + 1) + (size_t)i] = lv[q] + 2 * count - (2 * count >> i);
        slpi_noise_levels(seed, path, np, 2, h, nup, first, count, lev);
        for (size_t q = 0; q < np; q++)
            for (int i = 0; i <= nup; i++) {
                slpi_noise_increments(seed, path + q, 2, ldexp(h, i), i, first >> i, count >> i, g, NULL);
                TEST_CHECKF(memcmp(lev[q * (size_t)(nup + 1) + (size_t)i], g, (count >> i) * sizeof *g) == 0,
                            "levels: path %zu of %zu, level %d of %d (count %zu) differs from "
                            "slpi_noise_increments",
                            q, np, i, nup, count);
            }
    }

    /* 5. across paths (slpi_noise_normals_lanes, the ensembles' lanes: the AVX-512 kernel
     * eight paths a register, a last group under a mask) = slpi_noise_normal index by
     * index, for every kernel choice, odd and even starts and ends, strides above npaths
     * (the gaps untouched), path groups that cross 2^32 - 1 and block words that carry */
    static double ln[200 * 80];
    long nlanes = 0, lanes_tail = 0;
    for (long it = 0; it < test_iters(120); it++) {
        uint64_t seed = test_rand_u64(),
                 path = it % 7 == 0 ? UINT32_MAX - (uint64_t)test_rand_int(70) : test_rand_u64() >> 33;
        uint32_t comp = (uint32_t)test_rand_int(5);
        size_t np = 1 + (size_t)test_rand_int(70), count = (size_t)test_rand_int(200);
        size_t stride = np + (size_t)test_rand_int(3);
        uint64_t first = it % 5 == 0 ? (UINT64_C(1) << 33) - 1 - (uint64_t)test_rand_int(150)
                                     : test_rand_u64() >> (30 + test_rand_int(34));
        if (path + np > (uint64_t)UINT32_MAX + 1) np = (size_t)((uint64_t)UINT32_MAX + 1 - path);
        for (int isa = SLPI_NOISE_PORTABLE; isa <= SLPI_NOISE_AVX512; isa++) {
            for (size_t i = 0; i < sizeof ln / sizeof ln[0]; i++) ln[i] = -7.0;
            slpi_noise_normals_lanes(isa, seed, path, np, comp, first, count, ln, stride);
            size_t bad = 0, gap = 0;
            for (size_t i = 0; i < count; i++)
                for (size_t q = 0; q < stride; q++) {
                    double v = ln[i * stride + q];
                    if (q >= np) {
                        gap += !same(v, -7.0);
                        continue;
                    }
                    bad += !same(v, slpi_noise_normal(seed, path + q, comp, first + i));
                    lanes_tail += isa == SLPI_NOISE_BEST && fabs(v) > 1.8627;
                }
            gap += !same(ln[count * stride], -7.0);
            nlanes += (long)(count * np);
            TEST_CHECKF(bad == 0 && gap == 0,
                        "lanes (%s): seed %" PRIu64 " path %" PRIu64 " np %zu first %" PRIu64
                        " count %zu stride %zu: %zu normals differ from slpi_noise_normal, %zu gap values written",
                        kname[isa], seed, path, np, first, count, stride, bad, gap);
        }
    }
    printf("t-noise-batch: %ld normals across paths compared, %ld with p < 1/32\n", nlanes, lanes_tail);
    TEST_CHECKF(lanes_tail > 1000, "only %ld draws across paths below the AVX-512 kernel's fast rows", lanes_tail);
    TEST_END();
}
