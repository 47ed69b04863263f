/* sine-euler-basis.c — the Zeitlin torus basis J_m, T_m of su(N), N odd, its Fourier
 * coefficient maps, the stream matrix and the Casimir closed forms, double path
 * (docs/systems.md#sine-euler; RKMK paper §6, eqs. (46)–(55), erratum E-R14).
 */
#include "slpi/errors.h"
#include "fast/sine-euler.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define SE_PI 3.14159265358979323846

typedef double complex cplx;

int slpi_fast_sine_euler_basis_init(slpi_fast_sine_euler_basis *b, int N, slpi_error *err)
{
    memset(b, 0, sizeof *b);
    if (N < 3 || N % 2 == 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "sine-euler: N = %d must be odd and at least 3 (docs/systems.md#sine-euler)", N);
    b->N = N;
    b->K = (N - 1) / 2;
    b->nm = N * N - 1;
    b->eps = 2.0 * SE_PI / N;
    return SLPI_OK;
}

static int se_reduce(int N, int m)
{
    int K = (N - 1) / 2, r = ((m % N) + N) % N;
    return r > K ? r - N : r;
}

int slpi_fast_sine_euler_mode(const slpi_fast_sine_euler_basis *b, int m1, int m2)
{
    int N = b->N, K = b->K;
    int raw = (se_reduce(N, m1) + K) * N + (se_reduce(N, m2) + K), zero = K * N + K;
    return raw == zero ? -1 : raw < zero ? raw : raw - 1;
}

void slpi_fast_sine_euler_mode_of(const slpi_fast_sine_euler_basis *b, int index, int *m1, int *m2)
{
    int N = b->N, K = b->K, raw = index < K * N + K ? index : index + 1;
    *m1 = raw / N - K;
    *m2 = raw % N - K;
}

/* Entry (a, a + m2 mod N) of T_m: i/(2 eps) e^{i eps (m1 m2 + 2 a m1)}. */
static cplx se_entry(const slpi_fast_sine_euler_basis *b, int m1, int m2, int a)
{
    long ph = ((long)m1 * m2 + 2L * a * m1) % b->N; /* eps N = 2 pi */
    double t = b->eps * (double)ph;
    return I / (2.0 * b->eps) * CMPLX(cos(t), sin(t));
}

void slpi_fast_sine_euler_add(const slpi_fast_sine_euler_basis *b, int k, cplx c, cplx *X)
{
    int N = b->N, m1, m2;
    slpi_fast_sine_euler_mode_of(b, k, &m1, &m2);
    for (int a = 0; a < N; a++) {
        int col = ((a + m2) % N + N) % N;
        X[a + (size_t)N * col] += c * se_entry(b, m1, m2, a);
    }
}

void slpi_fast_sine_euler_from_fourier(const slpi_fast_sine_euler_basis *b, const cplx *omega, cplx *W)
{
    memset(W, 0, (size_t)b->N * b->N * sizeof *W);
    for (int k = 0; k < b->nm; k++) slpi_fast_sine_euler_add(b, k, omega[k], W);
}

static cplx se_coef(const slpi_fast_sine_euler_basis *b, int k, const cplx *W)
{
    int N = b->N, m1, m2;
    slpi_fast_sine_euler_mode_of(b, k, &m1, &m2);
    cplx s = 0;
    for (int a = 0; a < N; a++) {
        int col = ((a + m2) % N + N) % N;
        s += conj(se_entry(b, m1, m2, a)) * W[a + (size_t)N * col];
    }
    return s * (4.0 * b->eps * b->eps / N);
}

void slpi_fast_sine_euler_to_fourier(const slpi_fast_sine_euler_basis *b, const cplx *W, cplx *omega)
{
    for (int k = 0; k < b->nm; k++) omega[k] = se_coef(b, k, W);
}

static double se_norm2(const slpi_fast_sine_euler_basis *b, int k)
{
    int m1, m2;
    slpi_fast_sine_euler_mode_of(b, k, &m1, &m2);
    return (double)(m1 * m1 + m2 * m2);
}

void slpi_fast_sine_euler_stream(const slpi_fast_sine_euler_basis *b, double c, const cplx *W, cplx *P)
{
    for (int k = 0; k < b->nm; k++) slpi_fast_sine_euler_add(b, k, -c * se_coef(b, k, W) / se_norm2(b, k), P);
}

double slpi_fast_sine_euler_energy(const slpi_fast_sine_euler_basis *b, const cplx *omega)
{
    double s = 0;
    for (int k = 0; k < b->nm; k++) s += creal(omega[k] * conj(omega[k])) / se_norm2(b, k);
    return b->N / (8.0 * b->eps * b->eps) * s;
}

double slpi_fast_sine_euler_c2(const slpi_fast_sine_euler_basis *b, const cplx *omega)
{
    double s = 0;
    for (int k = 0; k < b->nm; k++) s += creal(omega[k] * conj(omega[k]));
    return -b->N / (4.0 * b->eps * b->eps) * s;
}

cplx slpi_fast_sine_euler_tr3(const slpi_fast_sine_euler_basis *b, const cplx *omega)
{
    cplx s = 0;
    for (int i = 0; i < b->nm; i++)
        for (int j = 0; j < b->nm; j++) {
            int a1, a2, b1, b2;
            slpi_fast_sine_euler_mode_of(b, i, &a1, &a2);
            slpi_fast_sine_euler_mode_of(b, j, &b1, &b2);
            int k = slpi_fast_sine_euler_mode(b, -(a1 + b1), -(a2 + b2));
            if (k < 0) continue;
            s += cos(b->eps * (a1 * b2 - a2 * b1)) * omega[i] * omega[j] * omega[k];
        }
    return -I * b->N / (8.0 * b->eps * b->eps * b->eps) * s;
}
