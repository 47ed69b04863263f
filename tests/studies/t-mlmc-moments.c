/* t-mlmc-moments.c — the running moments of `slpi mlmc --test` (slpi_mlmc_moments_add, Pebay's
 * one-pass update; studies/mlmc-test.c, docs/noise.md#mlmc-test), against the two-pass
 * central moments in long double of the same values:
 *  - samples of 2..3000 values, skewed (an exponential's cube) or symmetric, their mean
 *    c = 10^k times their spread, k = 0..4: mean, m2, m3 and m4 (sums of the powers of the
 *    deviations) to 1e-11 relative (m3 against the scale n sd^3, as it may be near 0, and
 *    to 1e-11 (1 + c/100): the mean's rounding, ~1e-16 c, moves it by 3 m2 times that;
 *    the mean to 1e-13 of |mean| + sd);
 *  - the reason for the update (docs/noise.md): at k = 4 the power-sum formula of Giles'
 *    code, m4 = S4 - 4 c S3 + 6 c^2 S2 - 3 n c^4 (c = S1/n), is off by more than 1e-6
 *    relative, while the update stays within 1e-11.
 * The seed (SLPI_TEST_SEED) draws the samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "studies/mlmc.h"

/* The two-pass central sums of x[0..n) in long double: mean, m2, m3, m4. */
static void two_pass(const double *x, long n, long double out[4])
{
    long double m = 0;
    for (long i = 0; i < n; i++) m += x[i];
    m /= n;
    out[0] = m;
    out[1] = out[2] = out[3] = 0;
    for (long i = 0; i < n; i++) {
        long double d = x[i] - m;
        out[1] += d * d;
        out[2] += d * d * d;
        out[3] += d * d * d * d;
    }
}

static int close_rel(double a, long double b, double scale, double tol)
{
    return fabsl((long double)a - b) <= tol * scale;
}

int main(void)
{
    test_start("t-mlmc-moments", 1);
    double *x = malloc(3000 * sizeof *x);
    TEST_CHECK(x != NULL);
    double worst_naive = 0;
    for (int it = 0; x && it < 400; it++) {
        long n = 2 + test_rand_int(2999);
        int k = it % 5, skew = it % 2;
        double c = pow(10.0, k);
        for (long i = 0; i < n; i++) {
            double u = test_rand_uniform(1e-12, 1);
            x[i] = c + (skew ? pow(-log(u), 3) / 6 : test_rand_uniform(-1.7, 1.7));
        }
        slpi_mlmc_moments s;
        memset(&s, 0, sizeof s);
        for (long i = 0; i < n; i++) slpi_mlmc_moments_add(&s, x[i]);
        long double t[4];
        two_pass(x, n, t);
        double sd = sqrt((double)t[1] / (double)n);
        TEST_CHECKF(s.n == (double)n && close_rel(s.mean, t[0], fabs(s.mean) + sd, 1e-13),
                    "it %d: n %ld, mean %.17g, two-pass %.17Lg", it, n, s.mean, t[0]);
        TEST_CHECKF(close_rel(s.m2, t[1], (double)t[1], 1e-11), "it %d (k %d): m2 %.17g, two-pass %.17Lg", it, k, s.m2,
                    t[1]);
        TEST_CHECKF(close_rel(s.m3, t[2], (double)n * sd * sd * sd, 1e-11 * (1 + c / 100)),
                    "it %d (k %d): m3 %.17g, two-pass %.17Lg", it, k, s.m3, t[2]);
        TEST_CHECKF(close_rel(s.m4, t[3], (double)t[3], 1e-11), "it %d (k %d): m4 %.17g, two-pass %.17Lg", it, k, s.m4,
                    t[3]);
        if (k == 4 && n > 100) {
            double S1 = 0, S2 = 0, S3 = 0, S4 = 0;
            for (long i = 0; i < n; i++) {
                S1 += x[i];
                S2 += x[i] * x[i];
                S3 += x[i] * x[i] * x[i];
                S4 += x[i] * x[i] * x[i] * x[i];
            }
            double m = S1 / (double)n, naive = S4 - 4 * m * S3 + 6 * m * m * S2 - 3 * (double)n * m * m * m * m;
            double err = fabs(naive - (double)t[3]) / (double)t[3];
            if (err > worst_naive) worst_naive = err;
        }
    }
    TEST_CHECKF(worst_naive > 1e-6, "the power sums' m4 at a mean 10^4 spreads away: relative error %.3g only",
                worst_naive);
    printf("power sums' m4 at a mean 10^4 spreads away: relative error up to %.3g (the update: < 1e-11)\n",
           worst_naive);
    free(x);
    TEST_END();
}
