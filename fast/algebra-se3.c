/* fast/algebra-se3.c — the algebra family se(3) of the double path in (pi, gamma) with the
 * dot pairing (docs/conventions.md#brackets; docs/systems.md#heavy-top-rkmk): ad*, the
 * bracket, the orbit map O_exp in the closed form of docs/systems.md#heavy-top-rkmk (or one of
 * the variants of the key exp_form) and the Casimirs C1 = |gamma|^2, C2 = pi.gamma; shared by
 * the heavy top (fast/heavy-top.c) and the models on se3 (fast/model.c), as ref/algebra-se3.c
 * on the certified path. */
#include <math.h>
#include <string.h>

#include "slpi/diag.h"
#include "fast/algebra.h"
#include "fast/so3.h"
#include "fast/system.h"
#include "fast/vec3.h"

void slpi_fast_se3_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    double a[3], b[3], g[3];
    (void)s;
    slpi_fast_cross(a, mu, xi);
    slpi_fast_cross(b, mu + 3, xi + 3);
    slpi_fast_cross(g, mu + 3, xi);
    for (int i = 0; i < 3; i++) {
        out[i] = a[i] + b[i];
        out[3 + i] = g[i];
    }
}

void slpi_fast_se3_lie(const slpi_fast_system *s, double *out, const double *u, const double *v)
{
    double a[3], b[3], c[3];
    (void)s;
    slpi_fast_cross(a, u, v);
    slpi_fast_cross(b, u, v + 3);
    slpi_fast_cross(c, v, u + 3);
    for (int i = 0; i < 3; i++) {
        out[i] = a[i];
        out[3 + i] = b[i] - c[i];
    }
}

/* The textbook Rodrigues coefficients, rounded as written: s = sin t / t,
 * c1 = (1 - cos t)/t^2, c2 = (t - sin t)/t^3 (cancellation for small t: the variant the
 * audit's R2 compares; exact value the same as slpi_fast_exp_coeffs). cos_up: cos t taken
 * one ulp above the libm's value, a model of a cosine whose error is one-sided (NumPy
 * 1.24's AVX-512 cos is +0.63 ulp on average for t in [1e-3, 1e-2], where glibc's is
 * unbiased): the rotation's orthogonality error then has one sign at every step. */
static void textbook_coeffs(double *s, double *c1, double *c2, double t2, int cos_up)
{
    double t = sqrt(t2);
    if (t == 0) {
        *s = 1, *c1 = 0.5, *c2 = 1.0 / 6;
        return;
    }
    double ct = cos_up ? nextafter(cos(t), 2.0) : cos(t);
    *s = sin(t) / t;
    *c1 = (1 - ct) / t2;
    *c2 = (t - sin(t)) / (t2 * t);
}

/* exp of the 4x4 SE(3) matrix [[hat(xi), b], [0, 0]] = [[R, V b], [0, 1]] by scaling and
 * squaring (|xi| 2^-j <= 1/4, Taylor to degree 14: remainder below 2^-60). */
static void expm_se3(double *R, double *vb, const double *xi, const double *b)
{
    double A[16] = { 0, -xi[2], xi[1], b[0], xi[2], 0, -xi[0], b[1], -xi[1], xi[0], 0, b[2], 0, 0, 0, 0 };
    double n = sqrt(slpi_fast_dot3(xi, xi)), E[16], P[16], T[16];
    int j = 0;
    while (n > 0.25) n *= 0.5, j++;
    for (int i = 0; i < 16; i++) A[i] = ldexp(A[i], -j);
    for (int i = 0; i < 16; i++) E[i] = P[i] = (i % 5 == 0);
    for (int k = 1; k <= 14; k++) {
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) {
                double acc = 0;
                for (int m = 0; m < 4; m++) acc += P[4 * r + m] * A[4 * m + c];
                T[4 * r + c] = acc / k;
            }
        for (int i = 0; i < 16; i++) E[i] += (P[i] = T[i]);
    }
    for (; j > 0; j--) {
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) {
                double acc = 0;
                for (int m = 0; m < 4; m++) acc += E[4 * r + m] * E[4 * m + c];
                T[4 * r + c] = acc;
            }
        memcpy(E, T, sizeof E);
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) R[3 * r + c] = E[4 * r + c];
        vb[r] = E[4 * r + 3];
    }
}

void slpi_fast_se3_orbit_form(double *out, const double *sigma, const double *mu, int exp_form)
{
    const double *xi = sigma, *b = sigma + 3;
    double c1, c2, R[9], v[3]; /* (1 - cos t)/t^2, (t - sin t)/t^3, t = |xi| */
    if (exp_form == 2) {
        expm_se3(R, v, xi, b);
    } else {
        double sn = 0, xb[3], xxb[3];
        int textbook = exp_form == 1 || exp_form == 3;
        if (textbook)
            textbook_coeffs(&sn, &c1, &c2, slpi_fast_dot3(xi, xi), exp_form == 3);
        else
            slpi_fast_exp_coeffs(&c1, &c2, slpi_fast_dot3(xi, xi));
        slpi_fast_cross(xb, xi, b);
        slpi_fast_cross(xxb, xi, xb);
        for (int i = 0; i < 3; i++) v[i] = b[i] + c1 * xb[i] + c2 * xxb[i];
        if (textbook)
            slpi_fast_rot_coeffs(R, xi, sn, c1);
        else
            slpi_fast_rodrigues(R, xi);
    }
    double gv[3], w[3];
    slpi_fast_cross(gv, mu + 3, v);
    for (int i = 0; i < 3; i++) w[i] = mu[i] + gv[i];
    slpi_fast_mat3t_vec(out, R, w);
    slpi_fast_mat3t_vec(out + 3, R, mu + 3);
}

int slpi_fast_se3_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    (void)s;
    slpi_fast_se3_orbit_form(out, sigma, mu, 0);
    return 0;
}

void slpi_fast_se3_casimirs(slpi_diag *d, const double *x)
{
    slpi_diag_add(d, "C1", slpi_fast_dot3(x + 3, x + 3)); /* |gamma|^2 */
    slpi_diag_add(d, "C2", slpi_fast_dot3(x, x + 3));     /* pi.gamma */
}

void slpi_fast_se3_casimir_devs(slpi_diag *d, const double *x, const double *x0)
{
    slpi_diag_add(d, "C1_dev", slpi_fast_dot3(x + 3, x + 3) - slpi_fast_dot3(x0 + 3, x0 + 3));
    slpi_diag_add(d, "C2_dev", slpi_fast_dot3(x, x + 3) - slpi_fast_dot3(x0, x0 + 3));
}
