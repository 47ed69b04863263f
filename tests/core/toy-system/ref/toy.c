/* ref/toy.c — the toy on so(3) in balls (core/system-toy.c): the matrix system X = hat(x)
 * with generators B_k = -hat(g_k(x)), g_0 = x, g_1 = amp e3, so that dx = sum_k x × g_k
 * o dS^k. The certified twin of fast/toy.c; the template of a new built-in system
 * (tests/core/t-toy-system.sh inserts it). */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-system.h"
#include "ref/algebra.h"
#include "ref/matrix.h"

/* b_k = pack(B_k) = -g_k(mu), or its derivative along w */
static void toy_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec)
{
    _arb_vec_zero(b, 3);
    if (k == 0)
        _arb_vec_neg(b, w ? w : mu, 3);
    else if (w == NULL)
        arb_set_d(b + 2, -slpi_view_system(s->p)->toy.amp);
    (void)prec;
}

static void toy_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    (void)s;
    arb_dot(out + 0, NULL, 0, x, 1, x, 1, 3, prec); /* H0 = x.x */
    arb_set(out + 1, out + 0);                      /* |x|^2 */
}

int slpi_ref_sys_toy(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)err;
    s->p = p;
    s->dim = 3;
    s->state_dim = 3;
    s->M = 1;
    s->h0_quadratic = 1;
    s->N = 3;
    s->m_unpack = slpi_ref_so3_m_unpack;
    s->m_pack = slpi_ref_so3_m_pack;
    s->gen_packed = toy_gen_packed;
    slpi_ref_matrix_attach(s);
    s->gen = slpi_ref_packed_gen;
    s->dgen = slpi_ref_packed_dgen;
    s->coad = slpi_ref_so3_coad;
    s->m_sandwich = slpi_ref_so3_m_sandwich;
    s->invariants = toy_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_rel[0] = 1;
    slpi_ref_so3_casimir_names(s);
    return SLPI_OK;
}
