/* t-fast-dense.c — fast/dense.c's eigenvalues of skew-Hermitian matrices, the band route
 * (zhbev, a band of at most n/16) against the full one (zheev), the same quantity two ways:
 * a random band X of every width 0 … n/16 + 1 and n − 1, each with its outermost diagonal
 * filled, against X with a corner entry of 1e-300 added, which moves the spectrum by at most
 * that and sends it to zheev. Both must agree to 8 n u max|w|, and their sum must be
 * trace(iX). Orders 1, 2, 5, 15, 16, 17, 33, 64, 100, 256 (docs/experiments.md#setup-profile). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"
#include "cplxutil.h"
#include "fast/dense.h"

/* A random skew-Hermitian n x n X of upper bandwidth exactly b: cplxutil.h's, cut to the
 * band, its outermost diagonal's real parts at least 1/4 in size (nonzero). */
static void band(cplx *X, int n, int b)
{
    rand_skewh(X, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            cplx *x = &X[i + (size_t)n * j];
            if (abs(i - j) > b)
                *x = 0;
            else if (abs(i - j) == b && b > 0 && fabs(creal(*x)) < 0.25)
                *x = (i < j ? 0.25 : -0.25) + I * cimag(*x);
        }
}

static void check(int n, int b)
{
    cplx *X = cmat(n);
    double *w = malloc(sizeof *w * (size_t)n), *v = malloc(sizeof *v * (size_t)n);
    if (!X || !w || !v) {
        fprintf(stderr, "t-fast-dense: out of memory\n");
        exit(2);
    }
    band(X, n, b);
    TEST_CHECKF(slpi_fast_eig_skewh(n, X, w) == 0, "n %d b %d: no spectrum", n, b);
    double tr = 0, sum = 0, top = 0, e = 0;
    for (int a = 0; a < n; a++) {
        tr += cimag(X[a + (size_t)n * a]); /* trace(iX) = -sum Im X_aa */
        sum += w[a];
        top = fmax(top, fabs(w[a]));
    }
    if (n > 1) {
        X[(size_t)n * (n - 1)] += 1e-300;
        X[n - 1] -= 1e-300;
    }
    TEST_CHECKF(slpi_fast_eig_skewh(n, X, v) == 0, "n %d b %d: no spectrum (full)", n, b);
    for (int a = 0; a < n; a++) e = fmax(e, fabs(w[a] - v[a]));
    const double bound = 8 * n * U * fmax(top, 1);
    TEST_CHECKF(e <= bound, "n %d b %d: band and full spectra %g apart (bound %g)", n, b, e, bound);
    TEST_CHECKF(fabs(sum + tr) <= bound * n, "n %d b %d: sum of the spectrum %.17g, trace(iX) %.17g", n, b, sum, -tr);
    for (int a = 1; a < n; a++) TEST_CHECKF(w[a - 1] <= w[a], "n %d b %d: not ascending at %d", n, b, a);
    free(X);
    free(w);
    free(v);
}

int main(void)
{
    test_start("t-fast-dense", 9);
    static const int orders[] = { 1, 2, 5, 15, 16, 17, 33, 64, 100, 256 };
    for (long r = 0; r < test_iters(1); r++)
        for (size_t k = 0; k < sizeof orders / sizeof *orders; k++) {
            int n = orders[k];
            for (int b = 0; b <= n / 16 + 1 && b < n; b++) check(n, b);
            check(n, n - 1);
        }
    TEST_END();
}
