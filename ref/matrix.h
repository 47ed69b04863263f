/* ref/matrix.h — the matrix-level helpers of the certified path (ref/matrix.c): a matrix
 * system's coordinate level, commutators, products, the rigorous exponential, traces and
 * eigenvalue enclosures. */
#ifndef SLPI_REF_MATRIX_H
#define SLPI_REF_MATRIX_H

#include "core/slpi-flint.h"
#include "ref/system.h"

/* Fill gen/dgen/coad/orbit/dorbit/lie of a matrix system from N, unpack, pack, mgen,
 * mdgen (gdim = dim: algebra elements are packed like the state); first, if the system
 * gives gen_packed, m_gen and m_dgen from it: B_k(X) = unpack(gen_packed(k, pack X)),
 * DB_k(X)[W] = unpack(gen_packed(k, pack X, pack W)). A system whose coordinate level
 * needs no matrices sets gen/dgen after the call (slpi_ref_packed_gen/dgen). */
void slpi_ref_matrix_attach(slpi_ref_system *s);
/* gen and dgen of the coordinate level straight from s->gen_packed. */
void slpi_ref_packed_gen(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec);
void slpi_ref_packed_dgen(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu, arb_srcptr w, slong prec);
/* B = sum_k delta_k B_k(X) and dB = sum_k delta_k DB_k(X)[W] (matrix level). */
void slpi_ref_mat_gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X, slong prec);
void slpi_ref_mat_dgen_sum(const slpi_ref_system *s, acb_mat_t dB, const double *delta, const acb_mat_t X,
                           const acb_mat_t W, slong prec);
/* su(N) packed layout of slpi.h (Im X_aa, then Re X_ab, Im X_ab for a < b):
 * x has N^2 entries; X is skew-Hermitian. */
void slpi_ref_sun_unpack(acb_mat_t X, arb_srcptr x, int N, slong prec);
void slpi_ref_sun_pack(arb_ptr x, const acb_mat_t X, int N, slong prec);
/* C = [A, B] = AB - BA (C must not alias A or B). */
void slpi_ref_mat_comm(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C = AB (no aliasing): from 24 x 24 on by four real products with Arb's arb_mat_mul
 * (block algorithm: exact integer midpoint products, radii in floating point), about
 * 2x faster than acb_mat_mul at N = 128; acb_mat_mul below. */
void slpi_ref_mat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C ~ AB from the midpoints of A and B, without an error bound (radii zero): three
 * real products (Gauss) with arb_mat_approx_mul. Only for approximate iterates
 * (midpoint iterations), never for an enclosure. */
void slpi_ref_mat_mul_approx(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C = P - P^* (C may alias P). For P = AB with A, B skew-Hermitian, (AB)^* = BA, so
 * C = [A, B]: the commutator of skew-Hermitian matrices from one product. Sound for
 * ball matrices every point of which is skew-Hermitian (the unpacked states and the
 * generators of a J-quadratic system). */
void slpi_ref_mat_skew_part(acb_mat_t C, const acb_mat_t P, slong prec);
/* C = [A, B] = AB - (AB)^* for skew-Hermitian A, B (as above); C must not alias. */
void slpi_ref_mat_comm_skew(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* Rigorous e^A for a ball matrix A (contains e^A for every A in the ball). */
void slpi_ref_mat_exp(acb_mat_t E, const acb_mat_t A, slong prec);
/* E = e^A and dE = d/dt e^{A + t W} at t = 0 (block-matrix exponential). */
void slpi_ref_mat_dexp(acb_mat_t E, acb_mat_t dE, const acb_mat_t A, const acb_mat_t W, slong prec);
/* Traces of powers for Casimirs: T[j] = Tr(X^(j+1)), j < kmax: the powers up to X^ceil(kmax/2)
 * (ceil(kmax/2) - 1 products), then Tr X^k = Tr(X^(k/2) X^(k - k/2)) by N dot products each. */
void slpi_ref_mat_trace_powers(acb_ptr T, const acb_mat_t X, int kmax, slong prec);
/* Sorted eigenvalue enclosures of the Hermitian iX for skew-Hermitian X (N x N, lam: N
 * balls). Returns 2 if isolated as simple eigenvalues, 1 if only enclosed as clusters
 * (acb_mat_eig_multiple; a run of overlapping balls gets their hull), 0 if Arb cannot
 * enclose them (lam is then indeterminate). */
int slpi_ref_mat_eig_skewh(arb_ptr lam, const acb_mat_t X, slong prec);

#endif
