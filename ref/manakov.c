/* ref/manakov.c — the Manakov (generalized rigid body) system on so(n) in balls
 * (docs/systems.md#manakov; ISO §6.2, eqs. (36)-(37)).
 *   (I X)_ij = c_ij X_ij, c_ij = the 1-based row-major index of (i, j), i < j;
 *   H0 = sum_{i<j} X_ij^2 / c_ij, B_0 = -I^{-1} X (dX = [X, I^{-1} X]);
 *   noise: one per pair (i<j), B_ij = -amp X_ij (E_ij - E_ji);
 *   Casimirs Tr X^{2k}, k = 1..floor(n/2) (at most 5 reported), and the spectrum
 *   +-i lambda_j as certified enclosures lambda_1 >= lambda_2 >= ... (at most 10;
 *   acb_mat_eig_simple through slpi_ref_mat_eig_skewh; indeterminate if Arb cannot
 *   separate them).
 * State: X_ij for i < j row-major. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-system.h"
#include "ref/algebra.h"
#include "ref/matrix.h"
#include <math.h>
#include <stddef.h>

/* b = pack(B) with B = -(weight) X entrywise on the pairs selected: k = 0 all pairs with
 * 1/c_ij; k >= 1 only pair k-1 with amp. Linear in X, so the derivative along w is the
 * same map applied to w. */
static void mk_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec)
{
    arb_srcptr x = w != NULL ? w : mu;
    arb_t c;
    arb_init(c);
    _arb_vec_zero(b, s->dim);
    for (int idx = 0; idx < s->dim; idx++) {
        if (k == 0) {
            arb_set_si(c, -1);
            arb_div_si(c, c, idx + 1, prec);
        } else if (k - 1 == idx) {
            arb_set_d(c, slpi_view_system(s->p)->mk.amp);
            arb_neg(c, c);
        } else {
            continue;
        }
        arb_mul(b + idx, x + idx, c, prec);
    }
    arb_clear(c);
}

/* sum_k delta_k B_k(X) (W == NULL) or sum_k delta_k DB_k(X)[W] entry by entry, O(n^2):
 * the generic sum of ref/matrix.c forms each of the M + 1 = n(n-1)/2 + 1 generators as a
 * full matrix, O(n^4), the cost of a so(n) step from n = 32 on. Per pair the same Arb
 * operations in the same order (the drift's x/c_ij then the pair's own noise term), so
 * the same balls. */
static void mk_m_gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X,
                         const acb_mat_t W, slong prec)
{
    const acb_mat_struct *V = W != NULL ? W : X;
    int n = s->N, idx = 0;
    arb_t c, t, d;
    arb_init(c);
    arb_init(t);
    arb_init(d);
    acb_mat_zero(B);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, idx++) {
            arb_srcptr x = acb_realref(acb_mat_entry(V, i, j));
            arb_ptr b = acb_realref(acb_mat_entry(B, i, j));
            for (int k = 0; k <= 1; k++) {
                int kk = k == 0 ? 0 : idx + 1; /* the drift, then pair idx's noise */
                if ((k == 1 && s->M == 0) || delta[kk] == 0) continue;
                if (k == 0) {
                    arb_set_si(c, -1);
                    arb_div_si(c, c, idx + 1, prec);
                } else {
                    arb_set_d(c, slpi_view_system(s->p)->mk.amp);
                    arb_neg(c, c);
                }
                arb_mul(t, x, c, prec);
                arb_set_d(d, delta[kk]);
                arb_addmul(b, t, d, prec);
            }
            arb_neg(acb_realref(acb_mat_entry(B, j, i)), b);
        }
    arb_clear(c);
    arb_clear(t);
    arb_clear(d);
}

static void mk_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    arb_t t;
    arb_init(t);
    arb_zero(out);
    for (int idx = 0; idx < s->dim; idx++) {
        arb_sqr(t, x + idx, prec);
        arb_div_si(t, t, idx + 1, prec);
        arb_add(out, out, t, prec);
    }
    arb_clear(t);
    slpi_ref_so_casimirs(s, out, x, prec);
}

int slpi_ref_sys_manakov(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    if (sys->mk.n < 3 || sys->mk.n > 64)
        return slpi_error_set(err, SLPI_EINPUT, "manakov: n=%d outside [3, 64]", sys->mk.n);
    if (!isfinite(sys->mk.amp)) return slpi_error_set(err, SLPI_EINPUT, "manakov: amp must be finite");
    int n = sys->mk.n;
    s->p = p;
    s->N = n;
    s->dim = s->state_dim = n * (n - 1) / 2;
    s->M = sys->mk.noise ? s->dim : 0;
    s->h0_quadratic = 1;
    s->m_unpack = slpi_ref_so_m_unpack;
    s->m_pack = slpi_ref_so_m_pack;
    s->gen_packed = mk_gen_packed;
    slpi_ref_matrix_attach(s);
    s->m_gen_sum = mk_m_gen_sum;
    s->invariants = mk_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_rel[0] = 1;
    slpi_ref_so_casimir_names(s);
    return SLPI_OK;
}
