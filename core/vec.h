/* vec.h — the max norms every module measures with (a declared interface of core/): one
 * helper for |x|_max and one for |x - y|_max, with one NaN rule.
 *
 * NaN rule: a NaN entry (or difference) makes the result NaN, wherever it stands, so a
 * NaN never reads as agreement (NaN <= tol is false) and never hides behind a larger
 * finite entry. For finite inputs the result is the largest |x_i| (|x_i - y_i|), 0 for
 * n = 0. Inline: the fast path's solvers call them in their inner loops. */
#ifndef SLPI_CORE_VEC_H
#define SLPI_CORE_VEC_H

#include <math.h>

/* The running maximum m of absolute values a (a >= 0 or NaN) under the NaN rule, for
 * loops that fuse the norm into other work. */
static inline double slpi_vec_maxacc(double m, double a)
{
    return a > m || a != a ? a : m; /* once NaN, no a > m holds: NaN stays */
}

static inline double slpi_vec_maxabs(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = slpi_vec_maxacc(m, fabs(x[i]));
    return m;
}

static inline double slpi_vec_maxdiff(const double *x, const double *y, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = slpi_vec_maxacc(m, fabs(x[i] - y[i]));
    return m;
}

#endif
