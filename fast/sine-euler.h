/* sine-euler.h — internal: the sine-Euler (Zeitlin torus) basis of su(N), N odd, for
 * the double path (docs/systems.md#sine-euler; RKMK paper §6, eqs. (46)–(55)).
 *
 * Modes m = (m1, m2) in {-K..K}^2 \ {0}, K = (N-1)/2, eps = 2 pi / N; indices are reduced
 * mod N into {-K..K}. J_m = e^{i eps m1 m2} g^{m1} h^{m2} with g = diag(q^a), q = e^{2 i eps},
 * h e_b = e_{(b-1) mod N}: (J_m)_{a, a+m2 mod N} = e^{i eps (m1 m2 + 2 a m1)}; T_m = i/(2 eps) J_m.
 * Fourier coefficients omega_m of W = sum omega_m T_m are complex, stored by mode index
 * (slpi_fast_sine_euler_mode: lexicographic m1 = -K..K, then m2 = -K..K, the zero mode
 * skipped); W is skew-Hermitian iff omega_{-m} = conj(omega_m).
 * Matrices are complex column-major N x N.
 */
#ifndef SLPI_FAST_SINE_EULER_H
#define SLPI_FAST_SINE_EULER_H

#include "fast/cmplx.h"

typedef struct slpi_error slpi_error; /* slpi/errors.h */

typedef struct {
    int N, K, nm; /* nm = N^2 - 1 modes */
    double eps;
} slpi_fast_sine_euler_basis;

/* N odd, 3 <= N; SLPI_EINPUT otherwise. */
int slpi_fast_sine_euler_basis_init(slpi_fast_sine_euler_basis *b, int N, slpi_error *err);

/* Mode index of (m1, m2) after reduction mod N, or -1 for the zero mode; and back. */
int slpi_fast_sine_euler_mode(const slpi_fast_sine_euler_basis *b, int m1, int m2);
void slpi_fast_sine_euler_mode_of(const slpi_fast_sine_euler_basis *b, int index, int *m1, int *m2);

/* X += c T_m (mode index k). */
void slpi_fast_sine_euler_add(const slpi_fast_sine_euler_basis *b, int k, double complex c, double complex *X);

/* Fourier I/O: W = sum omega_m T_m, and omega_m = (4 eps^2 / N) Tr(T_m^* W). */
void slpi_fast_sine_euler_from_fourier(const slpi_fast_sine_euler_basis *b, const double complex *omega,
                                       double complex *W);
void slpi_fast_sine_euler_to_fourier(const slpi_fast_sine_euler_basis *b, const double complex *W,
                                     double complex *omega);

/* P += c sum_m psi_m T_m with psi_m = -omega_m(W) / |m|^2 (stream matrix, c = 1: P(W)). */
void slpi_fast_sine_euler_stream(const slpi_fast_sine_euler_basis *b, double c, const double complex *W,
                                 double complex *P);

/* Closed forms in the coefficients (docs/systems.md#sine-euler): h = N/(8 eps^2) sum |omega_m|^2/|m|^2,
 * C2 = Tr W^2 = -N/(4 eps^2) sum |omega_m|^2, and
 * Tr W^3 = -i N/(8 eps^3) sum_{a,b, a+b != 0} cos(eps a^b) omega_a omega_b omega_{-(a+b)}. */
double slpi_fast_sine_euler_energy(const slpi_fast_sine_euler_basis *b, const double complex *omega);
double slpi_fast_sine_euler_c2(const slpi_fast_sine_euler_basis *b, const double complex *omega);
double complex slpi_fast_sine_euler_tr3(const slpi_fast_sine_euler_basis *b, const double complex *omega);

#endif
