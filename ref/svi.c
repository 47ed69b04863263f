/* ref/svi.c — SVI, the stochastic Lie-group variational midpoint with Cayley
 * retraction, certified; this file holds the SO(3) vector forms and the dispatch
 * (docs/schemes.md#svi-so3, docs/schemes.md#svi-sd, docs/schemes.md#svi-sign; SVI eqs. (46)-(50), (54)-(64)); the matrix
 * form SVI-LP is ref/svi-lp.c.
 *
 * SVI-SO3 (rigid body) and SVI-SD (heavy top, advected Gamma) are one system of
 * equations in the unknowns z = (A, B, x), x = Delta t xi, c = svi_c = ±1/4:
 *   M = (A + B)/2,  Gt = tau(x)^T Gamma_k  (eq. (50); heavy top only),
 *   P = sum_k Delta_k d_Pi h_k(M, Gt),  Q = sum_k Delta_k d_Gamma h_k(M, Gt),  f = Q × Gt,
 *   E1 = A_c(x) A - Pi_k,                                  (eq. (62) / step 4)
 *   E2 = A_c(x) B - (tau^T Pi_k - f),                      (for the rigid body f = 0 and
 *                                                           tau^T A_c(x) = A_c(-x))
 *   E3 = x - P / 2                                          (xi = 1/2 dh + noise / 2 dt)
 * with A_c(x) v = v + x × v / 2 + c (x.v) x and tau(x)^T v = v + s(-x × v + x × (x × v)/2),
 * s = 4/(4 + |x|^2). Jacobian by forward differentiation of these expressions; the
 * zero is enclosed by the Krawczyk test. Outputs: rotation form (default)
 * Pi_{k+1} = tau^T (tau^T Pi_k - f), node form A_c(-x) B (eq. (63)); Gamma_{k+1} =
 * tau^T tau^T Gamma_k; R_{k+1} = R_k tau^2 with tau = I + s(hat x + hat x^2 / 2).
 * For the rigid body (so(3) matrix system) d_Pi h_k = -vee(B_k) = -gen(k). */
#include <stdio.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "core/check.h"
#include "ref/vector-field.h"
#include "ref/krawczyk.h"
#include "ref/scheme.h"
#include "core/expr.h"

typedef struct {
    const slpi_ref_system *s;
    const double *delta;
    int gamma;      /* heavy top: Gamma advected */
    arb_ptr Pk, Gk; /* Pi_k, Gamma_k */
    arb_t c;
} svi_ctx;

static void dotv(arb_t out, arb_srcptr a, arb_srcptr b, slong prec)
{
    arb_dot(out, NULL, 0, a, 1, b, 1, 3, prec);
}

/* out = A_c(x) v */
static void Ac(arb_ptr out, arb_srcptr x, arb_srcptr v, const arb_t c, slong prec)
{
    arb_ptr t = _arb_vec_init(3);
    arb_t d;
    arb_init(d);
    slpi_ref_cross(t, x, v, prec);
    _arb_vec_scalar_mul_2exp_si(t, t, 3, -1);
    _arb_vec_add(t, t, v, 3, prec);
    dotv(d, x, v, prec);
    arb_mul(d, d, c, prec);
    _arb_vec_scalar_addmul(t, x, 3, d, prec);
    _arb_vec_set(out, t, 3);
    arb_clear(d);
    _arb_vec_clear(t, 3);
}

/* out = d/dt A_c(x + t dx)(v + t dv) */
static void dAc(arb_ptr out, arb_srcptr x, arb_srcptr dx, arb_srcptr v, arb_srcptr dv, const arb_t c, slong prec)
{
    arb_ptr t = _arb_vec_init(3), u = _arb_vec_init(3);
    arb_t d, e;
    arb_init(d);
    arb_init(e);
    slpi_ref_cross(t, dx, v, prec);
    slpi_ref_cross(u, x, dv, prec);
    _arb_vec_add(t, t, u, 3, prec);
    _arb_vec_scalar_mul_2exp_si(t, t, 3, -1);
    _arb_vec_add(t, t, dv, 3, prec);
    dotv(d, dx, v, prec);
    dotv(e, x, dv, prec);
    arb_add(d, d, e, prec);
    arb_mul(d, d, c, prec);
    _arb_vec_scalar_addmul(t, x, 3, d, prec);
    dotv(d, x, v, prec);
    arb_mul(d, d, c, prec);
    _arb_vec_scalar_addmul(t, dx, 3, d, prec);
    _arb_vec_set(out, t, 3);
    arb_clear(d);
    arb_clear(e);
    _arb_vec_clear(t, 3);
    _arb_vec_clear(u, 3);
}

/* s = 4 / (4 + |x|^2) */
static void cay_s(arb_t s, arb_srcptr x, slong prec)
{
    dotv(s, x, x, prec);
    arb_add_ui(s, s, 4, prec);
    arb_ui_div(s, 4, s, prec);
}

/* out = tau(x)^T v = v + s(-x × v + x × (x × v)/2) */
static void tauT(arb_ptr out, arb_srcptr x, arb_srcptr v, slong prec)
{
    arb_ptr a = _arb_vec_init(3), b = _arb_vec_init(3);
    arb_t s;
    arb_init(s);
    cay_s(s, x, prec);
    slpi_ref_cross(a, x, v, prec);
    slpi_ref_cross(b, x, a, prec);
    _arb_vec_scalar_mul_2exp_si(b, b, 3, -1);
    _arb_vec_sub(b, b, a, 3, prec);
    _arb_vec_scalar_mul(b, b, 3, s, prec);
    _arb_vec_add(out, v, b, 3, prec);
    arb_clear(s);
    _arb_vec_clear(a, 3);
    _arb_vec_clear(b, 3);
}

/* out = d/dt tau(x + t dx)^T v, ds = -s^2 (x.dx)/2 */
static void dtauT(arb_ptr out, arb_srcptr x, arb_srcptr dx, arb_srcptr v, slong prec)
{
    arb_ptr a = _arb_vec_init(3), b = _arb_vec_init(3), da = _arb_vec_init(3), db = _arb_vec_init(3);
    arb_t s, ds;
    arb_init(s);
    arb_init(ds);
    cay_s(s, x, prec);
    dotv(ds, x, dx, prec);
    arb_mul(ds, ds, s, prec);
    arb_mul(ds, ds, s, prec);
    arb_mul_2exp_si(ds, ds, -1);
    arb_neg(ds, ds);
    slpi_ref_cross(a, x, v, prec); /* a = x × v */
    slpi_ref_cross(b, x, a, prec); /* b = x × a */
    _arb_vec_scalar_mul_2exp_si(b, b, 3, -1);
    _arb_vec_sub(b, b, a, 3, prec);  /* g = -a + b/2 */
    slpi_ref_cross(da, dx, v, prec); /* da = dx × v */
    slpi_ref_cross(db, dx, a, prec);
    slpi_ref_cross(a, x, da, prec);
    _arb_vec_add(db, db, a, 3, prec); /* d(x × a) */
    _arb_vec_scalar_mul_2exp_si(db, db, 3, -1);
    _arb_vec_sub(db, db, da, 3, prec); /* dg */
    _arb_vec_scalar_mul(db, db, 3, s, prec);
    _arb_vec_scalar_addmul(db, b, 3, ds, prec);
    _arb_vec_set(out, db, 3);
    arb_clear(s);
    arb_clear(ds);
    _arb_vec_clear(a, 3);
    _arb_vec_clear(b, 3);
    _arb_vec_clear(da, 3);
    _arb_vec_clear(db, 3);
}

/* P = sum Delta_k d_Pi h_k(M, Gt), Q = sum Delta_k d_Gamma h_k (dM != NULL: derivatives) */
static void grads(const svi_ctx *c, arb_ptr P, arb_ptr Q, arb_srcptr M, arb_srcptr Gt, arb_srcptr dM, arb_srcptr dGt,
                  slong prec)
{
    const slpi_ref_system *s = c->s;
    arb_ptr mu = _arb_vec_init(6), dmu = _arb_vec_init(6), g = _arb_vec_init(6);
    _arb_vec_set(mu, M, 3);
    if (c->gamma) _arb_vec_set(mu + 3, Gt, 3);
    if (dM != NULL) {
        _arb_vec_set(dmu, dM, 3);
        if (c->gamma) _arb_vec_set(dmu + 3, dGt, 3);
        slpi_ref_dgen_sum(s, g, c->delta, mu, dmu, prec);
    } else {
        slpi_ref_gen_sum(s, g, c->delta, mu, prec);
    }
    if (c->gamma) {
        _arb_vec_set(P, g, 3);
        _arb_vec_set(Q, g + 3, 3);
    } else {
        _arb_vec_neg(P, g, 3);
        _arb_vec_zero(Q, 3);
    }
    _arb_vec_clear(mu, 6);
    _arb_vec_clear(dmu, 6);
    _arb_vec_clear(g, 6);
}

/* M, Gt, P, Q and f = Q × Gt at z */
static void svi_parts(const svi_ctx *c, arb_ptr M, arb_ptr Gt, arb_ptr P, arb_ptr Q, arb_ptr f, arb_srcptr z,
                      slong prec)
{
    _arb_vec_add(M, z, z + 3, 3, prec);
    _arb_vec_scalar_mul_2exp_si(M, M, 3, -1);
    if (c->gamma)
        tauT(Gt, z + 6, c->Gk, prec);
    else
        _arb_vec_zero(Gt, 3);
    grads(c, P, Q, M, Gt, NULL, NULL, prec);
    slpi_ref_cross(f, Q, Gt, prec);
}

static void svi_F(void *ctx, arb_ptr out, arb_srcptr z, slong prec)
{
    const svi_ctx *c = ctx;
    arb_ptr v = _arb_vec_init(15);
    arb_ptr M = v, Gt = v + 3, P = v + 6, Q = v + 9, f = v + 12;
    arb_ptr t = _arb_vec_init(3);
    svi_parts(c, M, Gt, P, Q, f, z, prec);
    Ac(out, z + 6, z, c->c, prec);
    _arb_vec_sub(out, out, c->Pk, 3, prec);
    Ac(out + 3, z + 6, z + 3, c->c, prec);
    tauT(t, z + 6, c->Pk, prec);
    _arb_vec_sub(t, t, f, 3, prec);
    _arb_vec_sub(out + 3, out + 3, t, 3, prec);
    _arb_vec_scalar_mul_2exp_si(t, P, 3, -1);
    _arb_vec_sub(out + 6, z + 6, t, 3, prec);
    _arb_vec_clear(v, 15);
    _arb_vec_clear(t, 3);
}

/* out = A_c(x)^{-1} v (indeterminate where A_c(x) is not provably invertible) */
static void Ac_solve(arb_ptr out, arb_srcptr x, arb_srcptr v, const arb_t c, slong prec)
{
    arb_mat_t A, b, s;
    arb_mat_init(A, 3, 3);
    arb_mat_init(b, 3, 1);
    arb_mat_init(s, 3, 1);
    arb_ptr e = _arb_vec_init(3), col = _arb_vec_init(3);
    for (int j = 0; j < 3; j++) { /* column j: A_c(x) e_j */
        _arb_vec_zero(e, 3);
        arb_one(e + j);
        Ac(col, x, e, c, prec);
        for (int i = 0; i < 3; i++) arb_set(arb_mat_entry(A, i, j), col + i);
        arb_set(arb_mat_entry(b, j, 0), v + j);
    }
    int ok = arb_mat_solve(s, A, b, prec);
    for (int i = 0; i < 3; i++)
        if (ok)
            arb_set(out + i, arb_mat_entry(s, i, 0));
        else
            arb_indeterminate(out + i);
    arb_mat_clear(A);
    arb_mat_clear(b);
    arb_mat_clear(s);
    _arb_vec_clear(e, 3);
    _arb_vec_clear(col, 3);
}

/* The double path's iteration map (fast/svi.c), whose limit is the designated root
 * (docs/schemes.md#designated-root): at z = (A, B, x), Gt = tau(x)^T Gamma_k and P, Q at
 * M = (A + B)/2, then x' = P/2, f = Q × Gt, A' = A_c(x')^{-1} Pi_k and
 * B' = A_c(x')^{-1} (tau(x')^T Pi_k - f); its fixed points are the zeros of svi_F. */
static void svi_G(void *ctx, arb_ptr out, arb_srcptr z, slong prec)
{
    const svi_ctx *c = ctx;
    arb_ptr v = _arb_vec_init(15), t = _arb_vec_init(3), xn = _arb_vec_init(3);
    svi_parts(c, v, v + 3, v + 6, v + 9, v + 12, z, prec);
    _arb_vec_scalar_mul_2exp_si(xn, v + 6, 3, -1);
    Ac_solve(out, xn, c->Pk, c->c, prec);
    tauT(t, xn, c->Pk, prec);
    _arb_vec_sub(t, t, v + 12, 3, prec);
    Ac_solve(out + 3, xn, t, c->c, prec);
    _arb_vec_set(out + 6, xn, 3);
    _arb_vec_clear(v, 15);
    _arb_vec_clear(t, 3);
    _arb_vec_clear(xn, 3);
}

/* Forward derivative of the SVI equations and of the step's outputs along a tangent
 * (dz, dPk, dGk) of the unknowns and of the parameters Pi_k, Gamma_k (NULL: 0):
 * dF (9) if non-NULL, and dPi = d Pi_{k+1}, dGa = d Gamma_{k+1} if non-NULL. */
static void svi_tangent(const svi_ctx *c, arb_srcptr z, arb_srcptr dz, arb_srcptr dPk, arb_srcptr dGk, arb_ptr dF,
                        arb_ptr dPi, arb_ptr dGa, slong prec)
{
    arb_ptr v = _arb_vec_init(15), dv = _arb_vec_init(15), t = _arb_vec_init(3), u = _arb_vec_init(3);
    arb_ptr M = v, Gt = v + 3, P = v + 6, Q = v + 9, f = v + 12;
    arb_ptr dM = dv, dGt = dv + 3, dP = dv + 6, dQ = dv + 9, df = dv + 12;
    arb_srcptr x = z + 6, dx = dz + 6;
    svi_parts(c, M, Gt, P, Q, f, z, prec);
    _arb_vec_add(dM, dz, dz + 3, 3, prec);
    _arb_vec_scalar_mul_2exp_si(dM, dM, 3, -1);
    if (c->gamma) {
        dtauT(dGt, x, dx, c->Gk, prec); /* d(tau^T Gamma_k) */
        if (dGk != NULL) {
            tauT(t, x, dGk, prec);
            _arb_vec_add(dGt, dGt, t, 3, prec);
        }
    }
    grads(c, dP, dQ, M, Gt, dM, dGt, prec);
    slpi_ref_cross(df, dQ, Gt, prec); /* df = dQ × Gt + Q × dGt */
    slpi_ref_cross(t, Q, dGt, prec);
    _arb_vec_add(df, df, t, 3, prec);
    /* u = d(tau^T Pi_k - f) */
    dtauT(u, x, dx, c->Pk, prec);
    if (dPk != NULL) {
        tauT(t, x, dPk, prec);
        _arb_vec_add(u, u, t, 3, prec);
    }
    _arb_vec_sub(u, u, df, 3, prec);
    if (dF != NULL) {
        dAc(dF, x, dx, z, dz, c->c, prec);
        if (dPk != NULL) _arb_vec_sub(dF, dF, dPk, 3, prec);
        dAc(dF + 3, x, dx, z + 3, dz + 3, c->c, prec);
        _arb_vec_sub(dF + 3, dF + 3, u, 3, prec);
        _arb_vec_scalar_mul_2exp_si(t, dP, 3, -1);
        _arb_vec_sub(dF + 6, dx, t, 3, prec);
    }
    if (dPi != NULL) {
        if (slpi_view_scheme(c->s->p)->svi_output == SLPI_SVI_OUT_NODE) { /* A_c(-x) B */
            arb_ptr mx = _arb_vec_init(6);
            _arb_vec_neg(mx, x, 3);
            _arb_vec_neg(mx + 3, dx, 3);
            dAc(dPi, mx, mx + 3, z + 3, dz + 3, c->c, prec);
            _arb_vec_clear(mx, 6);
        } else { /* tau^T (tau^T Pi_k - f) */
            tauT(t, x, c->Pk, prec);
            _arb_vec_sub(t, t, f, 3, prec);
            dtauT(dPi, x, dx, t, prec);
            tauT(t, x, u, prec);
            _arb_vec_add(dPi, dPi, t, 3, prec);
        }
    }
    if (dGa != NULL) { /* tau^T Gt */
        dtauT(dGa, x, dx, Gt, prec);
        tauT(t, x, dGt, prec);
        _arb_vec_add(dGa, dGa, t, 3, prec);
    }
    _arb_vec_clear(v, 15);
    _arb_vec_clear(dv, 15);
    _arb_vec_clear(t, 3);
    _arb_vec_clear(u, 3);
}

static void svi_dF(void *ctx, arb_ptr out, arb_srcptr z, arb_srcptr dz, slong prec)
{
    svi_tangent(ctx, z, dz, NULL, NULL, out, NULL, NULL, prec);
}

static void svi_J(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec)
{
    slpi_ref_jacobian_columns(Jm, 9, ctx, svi_dF, Y, prec);
}

/* R <- R tau^2 (R row-major 3x3 in place), tau = I + s(hat x + hat x^2 / 2):
 * row r of R tau is tau^T r. */
static void update_R(arb_ptr R, arb_srcptr x, slong prec)
{
    for (int i = 0; i < 3; i++) {
        tauT(R + 3 * i, x, R + 3 * i, prec);
        tauT(R + 3 * i, x, R + 3 * i, prec);
    }
}

static void ctx_init(svi_ctx *c, const slpi_ref_system *s, const double *delta, arb_srcptr x)
{
    c->s = s;
    c->delta = delta;
    c->gamma = slpi_registry_svi_form(s->p) == SLPI_SVI_FORM_SD; /* the semidirect form's Gamma */
    c->Pk = _arb_vec_init(3);
    c->Gk = _arb_vec_init(3);
    arb_init(c->c);
    arb_set_d(c->c, slpi_view_scheme(s->p)->svi_c);
    _arb_vec_set(c->Pk, x, 3);
    if (c->gamma) _arb_vec_set(c->Gk, x + 3, 3);
}

static void ctx_clear(svi_ctx *c)
{
    _arb_vec_clear(c->Pk, 3);
    _arb_vec_clear(c->Gk, 3);
    arb_clear(c->c);
}

/* the certified zero z = (A, B, x) of the SVI equations: the designated one, the limit
 * of the double path's iteration from its start (Pi_k, Pi_k, 0) */
static int svi_solve(svi_ctx *c, arb_ptr z, slong prec, char *why, size_t why_len)
{
    arb_ptr guess = _arb_vec_init(9), start = _arb_vec_init(9), v = _arb_vec_init(6);
    _arb_vec_set(guess, c->Pk, 3);
    _arb_vec_set(guess + 3, c->Pk, 3);
    _arb_vec_set(start, guess, 6);
    grads(c, v, v + 3, c->Pk, c->Gk, NULL, NULL, prec);
    _arb_vec_scalar_mul_2exp_si(guess + 6, v, 3, -1);
    slpi_ref_fn f = { 9, c, svi_F, svi_J, NULL };
    slpi_ref_fixmap g = { 9, c, svi_G, NULL, NULL, 0, NULL, NULL, 0 };
    int ok = slpi_ref_krawczyk_designated(z, &f, &g, start, guess, prec, why, why_len);
    _arb_vec_clear(guess, 9);
    _arb_vec_clear(start, 9);
    _arb_vec_clear(v, 6);
    return ok;
}

/* Pi_{k+1} from the zero z (rotation or node form); Gt, f filled in v (15) */
static void svi_output(const svi_ctx *c, arb_ptr out, arb_ptr v, arb_srcptr z, slong prec)
{
    arb_ptr M = v, Gt = v + 3, P = v + 6, Q = v + 9, fv = v + 12;
    arb_ptr t = _arb_vec_init(3);
    svi_parts(c, M, Gt, P, Q, fv, z, prec);
    if (slpi_view_scheme(c->s->p)->svi_output == SLPI_SVI_OUT_NODE) {
        _arb_vec_neg(t, z + 6, 3);
        Ac(out, t, z + 3, c->c, prec);
    } else {
        tauT(t, z + 6, c->Pk, prec);
        _arb_vec_sub(t, t, fv, 3, prec);
        tauT(out, z + 6, t, prec);
    }
    _arb_vec_clear(t, 3);
}

static slpi_step_status svi_vector_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                        size_t why_len)
{
    svi_ctx c;
    ctx_init(&c, s, delta, x);
    arb_ptr z = _arb_vec_init(9), v = _arb_vec_init(15);
    int ok = svi_solve(&c, z, prec, why, why_len);
    if (ok) {
        arb_srcptr xs = z + 6;
        svi_output(&c, x, v, z, prec);
        if (c.gamma) {
            tauT(x + 3, xs, v + 3, prec); /* Gamma_{k+1} = tau^T Gt */
            update_R(x + 6, xs, prec);
        } else if (s->state_dim == 12) {
            update_R(x + 3, xs, prec);
        }
    }
    ctx_clear(&c);
    _arb_vec_clear(z, 9);
    _arb_vec_clear(v, 15);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}

/* the Lie-Poisson tensor at p (rigid body: hat(Pi); heavy top:
 * [[hat Pi, hat Gamma], [hat Gamma, 0]], docs/conventions.md#brackets up to the common sign) */
static void poisson_tensor(arb_mat_t H, arb_srcptr p, int d)
{
    arb_mat_zero(H);
    for (int b = 0; b < d / 3; b++)
        for (int r = 0; r < d / 3; r++) {
            if (b + r >= d / 3) continue;
            arb_srcptr v = p + 3 * (b + r);
            int o0 = 3 * b, o1 = 3 * r;
            arb_set(arb_mat_entry(H, o0 + 2, o1 + 1), v + 0);
            arb_set(arb_mat_entry(H, o0 + 0, o1 + 2), v + 1);
            arb_set(arb_mat_entry(H, o0 + 1, o1 + 0), v + 2);
            arb_neg(arb_mat_entry(H, o0 + 1, o1 + 2), v + 0);
            arb_neg(arb_mat_entry(H, o0 + 2, o1 + 0), v + 1);
            arb_neg(arb_mat_entry(H, o0 + 0, o1 + 1), v + 2);
        }
}

int slpi_ref_svi_poisson_defect(const slpi_ref_system *s, arb_srcptr x, const double *delta, arb_ptr defect, slong prec,
                                char *why, size_t why_len)
{
    svi_ctx c;
    slpi_ref_time(s, 1, delta, prec);
    ctx_init(&c, s, delta, x);
    const int d = c.gamma ? 6 : 3;
    arb_ptr z = _arb_vec_init(9), v = _arb_vec_init(15), e = _arb_vec_init(6), col = _arb_vec_init(9),
            zero = _arb_vec_init(9), out = _arb_vec_init(6), p1 = _arb_vec_init(6);
    arb_mat_t Fz, Fp, dz, D, H, T;
    arb_mat_init(Fz, 9, 9);
    arb_mat_init(Fp, 9, d);
    arb_mat_init(dz, 9, d);
    arb_mat_init(D, d, d);
    arb_mat_init(H, d, d);
    arb_mat_init(T, d, d);
    int ok = svi_solve(&c, z, prec, why, why_len);
    if (ok) {
        /* implicit function theorem: F(z, p) = 0, dz/dp = -F_z^{-1} F_p */
        svi_J(&c, Fz, z, prec);
        for (int j = 0; j < d; j++) {
            _arb_vec_zero(e, 6);
            arb_one(e + j);
            svi_tangent(&c, z, zero, e, e + 3, col, NULL, NULL, prec);
            for (int i = 0; i < 9; i++) arb_neg(arb_mat_entry(Fp, i, j), col + i);
        }
        ok = arb_mat_solve(dz, Fz, Fp, prec);
        if (!ok) snprintf(why, why_len, "svi: Jacobian of the SVI equations not provably invertible");
    }
    if (ok) {
        /* D = d(Pi_{k+1}, Gamma_{k+1}) / d(Pi_k, Gamma_k), column j along (dz_j, e_j) */
        for (int j = 0; j < d; j++) {
            _arb_vec_zero(e, 6);
            arb_one(e + j);
            for (int i = 0; i < 9; i++) arb_set(col + i, arb_mat_entry(dz, i, j));
            svi_tangent(&c, z, col, e, e + 3, NULL, out, c.gamma ? out + 3 : NULL, prec);
            for (int i = 0; i < d; i++) arb_set(arb_mat_entry(D, i, j), out + i);
        }
        /* defect = D J(p_k) D^T - J(p_{k+1}) */
        svi_output(&c, p1, v, z, prec);
        if (c.gamma) tauT(p1 + 3, z + 6, v + 3, prec);
        _arb_vec_set(out, c.Pk, 3);
        _arb_vec_set(out + 3, c.Gk, 3);
        poisson_tensor(H, out, d);
        arb_mat_mul(T, D, H, prec);
        arb_mat_transpose(H, D);
        arb_mat_mul(D, T, H, prec);
        poisson_tensor(H, p1, d);
        arb_mat_sub(D, D, H, prec);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) arb_set(defect + d * i + j, arb_mat_entry(D, i, j));
    }
    ctx_clear(&c);
    _arb_vec_clear(z, 9);
    _arb_vec_clear(v, 15);
    _arb_vec_clear(e, 6);
    _arb_vec_clear(col, 9);
    _arb_vec_clear(zero, 9);
    _arb_vec_clear(out, 6);
    _arb_vec_clear(p1, 6);
    arb_mat_clear(Fz);
    arb_mat_clear(Fp);
    arb_mat_clear(dz);
    arb_mat_clear(D);
    arb_mat_clear(H);
    arb_mat_clear(T);
    return ok;
}

/* The form (slpi_registry_svi_form), svi_c and the output were checked by core's
 * validator, which lets the lp form run only on systems with a matrix form (every one
 * but the heavy top): that this system has its operations is an invariant. */
static int svi_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    if (slpi_view_solver(p)->fixed_iters > 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "svi: fixed_iters is not supported by the ref path (the "
                              "certified step is the exact solution)");
    if (SLPI_NEVER(slpi_registry_svi_form(p) == SLPI_SVI_FORM_LP && s->N == 0))
        return slpi_error_set(err, SLPI_EINPUT,
                              "svi: the lp form needs the matrix operations of a "
                              "compact quadratic group, which %s lacks (docs/systems.md#applicability)",
                              slpi_system_name(slpi_view_system(p)->system));
    return SLPI_OK;
}

static slpi_step_status svi_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                 size_t why_len)
{
    slpi_ref_time(s, 1, delta, prec); /* the midpoint velocity xi at t_n + h/2 */
    if (slpi_registry_svi_form(s->p) == SLPI_SVI_FORM_LP) return slpi_ref_svi_lp_step(s, x, delta, prec, why, why_len);
    return svi_vector_step(s, x, delta, prec, why, why_len);
}

const slpi_ref_scheme slpi_ref_scheme_svi = { SLPI_SCHEME_SVI, svi_check, svi_step, NULL };
