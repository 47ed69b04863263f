/* t-noise-hierarchy.c — the coupled levels (docs/noise.md#coupling) and truncation (docs/noise.md#truncation):
 * a coarse increment equals, bit for bit, the binary64 sum of its two children and the
 * recursive pairwise sum of sqrt(h/2^r) Z over its fine draws (r = 1..13: within a chunk of
 * 2^11 draws and across chunks); the threshold D(h, ell)
 * equals an independent MPFR evaluation and the documentation's table; clipping is exact; and the
 * clipped count matches the tail probability 2 Phi(-A_h) within its binomial CI; and
 * slpi_noise_increments refuses every argument outside its rules (slpi.h) with an error
 * naming it and the output untouched, and accepts the boundary values. */
#include <mpfr.h>

#include "slpi.h"
#include "testutil.h"

/* Pairwise sum of sigma z[0..len), len a power of two, written recursively. */
static double tree_sum(const double *z, size_t len, double sigma)
{
    if (len == 1) return sigma * z[0];
    return tree_sum(z, len / 2, sigma) + tree_sum(z + len / 2, len / 2, sigma);
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* D(h, ell) = sqrt(2 ell h |ln h|) in MPFR at 300 bits, rounded to nearest. */
static double mpfr_threshold(double h, double ell)
{
    mpfr_t a, b;
    mpfr_inits2(300, a, b, (mpfr_ptr)0);
    mpfr_set_d(a, h, MPFR_RNDN);
    mpfr_log(b, a, MPFR_RNDN);
    mpfr_mul(b, b, a, MPFR_RNDN);
    mpfr_mul_d(b, b, -2 * ell, MPFR_RNDN);
    mpfr_sqrt(b, b, MPFR_RNDN);
    double d = mpfr_get_d(b, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return d;
}

int main(void)
{
    test_start("t-noise-hierarchy", 11);

    /* 1. levels: children sums, recursive tree, refine 0 = sqrt(h) Z */
    static double z[1 << 13];
    double inc[64], kids[128];
    for (long it = 0; it < test_iters(300); it++) {
        uint64_t seed = test_rand_u64(), path = test_rand_u64() >> 32;
        uint32_t comp = (uint32_t)test_rand_int(1000);
        int r = 1 + (int)test_rand_int(13);
        double h = ldexp(1.0, -(int)test_rand_int(20)) * (1 + test_rand_int(7));
        uint64_t first = test_rand_u64() >> (24 + test_rand_int(30));
        size_t count = 1 + (size_t)test_rand_int(32);
        slpi_noise_increments(seed, path, comp, h, r, first, count, inc, NULL);
        slpi_noise_increments(seed, path, comp, h / 2, r - 1, 2 * first, 2 * count, kids, NULL);
        for (size_t n = 0; n < count; n++) {
            TEST_CHECKF(same(inc[n], kids[2 * n] + kids[2 * n + 1]), "refine %d step %" PRIu64 ": coarse %a != %a + %a",
                        r, first + n, inc[n], kids[2 * n], kids[2 * n + 1]);
        }
        size_t nf = (size_t)1 << r;
        double sigma = sqrt(ldexp(h, -r));
        for (size_t n = 0; n < count && n < 4; n++) {
            slpi_noise_normals(seed, path, comp, (first + n) << r, nf, z);
            TEST_CHECKF(same(inc[n], tree_sum(z, nf, sigma)),
                        "refine %d step %" PRIu64 ": %a is not the pairwise tree sum %a", r, first + n, inc[n],
                        tree_sum(z, nf, sigma));
        }
        slpi_noise_increments(seed, path, comp, h, 0, first, 1, inc, NULL);
        TEST_CHECK(same(inc[0], sqrt(h) * slpi_noise_normal(seed, path, comp, first)));
    }

    /* 2. thresholds: Arb (library) vs MPFR (here), and the docs/noise.md#truncation table */
    static const double spec_h[6] = { 0x1p-3, 0x1p-7, 1e-2, 0x1p-8, 0x1p-12, 0x1p-16 };
    static const double spec_D[6] = { 1.0197, 0.38939, 0.42919, 0.29435, 0.09013, 0.02602 };
    static const double spec_unit[6] = { 1e-4, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5 }; /* printed */
    for (int i = 0; i < 6; i++) {
        double D = slpi_noise_threshold(spec_h[i], 2);
        TEST_CHECKF(fabs(D - spec_D[i]) <= 0.5 * spec_unit[i], "D(%g) = %.6g, docs %.5g", spec_h[i], D, spec_D[i]);
    }
    for (long it = 0; it < test_iters(2000); it++) {
        double h = test_rand_uniform(0, 1), ell = test_rand_uniform(0.1, 4);
        if (it % 3 == 0) h = ldexp(1.0, -1 - (int)test_rand_int(60));
        if (!(h > 0)) continue;
        double a = slpi_noise_threshold(h, ell), b = mpfr_threshold(h, ell);
        TEST_CHECKF(same(a, b), "D(%a, %a): Arb %a, MPFR %a", h, ell, a, b);
    }
    TEST_CHECK(isnan(slpi_noise_threshold(1.0, 2)));
    TEST_CHECK(isnan(slpi_noise_threshold(0.0, 2)));
    TEST_CHECK(isnan(slpi_noise_threshold(-0.5, 2)));
    TEST_CHECK(isnan(slpi_noise_threshold(0.5, 0)));

    /* 3. clipping by exact comparison */
    double D = slpi_noise_threshold(0x1p-7, 2);
    double x[6] = { D, -D, nextafter(D, 1), nextafter(-D, -1), 0, 1e300 };
    TEST_CHECK(slpi_noise_clip(x, 6, D) == 3);
    TEST_CHECK(same(x[0], D) && same(x[1], -D) && same(x[2], D) && same(x[3], -D) && x[4] == 0 && same(x[5], D));

    /* 4. clipped count vs the tail probability P = 2 Phi(-A_h) = erfc(A_h / sqrt 2), at
     *    the consumed level (h = 2^-3) for refine 0 and for sums of 2^2 fine draws */
    const double h = 0x1p-3;
    D = slpi_noise_threshold(h, 2);
    const double P = erfc(D / sqrt(h) / sqrt(2.0));
    const size_t n = (size_t)test_iters(1000000);
    double *w = malloc(n * sizeof *w);
    for (int r = 0; r <= 2; r += 2) {
        uint64_t seed = test_rand_u64();
        slpi_noise_increments(seed, 0, 0, h, r, 0, n, w, NULL);
        long expect_clip = 0;
        for (size_t i = 0; i < n; i++) expect_clip += fabs(w[i]) > D;
        long clipped = slpi_noise_clip(w, n, D);
        double mu = (double)n * P, sd = sqrt((double)n * P * (1 - P));
        printf("t-noise-hierarchy: refine %d: clipped %ld of %zu, expected %.1f +- %.1f\n", r, clipped, n, mu, sd);
        TEST_CHECK(clipped == expect_clip);
        TEST_CHECKF(fabs((double)clipped - mu) < 5 * sd, "refine %d: %ld clipped", r, clipped);
        long bad = 0;
        for (size_t i = 0; i < n; i++) bad += !(fabs(w[i]) <= D);
        TEST_CHECK(bad == 0);
    }
    free(w);

    /* 5. argument rules: refused (SLPI_EINPUT, the argument named, out untouched), and
     *    the boundary values accepted (one increment ending below 2^62) */
    struct {
        double h;
        int refine;
        uint64_t first;
        size_t count;
        int null_out;
        const char *names;
    } bad_args[] = {
        { NAN, 0, 0, 4, 0, "h=nan" },
        { -1, 0, 0, 4, 0, "h=-1" },
        { INFINITY, 0, 0, 4, 0, "h=inf" },
        { 0, 0, 0, 4, 0, "h=0" },
        { 2e6, 0, 0, 4, 0, "h=2e+06" },
        { 0.1, -1, 0, 4, 0, "refine=-1" },
        { 0.1, SLPI_NOISE_MAX_REFINE + 1, 0, 4, 0, "refine=41" },
        { 0.1, 64, 0, 4, 0, "refine=64" },
        { 0.1, 31, 0, 4, 1, "out is NULL" },
        { 0.1, 0, UINT64_C(1) << 62, 1, 0, "must be below 2^62" },
        { 0.1, 40, (UINT64_C(1) << 22) - 1, 1, 0, "must be below 2^62" },
        { 0.1, 0, 1, SIZE_MAX, 0, "must be below 2^62" },
        { 0.1, 39, 0, 1, 0, "refine=39: 1 increments of 2^39 fine draws" },
        { 0.1, 20, 0, (1 << 18) + 1, 0, "fine draws each are" },
    };
    /* the work bound first: without it the last two rows would run for hours */
    int bounded = slpi_noise_check_work(1, 39, NULL) == SLPI_EINPUT;
    TEST_CHECKF(bounded, "refine=39: one increment of 2^39 draws is not refused");
    for (size_t i = 0; i < sizeof bad_args / sizeof bad_args[0]; i++) {
        double o[4] = { 7, 7, 7, 7 };
        if (!bounded && strstr(bad_args[i].names, "draws")) continue;
        slpi_error e = { 0, "" };
        int rc = slpi_noise_increments(1, 0, 0, bad_args[i].h, bad_args[i].refine, bad_args[i].first, bad_args[i].count,
                                       bad_args[i].null_out ? NULL : o, &e);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(e.msg, bad_args[i].names) && o[0] == 7 && o[3] == 7,
                    "argument case %zu (%s): rc %d, '%s', out[0] = %g", i, bad_args[i].names, rc, e.msg, o[0]);
    }
    double o = 7;
    TEST_CHECK(slpi_noise_increments(1, 0, 0, 0.1, 0, (UINT64_C(1) << 62) - 2, 1, &o, NULL) == SLPI_OK && isfinite(o) &&
               o != 7);
    TEST_CHECK(slpi_noise_increments(1, 0, 0, 0.1, SLPI_NOISE_MAX_REFINE, 0, 0, NULL, NULL) == SLPI_OK);
    /* the work bound (docs/noise.md#refine) at its edge: 2^38 fine draws, not one more */
    TEST_CHECK(slpi_noise_check_work(1, 38, NULL) == SLPI_OK && slpi_noise_check_work(2, 38, NULL) == SLPI_EINPUT);
    TEST_CHECK(slpi_noise_check_work(UINT64_C(1) << 18, 20, NULL) == SLPI_OK &&
               slpi_noise_check_work((UINT64_C(1) << 18) + 1, 20, NULL) == SLPI_EINPUT);
    TEST_CHECK(slpi_noise_check_work(SLPI_NOISE_MAX_DRAWS, 0, NULL) == SLPI_OK &&
               slpi_noise_check_work(SLPI_NOISE_MAX_DRAWS + 1, 0, NULL) == SLPI_EINPUT);
    TEST_CHECK(slpi_noise_rows(&o, 1, 0, 1, NAN, 0, 0, 1, INFINITY) == -1);
    TEST_END();
}
