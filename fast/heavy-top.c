/* heavy-top.c — the heavy top on se(3)* (docs/systems.md#heavy-top): RKMK form (docs/systems.md#heavy-top-rkmk, RKMK eqs.
 * (42)-(45), SALT noise, the bracket-consistent potential sign or the printed one) and
 * the SVI semidirect form (§4.2.2, SVI eqs. (44)-(52), (60); noise cases 1, 2, 2-pi2,
 * 3, 3-pi; state Pi, Gamma, R row-major).
 *
 * Coordinates (fast/system.h): mu = (pi, gamma) / (Pi, Gamma) with the dot pairing (P2);
 * grad returns (d_pi h_k, d_gamma h_k); coad((xi,b),(pi,gamma)) = (pi x xi + gamma x b,
 * gamma x xi) (docs/conventions.md#brackets); O_exp in the closed form of docs/systems.md#heavy-top-rkmk. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/step.h"
#include "core/problem-struct.h"
#include "fast/system.h"
#include "fast/so3.h"

typedef struct {
    slpi_ht_form form;
    slpi_ht_noise noise;
    double Iinv[3];
    double x[3];          /* d_gamma h: the potential vector m g a (sign per potential_printed) */
    double alpha[3];
    double k[2];
    double mg;
    int exp_form;         /* 0 stable, 1 textbook Rodrigues, 2 expm, 3 textbook Rodrigues with
                           * cos rounded one ulp up (problem key exp_form) */
} ht_ctx;

static void ht_gen(const slpi_fast_system *s, int k, double *g, const double *mu)
{
    const ht_ctx *c = s->data;
    for (int i = 0; i < 6; i++) g[i] = 0;
    if (k == 0) {
        for (int i = 0; i < 3; i++) {
            g[i] = c->Iinv[i] * mu[i];
            g[3 + i] = c->x[i];
        }
        return;
    }
    switch (c->noise) {
    case SLPI_HT_NOISE_SALT: memcpy(g, c->alpha, 3 * sizeof *g); break;
    case SLPI_HT_NOISE_CASE1: g[2] = c->k[0]; break;
    case SLPI_HT_NOISE_CASE2: g[5] = c->mg * c->k[0]; break;
    case SLPI_HT_NOISE_CASE2_PI2: for (int i = 0; i < 3; i++) g[i] = 2 * c->k[0] * mu[i]; break;
    case SLPI_HT_NOISE_CASE3: g[3 + k - 1] = c->mg * c->k[k - 1]; break;
    case SLPI_HT_NOISE_CASE3_PI: g[k - 1] = c->k[k - 1]; break;
    case SLPI_HT_NOISE_NONE: break;
    }
}

static void ht_dgen(const slpi_fast_system *s, int k, double *out, const double *mu,
                    const double *w)
{
    const ht_ctx *c = s->data;
    (void)mu;
    for (int i = 0; i < 6; i++) out[i] = 0;
    if (k == 0)
        for (int i = 0; i < 3; i++) out[i] = c->Iinv[i] * w[i];
    else if (c->noise == SLPI_HT_NOISE_CASE2_PI2)
        for (int i = 0; i < 3; i++) out[i] = 2 * c->k[0] * w[i];
}

static void ht_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
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

static void ht_lie(const slpi_fast_system *s, double *out, const double *u, const double *v)
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
    double A[16] = {0, -xi[2], xi[1], b[0], xi[2], 0, -xi[0], b[1], -xi[1], xi[0], 0, b[2], 0, 0, 0, 0};
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

static int ht_orbit(const slpi_fast_system *s, double *out, const double *sigma,
                        const double *mu)
{
    const ht_ctx *ctx = s->data;
    const double *xi = sigma, *b = sigma + 3;
    double c1, c2, R[9], v[3];   /* (1 - cos t)/t^2, (t - sin t)/t^3, t = |xi| */
    if (ctx->exp_form == 2) {
        expm_se3(R, v, xi, b);
    } else {
        double sn = 0, xb[3], xxb[3];
        int textbook = ctx->exp_form == 1 || ctx->exp_form == 3;
        if (textbook) textbook_coeffs(&sn, &c1, &c2, slpi_fast_dot3(xi, xi), ctx->exp_form == 3);
        else slpi_fast_exp_coeffs(&c1, &c2, slpi_fast_dot3(xi, xi));
        slpi_fast_cross(xb, xi, b);
        slpi_fast_cross(xxb, xi, xb);
        for (int i = 0; i < 3; i++) v[i] = b[i] + c1 * xb[i] + c2 * xxb[i];
        if (textbook) slpi_fast_rot_coeffs(R, xi, sn, c1);
        else slpi_fast_rodrigues(R, xi);
    }
    double gv[3], w[3];
    slpi_fast_cross(gv, mu + 3, v);
    for (int i = 0; i < 3; i++) w[i] = mu[i] + gv[i];
    slpi_fast_mat3t_vec(out, R, w);
    slpi_fast_mat3t_vec(out + 3, R, mu + 3);
    return 0;
}

static double ht_energy(const ht_ctx *c, const double *x)
{
    double e = 0;
    for (int i = 0; i < 3; i++) e += 0.5 * c->Iinv[i] * x[i] * x[i] + c->x[i] * x[3 + i];
    return e;
}

static void ht_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    const ht_ctx *c = s->data;
    double H = ht_energy(c, x), C1 = slpi_fast_dot3(x + 3, x + 3), C2 = slpi_fast_dot3(x, x + 3);
    slpi_diag_add(d, "H0", H);
    slpi_diag_add(d, "C1", C1);   /* |gamma|^2 */
    slpi_diag_add(d, "C2", C2);   /* pi.gamma */
    if (x0) {
        slpi_diag_add(d, "H0_dev", H - ht_energy(c, x0));
        slpi_diag_add(d, "C1_dev", C1 - slpi_fast_dot3(x0 + 3, x0 + 3));
        slpi_diag_add(d, "C2_dev", C2 - slpi_fast_dot3(x0, x0 + 3));
        slpi_diag_add(d, "pi3_dev", x[2] - x0[2]);
    }
    if (c->form == SLPI_HT_FORM_SVI) {
        const double *R = x + 6;
        double RPi[3], e3[3] = {0, 0, 1}, G[3], eg = 0;
        slpi_fast_mat3_vec(RPi, R, x);
        slpi_fast_mat3t_vec(G, R, e3);
        for (int i = 0; i < 3; i++) eg = fmax(eg, fabs(G[i] - x[3 + i]));
        slpi_diag_add(d, "p_phi", RPi[2]);
        slpi_diag_add(d, "p_psi", x[2]);
        slpi_diag_add(d, "gamma_RTe3_err", eg);
        double r33 = R[8] > 1 ? 1 : R[8] < -1 ? -1 : R[8];
        slpi_diag_add(d, "theta", acos(r33));
        if (x0) {
            double RPi0[3];
            slpi_fast_mat3_vec(RPi0, x0 + 6, x0);
            slpi_diag_add(d, "p_phi_dev", RPi[2] - RPi0[2]);
        }
    }
}

static void ht_clear(slpi_fast_system *s)
{
    free(s->data);
    s->data = NULL;
}

int slpi_fast_sys_heavy_top(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    ht_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "heavy-top: out of memory");
    s->data = c;
    s->clear = ht_clear;
    c->form = p->ht.form;
    c->noise = p->ht.noise;
    c->mg = p->ht.mg;
    for (int i = 0; i < 3; i++) {
        if (!(p->ht.inertia[i] > 0) || !isfinite(p->ht.inertia[i]))
            return slpi_error_set(err, SLPI_EINPUT, "heavy-top: inertia[%d] = %g must be > 0",
                                  i, p->ht.inertia[i]);
        c->Iinv[i] = 1 / p->ht.inertia[i];
        c->x[i] = p->ht.potential_printed ? -p->ht.mga[i] : p->ht.mga[i];
        c->alpha[i] = p->ht.alpha[i];
    }
    c->exp_form = p->ht.exp_form;
    c->k[0] = p->ht.k[0];
    c->k[1] = p->ht.k[1];
    int rkmk = c->form == SLPI_HT_FORM_RKMK;
    switch (c->noise) {
    case SLPI_HT_NOISE_NONE: s->M = 0; break;
    case SLPI_HT_NOISE_SALT: s->M = 1; break;
    case SLPI_HT_NOISE_CASE1: case SLPI_HT_NOISE_CASE2: case SLPI_HT_NOISE_CASE2_PI2:
        s->M = 1; break;
    case SLPI_HT_NOISE_CASE3: case SLPI_HT_NOISE_CASE3_PI: s->M = 2; break;
    default:
        return slpi_error_set(err, SLPI_EINPUT, "heavy-top: unknown noise model %d", (int)c->noise);
    }
    if (rkmk && c->noise != SLPI_HT_NOISE_NONE && c->noise != SLPI_HT_NOISE_SALT)
        return slpi_error_set(err, SLPI_EINPUT,
                              "heavy-top: the RKMK form takes SALT noise or none (cases 1-3 "
                              "belong to the SVI form)");
    s->name = "heavy-top";
    s->dim = 6;
    s->state_dim = rkmk ? 6 : 15;
    s->mdim = 0;
    s->diagnostics = ht_diagnostics;
    s->gen = ht_gen;
    s->dgen = ht_dgen;
    if (rkmk) {
        /* The generic coordinate schemes integrate (pi, gamma) only in the RKMK form;
         * the SVI form (with R) is advanced by SVI-SD alone. */
        s->coad = ht_coad;
        s->orbit = ht_orbit;
        s->lie = ht_lie;
    }
    return SLPI_OK;
}
