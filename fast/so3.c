/* so3.c — so(3) kernels of the double path: Rodrigues and angle-axis rotations
 * (docs/conventions.md#hat-maps; the inline 3-vector kernels are in vec3.h), and the matrix operations of
 * ISOMP/SVI-LP on blocks of so(3) vectors in the HAT and su(2) model (A)
 * representations (docs/conventions.md#hat-maps, docs/schemes.md#isomp, docs/schemes.md#svi-cayley).
 *
 * Block identities used (x, y, p are coefficient vectors):
 *   HAT:  [P,Y] = p x y,        P Y P = -(p.y) p,
 *         (I - aP)^{-1}(I + aP) = rotation about p by 2 atan(a|p|),
 *         (I - aP)^{-1} X (I + aP)^{-1} = (x + a p x x) / (1 + a^2 |p|^2).
 *   SU2A: [P,Y] = sqrt2 p x y,  P Y P = |p|^2 y / 2 - (p.y) p,  P^2 = -|p|^2 I / 2,
 *         Cayley conjugation = rotation about p by 4 atan(a|p|/sqrt2),
 *         (I - aP)^{-1} X (I + aP)^{-1} = (x + a[P,X] - a^2 P X P) / (1 + a^2|p|^2/2)^2. */
#include <math.h>
#include "fast/system.h"
#include "fast/so3.h"

/* c1 = (1 - cos t)/t^2 and c2 = (t - sin t)/t^3 for t^2 = t2, without cancellation:
 * c1 = 2 sin^2(t/2)/t^2 (no subtraction), c2 by its Taylor series below t = 1 (nine
 * terms: the first omitted one is below 2^-60 of the sum) and directly above, where
 * t - sin t keeps at least 3/20 of t. */
void slpi_fast_exp_coeffs(double *c1, double *c2, double t2)
{
    double t = sqrt(t2);
    if (t < 1e-4) {
        *c1 = 0.5 * (1 - t2 / 12 * (1 - t2 / 30));
    } else {
        double sh = sin(0.5 * t) / t;
        *c1 = 2 * sh * sh;
    }
    if (t < 1) {
        /* sum_{k=0..8} (-1)^k t^(2k) / (2k+3)! by Horner in t2 */
        static const double inv_fact[9] = {
            1.0 / 6,
            1.0 / 120,
            1.0 / 5040,
            1.0 / 362880,
            1.0 / 39916800,
            1.0 / 6227020800.0,
            1.0 / 1307674368000.0,
            1.0 / 355687428096000.0,
            1.0 / 121645100408832000.0,
        };
        double acc = inv_fact[8];
        for (int k = 7; k >= 0; k--) acc = inv_fact[k] - t2 * acc;
        *c2 = acc;
    } else {
        *c2 = (t - sin(t)) / (t2 * t);
    }
}

void slpi_fast_rodrigues(double *R, const double *w)
{
    double t2 = slpi_fast_dot3(w, w), t = sqrt(t2), s, c, unused;
    s = t < 1e-4 ? 1 - t2 / 6 * (1 - t2 / 20) : sin(t) / t;
    slpi_fast_exp_coeffs(&c, &unused, t2);
    slpi_fast_rot_coeffs(R, w, s, c);
}

void slpi_fast_rotation(double *R, const double *w, double theta)
{
    double n = sqrt(slpi_fast_dot3(w, w));
    if (n == 0) {
        double z[3] = { 0, 0, 0 };
        slpi_fast_rot_coeffs(R, z, 0, 0);
        return;
    }
    double half = sin(0.5 * theta);
    slpi_fast_rot_coeffs(R, w, sin(theta) / n, 2 * half * half / (n * n));
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

double slpi_fast_blocks_isomp(slpi_fast_block_model m, int nb, const double *P, const double *Xn, const double *Y,
                              double *Ynew, double *ynorm)
{
    double kb = 0.5 * bracket_factor(m), dmax = 0, ymax = 0;
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b, *y = Y + 3 * b, *x = Xn + 3 * b;
        double c[3], s[3];
        slpi_fast_cross(c, p, y);
        sandwich(m, p, y, s);
        for (int i = 0; i < 3; i++) {
            double v = x[i] + kb * c[i] + 0.25 * s[i];
            double d = fabs(v - y[i]);
            if (!(d <= dmax)) dmax = d; /* propagates NaN */
            if (!(fabs(v) <= ymax)) ymax = fabs(v);
            Ynew[3 * b + i] = v;
        }
    }
    *ynorm = ymax;
    return dmax;
}

void slpi_fast_blocks_comm(slpi_fast_block_model m, int nb, const double *P, const double *Y, const double *Xn,
                           double *out)
{
    double kb = bracket_factor(m);
    for (int b = 0; b < nb; b++) {
        double c[3];
        slpi_fast_cross(c, P + 3 * b, Y + 3 * b);
        for (int i = 0; i < 3; i++) out[3 * b + i] = Xn[3 * b + i] + kb * c[i];
    }
}

void slpi_fast_blocks_cay(slpi_fast_block_model m, int nb, double a, const double *P, const double *X, double *out)
{
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b;
        double np = sqrt(slpi_fast_dot3(p, p)), R[9];
        double theta = m == SLPI_FAST_BLOCK_HAT ? 2 * atan(a * np) : 4 * atan(a * np / SLPI_FAST_SQRT2);
        slpi_fast_rotation(R, p, theta);
        slpi_fast_mat3_vec(out + 3 * b, R, X + 3 * b);
    }
}

void slpi_fast_blocks_ainv(slpi_fast_block_model m, int nb, double a, const double *P, const double *X, double *out)
{
    for (int b = 0; b < nb; b++) {
        const double *p = P + 3 * b, *x = X + 3 * b;
        double c[3], pp = slpi_fast_dot3(p, p);
        slpi_fast_cross(c, p, x);
        if (m == SLPI_FAST_BLOCK_HAT) {
            double k = 1 / (1 + a * a * pp);
            for (int i = 0; i < 3; i++) out[3 * b + i] = k * (x[i] + a * c[i]);
        } else {
            double s[3], r = 1 + 0.5 * a * a * pp;
            sandwich(m, p, x, s);
            for (int i = 0; i < 3; i++) out[3 * b + i] = (x[i] + a * SLPI_FAST_SQRT2 * c[i] - a * a * s[i]) / (r * r);
        }
    }
}
