/* ref/algebra.h — the algebra families of the certified path. The structure of each
 * family (docs/conventions.md#algebras) is in its own file ref/algebra-<family>.c, shared
 * by the built-in systems on it and ref/model.c (docs/models.md). Invariant 0 is H0, the
 * system's own; the Casimir functions fill invariants 1..n_inv-1, the name functions set their names in the
 * diagnostics' vocabulary (docs/architecture.md#twin-diagnostics), s->n_inv and the
 * algebra's departures (eig_dev where the spectrum is known) (s->dim and s->N set first). */
#ifndef SLPI_REF_ALGEBRA_H
#define SLPI_REF_ALGEBRA_H

#include "core/slpi-flint.h"
#include "ref/system.h"

/*   so(3), hat map (ref/algebra-so3.c): X = hat x; coad(b, x) = b × x;
 *     sandwich as the slpi_ref_system field. */
void slpi_ref_so3_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec);
void slpi_ref_so3_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec);
void slpi_ref_so3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec);
void slpi_ref_so3_m_sandwich(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y, arb_srcptr c,
                             slong prec);
void slpi_ref_so3_casimir_names(slpi_ref_system *s); /* casimir_norm2 = |x|^2; eig_dev */
/* eig_dev = | |x| - |x0| | (the eigenvalues of i hat(x) are -|x|, 0, |x|): out[0]. */
void slpi_ref_so3_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec);
/*   se(3) in (pi, gamma), dot pairing (ref/algebra-se3.c): the fields coad, lie, orbit, dorbit. */
void slpi_ref_se3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec);
void slpi_ref_se3_lie(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec);
void slpi_ref_se3_orbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma, arb_srcptr mu, slong prec);
void slpi_ref_se3_dorbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma, arb_srcptr dsigma, arb_srcptr mu,
                         arb_srcptr dmu, slong prec);
void slpi_ref_se3_casimir_names(slpi_ref_system *s); /* C1 = |gamma|^2, C2 = pi.gamma */
/*   so(n), X_ij for i < j row-major, n = s->N (ref/algebra-so.c): the Casimirs Tr X^{2k}
 *   and eigenvalues reported, at most these many. */
#define SLPI_REF_SO_MAX_CAS 5
#define SLPI_REF_SO_MAX_EIG 10
void slpi_ref_so_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec);
void slpi_ref_so_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec);
void slpi_ref_so_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_so_casimir_names(slpi_ref_system *s);
/*   su(N), packed as slpi_ref_sun_unpack below, N = s->N (ref/algebra-su.c). */
void slpi_ref_su_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_su_casimir_names(slpi_ref_system *s); /* and the departures below */
void slpi_ref_su_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec);
/*   so(3)^k = su(2)^k, x_1..x_k in R^3, blocks E(x_i) of size b: 2 (model A,
 *   E_c = -i sigma_c / sqrt2) or 3 (model B, hat) (ref/algebra-so3k.c). */
void slpi_ref_so3k_m_unpack(acb_mat_t X, arb_srcptr x, int k, int b, slong prec);
void slpi_ref_so3k_m_pack(arb_ptr x, const acb_mat_t X, int k, int b, slong prec);
void slpi_ref_so3k_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_so3k_casimir_names(slpi_ref_system *s); /* and eig_dev */

#endif
