/* ref/svi-lp.c — SVI-LP, the Cayley SVI scheme on a compact quadratic matrix group
 * (c = +1/4), certified (docs/schemes.md#svi-cayley, docs/schemes.md#svi-lp; SVI eqs. (28), (30), (41)).
 *
 * Unknown: the algebra element x = dt xi (skew-Hermitian, packed like the state). With
 * P = I + x/2, Q = I - x/2, tau = Q^{-1} P (Cayley):
 *   mu1 = A(x)^{-1} mu_k = P^{-1} mu_k Q^{-1},
 *   nu  = tau^{-1} mu_k tau = P^{-1} Q mu_k Q^{-1} P,   mu2 = A(x)^{-1} nu = P^{-1} nu Q^{-1},
 *   M = (mu1 + mu2)/2,  x = dt xi(M) = -1/2 sum_k Delta_k B_k(M)   (grad H_k = B_k^* = -B_k),
 * i.e. F(x) = x + 1/2 pack(sum_k Delta_k B_k(M(x))) = 0, Jacobian by differentiating
 * the same expressions (d P^{-1} = -P^{-1} dP P^{-1}); enclosed by the Krawczyk test.
 * Output in rotation form mu_{k+1} = tau^{-2} mu_k tau^2 = (tau^2)^* mu_k tau^2 (tau
 * unitary for the exact skew-Hermitian x). */
#include <stdio.h>
#include <stddef.h>
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "ref/matrix.h"
#include "ref/krawczyk.h"
#include "ref/scheme.h"

typedef struct {
    const slpi_ref_system *s;
    const double *delta;
    acb_mat_t mu;
} lp_ctx;

typedef struct {
    acb_mat_t X, P, Q, Pi, Qi, nu, M;
} lp_parts;

static void parts_init(lp_parts *t, int N)
{
    acb_mat_init(t->X, N, N);
    acb_mat_init(t->P, N, N);
    acb_mat_init(t->Q, N, N);
    acb_mat_init(t->Pi, N, N);
    acb_mat_init(t->Qi, N, N);
    acb_mat_init(t->nu, N, N);
    acb_mat_init(t->M, N, N);
}

static void parts_clear(lp_parts *t)
{
    acb_mat_clear(t->X);
    acb_mat_clear(t->P);
    acb_mat_clear(t->Q);
    acb_mat_clear(t->Pi);
    acb_mat_clear(t->Qi);
    acb_mat_clear(t->nu);
    acb_mat_clear(t->M);
}

/* out = A B C */
static void mul3(acb_mat_t out, const acb_mat_t A, const acb_mat_t B, const acb_mat_t C, slong prec)
{
    acb_mat_t T;
    acb_mat_init(T, acb_mat_nrows(A), acb_mat_ncols(B));
    acb_mat_mul(T, A, B, prec);
    acb_mat_mul(out, T, C, prec);
    acb_mat_clear(T);
}

/* all parts at x; 0 if P or Q is not provably invertible */
static int lp_eval(const lp_ctx *c, lp_parts *t, arb_srcptr x, slong prec)
{
    const slpi_ref_system *s = c->s;
    int N = s->N;
    acb_mat_t T;
    acb_mat_init(T, N, N);
    s->m_unpack(s, t->X, x, prec);
    acb_mat_scalar_mul_2exp_si(T, t->X, -1);
    acb_mat_one(t->P);
    acb_mat_add(t->P, t->P, T, prec);
    acb_mat_one(t->Q);
    acb_mat_sub(t->Q, t->Q, T, prec);
    int ok = acb_mat_inv(t->Pi, t->P, prec) && acb_mat_inv(t->Qi, t->Q, prec);
    if (ok) {
        mul3(T, t->Pi, t->Q, c->mu, prec); /* nu = P^{-1} Q mu Q^{-1} P */
        mul3(t->nu, T, t->Qi, t->P, prec);
        acb_mat_add(T, c->mu, t->nu, prec); /* M = P^{-1} (mu + nu) Q^{-1} / 2 */
        mul3(t->M, t->Pi, T, t->Qi, prec);
        acb_mat_scalar_mul_2exp_si(t->M, t->M, -1);
    }
    acb_mat_clear(T);
    return ok;
}

static void lp_F(void *ctx, arb_ptr out, arb_srcptr x, slong prec)
{
    const lp_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    lp_parts t;
    parts_init(&t, s->N);
    if (lp_eval(c, &t, x, prec)) {
        slpi_ref_mat_gen_sum(s, t.P, c->delta, t.M, prec);
        acb_mat_scalar_mul_2exp_si(t.P, t.P, -1);
        s->m_pack(s, out, t.P, prec);
        _arb_vec_add(out, out, x, s->dim, prec);
    } else {
        _arb_vec_indeterminate(out, s->dim);
    }
    parts_clear(&t);
}

static void lp_dF(void *ctx, arb_ptr out, arb_srcptr x, arb_srcptr w, slong prec)
{
    const lp_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    int N = s->N;
    lp_parts t;
    parts_init(&t, N);
    if (!lp_eval(c, &t, x, prec)) {
        _arb_vec_indeterminate(out, s->dim);
        parts_clear(&t);
        return;
    }
    acb_mat_t dX, dPi, dQi, dnu, dM, T, U;
    acb_mat_init(dX, N, N);
    acb_mat_init(dPi, N, N);
    acb_mat_init(dQi, N, N);
    acb_mat_init(dnu, N, N);
    acb_mat_init(dM, N, N);
    acb_mat_init(T, N, N);
    acb_mat_init(U, N, N);
    s->m_unpack(s, dX, w, prec);
    acb_mat_scalar_mul_2exp_si(dX, dX, -1); /* dP = dX/2, dQ = -dX/2 */
    mul3(dPi, t.Pi, dX, t.Pi, prec);
    acb_mat_neg(dPi, dPi);           /* d P^{-1} = -P^{-1} dP P^{-1} */
    mul3(dQi, t.Qi, dX, t.Qi, prec); /* d Q^{-1} = +Q^{-1} dX/2 Q^{-1} */
    /* dnu = dPi Q mu Qi P - Pi dX/2 mu Qi P + Pi Q mu dQi P + Pi Q mu Qi dX/2 */
    mul3(T, c->mu, t.Qi, t.P, prec); /* T = mu Qi P */
    mul3(dnu, dPi, t.Q, T, prec);
    mul3(U, t.Pi, dX, T, prec);
    acb_mat_sub(dnu, dnu, U, prec);
    mul3(T, t.Pi, t.Q, c->mu, prec); /* T = Pi Q mu */
    mul3(U, T, dQi, t.P, prec);
    acb_mat_add(dnu, dnu, U, prec);
    mul3(U, T, t.Qi, dX, prec);
    acb_mat_add(dnu, dnu, U, prec);
    /* dM = (dPi (mu+nu) Qi + Pi dnu Qi + Pi (mu+nu) dQi) / 2 */
    acb_mat_add(T, c->mu, t.nu, prec);
    mul3(dM, dPi, T, t.Qi, prec);
    mul3(U, t.Pi, T, dQi, prec);
    acb_mat_add(dM, dM, U, prec);
    mul3(U, t.Pi, dnu, t.Qi, prec);
    acb_mat_add(dM, dM, U, prec);
    acb_mat_scalar_mul_2exp_si(dM, dM, -1);
    slpi_ref_mat_dgen_sum(s, U, c->delta, t.M, dM, prec);
    acb_mat_scalar_mul_2exp_si(U, U, -1);
    s->m_pack(s, out, U, prec);
    _arb_vec_add(out, out, w, s->dim, prec);
    acb_mat_clear(dX);
    acb_mat_clear(dPi);
    acb_mat_clear(dQi);
    acb_mat_clear(dnu);
    acb_mat_clear(dM);
    acb_mat_clear(T);
    acb_mat_clear(U);
    parts_clear(&t);
}

/* The double path's iteration in x (fast/svi.c iterates M; x = -1/2 sum Delta_k B_k(M)
 * maps one sequence onto the other, from the guess below on): G(x) = x - F(x). */
static void lp_G(void *ctx, arb_ptr out, arb_srcptr x, slong prec)
{
    const lp_ctx *c = ctx;
    lp_F(ctx, out, x, prec);
    _arb_vec_sub(out, x, out, c->s->dim, prec);
}

static void lp_J(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec)
{
    const lp_ctx *c = ctx;
    slpi_ref_jacobian_columns(Jm, c->s->dim, ctx, lp_dF, Y, prec);
}

void slpi_ref_svi_lp_map(arb_ptr F, arb_ptr dF, arb_srcptr x, arb_srcptr w, arb_srcptr mu, const double *delta,
                         const slpi_ref_system *s, slong prec)
{
    lp_ctx c = { s, delta, { { 0 } } };
    acb_mat_init(c.mu, s->N, s->N);
    s->m_unpack(s, c.mu, mu, prec);
    if (F) lp_F(&c, F, x, prec);
    if (dF) lp_dF(&c, dF, x, w, prec);
    acb_mat_clear(c.mu);
}

int slpi_ref_svi_lp_argument(arb_ptr m, arb_srcptr x, arb_srcptr mu, const slpi_ref_system *s, slong prec)
{
    lp_ctx c = { s, NULL, { { 0 } } };
    lp_parts t;
    acb_mat_init(c.mu, s->N, s->N);
    s->m_unpack(s, c.mu, mu, prec);
    parts_init(&t, s->N);
    int ok = lp_eval(&c, &t, x, prec);
    if (ok) s->m_pack(s, m, t.M, prec);
    parts_clear(&t);
    acb_mat_clear(c.mu);
    return ok;
}

slpi_step_status slpi_ref_svi_lp_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                      size_t why_len)
{
    int N = s->N, n = s->dim, ok;
    lp_ctx c;
    c.s = s;
    c.delta = delta;
    acb_mat_init(c.mu, N, N);
    s->m_unpack(s, c.mu, x, prec);
    arb_ptr xs = _arb_vec_init(n), guess = _arb_vec_init(n);
    acb_mat_t B, T, U;
    acb_mat_init(B, N, N);
    acb_mat_init(T, N, N);
    acb_mat_init(U, N, N);
    slpi_ref_mat_gen_sum(s, B, delta, c.mu, prec); /* guess: -1/2 sum Delta_k B_k(mu_k) */
    acb_mat_scalar_mul_2exp_si(B, B, -1);
    acb_mat_neg(B, B);
    s->m_pack(s, guess, B, prec);
    slpi_ref_fn f = { n, &c, lp_F, lp_J, NULL };
    slpi_ref_fixmap g = { n, &c, lp_G, NULL, NULL, 0, NULL, NULL, 0 };
    ok = slpi_ref_krawczyk_designated(xs, &f, &g, guess, guess, prec, why, why_len);
    if (ok) {
        lp_parts t;
        parts_init(&t, N);
        ok = lp_eval(&c, &t, xs, prec);
        if (ok) {
            acb_mat_mul(T, t.Qi, t.P, prec); /* tau */
            acb_mat_mul(B, T, T, prec);      /* tau^2 */
            acb_mat_conjugate_transpose(U, B);
            mul3(T, U, c.mu, B, prec);
            s->m_pack(s, x, T, prec);
        } else {
            snprintf(why, why_len, "svi-lp: Cayley factors not provably invertible");
        }
        parts_clear(&t);
    }
    acb_mat_clear(c.mu);
    acb_mat_clear(B);
    acb_mat_clear(T);
    acb_mat_clear(U);
    _arb_vec_clear(xs, n);
    _arb_vec_clear(guess, n);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}
