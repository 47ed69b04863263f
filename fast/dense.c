/* dense.c — dense kernels of the double path (docs/schemes.md#tmk matrix exponential, docs/schemes.md#isomp/docs/schemes.md#svi
 * Cayley maps, §5 eigenvalue diagnostics) on complex column-major n x n matrices,
 * through LAPACKE (zheev, zhbev, zgesv) and CBLAS (zgemm), plus small vector helpers.
 * Real skew matrices (so(n)) use the same kernels with zero imaginary parts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include <lapacke.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "core/vec.h"
#include "fast/dense.h"

int slpi_fast_all_finite(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* C = alpha A B + beta C (n x n). */
static void zmul(int n, double complex alpha, const double complex *A, const double complex *B, double complex beta,
                 double complex *C)
{
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, &alpha, A, n, B, n, &beta, C, n);
}

/* Spare entries after the matrix and the work array zheev reads: OpenBLAS 0.3.21's
 * zgemv_n Haswell kernel, which zheev reaches through zhetrd/zlatrd, reads past the end of
 * both (an out-of-bounds read reported upstream on AMD EPYC and fixed after 0.3.21;
 * valgrind: 912-976 bytes past them at n = 64), and with exact-size arrays that read
 * crossed into an unmapped page (SIGSEGV in the diagnostics of an n = 64 Euler-Zeitlin
 * run). The spare entries are never written. */
#define SLPI_ZHEEV_SPARE(n) (4 * (size_t)(n) + 64)

/* Eigen-decomposition of the Hermitian iB: V (overwrites a copy, followed by
 * SLPI_ZHEEV_SPARE(n) allocated entries) and w. */
static int herm_eig(int n, const double complex *B, double complex *V, double *w, char jobz)
{
    for (int i = 0; i < n * n; i++) V[i] = I * B[i];
    lapack_complex_double q;
    lapack_int info =
        LAPACKE_zheev_work(LAPACK_COL_MAJOR, jobz, 'U', n, (lapack_complex_double *)V, n, w, &q, -1, NULL);
    if (info) return SLPI_ENUMERIC;
    lapack_int lwork = (lapack_int)creal(q);
    lapack_complex_double *work = malloc(sizeof *work * ((size_t)lwork + SLPI_ZHEEV_SPARE(n)));
    double *rwork = malloc(sizeof *rwork * (3 * (size_t)n + 1));
    info = work && rwork
        ? LAPACKE_zheev_work(LAPACK_COL_MAJOR, jobz, 'U', n, (lapack_complex_double *)V, n, w, work, lwork, rwork)
        : -1;
    free(work);
    free(rwork);
    return info == 0 ? 0 : SLPI_ENUMERIC;
}

int slpi_fast_expm_skewh(int n, const double complex *B, double complex *E)
{
    double complex *V = malloc(sizeof *V * ((size_t)n * n * 2 + SLPI_ZHEEV_SPARE(n)));
    double *w = malloc(sizeof *w * (size_t)n);
    if (!V || !w) {
        free(V);
        free(w);
        return SLPI_ENUMERIC;
    }
    double complex *VD = V + (size_t)n * n;
    int rc = herm_eig(n, B, V, w, 'V');
    if (rc == 0) {
        /* B = -i H, H = V diag(w) V^*, so exp(B) = V diag(exp(-i w)) V^*. */
        for (int j = 0; j < n; j++) {
            double complex e = cos(w[j]) - I * sin(w[j]);
            for (int i = 0; i < n; i++) VD[(size_t)j * n + i] = V[(size_t)j * n + i] * e;
        }
        double complex one = 1, zero = 0;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, n, n, n, &one, VD, n, V, n, &zero, E, n);
    }
    free(V);
    free(w);
    return rc;
}

/* The upper bandwidth of X, the largest j - i with X_ij != 0, or `over` once it exceeds
 * `over - 1` (the scan stops there). */
static int upper_bandwidth(int n, const double complex *X, int over)
{
    int b = 0;
    for (int j = 1; j < n && b < over; j++) {
        int i = 0;
        while (i < j - b && X[i + (size_t)n * j] == 0) i++;
        if (j - i > b) b = j - i;
    }
    return b < over ? b : over;
}

/* The eigenvalues of iX for X of upper bandwidth b, by LAPACK's band reduction (zhbev). */
static int band_eig(int n, int b, const double complex *X, double *w)
{
    const int ld = b + 1;
    double complex *AB = malloc(sizeof *AB * (size_t)ld * n);
    if (!AB) return SLPI_ENUMERIC;
    for (int j = 0; j < n; j++)
        for (int i = j - b < 0 ? 0 : j - b; i <= j; i++) AB[b + i - j + (size_t)ld * j] = I * X[i + (size_t)n * j];
    lapack_int info = LAPACKE_zhbev(LAPACK_COL_MAJOR, 'N', 'U', n, b, (lapack_complex_double *)AB, ld, w, NULL, 1);
    free(AB);
    return info == 0 ? 0 : SLPI_ENUMERIC;
}

int slpi_fast_eig_skewh(int n, const double complex *X, double *w)
{
    /* A band of at most n/16 goes to zhbev: its reduction costs O(n^2 b) against zheev's
     * O(n^3), and measured (one OpenBLAS thread, n = 64, 256, 1024) it is faster up to
     * about n/8 (docs/experiments.md#setup-profile); above, zheev. Both are backward stable, so
     * the choice moves the eigenvalues by rounding only; it reads X's bits alone. */
    const int b = upper_bandwidth(n, X, n / 16 + 1);
    if (b <= n / 16) return band_eig(n, b, X, w);
    double complex *V = malloc(sizeof *V * ((size_t)n * n + SLPI_ZHEEV_SPARE(n)));
    if (!V) return SLPI_ENUMERIC;
    int rc = herm_eig(n, X, V, w, 'N');
    free(V);
    return rc;
}

/* Solve A Z = R in place (R: n x n); A is overwritten. */
static int zsolve_left(int n, double complex *A, double complex *R, lapack_int *piv)
{
    lapack_int info =
        LAPACKE_zgesv(LAPACK_COL_MAJOR, n, n, (lapack_complex_double *)A, n, piv, (lapack_complex_double *)R, n);
    return info == 0 ? 0 : SLPI_ENUMERIC;
}

/* Z <- Z A^{-1}, via A^T (Z^T) ... solved as A^T W = Z^T, Z = W^T. A is overwritten. */
static int zsolve_right(int n, double complex *A, double complex *Z, double complex *T, lapack_int *piv)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            T[(size_t)j * n + i] = Z[(size_t)i * n + j];
            if (i < j) {
                double complex t = A[(size_t)j * n + i];
                A[(size_t)j * n + i] = A[(size_t)i * n + j];
                A[(size_t)i * n + j] = t;
            }
        }
    int rc = zsolve_left(n, A, T, piv);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) Z[(size_t)j * n + i] = T[(size_t)i * n + j];
    return rc;
}

/* M = I + s P. */
static void shifted(int n, double s, const double complex *P, double complex *M)
{
    for (int i = 0; i < n * n; i++) M[i] = s * P[i];
    for (int i = 0; i < n; i++) M[(size_t)i * n + i] += 1;
}

int slpi_fast_zcayley(int n, int mode, double a, const double complex *P, const double complex *X, double complex *out)
{
    size_t nn = (size_t)n * n;
    double complex *A = malloc(sizeof *A * nn * 4);
    lapack_int *piv = malloc(sizeof *piv * (size_t)n);
    if (!A || !piv) {
        free(A);
        free(piv);
        return SLPI_ENUMERIC;
    }
    double complex *Bm = A + nn, *Z = A + 2 * nn, *T = A + 3 * nn;
    int rc;
    if (mode == 0) {
        /* C X C^{-1} = (I-aP)^{-1} (I+aP) X (I+aP)^{-1} (I-aP). */
        shifted(n, a, P, Bm);
        zmul(n, 1, Bm, X, 0, Z);
        rc = zsolve_right(n, Bm, Z, T, piv);
        shifted(n, -a, P, A);
        zmul(n, 1, Z, A, 0, T);
        memcpy(Z, T, sizeof *Z * nn);
        if (rc == 0) rc = zsolve_left(n, A, Z, piv);
    } else {
        memcpy(Z, X, sizeof *Z * nn);
        shifted(n, a, P, Bm);
        rc = zsolve_right(n, Bm, Z, T, piv);
        shifted(n, -a, P, A);
        if (rc == 0) rc = zsolve_left(n, A, Z, piv);
    }
    if (rc == 0) memcpy(out, Z, sizeof *Z * nn);
    free(A);
    free(piv);
    return rc;
}

double slpi_fast_zisomp(int n, const double complex *P, const double complex *Xn, const double complex *Y,
                        double complex *Ynew, double *ynorm, double complex *T)
{
    /* T = P Y; [P,Y] = T - T^* (P, Y skew-Hermitian); P Y P = T P (skew-Hermitian). */
    zmul(n, 1, P, Y, 0, T);
    zmul(n, 0.25, T, P, 0, Ynew);
    double dmax = 0, ymax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            size_t ij = (size_t)j * n + i, ji = (size_t)i * n + j;
            double complex v = Xn[ij] + 0.5 * (T[ij] - conj(T[ji])) + Ynew[ij];
            Ynew[ij] = v;
            dmax = slpi_vec_maxacc(dmax, fabs(creal(v - Y[ij])));
            dmax = slpi_vec_maxacc(dmax, fabs(cimag(v - Y[ij])));
            ymax = slpi_vec_maxacc(ymax, fabs(creal(v)));
            ymax = slpi_vec_maxacc(ymax, fabs(cimag(v)));
        }
    *ynorm = ymax;
    return dmax;
}

void slpi_fast_zcomm_update(int n, const double complex *P, const double complex *Y, const double complex *Xn,
                            double complex *out, double complex *T)
{
    zmul(n, 1, P, Y, 0, T);
    slpi_fast_zcomm_from_T(n, T, Xn, out);
}

void slpi_fast_zcomm_from_T(int n, const double complex *T, const double complex *Xn, double complex *out)
{
    const int e = SLPI_FAST_SUBTILE; /* the transposed reads of a block stay in cache */
    for (int j0 = 0; j0 < n; j0 += e)
        for (int i0 = 0; i0 < n; i0 += e)
            for (int j = j0; j < j0 + e && j < n; j++)
                for (int i = i0; i < i0 + e && i < n; i++)
                    out[(size_t)j * n + i] = Xn[(size_t)j * n + i] + T[(size_t)j * n + i] - conj(T[(size_t)i * n + j]);
}
