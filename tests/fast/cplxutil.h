/* cplxutil.h — the complex column-major matrices the su(N) tests of the double path
 * share (tests/fast/t-fast-zeitlin.c, tests/fast/t-fast-zeitlin-basis.c): allocation,
 * max-norms (core/vec.h's NaN rule: a NaN entry makes the norm NaN, so it never reads as
 * agreement), random and random skew-Hermitian matrices, naive products and commutators. */
#ifndef SLPI_TESTS_CPLXUTIL_H
#define SLPI_TESTS_CPLXUTIL_H

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/vec.h"
#include "testutil.h"

#define U (DBL_EPSILON / 2)
#define M_PI_ 3.14159265358979323846

typedef double complex cplx;

static inline cplx *cmat(int N)
{
    return calloc((size_t)N * N, sizeof(cplx));
}

static inline double cmaxabs(const cplx *A, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = slpi_vec_maxacc(m, cabs(A[i]));
    return m;
}

static inline double cmaxdiff(const cplx *A, const cplx *B, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = slpi_vec_maxacc(m, cabs(A[i] - B[i]));
    return m;
}

static inline void rand_complex(cplx *A, size_t n)
{
    for (size_t i = 0; i < n; i++) A[i] = CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
}

/* Random skew-Hermitian matrix (with trace part). */
static inline void rand_skewh(cplx *X, int N)
{
    for (int b = 0; b < N; b++)
        for (int a = 0; a <= b; a++) {
            cplx v = a == b ? I * test_rand_uniform(-1, 1) : CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
            X[a + (size_t)N * b] = v;
            X[b + (size_t)N * a] = -conj(v);
        }
}

/* C = A B (naive, column-major). */
static inline void cmul(int N, const cplx *A, const cplx *B, cplx *C)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            cplx s = 0;
            for (int k = 0; k < N; k++) s += A[i + (size_t)N * k] * B[k + (size_t)N * j];
            C[i + (size_t)N * j] = s;
        }
}

static inline void ccomm(int N, const cplx *A, const cplx *B, cplx *C, cplx *tmp)
{
    cmul(N, A, B, C);
    cmul(N, B, A, tmp);
    for (size_t i = 0; i < (size_t)N * N; i++) C[i] -= tmp[i];
}

#endif
