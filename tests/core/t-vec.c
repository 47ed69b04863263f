/* t-vec.c — unit test of core/vec.h, the one pair of max norms and its NaN rule: on random
 * vectors (lengths 0..40, entries of random sign and binary exponent, some infinite) each
 * norm is computed two ways, by core/vec.h and here by sorting the magnitudes and taking
 * the last; a NaN planted at a random place (first, last, middle, beside a larger entry)
 * must make both norms NaN, and a NaN-free vector must give the largest entry exactly. */
#include "core/vec.h"
#include "testutil.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the largest of n magnitudes by sorting (0 for n = 0); NaN if any is NaN */
static double by_sorting(const double *v, int n)
{
    double s[64];
    for (int i = 0; i < n; i++) {
        if (isnan(v[i])) return NAN;
        s[i] = fabs(v[i]);
    }
    qsort(s, (size_t)n, sizeof s[0], cmp);
    return n ? s[n - 1] : 0;
}

int main(void)
{
    test_start("t-vec", 25);
    long iters = test_iters(2000);
    for (long it = 0; it < iters; it++) {
        int n = (int)test_rand_int(41);
        double x[64], y[64], d[64];
        for (int i = 0; i < n; i++) {
            x[i] = ldexp(test_rand_uniform(-1, 1), (int)test_rand_int(80) - 40);
            y[i] = test_rand_int(4) ? ldexp(test_rand_uniform(-1, 1), (int)test_rand_int(80) - 40) : x[i];
            if (test_rand_int(50) == 0) x[i] = test_rand_int(2) ? INFINITY : -INFINITY;
        }
        for (int i = 0; i < n; i++) d[i] = x[i] - y[i];
        double a = slpi_vec_maxabs(x, n), b = slpi_vec_maxdiff(x, y, n);
        TEST_CHECKF(a == by_sorting(x, n), "maxabs n=%d: %a, sorted %a", n, a, by_sorting(x, n));
        TEST_CHECKF(b == by_sorting(d, n) || (isnan(b) && isnan(by_sorting(d, n))), "maxdiff n=%d: %a, sorted %a", n, b,
                    by_sorting(d, n));
        if (n == 0) continue;
        /* a NaN anywhere: first, last, or a random place; a huge entry after it */
        int at = (int)(it % 3 == 0 ? 0 : it % 3 == 1 ? n - 1 : test_rand_int(n));
        x[at] = NAN;
        if (at + 1 < n) x[at + 1] = 1e300;
        TEST_CHECKF(isnan(slpi_vec_maxabs(x, n)), "maxabs n=%d, NaN at %d: %a", n, at, slpi_vec_maxabs(x, n));
        TEST_CHECKF(isnan(slpi_vec_maxdiff(x, y, n)), "maxdiff n=%d, NaN at %d: %a", n, at, slpi_vec_maxdiff(x, y, n));
        TEST_CHECKF(isnan(slpi_vec_maxdiff(y, x, n)), "maxdiff (swapped) n=%d, NaN at %d", n, at);
    }
    TEST_END();
}
