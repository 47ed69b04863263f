/* ref/tmk.c — TMK, the trapezoidal Munthe-Kaas scheme, certified (docs/schemes.md#tmk;
 * RKMK §4, eqs. (36)-(41), Algorithm 1).
 *
 * The step is the exact solution sigma of the TMK equation (eqs. (37)-(38))
 *     F(sigma) = sigma - G(sigma),  G(sigma) = sum_k Delta_k xi_k( 1/2 (mu_n + O_exp(sigma; mu_n)) ),
 * enclosed by the Jacobian-free Krawczyk test of the contraction G, or when G does
 * not contract enough by the dense Krawczyk test with Jacobian
 *     F'(sigma)[w] = w - sum_k Delta_k D xi_k(mbar)[ 1/2 D_sigma O_exp(sigma; mu_n)[w] ],
 * then mu_{n+1} = O_exp(sigma; mu_n). The chord iteration of eq. (41) is the solver of
 * the fast path, not part of the scheme; it defines the map only in fixed-iteration
 * mode (p->fixed_iters > 0), where exactly that many chord steps
 *     sigma <- sigma - D^{-1} r,  D v = v - 1/2 sum_k Delta_k D xi_k(mu_n)[ad*_v mu_n],
 * from sigma = 0 are evaluated in balls (the defined map is certified). */
#include <stdio.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "core/view-solver.h"
#include "ref/vector-field.h"
#include "ref/krawczyk.h"
#include "ref/scheme.h"

typedef struct {
    const slpi_ref_system *s;
    const double *delta;
    arb_srcptr mu;
} tmk_ctx;

/* mbar = 1/2 (mu + O_exp(sigma; mu)) */
static void midpoint(const tmk_ctx *c, arb_ptr mbar, arb_srcptr sigma, slong prec)
{
    const slpi_ref_system *s = c->s;
    s->orbit(s, mbar, sigma, c->mu, prec);
    _arb_vec_add(mbar, mbar, c->mu, s->dim, prec);
    _arb_vec_scalar_mul_2exp_si(mbar, mbar, s->dim, -1);
}

/* G(sigma) = sum_k Delta_k xi_k(mbar(sigma)): the TMK equation is sigma = G(sigma) */
static void tmk_G(void *ctx, arb_ptr out, arb_srcptr sigma, slong prec)
{
    const tmk_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    arb_ptr m = _arb_vec_init(s->dim);
    midpoint(c, m, sigma, prec);
    slpi_ref_gen_sum(s, out, c->delta, m, prec);
    _arb_vec_clear(m, s->dim);
}

/* G'(sigma)[w] = sum_k Delta_k Dxi_k(mbar)[1/2 D_sigma O_exp(sigma; mu)[w]] (w may be a
 * box of directions) */
static void tmk_dG(void *ctx, arb_ptr out, arb_srcptr sigma, arb_srcptr w, slong prec)
{
    const tmk_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    arb_ptr m = _arb_vec_init(s->dim), dm = _arb_vec_init(s->dim);
    midpoint(c, m, sigma, prec);
    s->dorbit(s, dm, sigma, w, c->mu, NULL, prec);
    _arb_vec_scalar_mul_2exp_si(dm, dm, s->dim, -1);
    slpi_ref_dgen_sum(s, out, c->delta, m, dm, prec);
    _arb_vec_clear(m, s->dim);
    _arb_vec_clear(dm, s->dim);
}

/* chord direction: D v = v - 1/2 sum_k Delta_k Dxi_k(mu_n)[coad(v, mu_n)] */
static void chord_dF(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr v, slong prec)
{
    const tmk_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    (void)Y;
    arb_ptr a = _arb_vec_init(s->dim);
    s->coad(s, a, v, c->mu, prec);
    slpi_ref_dgen_sum(s, out, c->delta, c->mu, a, prec);
    _arb_vec_scalar_mul_2exp_si(out, out, s->gdim, -1);
    _arb_vec_sub(out, v, out, s->gdim, prec);
    _arb_vec_clear(a, s->dim);
}

/* the chord matrix D as the approximate Jacobian (preconditioner) of the TMK equation */
static void chord_J(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec)
{
    const tmk_ctx *c = ctx;
    slpi_ref_jacobian_columns(Jm, c->s->gdim, ctx, chord_dF, y, prec);
}

/* exactly L chord iterations from sigma = 0, in balls; 0 if D is not provably invertible */
static int chord_fixed(const tmk_ctx *c, arb_ptr sigma, int L, slong prec)
{
    int n = c->s->gdim, ok = 1;
    arb_mat_t D, r, d;
    arb_mat_init(D, n, n);
    arb_mat_init(r, n, 1);
    arb_mat_init(d, n, 1);
    arb_ptr res = _arb_vec_init(n);
    chord_J((void *)c, D, sigma, prec);
    _arb_vec_zero(sigma, n);
    for (int l = 0; l < L && ok; l++) {
        tmk_G((void *)c, res, sigma, prec);
        _arb_vec_sub(res, sigma, res, n, prec); /* r = F(sigma) */
        for (int i = 0; i < n; i++) arb_set(arb_mat_entry(r, i, 0), res + i);
        ok = arb_mat_solve(d, D, r, prec);
        for (int i = 0; i < n && ok; i++) arb_sub(sigma + i, sigma + i, arb_mat_entry(d, i, 0), prec);
    }
    _arb_vec_clear(res, n);
    arb_mat_clear(D);
    arb_mat_clear(r);
    arb_mat_clear(d);
    return ok;
}

static int tmk_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    return slpi_ref_check_plain(s, "tmk", err);
}

static slpi_step_status tmk_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                 size_t why_len)
{
    int n = s->gdim, ok;
    arb_ptr mu = _arb_vec_init(s->dim), sigma = _arb_vec_init(n), guess = _arb_vec_init(n);
    _arb_vec_set(mu, x, s->dim);
    slpi_ref_time(s, 1, delta, prec); /* t_n + h/2: the t of the mean (mu_n + mu_{n+1})/2 */
    tmk_ctx c = { s, delta, mu };
    if (slpi_view_solver(s->p)->fixed_iters > 0) {
        ok = chord_fixed(&c, sigma, slpi_view_solver(s->p)->fixed_iters, prec);
        if (!ok) snprintf(why, why_len, "tmk: chord matrix not provably invertible");
    } else {
        /* Jacobian-free test of the contraction G first, the dense test otherwise */
        slpi_ref_fixmap g = { n, &c, tmk_G, tmk_dG, NULL, 0, NULL, NULL, 0 };
        slpi_ref_gen_sum(s, guess, delta, mu, prec);
        ok = slpi_ref_solve(sigma, &g, NULL, chord_J, guess, prec, why, why_len);
    }
    if (ok) s->orbit(s, x, sigma, mu, prec);
    _arb_vec_clear(mu, s->dim);
    _arb_vec_clear(sigma, n);
    _arb_vec_clear(guess, n);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}

const slpi_ref_scheme slpi_ref_scheme_tmk = { SLPI_SCHEME_TMK, tmk_check, tmk_step, NULL };
