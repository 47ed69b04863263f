/* ht-svi.c — a port of SVI-SD, the heavy top in its semidirect SVI form with the noise of
 * preset svi/heavy-top/case3, written from docs/schemes.md#svi-sd (with #svi-so3 for the
 * Cayley map and A_c in vector form, #svi-cayley, #solver) and docs/systems.md#heavy-top-svi
 * ([SVI] §8, eqs. (44)-(50), (60)); never from fast/ or ref/. Driver: port.h.
 *
 * h = 1/2 Pi.I^-1 Pi + mg a.Gamma, I = diag(0.1, 0.1, 1), mga = (0, 0, 0.98); two noises
 * h_1,2 = mgk Gamma_x,y (k = 0.1): d_Pi h_i = 0, d_Gamma h_i = mgk e_x,y; untruncated.
 * One step: from A = B = Pi_k, iterate (x = dt xi, c = svi_c = +1/4, the true Cayley)
 *   M = (A + B)/2, xi = 1/2 I^-1 M, tau = tau(x), Gamma~ = tau^T Gamma_k,
 *   u = mga + sum_i mgk e_i dW^i/dt, f = dt u cross Gamma~,
 *   A = A_c(x)^-1 Pi_k, B = A_c(x)^-1 (tau^T Pi_k - f)
 * with tau(x) = I + 4/(4 + |x|^2) (x^ + 1/2 x^ x^), A_c(x) Pi = Pi + 1/2 x cross Pi + c (x.Pi) x;
 * then, with the last sweep's x: Pi_{k+1} = tau^T (tau^T Pi_k - f), Gamma_{k+1} =
 * tau^T Gamma~, R_{k+1} = R_k tau^2 (each row r of R: r <- tau^T tau^T r).
 * Defects: amp, sign, lap (I^-1_2), swap (the driver's increments), early, tol and tolmax
 * (the solve's stop), bad (the driver). */
#include "port.h"

#define SVI_C 0.25 /* slpi's default svi_c */
static const double inertia[3] = { 0.1, 0.1, 1 }, mga[3] = { 0, 0, 0.98 }, mg = 0.98, kn = 0.1, dt = 0.01;

static void cross(const real *a, const real *b, real *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static real dot(const real *a, const real *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* r = tau(x)^T v = v + q (-x cross v + 1/2 x cross (x cross v)), q = 4/(4 + |x|^2); r may be v */
static void taut(const real *x, real q, const real *v, real *r)
{
    real w[3], z[3];
    cross(x, v, w);
    cross(x, w, z);
    for (int i = 0; i < 3; i++) r[i] = v[i] + q * (z[i] / 2 - w[i]);
}

/* r = A_c(x)^-1 v = (v - 1/2 x cross v)/p + (1/4 - c)(x.v) x/((1 + c|x|^2) p), p = 1 + |x|^2/4:
 * docs/schemes.md#svi-so3's P_x/(1 + c|x|^2) + (I - P_x - 1/2 x^)/p, without 1/|x|^2 */
static void ainv(const real *x, real xx, const real *v, real *r)
{
    real w[3], p = 1 + xx / 4, s = ((real)0.25 - (real)SVI_C) * dot(x, v) / ((1 + (real)SVI_C * xx) * p);
    cross(x, v, w);
    for (int i = 0; i < 3; i++) r[i] = (v[i] - w[i] / 2) / p + s * x[i];
}

/* the sweep's velocity part, from A and B: x, q, Gamma~ (gt) and tau^T Pi_k - f (rhs) */
static void velocity(const real *s, const real *a, const real *b, const real *iinv, const real *du, real *x, real *q,
                     real *gt, real *rhs)
{
    real u[3], f[3];
    for (int i = 0; i < 3; i++) x[i] = (real)dt * (iinv[i] * ((a[i] + b[i]) / 2) / 2);
    *q = 4 / (4 + dot(x, x));
    taut(x, *q, s + 3, gt);
    for (int i = 0; i < 3; i++) u[i] = (real)mga[i] + du[i] / (real)dt;
    cross(u, gt, f);
    taut(x, *q, s, rhs);
    for (int i = 0; i < 3; i++) rhs[i] -= (real)dt * f[i];
}

static void step(real *s, const double *dw, const defect *d)
{
    real iinv[3], du[3], a[3], b[3], x[3], q, gt[3], rhs[3];
    for (int i = 0; i < 3; i++) iinv[i] = 1 / (real)inertia[i];
    iinv[1] *= (real)dfac(d, D_LAP, 1);
    real amp = (real)mg * (real)kn * (real)dfac(d, D_AMP, 1);
    du[0] = amp * (real)dfac(d, D_SIGN, -2) * (real)dw[0]; /* sum_i mgk e_i dW^i */
    du[1] = amp * (real)dw[1];
    du[2] = 0;
    memcpy(a, s, sizeof a);
    memcpy(b, s, sizeof b);
    int cap = dcap(d), n = 0;
    for (; n < cap; n++) {
        real na[3], nb[3], change = 0, size = 0;
        velocity(s, a, b, iinv, du, x, &q, gt, rhs);
        ainv(x, dot(x, x), s, na);
        ainv(x, dot(x, x), rhs, nb);
        for (int i = 0; i < 3; i++) {
            change = fmax(change, fmax(fabs(na[i] - a[i]), fabs(nb[i] - b[i])));
            size = fmax(size, fmax(fabs(na[i]), fabs(nb[i])));
            a[i] = na[i];
            b[i] = nb[i];
        }
        if (done(d, change, size)) break;
    }
    if (cap <= 0) velocity(s, a, b, iinv, du, x, &q, gt, rhs);
    taut(x, q, rhs, s);    /* Pi_{k+1} */
    taut(x, q, gt, s + 3); /* Gamma_{k+1} */
    for (int r = 0; r < 3; r++) {
        taut(x, q, s + 6 + 3 * r, s + 6 + 3 * r);
        taut(x, q, s + 6 + 3 * r, s + 6 + 3 * r);
    }
}

static void x0(double *s)
{
    double th = 0.15 * acos(-1.0), c = cos(th), sn = sin(th);
    const double v[15] = { 0, 0, 1, 0, -sn, c, 1, 0, 0, 0, c, sn, 0, -sn, c };
    memcpy(s, v, sizeof v);
}

static void columns(FILE *f)
{
    fprintf(f, "\tPi1\tPi2\tPi3\tGamma1\tGamma2\tGamma3\tR11\tR12\tR13\tR21\tR22\tR23\tR31\tR32\tR33");
}

int main(int argc, char **argv)
{
    const port p = { "heavy top SVI-SD, case 3", "# preset=svi/heavy-top/case3\n", 15, 2, 0.01, x0, step, columns };
    return port_main(&p, argc, argv);
}
