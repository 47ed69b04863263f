/* t-noise-stats.c — statistics of the canonical normals and increments (docs/noise.md#increments):
 * moments within 5-sigma bounds, a Kolmogorov–Smirnov test and a chi-squared
 * goodness-of-fit test (1000 equiprobable bins) against Phi on >= 2*10^6 draws, 4-sigma
 * tail frequencies, and correlations across components, paths, seeds,
 * neighbouring indices (the two halves of one Philox block) and the levels of the
 * hierarchy (children of one coarse step). */
#include "slpi.h"
#include "testutil.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sample correlation of x and y; under independence |r| sqrt(n) is about N(0, 1). */
static double correlation(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / sqrt(sxx * syy);
}

static void check_corr(const char *what, const double *x, const double *y, size_t n)
{
    double r = correlation(x, y, n);
    TEST_CHECKF(fabs(r) * sqrt((double)n) < 5, "%s: correlation %.3g = %.2f sigma", what, r, fabs(r) * sqrt((double)n));
}

int main(void)
{
    test_start("t-noise-stats", 7);
    const uint64_t seed = test_rand_u64();
    const uint64_t path = test_rand_u64() >> 40;
    const size_t n = (size_t)test_iters(2000000);
    double *z = malloc(n * sizeof *z), *y = malloc(n * sizeof *y);
    slpi_noise_normals(seed, path, 0, 0, n, z);

    /* moments: standard errors sqrt(1/n), sqrt(2/n), sqrt(6/n), sqrt(24/n) */
    double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    long tail_hi = 0, tail_lo = 0;
    for (size_t i = 0; i < n; i++) {
        m1 += z[i];
        tail_hi += z[i] > 4;
        tail_lo += z[i] < -4;
    }
    m1 /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = z[i] - m1;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= (double)n;
    m3 /= (double)n;
    m4 /= (double)n;
    double skew = m3 / pow(m2, 1.5), kurt = m4 / (m2 * m2) - 3, dn = (double)n;
    printf("t-noise-stats: n=%zu mean %.2e var-1 %.2e skew %.2e excess kurtosis %.2e\n", n, m1, m2 - 1, skew, kurt);
    TEST_CHECKF(fabs(m1) < 5 / sqrt(dn), "mean %g", m1);
    TEST_CHECKF(fabs(m2 - 1) < 5 * sqrt(2 / dn), "variance %g", m2);
    TEST_CHECKF(fabs(skew) < 5 * sqrt(6 / dn), "skewness %g", skew);
    TEST_CHECKF(fabs(kurt) < 5 * sqrt(24 / dn), "excess kurtosis %g", kurt);

    /* tails at 4 sigma: P(Z > 4) = erfc(4/sqrt2)/2, binomial 5-sigma window per side */
    double p4 = 0.5 * erfc(4 / sqrt(2.0)), e4 = dn * p4, s4 = sqrt(dn * p4 * (1 - p4));
    printf("t-noise-stats: beyond +4: %ld, below -4: %ld, expected %.1f +- %.1f each\n", tail_hi, tail_lo, e4, s4);
    TEST_CHECKF(fabs(tail_hi - e4) < 5 * s4, "upper 4-sigma tail count %ld", tail_hi);
    TEST_CHECKF(fabs(tail_lo - e4) < 5 * s4, "lower 4-sigma tail count %ld", tail_lo);

    /* Kolmogorov-Smirnov: P(sqrt(n) D > 2.7) ~ 2 exp(-2 2.7^2) < 10^-6 */
    memcpy(y, z, n * sizeof *y);
    qsort(y, n, sizeof *y, cmp_double);
    double D = 0;
    for (size_t i = 0; i < n; i++) {
        double F = 0.5 * erfc(-y[i] / sqrt(2.0));
        double a = fabs(F - (double)i / dn), b = fabs((double)(i + 1) / dn - F);
        D = fmax(D, fmax(a, b));
    }
    printf("t-noise-stats: Kolmogorov-Smirnov sqrt(n) D = %.3f\n", sqrt(dn) * D);
    TEST_CHECKF(sqrt(dn) * D < 2.7, "KS statistic sqrt(n) D = %.3f", sqrt(dn) * D);

    /* chi-squared, K equiprobable bins of Phi (bin floor(K Phi(z)), Phi by libm's erfc):
     * K - 1 degrees of freedom, standardised by Wilson-Hilferty (chi2/nu)^(1/3) ~
     * N(1 - 2/(9 nu), 2/(9 nu)); two-sided 5-sigma bound */
    enum { K = 1000 };
    static long bins[K];
    for (size_t i = 0; i < n; i++) {
        long k = (long)(K * (0.5 * erfc(-z[i] / sqrt(2.0))));
        bins[k < 0 ? 0 : k >= K ? K - 1 : k]++;
    }
    double chi2 = 0, expect = dn / K, nu = K - 1;
    for (int k = 0; k < K; k++) {
        chi2 += (bins[k] - expect) * (bins[k] - expect) / expect;
    }
    double wh = (cbrt(chi2 / nu) - (1 - 2 / (9 * nu))) / sqrt(2 / (9 * nu));
    printf("t-noise-stats: chi-squared %.1f on %d bins (%.0f dof): %.2f sigma\n", chi2, K, nu, wh);
    TEST_CHECKF(fabs(wh) < 5, "chi-squared %.1f with %.0f dof is %.2f sigma off", chi2, nu, wh);

    /* independence: other component, path, seed; lag 1 (halves of a Philox block) and
     * lag 2 (neighbouring blocks) */
    size_t h = n / 2;
    slpi_noise_normals(seed, path, 1, 0, h, y);
    check_corr("component 0 vs 1", z, y, h);
    slpi_noise_normals(seed, path + 1, 0, 0, h, y);
    check_corr("path p vs p+1", z, y, h);
    slpi_noise_normals(seed + 1, path, 0, 0, h, y);
    check_corr("seed s vs s+1", z, y, h);
    check_corr("index j vs j+1", z, z + 1, n - 1);
    check_corr("index j vs j+2", z, z + 2, n - 2);
    for (size_t i = 0; i < h; i++) { /* even vs odd members of the same block */
        y[i] = z[2 * i + 1];
        z[i] = z[2 * i];
    }
    check_corr("normals 2b vs 2b+1", z, y, h);

    /* levels: the two halves (h/2, refine 2) of each coarse step are independent, and the
     * coarse increment has variance h */
    const double hc = 0x1p-4;
    size_t nc = n / 8;
    double *c = malloc(2 * nc * sizeof *c), *coarse = malloc(nc * sizeof *coarse);
    slpi_noise_increments(seed, path, 2, hc / 2, 2, 0, 2 * nc, c, NULL);
    slpi_noise_increments(seed, path, 2, hc, 3, 0, nc, coarse, NULL);
    for (size_t i = 0; i < nc; i++) {
        z[i] = c[2 * i];
        y[i] = c[2 * i + 1];
    }
    check_corr("left vs right child", z, y, nc);
    check_corr("coarse step n vs n+1", coarse, coarse + 1, nc - 1);
    double v = 0;
    for (size_t i = 0; i < nc; i++) v += coarse[i] * coarse[i];
    v /= (double)nc * hc;
    TEST_CHECKF(fabs(v - 1) < 5 * sqrt(2 / (double)nc), "coarse variance / h = %g", v);
    free(c);
    free(coarse);
    free(z);
    free(y);
    TEST_END();
}
