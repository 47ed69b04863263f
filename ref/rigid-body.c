/* ref/rigid-body.c — the rigid body on so(3) in balls (docs/systems.md#rigid-body).
 * Both forms are the matrix system X = hat(x) with generators B_k = -hat(g_k(x))
 * (B_k = xi_k^*, docs/conventions.md#sde), where g_k is the angular velocity of H_k:
 *   ISO form (§4.1.1, 001 eqs. (33)-(35)): H0 = x . I^{-1} x (Frobenius, P1), g_0 = I^{-1}x;
 *   SVI form (§4.1.2, 004 eq. (53)):       h  = 1/2 Pi . I^{-1} Pi (dot),    g_0 = I^{-1}Pi;
 * both scaled by rb.h0_scale, and the noise velocities
 *   iso-quad  g_i = amp x_i e_i (i = 1..3), iso-quad1 only i = 1,
 *   svi-lin   g_i = amp e_i,  svi-lin1 g_1 = amp/sqrt3 (1,1,1),  const-e3 g_1 = amp e_3,
 * so that dx = sum_k x × g_k o dS^k. The SVI form optionally carries R (row-major)
 * after Pi; only the SVI scheme updates it (Noether J = R Pi, 004 eq. (59)). */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-system.h"
#include "ref/algebra.h"
#include "ref/matrix.h"
#include <math.h>
#include <stddef.h>
#include "core/check.h"

typedef struct {
    arb_struct inv_inertia[3]; /* 1 / I_i */
    arb_struct h0_scale;
    arb_struct amp;
    arb_struct amp3; /* amp / sqrt(3) */
} rb_data;

/* velocity g_k(x) */
static void velocity(const slpi_ref_system *s, int k, arb_ptr g, arb_srcptr x, slong prec)
{
    const rb_data *d = s->data;
    _arb_vec_zero(g, 3);
    if (k == 0) {
        for (int i = 0; i < 3; i++) {
            arb_mul(g + i, x + i, d->inv_inertia + i, prec);
            arb_mul(g + i, g + i, &d->h0_scale, prec);
        }
        return;
    }
    switch (slpi_view_system(s->p)->rb.noise) {
    case SLPI_RB_NOISE_ISO_QUAD:
    case SLPI_RB_NOISE_ISO_QUAD1:
        arb_mul(g + (k - 1), x + (k - 1), &d->amp, prec);
        break;
    case SLPI_RB_NOISE_SVI_LIN:
        arb_set(g + (k - 1), &d->amp);
        break;
    case SLPI_RB_NOISE_SVI_LIN1:
        for (int i = 0; i < 3; i++) arb_set(g + i, &d->amp3);
        break;
    case SLPI_RB_NOISE_CONST_E3:
        arb_set(g + 2, &d->amp);
        break;
    case SLPI_RB_NOISE_NONE:
        break;
    }
}

/* Dg_k(x)[w] */
static void dvelocity(const slpi_ref_system *s, int k, arb_ptr g, arb_srcptr w, slong prec)
{
    const rb_data *d = s->data;
    _arb_vec_zero(g, 3);
    if (k == 0)
        velocity(s, 0, g, w, prec);
    else if (slpi_view_system(s->p)->rb.noise == SLPI_RB_NOISE_ISO_QUAD ||
             slpi_view_system(s->p)->rb.noise == SLPI_RB_NOISE_ISO_QUAD1)
        arb_mul(g + (k - 1), w + (k - 1), &d->amp, prec);
}

/* The generators in coordinates (B_k = -hat g_k, so b_k = pack(B_k) = -g_k; the matrix
 * level is slpi_ref_matrix_attach's unpack of it), and the coordinate level in closed
 * form (hat identities; the same values as the matrix attach, without 3x3 matrices):
 * coad(b, x) = pack([hat b, hat x]) = b × x, and
 * hat a hat y hat c + hat c hat y hat a = -hat((a . y) c + (c . y) a). */
static void rb_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec)
{
    if (w == NULL)
        velocity(s, k, b, mu, prec);
    else
        dvelocity(s, k, b, w, prec);
    _arb_vec_neg(b, b, 3);
}

static void rb_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    arb_ptr g = _arb_vec_init(3);
    velocity(s, 0, g, x, prec);
    arb_dot(out + 0, NULL, 0, g, 1, x, 1, 3, prec); /* x . I^{-1} x */
    if (slpi_view_system(s->p)->rb.form == SLPI_RB_FORM_SVI) arb_mul_2exp_si(out + 0, out + 0, -1);
    arb_dot(out + 1, NULL, 0, x, 1, x, 1, 3, prec); /* |x|^2 */
    if (s->n_inv == 5)                              /* J = R Pi */
        for (int i = 0; i < 3; i++) arb_dot(out + 2 + i, NULL, 0, x + 3 + 3 * i, 1, x, 1, 3, prec);
    _arb_vec_clear(g, 3);
}

/* With R tracked, the double path's other diagnostics (fast/rigid-body.c) after eig_dev:
 * R_orth_err = max |R^T R - I| and noether_J_dev = max_i |J_i - J_i(x0)|, J = R Pi. */
static void rb_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    slpi_ref_so3_departures(s, out, x, x0, prec);
    arb_t a;
    arb_init(a);
    const arb_srcptr R = x + 3;
    arb_zero(out + 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            arb_dot(a, NULL, 0, R + i, 3, R + j, 3, 3, prec); /* (R^T R)_ij */
            arb_sub_si(a, a, i == j, prec);
            arb_abs(a, a);
            arb_max(out + 1, out + 1, a, prec);
        }
    arb_ptr J = _arb_vec_init(6);
    for (int i = 0; i < 3; i++) {
        arb_dot(J + i, NULL, 0, x + 3 + 3 * i, 1, x, 1, 3, prec);
        arb_dot(J + 3 + i, NULL, 0, x0 + 3 + 3 * i, 1, x0, 1, 3, prec);
    }
    slpi_ref_max_abs_diff(out + 2, J, J + 3, 3, prec);
    _arb_vec_clear(J, 6);
    arb_clear(a);
}

static void rb_clear(slpi_ref_system *s)
{
    rb_data *d = s->data;
    for (int i = 0; i < 3; i++) arb_clear(d->inv_inertia + i);
    arb_clear(&d->h0_scale);
    arb_clear(&d->amp);
    arb_clear(&d->amp3);
    flint_free(d);
}

int slpi_ref_sys_rigid_body(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    const slong prec = 2 * slpi_view_cert(p)->prec_max + 64; /* parameters: far below any step radius */
    for (int i = 0; i < 3; i++)
        if (!(sys->rb.inertia[i] > 0) || !isfinite(sys->rb.inertia[i]))
            return slpi_error_set(err, SLPI_EINPUT, "rigid-body: inertia[%d]=%g must be > 0", i, sys->rb.inertia[i]);
    if (!isfinite(sys->rb.amp) || !isfinite(sys->rb.h0_scale))
        return slpi_error_set(err, SLPI_EINPUT, "rigid-body: amp and h0_scale must be finite");
    /* slpi_ref_create validated the problem: core/problem-validate.c refuses this first */
    if (SLPI_NEVER(sys->rb.track_R && sys->rb.form != SLPI_RB_FORM_SVI))
        return slpi_error_set(err, SLPI_EINPUT, "rigid-body: track_R needs form svi");
    rb_data *d = flint_malloc(sizeof *d);
    for (int i = 0; i < 3; i++) {
        arb_init(d->inv_inertia + i);
        arb_set_d(d->inv_inertia + i, sys->rb.inertia[i]);
        arb_inv(d->inv_inertia + i, d->inv_inertia + i, prec);
    }
    arb_init(&d->h0_scale);
    arb_set_d(&d->h0_scale, sys->rb.h0_scale);
    arb_init(&d->amp);
    arb_set_d(&d->amp, sys->rb.amp);
    arb_init(&d->amp3);
    arb_rsqrt_ui(&d->amp3, 3, prec);
    arb_mul(&d->amp3, &d->amp3, &d->amp, prec);

    s->p = p;
    s->data = d;
    s->clear = rb_clear;
    s->dim = 3;
    s->state_dim = sys->rb.track_R ? 12 : 3;
    switch (sys->rb.noise) {
    case SLPI_RB_NOISE_NONE:
        s->M = 0;
        break;
    case SLPI_RB_NOISE_ISO_QUAD:
        s->M = 3;
        break;
    case SLPI_RB_NOISE_SVI_LIN:
        s->M = 3;
        break;
    default:
        s->M = 1;
        break;
    }
    s->h0_quadratic = 1;
    s->N = 3;
    s->m_unpack = slpi_ref_so3_m_unpack;
    s->m_pack = slpi_ref_so3_m_pack;
    s->gen_packed = rb_gen_packed;
    slpi_ref_matrix_attach(s);
    s->gen = slpi_ref_packed_gen;
    s->dgen = slpi_ref_packed_dgen;
    s->coad = slpi_ref_so3_coad;
    s->m_sandwich = slpi_ref_so3_m_sandwich;
    s->invariants = rb_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_rel[0] = 1;
    slpi_ref_so3_casimir_names(s);
    if (sys->rb.track_R) { /* J = R Pi */
        static const char *const J[3] = { "J_x", "J_y", "J_z" }, *const dJ[3] = { "J_x_dev", "J_y_dev", "J_z_dev" };
        for (int i = 0; i < 3; i++) {
            s->inv_name[2 + i] = J[i];
            s->inv_delta_name[2 + i] = dJ[i];
        }
        s->n_inv = 5;
        s->n_dep = 3;
        s->dep_name[1] = "R_orth_err";
        s->dep_name[2] = "noether_J_dev";
        s->departures = rb_departures;
    }
    return SLPI_OK;
}
