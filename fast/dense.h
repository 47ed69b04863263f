/* fast/dense.h — the dense kernels of the double path (fast/dense.c): complex matrices in
 * column-major order with LAPACK and BLAS (exponential and eigenvalues of skew-Hermitian
 * matrices, Cayley maps, the ISOMP map and update in two or one zgemm), and a finiteness
 * test of a double vector. The certified path's matrix kernels are ref/matrix.h's. Not
 * installed. (Max norms, 3-vectors, Cayley3, A_c^{-1}: inline in fast/vec3.h.) */
#ifndef SLPI_FAST_DENSE_H
#define SLPI_FAST_DENSE_H

#include <complex.h>

int slpi_fast_all_finite(const double *x, int n);

/* E = exp(B) for skew-Hermitian B (n x n), via zheev of iB; 0 or SLPI_ENUMERIC. */
int slpi_fast_expm_skewh(int n, const double complex *B, double complex *E);
/* Eigenvalues (ascending) of the Hermitian matrix iX for skew-Hermitian X (zhbev when X is a
 * band of at most n/16 off its diagonal, else zheev); 0 or error. */
int slpi_fast_eig_skewh(int n, const double complex *X, double *w);
/* out = C X C^{-1} with C = (I - aP)^{-1}(I + aP), or (mode 1) out = (I-aP)^{-1} X (I+aP)^{-1},
 * for complex n x n P and X (LU via LAPACKE_zgesv); 0 or SLPI_ENUMERIC if singular. */
int slpi_fast_zcayley(int n, int mode, double a, const double complex *P, const double complex *X, double complex *out);

/* ISOMP map on complex matrices with 2 zgemm: Ynew = Xn + [P,Y]/2 + P Y P/4 for skew-
 * Hermitian P, Y ([P,Y] = T - T^*, T = P Y; P Y P = T P). T: n*n workspace. Returns
 * ||Ynew - Y||_max over real and imaginary parts, *ynorm = ||Ynew||_max. */
double slpi_fast_zisomp(int n, const double complex *P, const double complex *Xn, const double complex *Y,
                        double complex *Ynew, double *ynorm, double complex *T);
/* The edge of the square blocks in which the passes over a matrix and its transpose go
 * (fast/dense.c, fast/sun.c): at power-of-two n a column is a multiple of 4 KiB, so the
 * transposed accesses of one block fall in one set of the level-1 cache, and this many
 * must fit its ways (8 of 8-12; 32 cost 4x on an n = 512 unpack). */
#define SLPI_FAST_SUBTILE 8
/* out = Xn + [P,Y] = Xn + T - T^* (T = P Y, one zgemm) for skew-Hermitian P, Y;
 * slpi_fast_zcomm_from_T: the same from a T already computed (no GEMM). */
void slpi_fast_zcomm_from_T(int n, const double complex *T, const double complex *Xn, double complex *out);
void slpi_fast_zcomm_update(int n, const double complex *P, const double complex *Y, const double complex *Xn,
                            double complex *out, double complex *T);

#endif
