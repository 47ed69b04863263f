/* zeitlin-basis.c — certified Euler–Zeitlin mathematics on su(N) in Arb balls:
 * the Hoppe–Yau Laplacian in its per-diagonal and spin forms, the quantized harmonics
 * T_lm as exact null vectors of L_m + l(l+1) (the tables), from the exact Racah 3j
 * formula and from certified eigenvectors of L_m (the witnesses of the tests), the real
 * basis Y_alpha and its coefficient maps, the Poisson solve Delta_N^{-1}, H0, Casimirs
 * and eigenvalue enclosures. docs/systems.md#euler-zeitlin (and docs/schemes.md#isomp trace subtlety); ISO
 * ISO, §6.4, eqs. (40)–(42). Conventions in ref/zeitlin.h. */
#include "ref/zeitlin.h"
#include "ref/matrix.h"

#include <stdlib.h>

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
    arb_sqrt_ui(out, (ulong)(a + 1) * (ulong)(N - 1 - a) * (ulong)(b + 1) * (ulong)(N - 1 - b),
                prec);
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
        if (i + 1 < n)
            arb_mul(f + n + i, E + i, f + i, prec);
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

void slpi_ref_zeitlin_threej(arb_t out, int N, int l, int m, int a, int b, slong prec)
{
    /* (T_lm)_ab = (-1)^{s-m_a} sqrt(2l+1) (s l s; -m_a m m_b), Racah's formula with
     * j1 = j3 = s, j2 = l: every factorial argument is an integer (see ref/zeitlin.h):
     * (-1)^{a+b+l} sqrt((2l+1) l!^2 (N-1-l)!/(N+l)! * a!(N-1-a)!(l+m)!(l-m)!b!(N-1-b)!)
     *   * sum_k (-1)^k / [k!(N-1-l-a+k)!(k-m)!(l-k)!(a-k)!(l-k+m)!]. */
    if (a - b != m || l < 0 || l > N - 1 || m > l || -m > l || a < 0 || b < 0 ||
        a > N - 1 || b > N - 1) {
        arb_zero(out);
        return;
    }
    fmpz_t f, g;
    fmpq_t S, R, term;
    fmpz_init(f);
    fmpz_init(g);
    fmpq_init(S);
    fmpq_init(R);
    fmpq_init(term);

    for (int k = 0; k <= l; k++) {
        int args[6] = { k, N - 1 - l - a + k, k - m, l - k, a - k, l - k + m };
        int ok = 1;
        fmpz_one(g);
        for (int i = 0; i < 6; i++) {
            if (args[i] < 0) {
                ok = 0;
                break;
            }
            fmpz_fac_ui(f, (ulong)args[i]);
            fmpz_mul(g, g, f);
        }
        if (!ok)
            continue;
        fmpz_set_si(f, (k & 1) ? -1 : 1);
        fmpq_set_fmpz_frac(term, f, g);
        fmpq_add(S, S, term);
    }

    /* R = (2l+1) l!^2 (N-1-l)! a!(N-1-a)!(l+m)!(l-m)!b!(N-1-b)! / (N+l)! */
    int nums[8] = { l, l, N - 1 - l, a, N - 1 - a, l + m, l - m, b };
    fmpz_set_ui(g, (ulong)(2 * l + 1));
    for (int i = 0; i < 8; i++) {
        fmpz_fac_ui(f, (ulong)nums[i]);
        fmpz_mul(g, g, f);
    }
    fmpz_fac_ui(f, (ulong)(N - 1 - b));
    fmpz_mul(g, g, f);
    fmpz_fac_ui(f, (ulong)(N + l));
    fmpq_set_fmpz_frac(R, g, f);

    /* T = sign * |S| sqrt(R) = sign(S) (-1)^{a+b+l} sqrt(S^2 R). */
    int sgn = fmpq_sgn(S) * (((a + b + l) & 1) ? -1 : 1);
    fmpq_mul(term, S, S);
    fmpq_mul(term, term, R);
    arb_set_fmpq(out, term, prec + 10);
    arb_sqrt(out, out, prec);
    if (sgn < 0)
        arb_neg(out, out);

    fmpz_clear(f);
    fmpz_clear(g);
    fmpq_clear(S);
    fmpq_clear(R);
    fmpq_clear(term);
}

/* Column l-m of V = t of T_lm, the eigenvector of L_m for -l(l+1), exactly: with
 * D_a = 2 ldiag[m][a] and E_a^2 = (2 loff[m][a])^2 integers, the null vector of
 * 2 L_m + 2l(l+1) I is t_a = q_a / (E_0 ... E_{a-1}) with the integer recurrence
 *     q_0 = 1,  q_{a+1} = -(D_a + 2l(l+1)) q_a - E_{a-1}^2 q_{a-1},
 * every row but the last holding by construction and the last iff q_n = 0, which is
 * checked exactly (so -l(l+1) is certified to be an eigenvalue and t its eigenvector;
 * the off-diagonals are nonzero, so the eigenvalue is simple). Then t is normalised
 * to unit norm with its last component positive (docs/systems.md#euler-zeitlin sign choice). O(n) integer
 * operations per vector: the basis for N = 128 in well under a second, where the 3j
 * formula (kept as the independent witness, slpi_ref_zeitlin_threej) costs minutes.
 * Returns 0 if some q_n != 0 (impossible for the Hoppe-Yau Laplacian). (ref/zeitlin.h:
 * slpi_ref_zeitlin_table) */
int slpi_ref_zeitlin_table(arb_mat_t V, int N, int m, slong prec)
{
    int n = N - m, ok = 1;
    slong wp = prec + 32;
    fmpz *D = _fmpz_vec_init(n), *E2 = _fmpz_vec_init(n), *q = _fmpz_vec_init(n + 1);
    fmpz_t t;
    arb_t nrm, s, r;
    arb_ptr isq = _arb_vec_init(n);    /* 1 / sqrt(E_0^2 ... E_{a-1}^2) */
    fmpz_init(t);
    arb_init(nrm);
    arb_init(s);
    arb_init(r);
    for (int a = 0; a < n; a++) {
        int b = a + m;
        fmpz_set_si(D + a, (long)(2 * a - N + 1) * (2 * b - N + 1) - ((long)N * N - 1));
        if (a + 1 < n) {  /* (2 beta_a beta_b)^2 = 4 (a+1)(N-1-a)(b+1)(N-1-b) */
            fmpz_set_ui(E2 + a, 4);
            fmpz_mul_ui(E2 + a, E2 + a, (ulong)(a + 1) * (ulong)(N - 1 - a));
            fmpz_mul_ui(E2 + a, E2 + a, (ulong)(b + 1) * (ulong)(N - 1 - b));
        }
    }
    fmpz_one(t);
    arb_one(isq + 0);
    for (int a = 1; a < n; a++) {
        fmpz_mul(t, t, E2 + a - 1);
        arb_set_fmpz(r, t);
        arb_rsqrt(isq + a, r, wp);
    }
    for (int l = m; l < N && ok; l++) {
        long lam2 = 2L * l * (l + 1);
        fmpz_one(q + 0);
        for (int a = 0; a < n; a++) {
            fmpz_add_si(t, D + a, lam2);
            fmpz_mul(q + a + 1, t, q + a);
            if (a > 0)
                fmpz_addmul(q + a + 1, E2 + a - 1, q + a - 1);
            fmpz_neg(q + a + 1, q + a + 1);
        }
        if (!fmpz_is_zero(q + n)) {
            ok = 0;
            break;
        }
        arb_zero(nrm);
        for (int a = 0; a < n; a++) {
            arb_set_round_fmpz(s, q + a, wp);
            arb_mul(arb_mat_entry(V, a, l - m), s, isq + a, wp);
            arb_addmul(nrm, arb_mat_entry(V, a, l - m), arb_mat_entry(V, a, l - m), wp);
        }
        arb_rsqrt(nrm, nrm, wp);
        if (fmpz_sgn(q + n - 1) < 0)
            arb_neg(nrm, nrm);
        for (int a = 0; a < n; a++)
            arb_mul(arb_mat_entry(V, a, l - m), arb_mat_entry(V, a, l - m), nrm, prec);
    }
    _fmpz_vec_clear(D, n);
    _fmpz_vec_clear(E2, n);
    _fmpz_vec_clear(q, n + 1);
    fmpz_clear(t);
    arb_clear(nrm);
    arb_clear(s);
    arb_clear(r);
    _arb_vec_clear(isq, n);
    return ok;
}

int slpi_ref_zeitlin_init(slpi_ref_zeitlin *z, int N, slong prec, slpi_error *err)
{
    if (N < 2 || N > SLPI_ZEITLIN_NMAX)
        return slpi_error_set(err, SLPI_EINPUT,
                              "euler-zeitlin ref path: N = %d outside 2..%d", N,
                              SLPI_ZEITLIN_NMAX);
    if (prec < 16)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin ref path: prec %ld < 16",
                              (long)prec);
    z->N = N;
    z->prec = prec;
    z->ldiag = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->loff = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->tw = flint_malloc(sizeof(arb_ptr) * (size_t)N);
    z->V = NULL;
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
            if (a < n - 1)
                beta_prod(z->loff[d] + a, N, a, a + d, prec);
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
        for (int a = 0; a < n; a++)
            arb_sub(D + a, D + a, shift, prec);
        if (d > 0 || !arb_is_zero(shift))
            thomas_factor(z->tw[d], D, z->loff[d], n, prec);
        else   /* the kernel C I: the trailing block 1..N-1, p_0 pinned */
            thomas_factor(z->tw[0], D + 1, z->loff[0] + 1, z->N - 1, prec);
    }
    _arb_vec_clear(D, z->N);
}

int slpi_ref_zeitlin_harmonics(slpi_ref_zeitlin *z, slpi_error *err)
{
    int N = z->N;
    if (z->V != NULL)
        return SLPI_OK;
    if (N > SLPI_ZEITLIN_ARB_NMAX)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin ref path: N = %d: the T_lm tables as "
                              "balls cover N = 2..%d", N, SLPI_ZEITLIN_ARB_NMAX);
    z->V = flint_malloc(sizeof(arb_mat_struct) * (size_t)N);
    for (int m = 0; m < N; m++)
        arb_mat_init(z->V + m, N - m, N - m);
    for (int m = 0; m < N; m++) {
        if (!slpi_ref_zeitlin_table(z->V + m, N, m, z->prec)) {
            slpi_ref_zeitlin_harmonics_clear(z);
            return slpi_error_set(err, SLPI_ENUMERIC, "euler-zeitlin ref path: N = %d: "
                                  "-l(l+1) is not an eigenvalue of L_%d", N, m);
        }
        slpi_progress_tick("su(%d) tables at %ld bits: %d/%d", N, (long)z->prec, m + 1, N);
    }
    return SLPI_OK;
}

void slpi_ref_zeitlin_harmonics_clear(slpi_ref_zeitlin *z)
{
    for (int m = 0; m < z->N && z->V != NULL; m++)
        arb_mat_clear(z->V + m);
    flint_free(z->V);
    z->V = NULL;
}

void slpi_ref_zeitlin_clear(slpi_ref_zeitlin *z)
{
    slpi_ref_zeitlin_harmonics_clear(z);
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

int slpi_ref_zeitlin_degree(int alpha)
{
    int l = 1;
    while ((l + 1) * (l + 1) - 1 <= alpha)
        l++;
    return l;
}

/* Order of eigenpairs by decreasing eigenvalue midpoint (l increasing). */
typedef struct { double key; int idx; } eig_order;
static int eig_order_cmp(const void *pa, const void *pb)
{
    const eig_order *x = pa, *y = pb;
    return (x->key < y->key) - (x->key > y->key);
}

int slpi_ref_zeitlin_eigbasis(arb_mat_t out, const slpi_ref_zeitlin *z, int m, slong prec)
{
    int n = z->N - m, ok;
    acb_mat_t A, R, Ra;
    acb_ptr E = _acb_vec_init(n), Ea = _acb_vec_init(n);
    acb_t c;
    arb_t nrm;
    eig_order *ord = malloc(sizeof(eig_order) * (size_t)n);
    acb_mat_init(A, n, n);
    acb_mat_init(R, n, n);
    acb_mat_init(Ra, n, n);
    acb_init(c);
    arb_init(nrm);

    for (int a = 0; a < n; a++) {
        arb_set(acb_realref(acb_mat_entry(A, a, a)), z->ldiag[m] + a);
        if (a + 1 < n) {
            arb_set(acb_realref(acb_mat_entry(A, a, a + 1)), z->loff[m] + a);
            arb_set(acb_realref(acb_mat_entry(A, a + 1, a)), z->loff[m] + a);
        }
    }
    acb_mat_approx_eig_qr(Ea, NULL, Ra, A, NULL, 0, prec);
    ok = acb_mat_eig_simple(E, NULL, R, A, Ea, Ra, prec);
    if (ok) {
        for (int k = 0; k < n; k++) {
            ord[k].key = arf_get_d(arb_midref(acb_realref(E + k)), ARF_RND_NEAR);
            ord[k].idx = k;
        }
        qsort(ord, (size_t)n, sizeof(eig_order), eig_order_cmp);
        for (int col = 0; col < n && ok; col++) {
            int k = ord[col].idx;
            /* v / v_last is real (contains a real vector); then unit norm. */
            acb_set(c, acb_mat_entry(R, n - 1, k));
            arb_zero(nrm);
            for (int a = 0; a < n; a++) {
                acb_div(acb_mat_entry(R, a, k), acb_mat_entry(R, a, k), c, prec);
                if (!arb_contains_zero(acb_imagref(acb_mat_entry(R, a, k))))
                    ok = 0;
                arb_addmul(nrm, acb_realref(acb_mat_entry(R, a, k)),
                           acb_realref(acb_mat_entry(R, a, k)), prec);
            }
            arb_rsqrt(nrm, nrm, prec);
            for (int a = 0; a < n; a++)
                arb_mul(arb_mat_entry(out, a, col), acb_realref(acb_mat_entry(R, a, k)), nrm,
                        prec);
        }
    }

    acb_mat_clear(A);
    acb_mat_clear(R);
    acb_mat_clear(Ra);
    _acb_vec_clear(E, n);
    _acb_vec_clear(Ea, n);
    acb_clear(c);
    arb_clear(nrm);
    free(ord);
    return ok;
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
                arb_mul_2exp_si(acb_imagref(acb_mat_entry(S, a, a)),
                                acb_imagref(acb_mat_entry(S, a, a)), -1);
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

void slpi_ref_zeitlin_harmonic(acb_mat_t T, const slpi_ref_zeitlin *z, int l, int m)
{
    acb_mat_zero(T);
    for (int a = 0; a < z->N - m; a++)
        acb_set_arb(acb_mat_entry(T, a + m, a), arb_mat_entry(z->V + m, a, l - m));
}

void slpi_ref_zeitlin_basis(acb_mat_t Y, const slpi_ref_zeitlin *z, int alpha)
{
    int n = z->N * z->N - 1;
    arb_ptr c = _arb_vec_init(n);
    arb_one(c + alpha);
    slpi_ref_zeitlin_synthesis(Y, c, 0, z, z->prec);
    _arb_vec_clear(c, n);
}

/* alpha -> (l, j, m) */
static void alpha_split(int alpha, int *l, int *j, int *m)
{
    *l = slpi_ref_zeitlin_degree(alpha);
    *j = alpha - slpi_ref_zeitlin_alpha(*l, 0);
    *m = (*j + 1) / 2;
}

void slpi_ref_zeitlin_coeff(arb_t w, const acb_mat_t X, int alpha, const slpi_ref_zeitlin *z,
                        slong prec)
{
    int l, j, m;
    alpha_split(alpha, &l, &j, &m);
    int n = z->N - m;
    /* m = 0: sum_a t_a Im X_aa; cosine part: Re X_{a+m,a}; sine part: Im X_{a+m,a}.
     * Column l-m of V has stride n; the diagonal X_{a+m,a} has stride N+1 entries
     * (acb_mat entries are one contiguous row-major array of acb = 2 arb). */
    acb_srcptr e = acb_mat_entry(X, m, 0);
    arb_dot(w, NULL, 0, arb_mat_entry(z->V + m, 0, l - m), n,
            (j & 1) ? acb_realref(e) : acb_imagref(e), 2 * (z->N + 1), n, prec);
    if (m > 0)
        arb_mul(w, w, z->sqrt2, prec);
}

void slpi_ref_zeitlin_analysis(arb_ptr omega, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec)
{
    for (int alpha = 0; alpha < z->N * z->N - 1; alpha++)
        slpi_ref_zeitlin_coeff(omega + alpha, X, alpha, z, prec);
}

void slpi_ref_zeitlin_synthesis(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin *z,
                        slong prec)
{
    /* Per diagonal m and part j (m = 0: j = 0, i T_l0; m > 0: j = 2m-1 the real
     * antisymmetric, j = 2m the imaginary symmetric combination), the coefficients
     * v_l of the Y_alpha(l, j) with alpha >= alpha0 (a suffix l >= l0, scaled by
     * 1/sqrt2 for m > 0), and the diagonal entries p_a = sum_l V_m[a, l-m] v_l as one
     * dot product each: O(N^3) fused multiply-adds in arb_dot. */
    int N = z->N;
    arb_ptr v = _arb_vec_init(N);
    arb_t p;
    arb_init(p);
    acb_mat_zero(X);
    for (int m = 0; m < N; m++)
        for (int j = m == 0 ? 0 : 2 * m - 1; j <= 2 * m; j++) {
            int l0 = m;
            while (l0 < N && slpi_ref_zeitlin_alpha(l0, j) < alpha0)
                l0++;
            if (l0 == N)
                continue;
            int nl = N - l0, n = N - m, any = 0;
            for (int l = l0; l < N; l++) {
                arb_srcptr cl = c + (slpi_ref_zeitlin_alpha(l, j) - alpha0);
                any |= !arb_is_zero(cl);
                if (m == 0)
                    arb_set(v + (l - l0), cl);
                else
                    arb_mul(v + (l - l0), cl, z->rsqrt2, prec);
            }
            if (!any)
                continue;
            for (int a = 0; a < n; a++) {
                acb_ptr lo = acb_mat_entry(X, a + m, a), up = acb_mat_entry(X, a, a + m);
                arb_dot(p, NULL, 0, arb_mat_entry(z->V + m, a, l0 - m), 1, v, 1, nl, prec);
                if (m == 0) {
                    arb_set(acb_imagref(lo), p);
                } else if (j & 1) {
                    arb_set(acb_realref(lo), p);
                    arb_neg(acb_realref(up), p);
                } else {
                    arb_set(acb_imagref(lo), p);
                    arb_set(acb_imagref(up), p);
                }
            }
        }
    arb_clear(p);
    _arb_vec_clear(v, N);
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
    for (int a = 0; a < N; a++)
        arb_add(mean, mean, acb_imagref(acb_mat_entry(X, a, a)), prec);
    arb_div_ui(mean, mean, (ulong)N, prec);
    for (int a = 0; a < N; a++) {
        acb_zero(p + a);
        arb_sub(acb_realref(p + a), acb_imagref(acb_mat_entry(X, a, a)), mean, prec);
    }
    if (arb_is_zero(z->shift)) {
        acb_zero(p + 0);
        thomas_solve(p + 1, z->loff[0] + 1, z->tw[0], N - 1, prec);
    } else {   /* L_0 - shift is definite: the whole diagonal */
        thomas_solve(p, z->loff[0], z->tw[0], N, prec);
    }
    arb_zero(mean);
    for (int a = 0; a < N; a++)
        arb_add(mean, mean, acb_realref(p + a), prec);
    arb_div_ui(mean, mean, (ulong)N, prec);
    for (int a = 0; a < N; a++)
        arb_sub(acb_imagref(acb_mat_entry(r, a, a)), acb_realref(p + a), mean, prec);

    /* d >= 1: L_d p = x_d on the superdiagonal; mirror to the subdiagonal. */
    for (int d = 1; d < N; d++) {
        int n = N - d;
        for (int a = 0; a < n; a++)
            acb_set(p + a, acb_mat_entry(X, a, a + d));
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
            arb_addmul(H, acb_realref(acb_mat_entry(P, a, b)),
                       acb_realref(acb_mat_entry(X, a, b)), prec);
            arb_addmul(H, acb_imagref(acb_mat_entry(P, a, b)),
                       acb_imagref(acb_mat_entry(X, a, b)), prec);
        }
    arb_mul_2exp_si(H, H, -1);
    arb_neg(H, H);
    acb_mat_clear(P);
}
