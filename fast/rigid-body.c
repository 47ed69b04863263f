/* rigid-body.c — the free rigid body on so(3) (docs/systems.md#rigid-body): ISO form (docs/systems.md#rigid-body-iso, ISO eqs.
 * (33)-(35)) and SVI form (§4.1.2, SVI eq. (53)), with the noise models iso-quad,
 * iso-quad1, svi-lin, svi-lin1, const-e3 and none.
 *
 * Coordinates (fast/system.h): mu = x (ISO) or Pi (SVI); algebra coefficients are those of the
 * gradient of h = H_F/2 = x.I^{-1}x/2 (P1: the Frobenius gradient of H_F is hat(I^{-1}x)),
 * so both forms share so(3)'s operations (fast/algebra-so3.c: coad(xi, mu) = mu x xi) and
 * the matrix generators B = -hat(xi).
 * The SVI form can carry R (row-major, after Pi) for the Noether check of SVI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "core/view-system.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/vector-field.h"
#include "fast/so3.h"

typedef struct {
    slpi_rb_form form;
    slpi_rb_noise noise;
    double Iinv[3];
    double amp;
    int track_R;
} rb_ctx;

static void rb_gen(const slpi_fast_system *s, int k, double *xi, const double *mu)
{
    const rb_ctx *c = s->data;
    xi[0] = xi[1] = xi[2] = 0;
    if (k == 0) {
        for (int i = 0; i < 3; i++) xi[i] = c->Iinv[i] * mu[i];
        return;
    }
    switch (c->noise) {
    case SLPI_RB_NOISE_ISO_QUAD:
    case SLPI_RB_NOISE_ISO_QUAD1:
        xi[k - 1] = c->amp * mu[k - 1];
        break;
    case SLPI_RB_NOISE_SVI_LIN:
        xi[k - 1] = c->amp;
        break;
    case SLPI_RB_NOISE_SVI_LIN1:
        xi[0] = xi[1] = xi[2] = c->amp / sqrt(3.0);
        break;
    case SLPI_RB_NOISE_CONST_E3:
        xi[2] = c->amp;
        break;
    case SLPI_RB_NOISE_NONE:
        break;
    }
}

static void rb_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    const rb_ctx *c = s->data;
    (void)mu;
    out[0] = out[1] = out[2] = 0;
    if (k == 0)
        for (int i = 0; i < 3; i++) out[i] = c->Iinv[i] * w[i];
    else if (c->noise == SLPI_RB_NOISE_ISO_QUAD || c->noise == SLPI_RB_NOISE_ISO_QUAD1)
        out[k - 1] = c->amp * w[k - 1];
}

/* Matrix form: one HAT block (fast/algebra-so3.c); Psi = -sum_k delta_k xi_k. */
static void rb_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    double tmp[3];
    slpi_fast_gen_sum(s, Psi, tmp, delta, Y);
    for (int i = 0; i < 3; i++) Psi[i] = -Psi[i];
}

static double rb_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                              const double *delta, const double *Xn, const double *Y)
{
    double P[3];
    rb_m_gen_sum(s, P, delta, Y);
    if (Psi_out) memcpy(Psi_out, P, sizeof P);
    return slpi_fast_blocks_isomp(SLPI_FAST_BLOCK_HAT, 1, P, Xn, Y, Ynew, ynorm);
}

static double rb_energy(const rb_ctx *c, const double *x)
{
    /* ISO reports H_0 = x.I^{-1}x (Frobenius, P1); SVI reports h = Pi.I^{-1}Pi / 2. */
    double e = 0;
    for (int i = 0; i < 3; i++) e += c->Iinv[i] * x[i] * x[i];
    return c->form == SLPI_RB_FORM_ISO ? e : 0.5 * e;
}

static void rb_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    const rb_ctx *c = s->data;
    double H = rb_energy(c, x);
    slpi_diag_add(d, "H0", H);
    slpi_fast_so3_casimirs(d, x);
    if (x0) {
        slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, rb_energy(c, x0)));
        slpi_fast_so3_casimir_devs(d, x, x0);
    }
    if (c->track_R) {
        const double *R = x + 3;
        double J[3], e = 0, RtR[9], Rt[9];
        slpi_fast_mat3_vec(J, R, x);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) Rt[3 * i + j] = R[3 * j + i];
        slpi_fast_mat3_mul(RtR, Rt, R);
        for (int i = 0; i < 9; i++) e = fmax(e, fabs(RtR[i] - (i % 4 == 0)));
        static const char *const jn[3][2] = { { "J_x", "J_x_dev" }, { "J_y", "J_y_dev" }, { "J_z", "J_z_dev" } };
        for (int i = 0; i < 3; i++) slpi_diag_add(d, jn[i][0], J[i]);
        slpi_diag_add(d, "R_orth_err", e);
        if (x0) {
            double J0[3];
            slpi_fast_mat3_vec(J0, x0 + 3, x0);
            double dj = 0;
            for (int i = 0; i < 3; i++) {
                slpi_diag_add(d, jn[i][1], J[i] - J0[i]);
                dj = fmax(dj, fabs(J[i] - J0[i]));
            }
            slpi_diag_add(d, "noether_J_dev", dj);
        }
    }
}

static void rb_clear(slpi_fast_system *s)
{
    free(s->data);
    s->data = NULL;
}

int slpi_fast_sys_rigid_body(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    rb_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "rigid-body: out of memory");
    c->form = sys->rb.form;
    c->noise = sys->rb.noise;
    c->amp = sys->rb.amp;
    c->track_R = sys->rb.track_R && sys->rb.form == SLPI_RB_FORM_SVI;
    s->data = c;
    s->clear = rb_clear;
    for (int i = 0; i < 3; i++) {
        if (!(sys->rb.inertia[i] > 0) || !isfinite(sys->rb.inertia[i]))
            return slpi_error_set(err, SLPI_EINPUT, "rigid-body: inertia[%d] = %g must be > 0", i, sys->rb.inertia[i]);
        c->Iinv[i] = sys->rb.h0_scale / sys->rb.inertia[i]; /* h0_scale 0: noise only */
    }
    if (!(sys->rb.h0_scale >= 0) || !isfinite(sys->rb.h0_scale))
        return slpi_error_set(err, SLPI_EINPUT, "rigid-body: h0_scale = %g must be >= 0", sys->rb.h0_scale);
    if (!isfinite(c->amp)) return slpi_error_set(err, SLPI_EINPUT, "rigid-body: noise amplitude is not finite");
    if (sys->rb.track_R && sys->rb.form != SLPI_RB_FORM_SVI)
        return slpi_error_set(err, SLPI_EINPUT, "rigid-body: track_R needs the SVI form");
    switch (c->noise) {
    case SLPI_RB_NOISE_NONE:
        s->M = 0;
        break;
    case SLPI_RB_NOISE_ISO_QUAD:
    case SLPI_RB_NOISE_SVI_LIN:
        s->M = 3;
        break;
    case SLPI_RB_NOISE_ISO_QUAD1:
    case SLPI_RB_NOISE_SVI_LIN1:
    case SLPI_RB_NOISE_CONST_E3:
        s->M = 1;
        break;
    default:
        return slpi_error_set(err, SLPI_EINPUT, "rigid-body: unknown noise model %d", (int)c->noise);
    }
    s->name = "rigid-body";
    s->dim = 3;
    s->state_dim = c->track_R ? 12 : 3;
    slpi_fast_so3_fill_ops(s);
    s->diagnostics = rb_diagnostics;
    s->gen = rb_gen;
    s->dgen = rb_dgen;
    s->m_gen_sum = rb_m_gen_sum;
    s->m_isomp_iter = rb_m_isomp_iter;
    return SLPI_OK;
}
