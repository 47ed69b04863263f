/* zeitlin.h — internal interface of the certified Euler–Zeitlin mathematics on su(N)
 * (docs/systems.md#euler-zeitlin; ISO, §6.4, eqs. (40)–(44)), in Arb balls: the Laplacian,
 * its inverse and H0 in ref/zeitlin-laplacian.c, the harmonics and the real basis in
 * ref/zeitlin-basis.c, the BLAS route's tables in ref/zeitlin-mr.c.
 *
 * Conventions (docs/systems.md#euler-zeitlin):
 *   s = (N-1)/2, m_a = -s + a (a = 0..N-1), beta_a = sqrt((a+1)(N-1-a)).
 *   Per-diagonal Laplacian L_d (diagonal d = b - a >= 0, entries p_a = P_{a,a+d}):
 *     diagonal -2(s(s+1) - m_a m_{a+d}), off-diagonal beta_a beta_{a+d}.
 *   Quantized harmonics T_lm, real, supported on (T_lm)_{a+m,a} = t_a (m >= 0), the
 *   eigenvectors of L_m for -l(l+1), sign: last component positive.
 *   Real basis Y_alpha, alpha = l^2 - 1 + j (l = 1..N-1, j = 0..2l):
 *     j = 0: Y_l0 = i T_l0;  j = 2m-1: (A - A^T)/sqrt2;  j = 2m: i(A + A^T)/sqrt2,
 *     A = T_lm; orthonormal for the Frobenius pairing Re Tr(Y^* X).
 *   Packed state (slpi.h) <-> matrix: slpi_ref_sun_pack/unpack of ref/matrix.h.
 * Every function is rigorous: its output balls contain the exact values for the exact
 * inputs contained in its input balls. */
#ifndef SLPI_REF_ZEITLIN_H
#define SLPI_REF_ZEITLIN_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "core/slpi-flint.h"
#include "ref/vec.h"
#include "ref/mrmat.h"

/* The certified path covers N = 2..1024 (the double path's range), N > 512 on the
 * BLAS route only: the T_lm tables as balls (z->V, about N^3/3 of them) took 4.0 GB
 * resident at N = 512, about 32 GB at N = 1024, beyond this machine's 23 GB; the BLAS
 * route's tables hold N^3/6 doubles (half of each table, the other half its mirror
 * image) and one radius per table (1.4 GB at N = 1024). */
#define SLPI_ZEITLIN_NMAX 1024
#define SLPI_ZEITLIN_ARB_NMAX 512

typedef struct {
    int N;
    slong prec;          /* precision the tables were built at */
    arb_ptr *ldiag;      /* ldiag[d][a], a = 0..N-1-d: diagonal of L_d */
    arb_ptr *loff;       /* loff[d][a], a = 0..N-2-d: beta_a beta_{a+d} */
    arb_ptr *tw;         /* tw[d]: Thomas factors of L_d - shift (d = 0, shift 0: L_0 on 1..N-1), 2(N-d) */
    arb_t shift;         /* the Poisson solve is of Delta_N - shift (kappa^2; 0 at init) */
    arb_mat_struct *V;   /* V[m]: (N-m) x (N-m), column l-m = t of T_lm; NULL until
                          * slpi_ref_zeitlin_harmonics */
    arb_t sqrt2, rsqrt2; /* sqrt(2), 1/sqrt(2) */
    double **twd;        /* twd[d]: tw[d] and loff[d] as doubles for slpi_ref_zeitlin_poisson_mr
                          * (slpi_ref_zeitlin_factors_mr, on demand),
                          * [mid tw (2n) | rad tw (2n) | mid loff (n) | rad loff (n)], n = N - d;
                          * NULL where a part is beyond the double range */
} slpi_ref_zeitlin;

/* Build the Laplacian's tables at precision prec, O(N^2) balls; V = NULL. N in
 * 2..SLPI_ZEITLIN_NMAX. */
int slpi_ref_zeitlin_init(slpi_ref_zeitlin *z, int N, slong prec, slpi_error *err);
void slpi_ref_zeitlin_clear(slpi_ref_zeitlin *z);
/* The T_lm tables z->V at z->prec (a no-op once built), which the Arb transforms below
 * read: SLPI_EINPUT for N > SLPI_ZEITLIN_ARB_NMAX, SLPI_ENUMERIC if a table fails
 * (impossible, slpi_ref_zeitlin_table). _clear frees them (V = NULL). */
int slpi_ref_zeitlin_harmonics(slpi_ref_zeitlin *z, slpi_error *err);
void slpi_ref_zeitlin_harmonics_clear(slpi_ref_zeitlin *z);
/* V ((N-m) x (N-m)) = the table of the T_lm, l = m..N-1, at precision prec, as exact null
 * vectors of L_m + l(l+1) (an integer recurrence), normalised; 0 if one were not. */
int slpi_ref_zeitlin_table(arb_mat_t V, int N, int m, slong prec);

/* Index helpers: alpha <-> (l, j); dimension N^2 - 1 of su(N). */
static inline int slpi_ref_zeitlin_alpha(int l, int j)
{
    return l * l - 1 + j;
}
int slpi_ref_zeitlin_degree(int alpha);

/* (T_lm)_ab by the Racah formula in exact arithmetic (any m, |m| <= l); 0 off support.
 * The sign is the 3j sign, not the basis sign. */
void slpi_ref_zeitlin_threej(arb_t out, int N, int l, int m, int a, int b, slong prec);
/* Column l-m of out ((N-m) x (N-m)) = t of T_lm, from certified eigenvectors of L_m
 * (acb_mat_eig_simple), normalised to unit norm, last component positive.
 * Returns 0 if Arb cannot certify the eigenvectors at this precision. */
int slpi_ref_zeitlin_eigbasis(arb_mat_t out, const slpi_ref_zeitlin *z, int m, slong prec);

/* Hoppe–Yau Laplacian: per-diagonal (entrywise) form, and sum_k [S_k,[S_k,P]]. */
void slpi_ref_zeitlin_laplacian(acb_mat_t out, const acb_mat_t P, const slpi_ref_zeitlin *z, slong prec);
void slpi_ref_zeitlin_laplacian_spin(acb_mat_t out, const acb_mat_t P, int N, slong prec);

/* Full matrices of T_lm (0 <= m <= l, basis sign) and of Y_alpha. */
void slpi_ref_zeitlin_harmonic(acb_mat_t T, const slpi_ref_zeitlin *z, int l, int m);
void slpi_ref_zeitlin_basis(acb_mat_t Y, const slpi_ref_zeitlin *z, int alpha);

/* omega[alpha] = Re Tr(Y_alpha^* X), alpha = 0..N^2-2 (X skew-Hermitian); one or all. */
void slpi_ref_zeitlin_coeff(arb_t w, const acb_mat_t X, int alpha, const slpi_ref_zeitlin *z, slong prec);
void slpi_ref_zeitlin_analysis(arb_ptr omega, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec);
/* X = sum_{alpha >= alpha0} c[alpha - alpha0] Y_alpha. */
void slpi_ref_zeitlin_synthesis(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin *z, slong prec);

/* Make the Poisson solve below that of Delta_N - shift, shift >= 0 (kappa^2 of the Zeitlin
 * family, docs/systems.md#zeitlin-family): the Thomas factors refactored, O(N^2). */
void slpi_ref_zeitlin_set_shift(slpi_ref_zeitlin *z, const arb_t shift, slong prec);

/* P = (Delta_N - shift)^{-1} (X - Tr(X)/N I): trace removal, per-diagonal Thomas solves,
 * d = 0 with shift 0 pinned at p_0 = 0, then the mean subtracted. X skew-Hermitian
 * (diagonal read as i Im). */
void slpi_ref_zeitlin_poisson(acb_mat_t P, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec);

/* H0 = -1/2 Re Tr(((Delta - shift)^{-1} X)^* X). */
void slpi_ref_zeitlin_h0(arb_t H, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec);

/* The transforms on the BLAS route (ref/zeitlin-mr.c, docs/design.md#blas-route): the
 * tables V_m as doubles with one radius per table, built once table by table from
 * slpi_ref_zeitlin_table (0 if a part is beyond the double range or out of memory); X
 * from its coefficients alpha >= alpha0 as the Arb synthesis above, and the noise's
 * generator sum (analysis, weights, synthesis), each product enclosed by
 * slpi_ref_mrmat_gemm_table. 0 (outputs undefined) where the route cannot enclose. */
typedef struct {
    int N;
    double **mid; /* mid[m]: the halves of V_m (n = N - m, h = ceil(n/2)), row-major: rows 0..h-1
                     * of its even columns (h x ceil(n/2)), then of its odd ones (h x floor(n/2));
                     * row n-1-a of column c is (-1)^c times row a (ref/zeitlin-mr.c) */
    double *rad;  /* rad[m] >= the distance of every entry of mid[m] from the exact V_m */
    double *nrm;  /* nrm[2m], nrm[2m+1] >= the 2-norm of every row and column of the even and odd
                     * halves (about 1/sqrt2 and 1) */
} slpi_ref_zeitlin_mr;
int slpi_ref_zeitlin_mr_init(slpi_ref_zeitlin_mr *t, int N);
void slpi_ref_zeitlin_mr_clear(slpi_ref_zeitlin_mr *t);
/* The halves of V_m (odd = 0: the even columns, 1: the odd ones), and the midpoint of
 * entry (a, c) of V_m unfolded from them (ref/zeitlin-mr-tables.c) */
double *slpi_ref_zeitlin_mr_half(const slpi_ref_zeitlin_mr *t, int m, int odd);
double slpi_ref_zeitlin_mr_entry(const slpi_ref_zeitlin_mr *t, int m, int a, int c);
/* z->twd from z->tw and z->loff where it is NULL (a no-op once made; set_shift and
 * clear free it); NULL on failure */
void slpi_ref_zeitlin_factors_mr(slpi_ref_zeitlin *z);
/* slpi_ref_zeitlin_poisson in midpoint–radius doubles (ref/mrmat.h's scalar arithmetic on
 * the factors z->twd): P encloses (Delta_N - shift)^{-1} (X - Tr(X)/N I) for every X in
 * the balls. 0 (P undefined) where z->twd is NULL or a part of X is beyond the double
 * range. */
int slpi_ref_zeitlin_poisson_mr(acb_mat_t P, const acb_mat_t X, const slpi_ref_zeitlin *z);
/* The same on the route's doubles (P, X: N x N complex, c = 2, P's arrays allocated by
 * the caller), from one evaluation of the step's map to the next without balls; P->rad
 * NULL: P's midpoints alone, the same bits, X's radii not read. */
int slpi_ref_zeitlin_poisson_dd(slpi_ref_mr *P, const slpi_ref_mr *X, const slpi_ref_zeitlin *z);
/* T = sum_{alpha >= alpha0} w_alpha omega_alpha(X) Y_alpha, the noise (Q)'s generator sum,
 * for every w in the balls <wm, wr> (indexed alpha - alpha0) and X in its balls: the
 * analysis and the synthesis on the tables, the factors s_m of the two cancelling
 * exactly, the products w omega in midpoint–radius doubles. noise_dd with T->rad NULL:
 * T's midpoints alone, the same bits, no radius formed or read (wr and X's). */
int slpi_ref_zeitlin_noise_mr(acb_mat_t T, const acb_mat_t X, int alpha0, const double *wm, const double *wr,
                              const slpi_ref_zeitlin_mr *t);
int slpi_ref_zeitlin_noise_dd(slpi_ref_mr *T, const slpi_ref_mr *X, int alpha0, const double *wm, const double *wr,
                              const slpi_ref_zeitlin_mr *t);
/* The weights -delta_k a_l of the noise (Q) (component k = 1..M at alpha[k-1], a_l the balls
 * a[l]) per alpha - alpha0 as midpoint–radius doubles: nal = N^2 - 1 - alpha0 mids, then nal
 * radii (malloc'd); NULL where a ball is beyond the double range. */
double *slpi_ref_zeitlin_noise_weights_mr(const double *delta, int M, const int *alpha, int alpha0, arb_srcptr a,
                                          int N);
/* B = delta0 ((Delta_N - shift)^{-1} V - G) + sum_{alpha >= alpha0} w_alpha omega_alpha(V) Y_alpha
 * (G NULL: no G; w NULL: no noise; else its nal mids then nal radii) on the route's doubles,
 * in the order of ref/euler-zeitlin.c's generator sum on balls (z->twd made); 0 where it
 * cannot. B->rad NULL: B's midpoints alone, the same bits, no radius formed or read. */
int slpi_ref_zeitlin_gen_sum_dd(slpi_ref_mr *B, const slpi_ref_mr *V, double delta0, const slpi_ref_mr *G,
                                const double *w, int alpha0, const slpi_ref_zeitlin *z, const slpi_ref_zeitlin_mr *t);
/* rho[2m] >= ||M_m||_inf and rho[2m + 1] >= the 2-norm of every row of M_m = V_m diag(w) V_m^T
 * on every diagonal m = 0..N-1 and part (w = <wm, wr> indexed by alpha, every table and weight
 * in their balls): how far the weighted sum below can move an entry of diagonal m per unit
 * of the input's largest radius there, and of the radii's 2-norm. O(N^4 / 4) flops, once
 * per weights. 0 where the route cannot enclose. */
int slpi_ref_zeitlin_weights_norm_mr(double *rho, const double *wm, const double *wr, const slpi_ref_zeitlin_mr *t);
/* The centred form of a linear map M of X given by its norms rho per diagonal (as above): Xm =
 * the midpoints of X's analysed lower part (exact, or where dbl the nearest doubles), r[2m]
 * and r[2m + 1] the largest radius of X's diagonal m (the distance from Xm included) and
 * the sum of their squares, rounded up; 0 where a radius is beyond the double range. */
int slpi_ref_zeitlin_centre(acb_mat_t Xm, double *r, const acb_mat_t X, int dbl);
/* P = M Xm widened to M X: on every entry of diagonal m the lesser of rho[2m] r[2m] and
 * rho[2m + 1] sqrt(r[2m + 1]); 0 where that is beyond the double range. */
int slpi_ref_zeitlin_centred_error(acb_mat_t P, const double *r, const double *rho);
/* slpi_ref_zeitlin_noise_mr (alpha0 = 0) in that centred form: the analysis and synthesis of
 * a ball bound its radius by about |V_m| |V_m^T| r, n r; the centred form by
 * ||V_m diag(w) V_m^T||_inf r (the multiplier's L^{-1}: about r / 4). */
int slpi_ref_zeitlin_weighted_mr(acb_mat_t P, const acb_mat_t X, const double *wm, const double *wr, const double *rho,
                                 const slpi_ref_zeitlin_mr *t);
/* P = sum_alpha omega_alpha(X) / lam[l] Y_alpha in Arb (the multiplier's solve off the BLAS
 * route): in the centred form above where rho (the norms of the weights 1/lam) is given,
 * else the analysis and synthesis of the ball X. */
void slpi_ref_zeitlin_divided(acb_mat_t P, const acb_mat_t X, arb_srcptr lam, const double *rho,
                              const slpi_ref_zeitlin *z, slong prec);
/* The weights 1/lam[l] per alpha as midpoint–radius doubles, mids at [alpha], radii at
 * [N^2 - 1 + alpha] (malloc'd); NULL where a ball is beyond the double range. */
double *slpi_ref_zeitlin_weights_mr(arb_srcptr lam, int N, slong prec);
int slpi_ref_zeitlin_synthesis_mr(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin_mr *t,
                                  const slpi_ref_zeitlin *z, slong prec);

#endif
