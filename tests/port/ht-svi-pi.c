/* ht-svi-pi.c — a port (port.h): the heavy top in its semidirect SVI form (SVI-SD, true
 * Cayley c = +1/4) with the noise of preset svi/heavy-top/case3-pi, written from
 * docs/schemes.md#svi-sd, #svi-so3, #svi-cayley and docs/systems.md#heavy-top-svi
 * ([SVI] eqs. (46)-(50), (60), the Cayley forms of §6.1 with the sign of E-V1).
 *
 * System: h = 1/2 Pi.I^-1 Pi + mg a.Gamma, the gyroscope I = diag(0.1, 0.1, 1),
 * mga = (0, 0, 0.98); two untruncated noises h_1 = k Pi_x, h_2 = k Pi_y, k = 0.01, so
 * d_Pi h_i = k e_i and d_Gamma h_i = 0. State Pi, Gamma, R (rows), h = 0.01; x0:
 * Pi0 = (0, 0, 1), theta0 = 0.15 pi, R0 the rotation by theta0 about x, Gamma0 = R0^T e3.
 * One sweep of the solve, from A = B = Pi_k:
 *   M = (A + B)/2, x = dt xi = (dt/2) I^-1 M + (1/2) sum_i k e_i dW_i,
 *   tau = I + 4/(4 + |x|^2) (x^ + x^2/2),  Gamma~ = tau^T Gamma_k,
 *   f = dt mga^ Gamma~,  A = A_c(x)^-1 Pi_k,  B = A_c(x)^-1 (tau^T Pi_k - f),
 * with y^ z = y cross z and A_c(x)^-1 v = (v - x^ v/2)/(1 + |x|^2/4)
 *                    + (1/4 - c)(x.v) x/((1 + c|x|^2)(1 + |x|^2/4)).
 * Output: Pi_k+1 = tau^T (tau^T Pi_k - f), Gamma_k+1 = tau^T Gamma~, R_k+1 = R_k tau^2.
 * tau^T and A_c^-1 are evaluated as v + (a small part), tau never formed (in float,
 * tau's diagonal 1 - O(|x|^2) would round alike every step: a systematic bias).
 * How the output reads the solve: a sweep forms x and tau from the current A, B, then
 * Gamma~ from this tau, then f from this Gamma~ (the docs' written order), then the new
 * A, B; after the loop x, tau, Gamma~ and f are re-evaluated from the final A, B (one
 * more velocity evaluation), and the outputs use those. The unknowns measured by done()
 * are (A, B): max-norm change of a sweep and max-norm size of the new (A, B).
 * Defects: amp, sign, lap (I^-1_2), swap (port.h mixes the increments), early, tol. */
#include "port.h"

#define SVI_C 0.25 /* svi_c: the true Cayley map's sign (docs/schemes.md#svi-so3) */
static const double inertia[3] = { 0.1, 0.1, 1 }, mga[3] = { 0, 0, 0.98 }, kappa[2] = { 0.01, 0.01 };
static const double step_h = 0.01;

static void cross(const real *a, const real *b, real *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}
/* out = tau(x)^T v = v + a (x^ x^ v/2 - x^ v), a = 4/(4 + |x|^2) */
static void taut(const real *x, real a, const real *v, real *out)
{
    real w[3], w2[3];
    cross(x, v, w);
    cross(x, w, w2);
    for (int i = 0; i < 3; i++) out[i] = v[i] + a * (w2[i] / 2 - w[i]);
}
/* out = A_c(x)^-1 v = v - (x^ v/2 + |x|^2 v/4)/(1 + |x|^2/4) + the c term */
static void ainv(const real *x, const real *v, real *out)
{
    real xx = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], xv = x[0] * v[0] + x[1] * v[1] + x[2] * v[2];
    real q = 1 + xx / 4, c = (real)SVI_C, p = ((real)0.25 - c) * xv / ((1 + c * xx) * q), xcv[3];
    cross(x, v, xcv);
    for (int i = 0; i < 3; i++) out[i] = v[i] - (xcv[i] / 2 + xx / 4 * v[i]) / q + p * x[i];
}

typedef struct {
    real x[3], a, gt[3], f[3]; /* x = dt xi, a = 4/(4 + |x|^2) (tau's factor), Gamma~, f */
} velocity;
/* x, tau, Gamma~ and f from the unknowns A, B (steps 1-3 of docs/schemes.md#svi-sd) */
static void velo(const real *A, const real *B, const real *gam, const double *dw, const defect *d, velocity *v)
{
    real h = (real)step_h, iinv[3], chi[2], u[3];
    for (int i = 0; i < 3; i++) iinv[i] = (real)(1 / inertia[i] * (i == 1 ? dfac(d, D_LAP, 1) : 1));
    for (int i = 0; i < 2; i++) chi[i] = (real)(kappa[i] * dfac(d, D_AMP, 1) * (i == 0 ? dfac(d, D_SIGN, -2) : 1));
    for (int i = 0; i < 3; i++) {
        real xi = iinv[i] * ((A[i] + B[i]) / 2) / 2;
        if (i < 2) xi += chi[i] * (real)dw[i] / h / 2;
        v->x[i] = h * xi;
        u[i] = (real)mga[i];
    }
    v->a = 4 / (4 + v->x[0] * v->x[0] + v->x[1] * v->x[1] + v->x[2] * v->x[2]);
    taut(v->x, v->a, gam, v->gt);
    cross(u, v->gt, v->f);
    for (int i = 0; i < 3; i++) v->f[i] *= h;
}

static void step(real *s, const double *dw, const defect *d)
{
    real *P = s, *G = s + 3, *R = s + 6, A[3], B[3], tp[3], An[3], Bn[3];
    velocity v;
    memcpy(A, P, sizeof A);
    memcpy(B, P, sizeof B);
    for (int it = 0; it < dcap(d); it++) {
        velo(A, B, G, dw, d, &v);
        taut(v.x, v.a, P, tp);
        for (int i = 0; i < 3; i++) tp[i] -= v.f[i];
        ainv(v.x, P, An);
        ainv(v.x, tp, Bn);
        real change = 0, size = 0;
        for (int i = 0; i < 3; i++) {
            change = fmax(change, fmax(fabs(An[i] - A[i]), fabs(Bn[i] - B[i])));
            size = fmax(size, fmax(fabs(An[i]), fabs(Bn[i])));
        }
        memcpy(A, An, sizeof A);
        memcpy(B, Bn, sizeof B);
        if (done(d, change, size)) break;
    }
    velo(A, B, G, dw, d, &v); /* the outputs re-evaluate x, tau, Gamma~, f from A, B */
    taut(v.x, v.a, P, tp);
    for (int i = 0; i < 3; i++) tp[i] -= v.f[i];
    taut(v.x, v.a, tp, P);
    taut(v.x, v.a, v.gt, G);
    for (int i = 0; i < 3; i++) { /* R tau tau: each row r of R becomes tau^T tau^T r */
        taut(v.x, v.a, R + 3 * i, tp);
        taut(v.x, v.a, tp, R + 3 * i);
    }
}

static void x0(double *x)
{
    double th = 0.15 * 3.141592653589793, c = cos(th), s = sin(th);
    double v[15] = { 0, 0, 1, 0, -s, c, 1, 0, 0, 0, c, s, 0, -s, c };
    memcpy(x, v, sizeof v);
}

static void columns(FILE *f)
{
    fprintf(f, "\tPi1\tPi2\tPi3\tGamma1\tGamma2\tGamma3");
    for (int i = 1; i <= 3; i++)
        for (int j = 1; j <= 3; j++) fprintf(f, "\tR%d%d", i, j);
}

int main(int argc, char **argv)
{
    static const port p = { "ht-svi-pi", "# preset=svi/heavy-top/case3-pi\n", 15, 2, 0.01, x0, step, columns };
    return port_main(&p, argc, argv);
}
