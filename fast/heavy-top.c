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
#include "slpi/diag.h"
#include "core/view-system.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/so3.h"

typedef struct {
    slpi_ht_form form;
    slpi_ht_noise noise;
    double Iinv[3];
    double x[3]; /* d_gamma h: the potential vector m g a (sign per potential_printed) */
    double alpha[3];
    double k[2];
    double mg;
    int exp_form; /* 0 stable, 1 textbook Rodrigues, 2 expm, 3 textbook Rodrigues with
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
    case SLPI_HT_NOISE_SALT:
        memcpy(g, c->alpha, 3 * sizeof *g);
        break;
    case SLPI_HT_NOISE_CASE1:
        g[2] = c->k[0];
        break;
    case SLPI_HT_NOISE_CASE2:
        g[5] = c->mg * c->k[0];
        break;
    case SLPI_HT_NOISE_CASE2_PI2:
        for (int i = 0; i < 3; i++) g[i] = 2 * c->k[0] * mu[i];
        break;
    case SLPI_HT_NOISE_CASE3:
        g[3 + k - 1] = c->mg * c->k[k - 1];
        break;
    case SLPI_HT_NOISE_CASE3_PI:
        g[k - 1] = c->k[k - 1];
        break;
    case SLPI_HT_NOISE_NONE:
        break;
    }
}

static void ht_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    const ht_ctx *c = s->data;
    (void)mu;
    for (int i = 0; i < 6; i++) out[i] = 0;
    if (k == 0)
        for (int i = 0; i < 3; i++) out[i] = c->Iinv[i] * w[i];
    else if (c->noise == SLPI_HT_NOISE_CASE2_PI2)
        for (int i = 0; i < 3; i++) out[i] = 2 * c->k[0] * w[i];
}

/* O_exp in the form of the key exp_form (fast/algebra-se3.c). */
static int ht_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    const ht_ctx *ctx = s->data;
    slpi_fast_se3_orbit_form(out, sigma, mu, ctx->exp_form);
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
    double H = ht_energy(c, x);
    slpi_diag_add(d, "H0", H);
    slpi_fast_se3_casimirs(d, x);
    if (x0) {
        slpi_diag_add(d, "H0_dev", H - ht_energy(c, x0));
        slpi_fast_se3_casimir_devs(d, x, x0);
        slpi_diag_add(d, "pi3_dev", x[2] - x0[2]);
    }
    if (c->form == SLPI_HT_FORM_SVI) {
        const double *R = x + 6;
        double RPi[3], e3[3] = { 0, 0, 1 }, G[3], eg = 0;
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
    const slpi_system_view *sys = slpi_view_system(p);
    ht_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "heavy-top: out of memory");
    s->data = c;
    s->clear = ht_clear;
    c->form = sys->ht.form;
    c->noise = sys->ht.noise;
    c->mg = sys->ht.mg;
    for (int i = 0; i < 3; i++) {
        if (!(sys->ht.inertia[i] > 0) || !isfinite(sys->ht.inertia[i]))
            return slpi_error_set(err, SLPI_EINPUT, "heavy-top: inertia[%d] = %g must be > 0", i, sys->ht.inertia[i]);
        c->Iinv[i] = 1 / sys->ht.inertia[i];
        c->x[i] = sys->ht.potential_printed ? -sys->ht.mga[i] : sys->ht.mga[i];
        c->alpha[i] = sys->ht.alpha[i];
    }
    c->exp_form = sys->ht.exp_form;
    c->k[0] = sys->ht.k[0];
    c->k[1] = sys->ht.k[1];
    int rkmk = c->form == SLPI_HT_FORM_RKMK;
    switch (c->noise) {
    case SLPI_HT_NOISE_NONE:
        s->M = 0;
        break;
    case SLPI_HT_NOISE_SALT:
        s->M = 1;
        break;
    case SLPI_HT_NOISE_CASE1:
    case SLPI_HT_NOISE_CASE2:
    case SLPI_HT_NOISE_CASE2_PI2:
        s->M = 1;
        break;
    case SLPI_HT_NOISE_CASE3:
    case SLPI_HT_NOISE_CASE3_PI:
        s->M = 2;
        break;
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
        s->coad = slpi_fast_se3_coad;
        s->orbit = ht_orbit;
        s->lie = slpi_fast_se3_lie;
    }
    return SLPI_OK;
}
