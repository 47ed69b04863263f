/* ref/mrmat-axpy.c — the route's matrix sums Y += a X and Y += a (X - X^*)
 * (docs/design.md#blas-route; ref/mrmat.h): entry by entry, each the scalar arithmetic of
 * ref/mrmat.h (slpi_ref_mrmat_axpy_at), the radii rounded up operation by operation. */
#include "ref/mrmat.h"

#include <math.h>
#include <stddef.h>

/* y += a x over n parts, the operations of slpi_ref_mrmat_axpy_at (skew 0) on each (yr
 * NULL: the midpoints alone), in a loop the compiler vectorises (inlined with a = 1
 * apart); 1 when every result is finite */
static inline __attribute__((always_inline)) int axpy_flat(double *restrict ym, double *restrict yr, double a,
                                                           const double *restrict xm, const double *restrict xr,
                                                           size_t n)
{
    if (yr == NULL) {
        for (size_t e = 0; e < n; e++) ym[e] -= -(a != 1 ? a * xm[e] : xm[e]);
        return slpi_ref_mrmat_all_finite(ym, n);
    }
    for (size_t e = 0; e < n; e++) {
        double m = xm[e], r = xr[e];
        if (a != 1) slpi_ref_mrmat_scalar_pow2(&m, &r, a, m, r);
        slpi_ref_mrmat_scalar_add(ym + e, yr + e, ym[e], yr[e], m, r);
    }
    return slpi_ref_mrmat_all_finite(ym, n) && slpi_ref_mrmat_all_finite(yr, n);
}

int slpi_ref_mrmat_axpy(slpi_ref_mr *Y, double a, const slpi_ref_mr *X, int skew)
{
    int n = Y->rows, c = Y->c, ok = 1;
    if (!skew) /* entry by entry in memory order, each as slpi_ref_mrmat_axpy_at's */
        return a == 1 ? axpy_flat(Y->mid, Y->rad, 1, X->mid, X->rad, (size_t)n * Y->cols * c)
                      : axpy_flat(Y->mid, Y->rad, a, X->mid, X->rad, (size_t)n * Y->cols * c);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < Y->cols; j++)
            for (int p = 0; p < c; p++) {
                size_t e = ((size_t)i * Y->cols + j) * c + p, et = ((size_t)j * Y->cols + i) * c + p;
                slpi_ref_mrmat_axpy_at(Y->mid + e, Y->rad != NULL ? Y->rad + e : NULL, a, X, e, et, p, skew);
                ok &= isfinite(Y->mid[e]) && (Y->rad == NULL || isfinite(Y->rad[e]));
            }
    return ok;
}
