/* zeitlin-snapshot.c — Euler–Zeitlin vorticity on a latitude–longitude grid (docs/experiments.md#iso
 * iso/zeitlin/snapshots, ISO Fig. 2; qualitative): the state's N x N skew-Hermitian
 * matrix (core layout, slpi.h) is expanded in the real basis Y_alpha of fast/zeitlin.h
 * (coefficients omega_alpha = Re Tr(Y_alpha^* X)), and the same coefficients are summed
 * against the fully normalised real spherical harmonics (Zeitlin's correspondence
 * T_lm <-> Y_lm): omega(theta, phi) = sum_l [w_l0 P_l0 + sum_m sqrt2 P_lm (w^c_lm cos m phi
 * + w^s_lm sin m phi)], P_lm the normalised associated Legendre functions of cos theta
 * (no Condon–Shortley phase; conventions affect signs of modes, not the picture's
 * structure). For figures only; no claim is decided from it. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "fast/zeitlin.h"
#include "reports/audit.h"

struct slpi_vort {
    int N;
    slpi_fast_zeitlin z;
    double complex *X;
    double *omega, *P, *A, *B;
};

int slpi_vort_create(slpi_vort **out, int N, slpi_error *err)
{
    slpi_vort *v = calloc(1, sizeof *v);
    if (!v) return slpi_error_set(err, SLPI_EINPUT, "vorticity: out of memory");
    int rc = slpi_fast_zeitlin_init(&v->z, N, err);
    if (rc != SLPI_OK) {
        free(v);
        return rc;
    }
    v->N = N;
    v->X = calloc((size_t)N * (size_t)N, sizeof *v->X);
    v->omega = calloc((size_t)N * (size_t)N, sizeof *v->omega);
    v->P = calloc((size_t)N * (size_t)N, sizeof *v->P);
    v->A = calloc((size_t)N, sizeof *v->A);
    v->B = calloc((size_t)N, sizeof *v->B);
    if (!v->X || !v->omega || !v->P || !v->A || !v->B) {
        slpi_vort_free(v);
        return slpi_error_set(err, SLPI_EINPUT, "vorticity: out of memory");
    }
    *out = v;
    return SLPI_OK;
}

void slpi_vort_free(slpi_vort *v)
{
    if (!v) return;
    slpi_fast_zeitlin_clear(&v->z);
    free(v->X);
    free(v->omega);
    free(v->P);
    free(v->A);
    free(v->B);
    free(v);
}

/* P[l N + m] = normalised P_lm(x), 0 <= m <= l < N (s = sqrt(1 - x^2)). */
static void legendre(int N, double x, double s, double *P)
{
    const double pi = 3.14159265358979323846;
    double pmm = 1 / sqrt(4 * pi);
    for (int m = 0; m < N; m++) {
        if (m > 0) pmm *= sqrt((2.0 * m + 1) / (2.0 * m)) * s;
        P[m * N + m] = pmm;
        if (m + 1 < N) P[(m + 1) * N + m] = sqrt(2.0 * m + 3) * x * pmm;
        for (int l = m + 2; l < N; l++) {
            double a = sqrt((4.0 * l * l - 1) / ((double)l * l - (double)m * m));
            double b = sqrt(((l - 1.0) * (l - 1.0) - (double)m * m) / (4.0 * (l - 1.0) * (l - 1.0) - 1));
            P[l * N + m] = a * (x * P[(l - 1) * N + m] - b * P[(l - 2) * N + m]);
        }
    }
}

void slpi_vort_grid(slpi_vort *v, const double *state, int nlat, int nlon, double *grid)
{
    int N = v->N;
    for (int a = 0; a < N; a++) v->X[a + (size_t)N * a] = I * state[a];
    int k = N;
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, k += 2) {
            v->X[a + (size_t)N * b] = state[k] + I * state[k + 1];
            v->X[b + (size_t)N * a] = -state[k] + I * state[k + 1];
        }
    slpi_fast_zeitlin_analysis(v->omega, v->X, &v->z);
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < nlat; i++) {
        double theta = pi * (i + 0.5) / nlat;
        legendre(N, cos(theta), sin(theta), v->P);
        for (int m = 0; m < N; m++) {
            double sa = 0, sb = 0;
            for (int l = m > 0 ? m : 1; l < N; l++) {
                double p = v->P[l * N + m];
                if (m == 0) {
                    sa += v->omega[slpi_fast_zeitlin_alpha(l, 0)] * p;
                } else {
                    sa += v->omega[slpi_fast_zeitlin_alpha(l, 2 * m - 1)] * p;
                    sb += v->omega[slpi_fast_zeitlin_alpha(l, 2 * m)] * p;
                }
            }
            v->A[m] = m ? sqrt(2.0) * sa : sa;
            v->B[m] = sqrt(2.0) * sb;
        }
        for (int j = 0; j < nlon; j++) {
            double phi = 2 * pi * j / nlon, s = v->A[0];
            for (int m = 1; m < N; m++) s += v->A[m] * cos(m * phi) + v->B[m] * sin(m * phi);
            grid[(size_t)i * (size_t)nlon + (size_t)j] = s;
        }
    }
}
