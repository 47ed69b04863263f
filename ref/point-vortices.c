/* ref/point-vortices.c — point vortices on S^2, su(2)^n, in balls (docs/systems.md#point-vortices, docs/conventions.md#hat-maps;
 * ISO §6.3, eqs. (38)-(39) with E-I5, E-I6).
 *   X = diag(X_1..X_n), X_i = E(x_i): model A E(v) = sum_k v_k E_k, E_k = -i/sqrt2 sigma_k
 *   (orthonormal, Frobenius); model B E(v) = hat(v) (Frobenius gradient = hat(grad)/2);
 *   H0 = -1/(4 pi) sum_{i<j} log(1 - c_ij), c_ij = x_i.x_j / (|x_i||x_j|), Gamma_i = 1;
 *   g_i = dH0/dx_i = 1/(4 pi) sum_{j != i} (x_j/(n_i n_j) - c_ij x_i/n_i^2)/(1 - c_ij);
 *   B_0 block i = -E(g_i) (A) or -E(g_i/2) (B); noise k = 1..3 (shared):
 *   B_k block i = -amp x_ik E(e_k) (both models).
 * Invariants |x_i|^2 (block eigenvalues) and H0. State x_1..x_n in R^3. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-system.h"
#include "ref/algebra.h"
#include "ref/matrix.h"
#include <math.h>
#include <stddef.h>

static int blk(const slpi_ref_system *s)
{
    return slpi_view_system(s->p)->pv.model == SLPI_VORTEX_MODEL_A ? 2 : 3;
}

static void pv_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_so3k_m_unpack(X, x, slpi_view_system(s->p)->pv.n, blk(s), prec);
}

static void pv_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_so3k_m_pack(x, X, slpi_view_system(s->p)->pv.n, blk(s), prec);
}

/* v -= t x (3-vectors) */
static void vec3_submul(arb_ptr v, arb_srcptr x, slong n, const arb_t t, slong prec)
{
    for (slong i = 0; i < n; i++) arb_submul(v + i, x + i, t, prec);
}

/* g = grad H0 (dx != NULL: its derivative in direction dx instead) */
static void h0_grad(const slpi_ref_system *s, arb_ptr g, arb_srcptr x, arb_srcptr dx, slong prec)
{
    int n = slpi_view_system(s->p)->pv.n;
    arb_t ni, nj, dni, dnj, c, dc, t, u, q, pi4;
    arb_init(ni);
    arb_init(nj);
    arb_init(dni);
    arb_init(dnj);
    arb_init(c);
    arb_init(dc);
    arb_init(t);
    arb_init(u);
    arb_init(q);
    arb_init(pi4);
    arb_ptr term = _arb_vec_init(3), dterm = _arb_vec_init(3);
    _arb_vec_zero(g, 3 * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            arb_srcptr xi = x + 3 * i, xj = x + 3 * j;
            arb_dot(ni, NULL, 0, xi, 1, xi, 1, 3, prec);
            arb_sqrt(ni, ni, prec);
            arb_dot(nj, NULL, 0, xj, 1, xj, 1, 3, prec);
            arb_sqrt(nj, nj, prec);
            arb_mul(q, ni, nj, prec); /* q = n_i n_j */
            arb_dot(c, NULL, 0, xi, 1, xj, 1, 3, prec);
            arb_div(c, c, q, prec);
            /* term = (x_j / q - c x_i / n_i^2) / (1 - c) */
            _arb_vec_scalar_div(term, xj, 3, q, prec);
            arb_sqr(t, ni, prec);
            arb_div(t, c, t, prec);
            vec3_submul(term, xi, 3, t, prec);
            arb_sub_ui(u, c, 1, prec);
            arb_neg(u, u); /* u = 1 - c */
            _arb_vec_scalar_div(term, term, 3, u, prec);
            if (dx == NULL) {
                _arb_vec_add(g + 3 * i, g + 3 * i, term, 3, prec);
                continue;
            }
            arb_srcptr wi = dx + 3 * i, wj = dx + 3 * j;
            arb_dot(dni, NULL, 0, xi, 1, wi, 1, 3, prec);
            arb_div(dni, dni, ni, prec);
            arb_dot(dnj, NULL, 0, xj, 1, wj, 1, 3, prec);
            arb_div(dnj, dnj, nj, prec);
            /* dc = (w_i.x_j + x_i.w_j)/q - c (dn_i/n_i + dn_j/n_j) */
            arb_dot(dc, NULL, 0, wi, 1, xj, 1, 3, prec);
            arb_dot(dc, dc, 0, xi, 1, wj, 1, 3, prec);
            arb_div(dc, dc, q, prec);
            arb_div(t, dni, ni, prec);
            arb_div(u, dnj, nj, prec);
            arb_add(t, t, u, prec);
            arb_submul(dc, c, t, prec);
            /* d(x_j/q) = w_j/q - x_j (dn_i/n_i + dn_j/n_j)/q */
            _arb_vec_scalar_div(dterm, wj, 3, q, prec);
            arb_div(u, t, q, prec);
            vec3_submul(dterm, xj, 3, u, prec);
            /* d(c x_i/n_i^2) = (dc x_i + c w_i)/n_i^2 - 2 c x_i dn_i/n_i^3 */
            arb_sqr(u, ni, prec);
            arb_div(t, dc, u, prec);
            vec3_submul(dterm, xi, 3, t, prec);
            arb_div(t, c, u, prec);
            vec3_submul(dterm, wi, 3, t, prec);
            arb_mul(t, t, dni, prec);
            arb_div(t, t, ni, prec);
            arb_mul_2exp_si(t, t, 1);
            _arb_vec_scalar_addmul(dterm, xi, 3, t, prec);
            /* d(num/(1-c)) = dnum/(1-c) + term dc/(1-c) */
            arb_sub_ui(u, c, 1, prec);
            arb_neg(u, u);
            _arb_vec_scalar_div(dterm, dterm, 3, u, prec);
            arb_div(t, dc, u, prec);
            _arb_vec_scalar_addmul(dterm, term, 3, t, prec);
            _arb_vec_add(g + 3 * i, g + 3 * i, dterm, 3, prec);
        }
    arb_const_pi(pi4, prec);
    arb_mul_2exp_si(pi4, pi4, 2);
    _arb_vec_scalar_div(g, g, 3 * n, pi4, prec);
    arb_clear(ni);
    arb_clear(nj);
    arb_clear(dni);
    arb_clear(dnj);
    arb_clear(c);
    arb_clear(dc);
    arb_clear(t);
    arb_clear(u);
    arb_clear(q);
    arb_clear(pi4);
    _arb_vec_clear(term, 3);
    _arb_vec_clear(dterm, 3);
}

/* generator vectors v_i (B block i = -E(v_i)); dx != NULL: derivative */
static void gen_vectors(const slpi_ref_system *s, int k, arb_ptr v, arb_srcptr x, arb_srcptr dx, slong prec)
{
    int n = slpi_view_system(s->p)->pv.n;
    if (k == 0) {
        h0_grad(s, v, x, dx, prec);
        if (blk(s) == 3) _arb_vec_scalar_mul_2exp_si(v, v, 3 * n, -1);
        return;
    }
    arb_t a;
    arb_init(a);
    arb_set_d(a, slpi_view_system(s->p)->pv.amp);
    _arb_vec_zero(v, 3 * n);
    arb_srcptr src = dx != NULL ? dx : x;
    for (int i = 0; i < n; i++) arb_mul(v + 3 * i + (k - 1), src + 3 * i + (k - 1), a, prec);
    arb_clear(a);
}

/* b_k = pack(B_k) = -(the generator vectors), the matrix generators' packed form */
static void pv_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec)
{
    gen_vectors(s, k, b, mu, w, prec);
    _arb_vec_neg(b, b, 3 * slpi_view_system(s->p)->pv.n);
}

static void pv_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    int n = slpi_view_system(s->p)->pv.n;
    arb_t ni, nj, c, pi4;
    arb_init(ni);
    arb_init(nj);
    arb_init(c);
    arb_init(pi4);
    arb_zero(out);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            arb_dot(ni, NULL, 0, x + 3 * i, 1, x + 3 * i, 1, 3, prec);
            arb_dot(nj, NULL, 0, x + 3 * j, 1, x + 3 * j, 1, 3, prec);
            arb_mul(ni, ni, nj, prec);
            arb_sqrt(ni, ni, prec);
            arb_dot(c, NULL, 0, x + 3 * i, 1, x + 3 * j, 1, 3, prec);
            arb_div(c, c, ni, prec);
            arb_sub_ui(c, c, 1, prec);
            arb_neg(c, c);
            arb_log(c, c, prec);
            arb_add(out, out, c, prec);
        }
    arb_const_pi(pi4, prec);
    arb_mul_2exp_si(pi4, pi4, 2);
    arb_div(out, out, pi4, prec);
    arb_neg(out, out);
    arb_clear(ni);
    arb_clear(nj);
    arb_clear(c);
    arb_clear(pi4);
    slpi_ref_so3k_casimirs(s, out, x, prec);
}

int slpi_ref_sys_point_vortices(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    if (sys->pv.n < 2 || sys->pv.n > 64)
        return slpi_error_set(err, SLPI_EINPUT, "point-vortices: n=%d outside [2, 64]", sys->pv.n);
    if (!isfinite(sys->pv.amp)) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: amp must be finite");
    s->p = p;
    s->dim = s->state_dim = 3 * sys->pv.n;
    s->M = sys->pv.noise ? 3 : 0;
    s->h0_quadratic = 0;
    s->N = blk(s) * sys->pv.n;
    s->m_unpack = pv_m_unpack;
    s->m_pack = pv_m_pack;
    s->gen_packed = pv_gen_packed;
    slpi_ref_matrix_attach(s);
    s->invariants = pv_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_rel[0] = 1;
    slpi_ref_so3k_casimir_names(s);
    return SLPI_OK;
}
