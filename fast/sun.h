/* sun.h — internal: su(N)/u(N) skew-Hermitian kernels shared by the Euler–Zeitlin and
 * sine-Euler system files of the double path (docs/conventions.md#algebras, docs/conventions.md#sde, docs/schemes.md#isomp ISOMP iteration).
 *
 * Private matrix representation (fast/system.h MATRIX FORM): a complex column-major N x N
 * matrix, mdim = 2 N^2 doubles. Coordinates mu (fast/system.h COORDINATES) are the core packed
 * layout (slpi.h): Im X_aa, then for a < b row-major Re X_ab, Im X_ab; as a basis of
 * u(N) these are i E_aa, E_ab - E_ba, i (E_ab + E_ba), Frobenius-orthogonal, and
 * packing a general matrix returns the coefficients of its orthogonal projection onto
 * u(N) (its skew-Hermitian part).
 *
 * A system context starts with an slpi_fast_sun (first member), whose m_gen_sum callback gives
 * Psi(Y) = sum_k delta_k B_k(Y) and gen callback one xi_k; slpi_fast_sun_fill_ops then installs
 * gen, dgen, gen_sum, coad, lie, orbit and every m_* operation of fast/system.h.
 */
#ifndef SLPI_FAST_SUN_H
#define SLPI_FAST_SUN_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_diag slpi_diag;   /* slpi/diag.h */
#include "fast/cmplx.h"

#include "fast/system.h"

typedef struct slpi_fast_sun slpi_fast_sun;

struct slpi_fast_sun {
    int N;
    /* Psi = sum_k delta_k B_k(Y) for a general (not necessarily traceless) Y. */
    void (*m_gen_sum)(slpi_fast_sun *u, const double *delta, const double complex *Y, double complex *Psi);
    /* xi_k = -B_k evaluated at X (derivative = 0), or its derivative along X (derivative
     * = 1). Both systems' generators are linear or constant in mu, so the derivative at any
     * mu is the linear part evaluated at the direction. */
    void (*gen)(slpi_fast_sun *u, int k, const double complex *X, int derivative, double complex *out);
    double complex *w[4]; /* N x N scratch matrices */
    int nblk;             /* column blocks of the skew-Hermitian triangle product */
    int m3;               /* products by zgemm3m (1) or zgemm (0): slpi_blas_zproduct */
    /* The diagnostics' spectra (slpi_fast_sun_diagnostics): the current state's (slot 0) and
     * the initial state's (slot 1), each with the matrix it was computed from, so that a
     * state met again is not decomposed again. Allocated on first use. */
    struct {
        double complex *X;
        double *lam;
        double complex tr[7];
        int rc, valid;
    } spec[2];
};

int slpi_fast_sun_init(slpi_fast_sun *u, int N,
                       void (*m_gen_sum)(slpi_fast_sun *, const double *, const double complex *, double complex *),
                       void (*gen)(slpi_fast_sun *, int, const double complex *, int, double complex *),
                       slpi_error *err);
void slpi_fast_sun_clear(slpi_fast_sun *u);

void slpi_fast_sun_unpack(double complex *X, const double *x, int N);
void slpi_fast_sun_pack(double *x, const double complex *X, int N);

/* One ISOMP fixed-point map for skew-Hermitian Psi, Xn, Y (docs/schemes.md#isomp step 1):
 * Ynew = Xn + [Psi,Y]/2 + Psi Y Psi/4 with one full zgemm (G = Psi Y, [Psi,Y] = G - G^*)
 * and one upper block-triangle zgemm (Psi Y Psi = G Psi is skew-Hermitian), in one fused
 * pass that also returns ||Ynew - Y||_max and *ynorm = ||Ynew||_max (over the doubles).
 * Ynew is exactly skew-Hermitian when Xn is.
 *
 * After the call G stays in u->w[0], from which m_isomp_comm_last forms the COMM update
 * Xn + G - G^* of the last iterate without a further Poisson solve and GEMM. */
double slpi_fast_sun_isomp(slpi_fast_sun *u, double complex *Ynew, double *ynorm, const double complex *Psi,
                           const double complex *Xn, const double complex *Y);

/* Install gen, dgen, gen_sum, coad, lie, orbit and the m_* operations
 * (mdim = 2N^2); s->data must start with an initialised slpi_fast_sun. */
void slpi_fast_sun_fill_ops(slpi_fast_system *s);

/* Invariants of a skew-Hermitian X: ascending eigenvalues lam of iX (N doubles), and
 * tr[k] = Tr X^k for k = 0..6 from the eigenvalues (Tr X^k = sum (-i lam)^k).
 * Returns 0 or SLPI_ENUMERIC (zheev failure). */
int slpi_fast_sun_spectrum(double *lam, double complex tr[7], const double complex *X, int N);

/* The su(N) diagnostics (docs/architecture.md#twin-diagnostics), those of the certified
 * path's su(N) systems: C2 = Tr X^2, C3 = Im Tr X^3, then for SLPI_SUN_DIAG_SU (Euler-Zeitlin
 * and su(n) models; ref/euler-zeitlin.c) TrX = Im Tr X and, by N, every eigenvalue lambda_k
 * of iX (N <= 12), or C4 = Tr X^4 with lambda_1 and lambda_N (N <= 16), or C4, C5 = Im Tr X^5,
 * C6 = Tr X^6; for SLPI_SUN_DIAG_SE (sine-Euler; ref/sine-euler.c) every lambda_k if N <= 12.
 * Then C4 if not listed, and abs_trace = |Tr X|. With X0 each listed invariant's departure
 * (C2 and C3 relative, the others absolute: NAME_rel_dev, NAME_dev) and eig_dev =
 * max_k |lam_k - lam0_k|. X, X0: unpacked states. Each call decomposes X unless its
 * bits are those of the state last decomposed in either slot, and X0 likewise: one zheev a
 * row, none for the first row after the set-up's. */
enum { SLPI_SUN_DIAG_SE, SLPI_SUN_DIAG_SU };
void slpi_fast_sun_diagnostics(slpi_fast_sun *u, slpi_diag *d, const double complex *X, const double complex *X0,
                               int shape);

#endif
