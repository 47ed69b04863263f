/* so3.c — 3-vector kernels of the double path: cross products, Rodrigues and Cayley
 * rotations and the SVI A_c(x)^{-1} (SPEC §1.6, §3.5 d), and the matrix operations of ISOMP/SVI-LP on blocks of
 * so(3) vectors in the HAT and su(2) model (A) representations (SPEC §1.6, §3.4, §3.5 b).
 *
 * Block identities used (x, y, p are coefficient vectors):
 *   HAT:  [P,Y] = p x y,        P Y P = -(p.y) p,
 *         (I - aP)^{-1}(I + aP) = rotation about p by 2 atan(a|p|),
 *         (I - aP)^{-1} X (I + aP)^{-1} = (x + a p x x) / (1 + a^2 |p|^2).
 *   SU2A: [P,Y] = sqrt2 p x y,  P Y P = |p|^2 y / 2 - (p.y) p,  P^2 = -|p|^2 I / 2,
 *         Cayley conjugation = rotation about p by 4 atan(a|p|/sqrt2),
 *         (I - aP)^{-1} X (I + aP)^{-1} = (x + a[P,X] - a^2 P X P) / (1 + a^2|p|^2/2)^2. */
#include <math.h>
#include "fast.h"

void slpi_fast_cross(const double *a, const double *b, double *out)
{
    double c0 = a[1] * b[2] - a[2] * b[1];
    double c1 = a[2] * b[0] - a[0] * b[2];
    double c2 = a[0] * b[1] - a[1] * b[0];
    out[0] = c0; out[1] = c1; out[2] = c2;
}

double slpi_fast_dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* R = I + s hat(w) + c hat(w)^2, row-major. */
static void rot_from_coeffs(const double *w, double s, double c, double *R)
{
    double xx = w[0] * w[0], yy = w[1] * w[1], zz = w[2] * w[2];
    R[0] = 1 - c * (yy + zz); R[1] = -s * w[2] + c * w[0] * w[1]; R[2] = s * w[1] + c * w[0] * w[2];
    R[3] = s * w[2] + c * w[0] * w[1]; R[4] = 1 - c * (xx + zz); R[5] = -s * w[0] + c * w[1] * w[2];
    R[6] = -s * w[1] + c * w[0] * w[2]; R[7] = s * w[0] + c * w[1] * w[2]; R[8] = 1 - c * (xx + yy);
}

void slpi_fast_rodrigues(const double *w, double *R)
{
    double t2 = slpi_fast_dot3(w, w), t = sqrt(t2), s, c;
    if (t < 1e-4) {
        s = 1 - t2 / 6 * (1 - t2 / 20);
        c = 0.5 * (1 - t2 / 12 * (1 - t2 / 30));
    } else {
        s = sin(t) / t;
        c = (1 - cos(t)) / t2;
    }
    rot_from_coeffs(w, s, c, R);
}

void slpi_fast_rotation(const double *w, double theta, double *R)
{
    double n = sqrt(slpi_fast_dot3(w, w));
    if (n == 0) {
        double z[3] = {0, 0, 0};
        rot_from_coeffs(z, 0, 0, R);
        return;
    }
    double half = sin(0.5 * theta);
    rot_from_coeffs(w, sin(theta) / n, 2 * half * half / (n * n), R);
}

void slpi_fast_mat3_vec(const double *R, const double *v, double *out)
{
    double o0 = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    double o1 = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    double o2 = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
    out[0] = o0; out[1] = o1; out[2] = o2;
}

void slpi_fast_mat3t_vec(const double *R, const double *v, double *out)
{
    double o0 = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    double o1 = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    double o2 = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
    out[0] = o0; out[1] = o1; out[2] = o2;
}

void slpi_fast_mat3_mul(const double *A, const double *B, double *out)
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    for (int i = 0; i < 9; i++) out[i] = t[i];
}

void slpi_fast_cayley3(const double *x, double *R)
{
    double k = 4 / (4 + slpi_fast_dot3(x, x));
    rot_from_coeffs(x, k, 0.5 * k, R);
}

void slpi_fast_ac_inv(double c, const double *x, const double *v, double *out)
{
    double xv = slpi_fast_dot3(x, v), xx = slpi_fast_dot3(x, x), xc[3];
    double k = (0.25 - c) * xv / (1 + c * xx), den = 1 + 0.25 * xx;
    slpi_fast_cross(x, v, xc);
    for (int i = 0; i < 3; i++) out[i] = (v[i] - 0.5 * xc[i] + k * x[i]) / den;
}

/* Bracket factor and the sandwich P Y P of one block. */
static double bracket_factor(slpi_fast_block_model m)
{
    return m == SLPI_FAST_BLOCK_HAT ? 1.0 : SLPI_FAST_SQRT2;
}

static void sandwich(slpi_fast_block_model m, const double *p, const double *y, double *out)
{
    double py = slpi_fast_dot3(p, y);
    if (m == SLPI_FAST_BLOCK_HAT) {
        for (int i = 0; i < 3; i++) out[i] = -py * p[i];
    } else {
        double pp = 0.5 * slpi_fast_dot3(p, p);
        for (int i = 0; i < 3; i++) out[i] = pp * y[i] - py * p[i];
    }
}

double slpi_fast_blocks_isomp(slpi_fast_block_model m, int nb, const double *P,
                              const double *Xn, const double *Y, double *Ynew, double *ynorm)
{
    double kb = 0.5 * bracket_factor(m), dmax = 0, ymax = 0;
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b, *y = Y + 3 * b, *x = Xn + 3 * b;
        double c[3], s[3];
        slpi_fast_cross(p, y, c);
        sandwich(m, p, y, s);
        for (int i = 0; i < 3; i++) {
            double v = x[i] + kb * c[i] + 0.25 * s[i];
            double d = fabs(v - y[i]);
            if (!(d <= dmax)) dmax = d;      /* propagates NaN */
            if (!(fabs(v) <= ymax)) ymax = fabs(v);
            Ynew[3 * b + i] = v;
        }
    }
    *ynorm = ymax;
    return dmax;
}

void slpi_fast_blocks_comm(slpi_fast_block_model m, int nb, const double *P,
                           const double *Y, const double *Xn, double *out)
{
    double kb = bracket_factor(m);
    for (int b = 0; b < nb; b++) {
        double c[3];
        slpi_fast_cross(P + 3 * b, Y + 3 * b, c);
        for (int i = 0; i < 3; i++) out[3 * b + i] = Xn[3 * b + i] + kb * c[i];
    }
}

void slpi_fast_blocks_cay(slpi_fast_block_model m, int nb, double a, const double *P,
                          const double *X, double *out)
{
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b;
        double np = sqrt(slpi_fast_dot3(p, p)), R[9];
        double theta = m == SLPI_FAST_BLOCK_HAT ? 2 * atan(a * np) : 4 * atan(a * np / SLPI_FAST_SQRT2);
        slpi_fast_rotation(p, theta, R);
        slpi_fast_mat3_vec(R, X + 3 * b, out + 3 * b);
    }
}

void slpi_fast_blocks_ainv(slpi_fast_block_model m, int nb, double a, const double *P,
                           const double *X, double *out)
{
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b, *x = X + 3 * b;
        double c[3], pp = slpi_fast_dot3(p, p);
        slpi_fast_cross(p, x, c);
        if (m == SLPI_FAST_BLOCK_HAT) {
            double k = 1 / (1 + a * a * pp);
            for (int i = 0; i < 3; i++) out[3 * b + i] = k * (x[i] + a * c[i]);
        } else {
            double s[3], r = 1 + 0.5 * a * a * pp;
            sandwich(m, p, x, s);
            for (int i = 0; i < 3; i++)
                out[3 * b + i] = (x[i] + a * SLPI_FAST_SQRT2 * c[i] - a * a * s[i]) / (r * r);
        }
    }
}
