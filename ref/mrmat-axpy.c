/* ref/mrmat-axpy.c — the route's matrix sums Y += a X and Y += a (X - X^*)
 * (docs/design.md#blas-route; ref/mrmat.h): entry by entry, each the scalar arithmetic of
 * ref/mrmat.h (slpi_ref_mrmat_axpy_at), the radii rounded up operation by operation. */
#include "ref/mrmat.h"

#include <math.h>
#include <stddef.h>

/* 1 when every midpoint of Y, and every radius it has, is finite */
static int axpy_finite(const slpi_ref_mr *Y)
{
    size_t n = (size_t)Y->rows * Y->cols * Y->c;
    return slpi_ref_mrmat_all_finite(Y->mid, n) && (Y->rad == NULL || slpi_ref_mrmat_all_finite(Y->rad, n));
}

/* Y += a X entry by entry in memory order (skew 0), each by slpi_ref_mrmat_axpy_at, in a
 * loop the compiler vectorises (inlined with a = 1 apart); 1 when every result is finite */
static inline __attribute__((always_inline)) int axpy_flat(slpi_ref_mr *Y, double a, const slpi_ref_mr *X)
{
    size_t n = (size_t)Y->rows * Y->cols * Y->c;
    double *ym = Y->mid, *yr = Y->rad;
    if (yr == NULL)
        for (size_t e = 0; e < n; e++) slpi_ref_mrmat_axpy_at(ym + e, NULL, a, X, e, e, 0, 0);
    else
        for (size_t e = 0; e < n; e++) slpi_ref_mrmat_axpy_at(ym + e, yr + e, a, X, e, e, 0, 0);
    return axpy_finite(Y);
}

int slpi_ref_mrmat_axpy(slpi_ref_mr *Y, double a, const slpi_ref_mr *X, int skew)
{
    int n = Y->rows, c = Y->c;
    if (!skew) return a == 1 ? axpy_flat(Y, 1, X) : axpy_flat(Y, a, X);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < Y->cols; j++)
            for (int p = 0; p < c; p++) {
                size_t e = ((size_t)i * Y->cols + j) * c + p, et = ((size_t)j * Y->cols + i) * c + p;
                slpi_ref_mrmat_axpy_at(Y->mid + e, Y->rad != NULL ? Y->rad + e : NULL, a, X, e, et, p, skew);
            }
    return axpy_finite(Y);
}
