/* jacobiutil.h — Jacobi's elliptic functions and the free rigid body's closed-form solution
 * in them, shared by the tests that compare a scheme with Euler's top (t-model-equations.c,
 * which checks the functions, and t-model-time.c). */
#ifndef SLPI_JACOBIUTIL_H
#define SLPI_JACOBIUTIL_H

#include "slpi.h" /* tests are white-box: the whole public API */
#include <math.h>

/* sn, cn, dn of (u, m = k^2), 0 <= m < 1, by the AGM and the descending recurrence
 * (Abramowitz & Stegun 16.4). */
static inline void ju_jacobi(double u, double m, double *sn, double *cn, double *dn)
{
    double a[32], c[32], b = sqrt(1 - m);
    int n = 0;
    a[0] = 1;
    c[0] = sqrt(m);
    while (n < 30 && fabs(c[n]) > 1e-17) {
        double an = a[n];
        a[n + 1] = (an + b) / 2;
        c[n + 1] = (an - b) / 2;
        b = sqrt(an * b);
        n++;
    }
    double phi = ldexp(a[n] * u, n);
    for (int j = n; j > 0; j--) phi = (phi + asin(c[j] / a[j] * sin(phi))) / 2;
    *sn = sin(phi);
    *cn = cos(phi);
    *dn = sqrt(1 - m * *sn * *sn); /* dn > 0 for m < 1 */
}

/* Euler's top dx = x cross I^-1 x, I = (1, 2, 3), from x(0) = (0.4, 0, 1), at time s:
 * x = (a cn(ls, k^2), b sn(ls, k^2), c dn(ls, k^2)), l^2 = c^2 (B - C)(A - C),
 * b = c a (A - C) / l, k^2 = a^2 (A - B) / (c^2 (B - C)), (A, B, C) = 1/I. */
static inline void ju_euler_top(double *x, double s)
{
    double A = 1, B = 0.5, C = 1.0 / 3, a = 0.4, c = 1;
    double l = sqrt(c * c * (B - C) * (A - C)), b = c * a * (A - C) / l, m = a * a * (A - B) / (c * c * (B - C));
    double sn, cn, dn;
    ju_jacobi(l * s, m, &sn, &cn, &dn);
    x[0] = a * cn;
    x[1] = b * sn;
    x[2] = c * dn;
}

#endif
