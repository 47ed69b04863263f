/* ref/rkmk.c — explicit stochastic RKMK: Lie–Euler and Heun (docs/schemes.md#rkmk [derived
 * extension]; RKMK §4, Definition 4.1, eqs. (21), (34)-(36)).
 * One file for the two members of this family: they share the stage recursion
 *   Theta_1 = 0, K_1 = sum_k Delta_k xi_k(mu_n),
 *   Theta_i = sum_{j<i} a_ij dexp^{-1,[q]}_{Theta_j}(K_j), K_i = sum_k Delta_k xi_k(O_exp(Theta_i; mu_n)),
 *   sigma = sum_j b_j dexp^{-1,[q]}_{Theta_j}(K_j), mu_{n+1} = O_exp(sigma; mu_n),
 * with dexp^{-1,[q]}_T(v) = sum_{j<=q} B+_j/j! L_T^j v (B+_1 = +1/2). LE: s = 1;
 * HEUN: a_21 = 1, b = (1/2, 1/2), q = p->dexp_order (default 0). Explicit: every
 * operation is a ball operation, so the output is certified without a solver. */
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "core/view-scheme.h"
#include "ref/vector-field.h"
#include "ref/scheme.h"
#include "core/check.h"

/* B+_j / j!, j = 0..8 */
static const long bern_num[9] = { 1, 1, 1, 0, -1, 0, 1, 0, -1 };
static const long bern_den[9] = { 1, 2, 12, 1, 720, 1, 30240, 1, 1209600 };
#define DEXP_QMAX 8

/* out = dexp^{-1,[q]}_T(v) */
static void dexpinv(const slpi_ref_system *s, arb_ptr out, arb_srcptr T, arb_srcptr v, int q, slong prec)
{
    int n = s->gdim;
    arb_ptr term = _arb_vec_init(n), next = _arb_vec_init(n);
    arb_t c;
    arb_init(c);
    _arb_vec_set(out, v, n);
    _arb_vec_set(term, v, n);
    for (int j = 1; j <= q; j++) {
        s->lie(s, next, T, term, prec);
        _arb_vec_swap(term, next, n);
        if (bern_num[j] == 0) continue;
        arb_set_si(c, bern_num[j]);
        arb_div_si(c, c, bern_den[j], prec);
        for (int i = 0; i < n; i++) arb_addmul(out + i, term + i, c, prec);
    }
    arb_clear(c);
    _arb_vec_clear(term, n);
    _arb_vec_clear(next, n);
}

static int rkmk_check_common(const slpi_ref_system *s, const char *name, slpi_error *err)
{
    const slpi_scheme_view *sch = slpi_view_scheme(s->p);
    int rc = slpi_ref_check_plain(s, name, err);
    /* slpi_ref_create validated the problem: dexp_order's key range is [0, 8] = [0, DEXP_QMAX] */
    if (rc == SLPI_OK && SLPI_NEVER(sch->dexp_order < 0 || sch->dexp_order > DEXP_QMAX))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: dexp_order=%d outside [0, %d]", name, sch->dexp_order, DEXP_QMAX);
    if (rc == SLPI_OK && sch->dexp_order > 0 && s->lie == NULL)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: dexp_order > 0 needs the bracket", name);
    return rc;
}

static int le_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    return rkmk_check_common(s, "rkmk-le", err);
}

static int heun_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    return rkmk_check_common(s, "rkmk-heun", err);
}

static slpi_step_status le_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                size_t why_len)
{
    (void)why;
    (void)why_len;
    arb_ptr mu = _arb_vec_init(s->dim), K1 = _arb_vec_init(s->gdim);
    _arb_vec_set(mu, x, s->dim);
    slpi_ref_time(s, 0, delta, prec); /* c = 0: t_n */
    slpi_ref_gen_sum(s, K1, delta, mu, prec);
    s->orbit(s, x, K1, mu, prec);
    _arb_vec_clear(mu, s->dim);
    _arb_vec_clear(K1, s->gdim);
    return SLPI_STEP_CONVERGED;
}

static slpi_step_status heun_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                  size_t why_len)
{
    (void)why;
    (void)why_len;
    int g = s->gdim, q = slpi_view_scheme(s->p)->dexp_order;
    arb_ptr mu = _arb_vec_init(s->dim), mu2 = _arb_vec_init(s->dim);
    arb_ptr K1 = _arb_vec_init(g), K2 = _arb_vec_init(g), T2 = _arb_vec_init(g), sigma = _arb_vec_init(g);
    _arb_vec_set(mu, x, s->dim);
    slpi_ref_time(s, 0, delta, prec); /* c_1 = 0: t_n */
    slpi_ref_gen_sum(s, K1, delta, mu, prec);
    _arb_vec_set(T2, K1, g); /* Theta_2 = dexp^{-1}_0(K_1) = K_1 */
    s->orbit(s, mu2, T2, mu, prec);
    slpi_ref_time(s, 2, delta, prec); /* c_2 = a_21 = 1: t_n + h */
    slpi_ref_gen_sum(s, K2, delta, mu2, prec);
    dexpinv(s, sigma, T2, K2, q, prec);
    _arb_vec_add(sigma, sigma, K1, g, prec);
    _arb_vec_scalar_mul_2exp_si(sigma, sigma, g, -1);
    s->orbit(s, x, sigma, mu, prec);
    _arb_vec_clear(mu, s->dim);
    _arb_vec_clear(mu2, s->dim);
    _arb_vec_clear(K1, g);
    _arb_vec_clear(K2, g);
    _arb_vec_clear(T2, g);
    _arb_vec_clear(sigma, g);
    return SLPI_STEP_CONVERGED;
}

const slpi_ref_scheme slpi_ref_scheme_rkmk_le = { SLPI_SCHEME_RKMK_LE, le_check, le_step, NULL };
const slpi_ref_scheme slpi_ref_scheme_rkmk_heun = { SLPI_SCHEME_RKMK_HEUN, heun_check, heun_step, NULL };
