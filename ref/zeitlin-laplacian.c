/* zeitlin-laplacian.c — the certified Hoppe–Yau Laplacian of su(N) in Arb balls and its
 * inverse: the per-diagonal tridiagonals L_d (exact coefficients) and their Thomas factors
 * (with a shift), the Laplacian in its per-diagonal and spin forms, the Poisson solve
 * Delta_N^{-1} and H0; the set-up and release of slpi_ref_zeitlin. The quantized
 * harmonics and the real basis are in ref/zeitlin-basis.c. docs/systems.md#euler-zeitlin
 * (and docs/schemes.md#isomp trace subtlety); ISO §6.4, eqs. (40)–(42). Conventions in
 * ref/zeitlin.h. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "ref/zeitlin.h"
#include "ref/matrix.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* 4 m_a m_b = (2a-N+1)(2b-N+1); 4 s(s+1) = N^2-1. Diagonal of L_{b-a} at row a:
 * -2(s(s+1) - m_a m_b) = -((N^2-1) - (2a-N+1)(2b-N+1)) / 2, exact. */
static void lap_diag_coeff(arb_t out, int N, int a, int b)
{
    long num = (long)(2 * a - N + 1) * (2 * b - N + 1) - ((long)N * N - 1);
    arb_set_si(out, num);
    arb_mul_2exp_si(out, out, -1);
}

/* beta_a beta_b = sqrt((a+1)(N-1-a)(b+1)(N-1-b)), exact integer under the root. */
static void beta_prod(arb_t out, int N, int a, int b, slong prec)
{
    if (a < 0 || b < 0 || a > N - 2 || b > N - 2) {
        arb_zero(out);
        return;
    }
    arb_sqrt_ui(out, (ulong)(a + 1) * (ulong)(N - 1 - a) * (ulong)(b + 1) * (ulong)(N - 1 - b), prec);
}

/* Thomas factors of the symmetric tridiagonal (diag D, off E), size n, into f[0..2n):
 * f[i] = 1/w_i with pivots w_0 = D_0, w_i = D_i - E_{i-1}^2 / w_{i-1}, and
 * f[n+i] = E_i / w_i (i < n-1), the forward elimination multipliers. */
static void thomas_factor(arb_ptr f, arb_srcptr D, arb_srcptr E, int n, slong prec)
{
    arb_t w, t;
    arb_init(w);
    arb_init(t);
    arb_set(w, D + 0);
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            arb_mul(t, E + i - 1, f + n + i - 1, prec);
            arb_sub(w, D + i, t, prec);
        }
        arb_inv(f + i, w, prec);
        if (i + 1 < n) arb_mul(f + n + i, E + i, f + i, prec);
    }
    arb_clear(w);
    arb_clear(t);
}

/* Solve the symmetric tridiagonal (D, E) with factors f in place: p (length n) holds
 * the complex right-hand side and receives the solution. */
static void thomas_solve(acb_ptr p, arb_srcptr E, arb_srcptr f, int n, slong prec)
{
    acb_t t;
    acb_init(t);
    for (int i = 1; i < n; i++) {
        acb_mul_arb(t, p + i - 1, f + n + i - 1, prec);
        acb_sub(p + i, p + i, t, prec);
    }
    acb_mul_arb(p + n - 1, p + n - 1, f + n - 1, prec);
    for (int i = n - 2; i >= 0; i--) {
        acb_mul_arb(t, p + i + 1, E + i, prec);
        acb_sub(p + i, p + i, t, prec);
        acb_mul_arb(p + i, p + i, f + i, prec);
    }
    acb_clear(t);
}

/* z->twd (the factors as doubles, slpi_ref_zeitlin_factors_mr) freed: stale after a shift */
static void twd_free(slpi_ref_zeitlin *z)
{
    for (int d = 0; d < z->N && z->twd != NULL; d++) free(z->twd[d]);
    free(z->twd);
    z->twd = NULL;
}

int slpi_ref_zeitlin_init(slpi_ref_zeitlin *z, int N, slong prec, slpi_error *err)
{
    memset(z, 0, sizeof *z);
    if (N < 2 || N > SLPI_ZEITLIN_NMAX)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin ref path: N = %d outside 2..%d", N, SLPI_ZEITLIN_NMAX);
    if (prec < 16) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin ref path: prec %ld < 16", (long)prec);
    z->N = N;
    z->prec = prec;
    z->ldiag = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->loff = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->tw = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->V = NULL;
    z->twd = NULL;
    arb_init(z->rsqrt2);
    arb_init(z->sqrt2);
    arb_rsqrt_ui(z->rsqrt2, 2, prec);
    arb_sqrt_ui(z->sqrt2, 2, prec);
    for (int d = 0; d < N; d++) {
        int n = N - d;
        z->ldiag[d] = _arb_vec_init(n);
        z->loff[d] = _arb_vec_init(n);
        z->tw[d] = _arb_vec_init(2 * n);
        for (int a = 0; a < n; a++) {
            lap_diag_coeff(z->ldiag[d] + a, N, a, a + d);
            if (a < n - 1) beta_prod(z->loff[d] + a, N, a, a + d, prec);
        }
    }
    arb_init(z->shift);
    slpi_ref_zeitlin_set_shift(z, z->shift, prec);
    return SLPI_OK;
}

void slpi_ref_zeitlin_set_shift(slpi_ref_zeitlin *z, const arb_t shift, slong prec)
{
    arb_set(z->shift, shift);
    arb_ptr D = _arb_vec_init(z->N);
    for (int d = 0; d < z->N; d++) {
        int n = z->N - d;
        _arb_vec_set(D, z->ldiag[d], n);
        for (int a = 0; a < n; a++) arb_sub(D + a, D + a, shift, prec);
        if (d > 0 || !arb_is_zero(shift))
            thomas_factor(z->tw[d], D, z->loff[d], n, prec);
        else /* the kernel C I: the trailing block 1..N-1, p_0 pinned */
            thomas_factor(z->tw[0], D + 1, z->loff[0] + 1, z->N - 1, prec);
    }
    _arb_vec_clear(D, z->N);
    twd_free(z); /* the factors as doubles are made again on demand */
}

void slpi_ref_zeitlin_clear(slpi_ref_zeitlin *z)
{
    slpi_ref_zeitlin_harmonics_clear(z);
    twd_free(z);
    for (int d = 0; d < z->N; d++) {
        _arb_vec_clear(z->ldiag[d], z->N - d);
        _arb_vec_clear(z->loff[d], z->N - d);
        _arb_vec_clear(z->tw[d], 2 * (z->N - d));
    }
    flint_free(z->ldiag);
    flint_free(z->loff);
    flint_free(z->tw);
    arb_clear(z->rsqrt2);
    arb_clear(z->shift);
    arb_clear(z->sqrt2);
}

void slpi_ref_zeitlin_laplacian(acb_mat_t out, const acb_mat_t P, const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N;
    acb_mat_t r;
    acb_t t;
    acb_mat_init(r, N, N);
    acb_init(t);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            /* row index along diagonal d = |b - a|: i = min(a, b) */
            int d = abs(b - a), i = a < b ? a : b;
            acb_ptr o = acb_mat_entry(r, a, b);
            acb_mul_arb(o, acb_mat_entry(P, a, b), z->ldiag[d] + i, prec);
            if (i + 1 < N - d) {
                acb_mul_arb(t, acb_mat_entry(P, a + 1, b + 1), z->loff[d] + i, prec);
                acb_add(o, o, t, prec);
            }
            if (i > 0) {
                acb_mul_arb(t, acb_mat_entry(P, a - 1, b - 1), z->loff[d] + i - 1, prec);
                acb_add(o, o, t, prec);
            }
        }
    acb_mat_swap(out, r);
    acb_mat_clear(r);
    acb_clear(t);
}

void slpi_ref_zeitlin_laplacian_spin(acb_mat_t out, const acb_mat_t P, int N, slong prec)
{
    /* S_k = i J_k: J_3 = diag(m_a), (J_+)_{a+1,a} = beta_a, J_1 = (J_+ + J_+^T)/2,
     * J_2 = (J_+ - J_+^T)/(2i). out = sum_k [S_k, [S_k, P]]. */
    acb_mat_t S, C, D, acc;
    acb_mat_init(S, N, N);
    acb_mat_init(C, N, N);
    acb_mat_init(D, N, N);
    acb_mat_init(acc, N, N);
    for (int k = 1; k <= 3; k++) {
        acb_mat_zero(S);
        for (int a = 0; a < N; a++) {
            if (k == 3) {
                /* S_3 = i m_a, m_a = (2a - N + 1)/2 */
                arb_set_si(acb_imagref(acb_mat_entry(S, a, a)), 2 * a - N + 1);
                arb_mul_2exp_si(acb_imagref(acb_mat_entry(S, a, a)), acb_imagref(acb_mat_entry(S, a, a)), -1);
            } else if (a + 1 < N) {
                arb_t b;
                arb_init(b);
                arb_sqrt_ui(b, (ulong)(a + 1) * (ulong)(N - 1 - a), prec);
                arb_mul_2exp_si(b, b, -1);
                if (k == 1) {
                    /* S_1 = i (J_+ + J_+^T)/2 */
                    arb_set(acb_imagref(acb_mat_entry(S, a + 1, a)), b);
                    arb_set(acb_imagref(acb_mat_entry(S, a, a + 1)), b);
                } else {
                    /* S_2 = (J_+ - J_+^T)/2 */
                    arb_set(acb_realref(acb_mat_entry(S, a + 1, a)), b);
                    arb_neg(acb_realref(acb_mat_entry(S, a, a + 1)), b);
                }
                arb_clear(b);
            }
        }
        slpi_ref_mat_comm(C, S, P, prec);
        slpi_ref_mat_comm(D, S, C, prec);
        acb_mat_add(acc, acc, D, prec);
    }
    acb_mat_swap(out, acc);
    acb_mat_clear(S);
    acb_mat_clear(C);
    acb_mat_clear(D);
    acb_mat_clear(acc);
}

void slpi_ref_zeitlin_poisson(acb_mat_t P, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N;
    acb_ptr p = _acb_vec_init(N);
    arb_t mean;
    arb_init(mean);
    acb_mat_t r;
    acb_mat_init(r, N, N);

    /* d = 0: x_a = Im X_aa - Tr/N; shift 0: pin p_0 = 0, solve on 1..N-1; subtract the mean. */
    arb_zero(mean);
    for (int a = 0; a < N; a++) arb_add(mean, mean, acb_imagref(acb_mat_entry(X, a, a)), prec);
    arb_div_ui(mean, mean, (ulong)N, prec);
    for (int a = 0; a < N; a++) {
        acb_zero(p + a);
        arb_sub(acb_realref(p + a), acb_imagref(acb_mat_entry(X, a, a)), mean, prec);
    }
    if (arb_is_zero(z->shift)) {
        acb_zero(p + 0);
        thomas_solve(p + 1, z->loff[0] + 1, z->tw[0], N - 1, prec);
    } else { /* L_0 - shift is definite: the whole diagonal */
        thomas_solve(p, z->loff[0], z->tw[0], N, prec);
    }
    arb_zero(mean);
    for (int a = 0; a < N; a++) arb_add(mean, mean, acb_realref(p + a), prec);
    arb_div_ui(mean, mean, (ulong)N, prec);
    for (int a = 0; a < N; a++) arb_sub(acb_imagref(acb_mat_entry(r, a, a)), acb_realref(p + a), mean, prec);

    /* d >= 1: L_d p = x_d on the superdiagonal; mirror to the subdiagonal. */
    for (int d = 1; d < N; d++) {
        int n = N - d;
        for (int a = 0; a < n; a++) acb_set(p + a, acb_mat_entry(X, a, a + d));
        thomas_solve(p, z->loff[d], z->tw[d], n, prec);
        for (int a = 0; a < n; a++) {
            acb_set(acb_mat_entry(r, a, a + d), p + a);
            acb_conj(acb_mat_entry(r, a + d, a), p + a);
            acb_neg(acb_mat_entry(r, a + d, a), acb_mat_entry(r, a + d, a));
        }
    }
    acb_mat_swap(P, r);
    acb_mat_clear(r);
    _acb_vec_clear(p, N);
    arb_clear(mean);
}

void slpi_ref_zeitlin_h0(arb_t H, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N;
    acb_mat_t P;
    acb_mat_init(P, N, N);
    slpi_ref_zeitlin_poisson(P, X, z, prec);
    arb_zero(H);
    /* Re(conj(P_ab) X_ab) = Re P Re X + Im P Im X */
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            arb_addmul(H, acb_realref(acb_mat_entry(P, a, b)), acb_realref(acb_mat_entry(X, a, b)), prec);
            arb_addmul(H, acb_imagref(acb_mat_entry(P, a, b)), acb_imagref(acb_mat_entry(X, a, b)), prec);
        }
    arb_mul_2exp_si(H, H, -1);
    arb_neg(H, H);
    acb_mat_clear(P);
}
