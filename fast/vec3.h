/* vec3.h — small inline kernels of the double path (included by fast/system.h): max(a, b) that
 * propagates NaN, the max norms of core/vec.h (docs/schemes.md#solver), 3-vector algebra, rotation matrices, the SO(3)
 * Cayley map tau(x) = I + 4/(4+|x|^2)(hat x + hat x^2/2) and the SVI A_c(x)^{-1}
 * (docs/conventions.md#hat-maps, docs/schemes.md#svi-so3). Inline so that the ensemble kernels (ensemble.c) and the
 * general path share one definition at full speed. */
#ifndef SLPI_FAST_VEC3_H
#define SLPI_FAST_VEC3_H

#include <math.h>

#include "core/vec.h"

/* max(a, b), NaN if either is NaN. */
static inline double slpi_fast_max2(double a, double b)
{
    return (a >= b || a != a) ? a : b;
}

static inline void slpi_fast_cross(double *out, const double *a, const double *b)
{
    double c0 = a[1] * b[2] - a[2] * b[1];
    double c1 = a[2] * b[0] - a[0] * b[2];
    double c2 = a[0] * b[1] - a[1] * b[0];
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
}

static inline double slpi_fast_dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* R = I + s hat(w) + c hat(w)^2, row-major. */
static inline void slpi_fast_rot_coeffs(double *R, const double *w, double s, double c)
{
    double xx = w[0] * w[0], yy = w[1] * w[1], zz = w[2] * w[2];
    R[0] = 1 - c * (yy + zz);
    R[1] = -s * w[2] + c * w[0] * w[1];
    R[2] = s * w[1] + c * w[0] * w[2];
    R[3] = s * w[2] + c * w[0] * w[1];
    R[4] = 1 - c * (xx + zz);
    R[5] = -s * w[0] + c * w[1] * w[2];
    R[6] = -s * w[1] + c * w[0] * w[2];
    R[7] = s * w[0] + c * w[1] * w[2];
    R[8] = 1 - c * (xx + yy);
}

static inline void slpi_fast_mat3_vec(double *out, const double *R, const double *v) /* R v */
{
    double o0 = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    double o1 = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    double o2 = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
    out[0] = o0;
    out[1] = o1;
    out[2] = o2;
}

static inline void slpi_fast_mat3t_vec(double *out, const double *R, const double *v) /* R^T v */
{
    double o0 = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    double o1 = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    double o2 = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
    out[0] = o0;
    out[1] = o1;
    out[2] = o2;
}

static inline void slpi_fast_mat3_mul(double *out, const double *A, const double *B) /* A B */
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    for (int i = 0; i < 9; i++) out[i] = t[i];
}

/* SO(3) Cayley tau(x), a rotation by 2 atan(|x|/2) about x. */
static inline void slpi_fast_cayley3(double *R, const double *x)
{
    double k = 4 / (4 + slpi_fast_dot3(x, x));
    slpi_fast_rot_coeffs(R, x, k, 0.5 * k);
}

/* A_c(x)^{-1} v = [v - x cross v / 2 + (1/4 - c)(x.v) x / (1 + c|x|^2)] / (1 + |x|^2/4)
 * (in place allowed). */
static inline void slpi_fast_ac_inv(double *out, double c, const double *x, const double *v)
{
    double xv = slpi_fast_dot3(x, v), xx = slpi_fast_dot3(x, x), xc[3];
    double k = (0.25 - c) * xv / (1 + c * xx), inv = 1 / (1 + 0.25 * xx);
    slpi_fast_cross(xc, x, v);
    for (int i = 0; i < 3; i++) out[i] = (v[i] - 0.5 * xc[i] + k * x[i]) * inv;
}

#endif
