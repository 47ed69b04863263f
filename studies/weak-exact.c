/* weak-exact.c — the Monte-Carlo-free weak oracles of docs/experiments.md#iso (iso/so3/weak-exact,
 * claim I16) and §5.3 (svi/so3/weak-exact, claim V21): so(3) with H_0 = 0, one constant
 * noise generator chi = sigma e_3 and x_0 = e_1. One step rotates x about e_3 by
 * phi(dW) = 2 atan(sigma dW / 2) (ISOMP: Cayley of the midpoint, docs/schemes.md#isomp) or
 * 4 atan(sigma dW / 4) (SVI-SO3 with x = sigma dW e_3 / 2, docs/schemes.md#svi-so3); the increments
 * are independent and symmetric, so E x_1(T) = (E cos phi)^(T/h) exactly. E cos phi is
 * a quadrature over the clipped normal: Gauss–Legendre on [-A, A] (A = D/sqrt h) plus
 * the atoms P(|Z| > A) at +-D (docs/noise.md#truncation). The exact SDE value is exp(-sigma^2 T / 2). */
#include <math.h>

#include "slpi/registry.h"
#include "slpi/noise.h"
#include "studies/studies.h"

#define GL_N 16      /* nodes per panel */
#define GL_PANELS 96 /* panels on [-A, A] */

/* Gauss–Legendre nodes and weights on [-1, 1] by Newton on P_n (computed once). */
static void gl_nodes(double *x, double *w)
{
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < GL_N; i++) {
        double z = cos(pi * (i + 0.75) / (GL_N + 0.5)), dp = 1;
        for (int it = 0; it < 100; it++) {
            double p0 = 1, p1 = z;
            for (int k = 2; k <= GL_N; k++) {
                double p2 = ((2.0 * k - 1) * z * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = GL_N * (z * p1 - p0) / (z * z - 1);
            double dz = p1 / dp;
            z -= dz;
            if (fabs(dz) < 1e-16) break;
        }
        x[i] = z;
        w[i] = 2 / ((1 - z * z) * dp * dp);
    }
}

double slpi_weak_clipped_mean(double (*g)(double w, void *arg), void *arg, double h, double D)
{
    double x[GL_N], w[GL_N];
    gl_nodes(x, w);
    double sh = sqrt(h), A = D > 0 ? D / sh : 9.0;
    double width = 2 * A / GL_PANELS, sum = 0;
    for (int p = 0; p < GL_PANELS; p++) {
        double mid = -A + (p + 0.5) * width, part = 0;
        for (int i = 0; i < GL_N; i++) {
            double z = mid + 0.5 * width * x[i];
            part += w[i] * g(sh * z, arg) * exp(-0.5 * z * z);
        }
        sum += 0.5 * width * part;
    }
    sum /= sqrt(2 * 3.14159265358979323846);
    if (D > 0) {
        double tail = 0.5 * erfc(A / sqrt(2.0));
        sum += tail * (g(D, arg) + g(-D, arg));
    }
    return sum;
}

typedef struct {
    double sigma, k;
} rot_arg;

/* cos of the rotation angle k atan(sigma dW / k), k = 2 (ISOMP) or 4 (SVI). */
static double cos_rotation(double dW, void *v)
{
    const rot_arg *a = v;
    return cos(a->k * atan(a->sigma * dW / a->k));
}

double slpi_weak_exact_scheme(slpi_scheme_id k, double sigma, double T, double h, double ell, int truncate)
{
    rot_arg a = { sigma, k == SLPI_SCHEME_SVI ? 4.0 : 2.0 };
    double D = truncate ? slpi_noise_threshold(h, ell) : 0;
    double m = slpi_weak_clipped_mean(cos_rotation, &a, h, D);
    return pow(m, T / h);
}

double slpi_weak_exact_sde(double sigma, double T)
{
    return exp(-0.5 * sigma * sigma * T);
}
