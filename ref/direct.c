/* ref/direct.c — IM-DIRECT and TRAP-DIRECT, the two baselines applied directly to the
 * mu equation (docs/schemes.md#direct; RKMK §§1, 5, 6), certified. They share
 * one definition in docs/schemes.md#direct and differ only in where V is evaluated:
 *   IM:   F(y) = y - mu_n - V(1/2 (mu_n + y)),            F'(y)[w] = w - 1/2 DV(1/2(mu_n+y))[w];
 *   TRAP: F(y) = y - mu_n - 1/2 (V(mu_n) + V(y)),         F'(y)[w] = w - 1/2 DV(y)[w];
 * with V = sum_k Delta_k V_k (ref/vector-field.c). The zero y = mu_{n+1}, a fixed point of
 * G = y - F, is enclosed by the Jacobian-free Krawczyk test of G, or when G does not
 * contract enough by the dense Krawczyk test; in fixed-iteration mode (p->fixed_iters = L > 0) the defined map is
 * L fixed-point sweeps y <- G(y) from y = mu_n, evaluated in balls. */
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
    arb_ptr vmu; /* TRAP: V(mu_n) */
    int trap;
} direct_ctx;

/* the point where V (and DV) is evaluated */
static void eval_point(const direct_ctx *c, arb_ptr z, arb_srcptr y, slong prec)
{
    int n = c->s->dim;
    if (c->trap) {
        _arb_vec_set(z, y, n);
        return;
    }
    _arb_vec_add(z, c->mu, y, n, prec);
    _arb_vec_scalar_mul_2exp_si(z, z, n, -1);
}

/* G(y) = mu_n + V(1/2 (mu_n + y)) (IM) or mu_n + 1/2 (V(mu_n) + V(y)) (TRAP) */
static void direct_G(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    const direct_ctx *c = ctx;
    int n = c->s->dim;
    arb_ptr z = _arb_vec_init(n);
    eval_point(c, z, y, prec);
    slpi_ref_vf(c->s, out, c->delta, z, prec);
    if (c->trap) {
        _arb_vec_add(out, out, c->vmu, n, prec);
        _arb_vec_scalar_mul_2exp_si(out, out, n, -1);
    }
    _arb_vec_add(out, out, c->mu, n, prec);
    _arb_vec_clear(z, n);
}

/* G'(y)[w] = 1/2 DV(z)[w] at the evaluation point z (w may be a box of directions) */
static void direct_dG(void *ctx, arb_ptr out, arb_srcptr y, arb_srcptr w, slong prec)
{
    const direct_ctx *c = ctx;
    int n = c->s->dim;
    arb_ptr z = _arb_vec_init(n);
    eval_point(c, z, y, prec);
    slpi_ref_dvf(c->s, out, c->delta, z, w, prec);
    _arb_vec_scalar_mul_2exp_si(out, out, n, -1);
    _arb_vec_clear(z, n);
}

static slpi_step_status direct_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                    size_t why_len, int trap)
{
    int n = s->dim, ok = 1;
    arb_ptr mu = _arb_vec_init(n), vmu = _arb_vec_init(n), y = _arb_vec_init(n), r = _arb_vec_init(n);
    _arb_vec_set(mu, x, n);
    slpi_ref_time(s, trap ? 0 : 1, delta, prec); /* TRAP: V(mu_n) at t_n; IM: all at t_n + h/2 */
    slpi_ref_vf(s, vmu, delta, mu, prec);
    if (trap) slpi_ref_time(s, 2, delta, prec); /* TRAP: V(mu_{n+1}) at t_n + h */
    direct_ctx c = { s, delta, mu, vmu, trap };
    if (slpi_view_solver(s->p)->fixed_iters > 0) {
        _arb_vec_set(y, mu, n);
        for (int l = 0; l < slpi_view_solver(s->p)->fixed_iters; l++) {
            direct_G(&c, r, y, prec);
            _arb_vec_swap(y, r, n);
        }
    } else {
        slpi_ref_fixmap g = { n, &c, direct_G, direct_dG, NULL, 0, NULL, NULL, 0 };
        _arb_vec_add(r, mu, vmu, n, prec); /* guess: explicit Euler */
        ok = slpi_ref_solve(y, &g, NULL, NULL, r, prec, why, why_len);
    }
    if (ok) _arb_vec_set(x, y, n);
    _arb_vec_clear(mu, n);
    _arb_vec_clear(vmu, n);
    _arb_vec_clear(y, n);
    _arb_vec_clear(r, n);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}

static slpi_step_status im_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                size_t why_len)
{
    return direct_step(s, x, delta, prec, why, why_len, 0);
}

static slpi_step_status trap_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                  size_t why_len)
{
    return direct_step(s, x, delta, prec, why, why_len, 1);
}

static int im_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    return slpi_ref_check_plain(s, "im-direct", err);
}

static int trap_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    return slpi_ref_check_plain(s, "trap-direct", err);
}

const slpi_ref_scheme slpi_ref_scheme_im_direct = { SLPI_SCHEME_IM_DIRECT, im_check, im_step, NULL };
const slpi_ref_scheme slpi_ref_scheme_trap_direct = { SLPI_SCHEME_TRAP_DIRECT, trap_check, trap_step, NULL };
