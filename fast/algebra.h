/* fast/algebra.h — the algebra families of the double path, each in its own file
 * fast/algebra-<family>.c, shared by the built-in systems on it and fast/model.c
 * (docs/models.md), as ref/algebra.h on the certified path (docs/conventions.md#algebras):
 * so(3) (fast/algebra-so3.c), so(n) (fast/algebra-so.c), so(3)^k (fast/algebra-so3k.c) and
 * se(3) (fast/algebra-se3.c); su(n) is fast/sun.c's context (docs/architecture.md#twins).
 * A family's slot functions have the system table's signatures (fast/system.h); those of
 * so(n) and so(3)^k read their family's context as the first member of s->data (as
 * fast/sun.h's). Each family's Casimirs are named in the diagnostics' vocabulary
 * (docs/architecture.md#twin-diagnostics): the *_casimirs function adds the values at x,
 * the *_casimir_devs function their departures from x0 and the spectrum's (eig_dev). */
#ifndef SLPI_FAST_ALGEBRA_H
#define SLPI_FAST_ALGEBRA_H

typedef struct slpi_diag slpi_diag; /* slpi/diag.h */
#include "fast/cmplx.h"
#include "fast/so3.h"
#include "fast/system.h"

/*   so(3), hat map, mu = x (fast/algebra-so3.c): coad(xi, mu) = mu x xi, lie(a, b) = a x b,
 *   orbit R^T mu with R = exp(hat sigma); the matrix form one HAT block (3 doubles).
 *   slpi_fast_so3_fill_ops installs mdim, coad, orbit, lie, m_unpack, m_pack,
 *   m_comm_update, m_cay_conj and m_ainv; a system adds gen, dgen, m_gen_sum and
 *   m_isomp_iter. Casimir casimir_norm2 = |x|^2; departures casimir_norm2_dev, eig_dev. */
void slpi_fast_so3_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
void slpi_fast_so3_lie(const slpi_fast_system *s, double *out, const double *a, const double *b);
int slpi_fast_so3_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
void slpi_fast_so3_m_unpack(const slpi_fast_system *s, double *Y, const double *mu);
void slpi_fast_so3_m_pack(const slpi_fast_system *s, double *mu, const double *Y);
void slpi_fast_so3_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                 const double *Xn);
int slpi_fast_so3_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
int slpi_fast_so3_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
void slpi_fast_so3_fill_ops(slpi_fast_system *s);
void slpi_fast_so3_casimirs(slpi_diag *d, const double *x);
void slpi_fast_so3_casimir_devs(slpi_diag *d, const double *x, const double *x0);

/*   so(n), mu = X_ij for i < j row-major in the basis E_ij - E_ji (fast/algebra-so.c):
 *   coad(xi, X) = [X, xi], lie(a, b) = [a, b], orbit e^{-sigma} X e^{sigma}; the matrix form
 *   complex column-major n x n with zero imaginary parts (2 n^2 doubles, fast/dense.h's
 *   kernels). slpi_fast_so_fill_ops installs the slots so(3)'s does. Casimirs Tr X^{2k},
 *   k = 1..min(n/2, 5) (trX2..), and the largest min(n/2, 10) eigenvalues of iX
 *   (lambda_1..); their departures (_rel_dev, _dev) and eig_dev are against the x of the
 *   last slpi_fast_so_casimirs call, which keeps them. */
typedef struct {
    int n, d;                     /* n, d = n(n-1)/2 coordinates */
    double *A, *B, *C;            /* real n x n scratch (row-major) */
    double complex *Z1, *Z2, *Z3; /* complex n x n scratch */
    double *w;                    /* 2n: the spectra of iX at x and x0 */
    double tr[5];                 /* Tr X^{2k} at x */
    int bad;                      /* the eigensolver failed at x */
} slpi_fast_so;
int slpi_fast_so_init(slpi_fast_so *a, int n, slpi_error *err);
void slpi_fast_so_clear(slpi_fast_so *a);
void slpi_fast_so_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
void slpi_fast_so_lie(const slpi_fast_system *s, double *out, const double *a, const double *b);
int slpi_fast_so_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
void slpi_fast_so_m_unpack(const slpi_fast_system *s, double *Y, const double *mu);
void slpi_fast_so_m_pack(const slpi_fast_system *s, double *mu, const double *Y);
void slpi_fast_so_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                const double *Xn);
int slpi_fast_so_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
int slpi_fast_so_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
void slpi_fast_so_fill_ops(slpi_fast_system *s);
void slpi_fast_so_casimirs(slpi_fast_so *a, slpi_diag *d, const double *x);
void slpi_fast_so_casimir_devs(slpi_fast_so *a, slpi_diag *d, const double *x0);

/*   so(3)^k = su(2)^k, mu = (x_1..x_k), blocks under a matrix model of fast/so3.h: SU2A
 *   (E_c = -i sigma_c / sqrt2, bracket factor kappa = sqrt2) or HAT (kappa = 1)
 *   (fast/algebra-so3k.c): coad(xi, mu)_i = kappa mu_i x xi_i, lie(a, b) = coad(b, a),
 *   orbit R_i^T mu_i with R_i = exp(kappa hat sigma_i); the matrix form the 3-vector blocks
 *   (3k doubles). slpi_fast_so3k_fill_ops installs the slots so(3)'s does. Casimirs
 *   |x_i|^2 of the first min(k, 8) blocks (casimir_norm2_i); departures casimir_norm2_i_dev
 *   and eig_dev (block eigenvalues +-|x_i|/sqrt2 in SU2A, {0, +-|x_i|} in HAT). */
typedef struct {
    int n; /* k, the blocks */
    slpi_fast_block_model model;
    double kappa;
} slpi_fast_so3k;
void slpi_fast_so3k_init(slpi_fast_so3k *a, int n, slpi_fast_block_model model);
void slpi_fast_so3k_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
void slpi_fast_so3k_lie(const slpi_fast_system *s, double *out, const double *a, const double *b);
int slpi_fast_so3k_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
void slpi_fast_so3k_m_unpack(const slpi_fast_system *s, double *Y, const double *mu);
void slpi_fast_so3k_m_pack(const slpi_fast_system *s, double *mu, const double *Y);
void slpi_fast_so3k_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                  const double *Xn);
int slpi_fast_so3k_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
int slpi_fast_so3k_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X);
void slpi_fast_so3k_fill_ops(slpi_fast_system *s);
void slpi_fast_so3k_casimirs(const slpi_fast_so3k *a, slpi_diag *d, const double *x);
void slpi_fast_so3k_casimir_devs(const slpi_fast_so3k *a, slpi_diag *d, const double *x, const double *x0);

/*   se(3) in (pi, gamma), dot pairing (fast/algebra-se3.c): the slots coad, lie and orbit
 *   (the cancellation-free closed form; slpi_fast_se3_orbit_form with the key exp_form's
 *   variant: 0 that form, 1 textbook Rodrigues, 2 expm by scaling and squaring, 3 textbook
 *   Rodrigues with cos rounded one ulp up), and the Casimirs' diagnostics C1 = |gamma|^2,
 *   C2 = pi.gamma (slpi_fast_se3_casimir_devs: C1_dev, C2_dev against x0). */
void slpi_fast_se3_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
void slpi_fast_se3_lie(const slpi_fast_system *s, double *out, const double *u, const double *v);
int slpi_fast_se3_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
void slpi_fast_se3_orbit_form(double *out, const double *sigma, const double *mu, int exp_form);
void slpi_fast_se3_casimirs(slpi_diag *d, const double *x);
void slpi_fast_se3_casimir_devs(slpi_diag *d, const double *x, const double *x0);

#endif
