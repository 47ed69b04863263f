/* ref/heavy-top.c — the heavy top on se(3)^* in balls, coordinates with the se(3)
 * structure (docs/conventions.md#brackets, docs/systems.md#heavy-top; RKMK §5, eqs. (42)-(45);
 * SVI §8, eqs. (44)-(52)).
 *   mu = (pi, gamma), dot pairing; the se(3) structure is ref/algebra-se3.c's;
 *   h = 1/2 pi . I^{-1} pi + x . gamma, grad h = (I^{-1} pi, x), x = ht.mga
 *   (x -> -x with potential_printed, E-R3); noise gradients (dpi h_k, dgamma h_k):
 *   salt (alpha, 0); case1 (k1 e3, 0); case2 (0, mg k1 e3); case2-pi2 (2 k1 pi, 0);
 *   case3 (0, mg k1 e1), (0, mg k2 e2); case3-pi (k1 e1, 0), (k2 e2, 0).
 * RKMK form state (pi, gamma); SVI form state (Pi, Gamma, R row-major). */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-system.h"
#include "ref/algebra.h"
#include <math.h>
#include <stddef.h>

typedef struct {
    arb_struct inv_inertia[3];
    arb_struct x[3]; /* potential gradient */
} ht_data;

/* out = mg * k (exact binary64 inputs) */
static void mg_times(arb_ptr out, double mg, double k, slong prec)
{
    arb_t t;
    arb_init(t);
    arb_set_d(out, mg);
    arb_set_d(t, k);
    arb_mul(out, out, t, prec);
    arb_clear(t);
}

static void ht_gen(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec)
{
    const ht_data *d = s->data;
    const slpi_problem *p = s->p;
    _arb_vec_zero(b, 6);
    if (k == 0) {
        for (int i = 0; i < 3; i++) {
            arb_mul(b + i, mu + i, d->inv_inertia + i, prec);
            arb_set(b + 3 + i, d->x + i);
        }
        return;
    }
    switch (slpi_view_system(p)->ht.noise) {
    case SLPI_HT_NOISE_SALT:
        for (int i = 0; i < 3; i++) arb_set_d(b + i, slpi_view_system(p)->ht.alpha[i]);
        break;
    case SLPI_HT_NOISE_CASE1:
        arb_set_d(b + 2, slpi_view_system(p)->ht.k[0]);
        break;
    case SLPI_HT_NOISE_CASE2: /* mg k1 Gamma_z */
        mg_times(b + 5, slpi_view_system(p)->ht.mg, slpi_view_system(p)->ht.k[0], prec);
        break;
    case SLPI_HT_NOISE_CASE2_PI2:
        for (int i = 0; i < 3; i++) {
            arb_set_d(b + i, slpi_view_system(p)->ht.k[0]);
            arb_mul(b + i, b + i, mu + i, prec);
            arb_mul_2exp_si(b + i, b + i, 1);
        }
        break;
    case SLPI_HT_NOISE_CASE3: /* mg k_k Gamma_{x,y} */
        mg_times(b + 3 + (k - 1), slpi_view_system(p)->ht.mg, slpi_view_system(p)->ht.k[k - 1], prec);
        break;
    case SLPI_HT_NOISE_CASE3_PI:
        arb_set_d(b + (k - 1), slpi_view_system(p)->ht.k[k - 1]);
        break;
    case SLPI_HT_NOISE_NONE:
        break;
    }
}

static void ht_dgen(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu, arb_srcptr w, slong prec)
{
    const ht_data *d = s->data;
    (void)mu;
    _arb_vec_zero(db, 6);
    if (k == 0) {
        for (int i = 0; i < 3; i++) arb_mul(db + i, w + i, d->inv_inertia + i, prec);
    } else if (slpi_view_system(s->p)->ht.noise == SLPI_HT_NOISE_CASE2_PI2) {
        for (int i = 0; i < 3; i++) {
            arb_set_d(db + i, slpi_view_system(s->p)->ht.k[0]);
            arb_mul(db + i, db + i, w + i, prec);
            arb_mul_2exp_si(db + i, db + i, 1);
        }
    }
}

static void ht_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    arb_ptr g = _arb_vec_init(6);
    ht_gen(s, 0, g, x, prec);
    arb_dot(out + 0, NULL, 0, g, 1, x, 1, 3, prec);
    arb_mul_2exp_si(out + 0, out + 0, -1);
    arb_dot(out + 0, out + 0, 0, g + 3, 1, x + 3, 1, 3, prec); /* + x . gamma */
    arb_dot(out + 1, NULL, 0, x + 3, 1, x + 3, 1, 3, prec);
    arb_dot(out + 2, NULL, 0, x, 1, x + 3, 1, 3, prec);
    if (s->n_inv == 4) /* (R Pi)_z */
        arb_dot(out + 3, NULL, 0, x + 6 + 6, 1, x, 1, 3, prec);
    _arb_vec_clear(g, 6);
}

/* The double path's other diagnostics (fast/heavy-top.c): pi3_dev = pi_3 - pi_3(x0); in
 * the SVI form p_psi = Pi_3, gamma_RTe3_err = max_i |(R^T e3)_i - Gamma_i| and the nutation
 * angle theta = acos R_33 (R_33 taken in [-1, 1], where the exact R's entry lies). */
static void ht_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    arb_sub(out + 0, x + 2, x0 + 2, prec);
    if (s->n_dep == 1) return;
    arb_srcptr R = x + 6;
    arb_set(out + 1, x + 2);
    slpi_ref_max_abs_diff(out + 2, R + 6, x + 3, 3, prec); /* R^T e3 = the third row of R */
    arb_t one;
    arb_init(one);
    arb_zero_pm_one(one);
    if (arb_intersection(out + 3, R + 8, one, prec))
        arb_acos(out + 3, out + 3, prec);
    else
        arb_indeterminate(out + 3);
    arb_clear(one);
}

static void ht_clear(slpi_ref_system *s)
{
    ht_data *d = s->data;
    for (int i = 0; i < 3; i++) {
        arb_clear(d->inv_inertia + i);
        arb_clear(d->x + i);
    }
    flint_free(d);
}

int slpi_ref_sys_heavy_top(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    const slong prec = 2 * slpi_view_cert(p)->prec_max + 64;
    for (int i = 0; i < 3; i++) {
        if (!(sys->ht.inertia[i] > 0) || !isfinite(sys->ht.inertia[i]))
            return slpi_error_set(err, SLPI_EINPUT, "heavy-top: inertia[%d]=%g must be > 0", i, sys->ht.inertia[i]);
        if (!isfinite(sys->ht.mga[i]) || !isfinite(sys->ht.alpha[i]))
            return slpi_error_set(err, SLPI_EINPUT, "heavy-top: mga and alpha must be finite");
    }
    if (!isfinite(sys->ht.mg) || !isfinite(sys->ht.k[0]) || !isfinite(sys->ht.k[1]))
        return slpi_error_set(err, SLPI_EINPUT, "heavy-top: mg and k must be finite");
    ht_data *d = flint_malloc(sizeof *d);
    for (int i = 0; i < 3; i++) {
        arb_init(d->inv_inertia + i);
        arb_set_d(d->inv_inertia + i, sys->ht.inertia[i]);
        arb_inv(d->inv_inertia + i, d->inv_inertia + i, prec);
        arb_init(d->x + i);
        arb_set_d(d->x + i, sys->ht.potential_printed ? -sys->ht.mga[i] : sys->ht.mga[i]);
    }
    s->p = p;
    s->data = d;
    s->clear = ht_clear;
    s->dim = s->gdim = 6;
    s->state_dim = sys->ht.form == SLPI_HT_FORM_SVI ? 15 : 6;
    switch (sys->ht.noise) {
    case SLPI_HT_NOISE_NONE:
        s->M = 0;
        break;
    case SLPI_HT_NOISE_CASE3:
    case SLPI_HT_NOISE_CASE3_PI:
        s->M = 2;
        break;
    default:
        s->M = 1;
        break;
    }
    s->h0_quadratic = 1;
    s->gen = ht_gen;
    s->dgen = ht_dgen;
    s->coad = slpi_ref_se3_coad;
    s->orbit = slpi_ref_se3_orbit;
    s->dorbit = slpi_ref_se3_dorbit;
    s->lie = slpi_ref_se3_lie;
    s->N = 0;
    s->invariants = ht_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_dev";
    slpi_ref_se3_casimir_names(s);
    if (sys->ht.form == SLPI_HT_FORM_SVI) {
        s->n_inv = 4;
        s->inv_name[3] = "p_phi"; /* (R Pi)_z */
        s->inv_delta_name[3] = "p_phi_dev";
    }
    s->n_dep = sys->ht.form == SLPI_HT_FORM_SVI ? 4 : 1;
    s->dep_name[0] = "pi3_dev";
    s->dep_name[1] = "p_psi";
    s->dep_name[2] = "gamma_RTe3_err";
    s->dep_name[3] = "theta";
    s->departures = ht_departures;
    return SLPI_OK;
}
