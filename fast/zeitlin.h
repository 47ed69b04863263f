/* zeitlin.h — internal: the Euler–Zeitlin discretisation data of su(N) for the double
 * path (docs/systems.md#euler-zeitlin): Hoppe–Yau Laplacian per diagonal, O(N^2) Poisson solve, the
 * quantized harmonics T_lm (eigenvectors of the tridiagonal L_m), the real
 * skew-Hermitian basis Y_alpha and the coefficient maps omega <-> X.
 *
 * Matrices are N x N complex, column-major: element (a, b) at X[a + N*b].
 * Real-basis index: alpha = l*l - 1 + j, l = 1..N-1, j = 0..2l, with
 * j = 0 -> Y_l0 = i T_l0, j = 2m-1 -> Y^c_lm, j = 2m -> Y^s_lm (m = 1..l).
 */
#ifndef SLPI_FAST_ZEITLIN_H
#define SLPI_FAST_ZEITLIN_H

#include "fast/cmplx.h"
#include <stddef.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */

typedef struct {
    int N;
    double shift; /* the solve is of Delta_N - shift (shift >= 0: kappa^2 of the Zeitlin family) */
    size_t *off;  /* off[d]: start of diagonal d (d = 0..N-1) in the per-diagonal arrays */
    double *ld;   /* L_d diagonal, n_d = N - d entries */
    double *le;   /* L_d off-diagonal beta_a beta_{a+d}, n_d - 1 entries (slot n_d-1 = 0) */
    /* Thomas factorisation of L_d (d = 0: of its trailing block 1..N-1) as symmetric N x N
     * matrices indexed like the entries: entry a of diagonal d, (a, a+d) and (a+d, a), has
     * off-diagonal te = beta_a beta_{a+d}, tc and tinv */
    double *te, *tc, *tinv;
    int lmax;     /* the degrees built: V_d for d <= lmax, its columns of l > lmax zero */
    size_t *voff; /* voff[d]: start of V_d (n_d x n_d, column-major; none for d > lmax) in vec */
    double *vec;  /* column k of V_d = (T_{d+k, d})_{a+d, a}, a = 0..n_d-1 */
    /* The modal pass's parity blocks (slpi_fast_zeitlin_modal_init; plmin = 0: none).
     * L_d is persymmetric, so column k of V_d is symmetric (k even) or antisymmetric (k odd)
     * under a -> n_d-1-a. Block (d, p), p = k mod 2, holds the columns k >= plmin - d of
     * parity p, column-major, on rows a = 0..ceil(n_d/2)-1 (p = 0) or floor(n_d/2)-1
     * (p = 1), symmetrized: (v_a + v_{n-1-a})/2 resp. (v_a - v_{n-1-a})/2. */
    int plmin;
    size_t *poff; /* poff[2d + p]: start of block (d, p) in pvec; poff[2N]: total */
    double *pvec;
} slpi_fast_zeitlin;

/* Build all of the above for N >= 2 (LAPACK dstevr per diagonal, O(N^3) total, ~N^3/3
 * doubles). _init_degrees: the basis of the degrees l <= lmax only: V_d of the diagonals
 * d <= lmax (O(lmax N^2) time and memory), its columns of higher degrees zero, so that
 * every map below forms the same products, and writes the same bits, as with the whole
 * basis where the coefficients of those degrees are zero; _degrees grows it to l <= lmax
 * (no-op if built). The maps read higher degrees as 0 and add nothing of them: the caller
 * grows the basis to the degrees it uses (slpi_fast_zeitlin_modal_init to all). Returns
 * SLPI_OK, or SLPI_EINPUT / SLPI_ENUMERIC with a message. */
int slpi_fast_zeitlin_init(slpi_fast_zeitlin *z, int N, slpi_error *err);
int slpi_fast_zeitlin_init_degrees(slpi_fast_zeitlin *z, int N, int lmax, slpi_error *err);
int slpi_fast_zeitlin_degrees(slpi_fast_zeitlin *z, int lmax, slpi_error *err);
void slpi_fast_zeitlin_clear(slpi_fast_zeitlin *z);

/* Number of real-basis elements, N^2 - 1, and the index of (l, j). */
static inline int slpi_fast_zeitlin_alpha(int l, int j)
{
    return l * l - 1 + j;
}

/* t_a = (T_lm)_{a+m, a}, a = 0..N-1-m (0 <= m <= l <= N-1), sign: last entry > 0. */
const double *slpi_fast_zeitlin_harmonic(const slpi_fast_zeitlin *z, int l, int m);

/* out = Delta_N P for a general complex P (per-diagonal tridiagonal form). */
void slpi_fast_zeitlin_laplacian(double complex *out, const double complex *P, const slpi_fast_zeitlin *z);

/* Make the Poisson solve below that of Delta_N - shift (shift >= 0, finite: SLPI_OK, else
 * SLPI_EINPUT), the spectral multiplier -l(l+1) - shift (docs/systems.md#zeitlin-family):
 * the Thomas factors refactored, O(N^2). The basis and the Laplacian stay Delta_N's. */
int slpi_fast_zeitlin_set_shift(slpi_fast_zeitlin *z, double shift);

/* P = c (Delta_N - shift)^{-1} (X - Tr(X)/N I), the traceless solution, for a general
 * complex X; O(N^2): Thomas per diagonal; on d = 0 with shift 0 a pinned solve, then the
 * mean removed. P != X. */
void slpi_fast_zeitlin_poisson(double complex *P, const double complex *X, double c, const slpi_fast_zeitlin *z);

/* omega_alpha = Re Tr(Y_alpha^* X) for every alpha (N^2 - 1 values). */
void slpi_fast_zeitlin_analysis(double *omega, const double complex *X, const slpi_fast_zeitlin *z);

/* X = sum_alpha omega_alpha Y_alpha (X overwritten). */
void slpi_fast_zeitlin_synthesis(double complex *X, const double *omega, const slpi_fast_zeitlin *z);

/* A single basis element: omega_alpha(X) = Re Tr(Y_alpha^* X), and X += c Y_alpha; O(N). */
double slpi_fast_zeitlin_coeff(const double complex *X, int alpha, const slpi_fast_zeitlin *z);
void slpi_fast_zeitlin_add_mode(double complex *X, int alpha, double c, const slpi_fast_zeitlin *z);
/* Degree l of alpha. */
int slpi_fast_zeitlin_degree(int alpha);

/* Build the parity blocks of the degrees l >= lmin (lmin >= 1) for the modal pass: about
 * half the storage of the V_m columns they cover. SLPI_OK or SLPI_EINPUT (out of memory). */
int slpi_fast_zeitlin_modal_init(slpi_fast_zeitlin *z, int lmin, slpi_error *err);

/* The modal noise field: out += sum over alpha with l >= lmin of w_alpha c_alpha Y_alpha,
 * with c_alpha = Re Tr(Y_alpha^* Y) if Y != NULL (reading Q), else c_alpha = 1 (reading L).
 * w is indexed by alpha - (lmin^2 - 1). Per diagonal, O(N^3) in all: through the parity
 * blocks when slpi_fast_zeitlin_modal_init built them for this lmin (each coefficient from
 * half a vector: half the flops and the memory traffic), else through V_m. */
void slpi_fast_zeitlin_modal(double complex *out, const double *w, const double complex *Y, int lmin,
                             const slpi_fast_zeitlin *z);

#endif
