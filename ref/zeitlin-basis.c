/* zeitlin-basis.c — the certified quantized harmonics of su(N) in Arb balls: T_lm as exact
 * null vectors of L_m + l(l+1) (the tables), from the exact Racah 3j formula and from
 * certified eigenvectors of L_m (the witnesses of the tests), the real basis Y_alpha and
 * its coefficient maps (analysis, synthesis). The Laplacian, the Poisson solve and H0 are
 * in ref/zeitlin-laplacian.c. docs/systems.md#euler-zeitlin; ISO §6.4, eqs. (40)–(42).
 * Conventions in ref/zeitlin.h. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "ref/zeitlin.h"
#include "ref/matrix.h"
#include "core/progress.h"

#include <stddef.h>
#include <math.h>
#include <stdlib.h>

void slpi_ref_zeitlin_threej(arb_t out, int N, int l, int m, int a, int b, slong prec)
{
    /* (T_lm)_ab = (-1)^{s-m_a} sqrt(2l+1) (s l s; -m_a m m_b), Racah's formula with
     * j1 = j3 = s, j2 = l: every factorial argument is an integer (see ref/zeitlin.h):
     * (-1)^{a+b+l} sqrt((2l+1) l!^2 (N-1-l)!/(N+l)! * a!(N-1-a)!(l+m)!(l-m)!b!(N-1-b)!)
     *   * sum_k (-1)^k / [k!(N-1-l-a+k)!(k-m)!(l-k)!(a-k)!(l-k+m)!]. */
    if (a - b != m || l < 0 || l > N - 1 || m > l || -m > l || a < 0 || b < 0 || a > N - 1 || b > N - 1) {
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
        if (!ok) continue;
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
    if (sgn < 0) arb_neg(out, out);

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
    arb_ptr isq = _arb_vec_init(n); /* 1 / sqrt(E_0^2 ... E_{a-1}^2) */
    fmpz_init(t);
    arb_init(nrm);
    arb_init(s);
    arb_init(r);
    for (int a = 0; a < n; a++) {
        int b = a + m;
        fmpz_set_si(D + a, (long)(2 * a - N + 1) * (2 * b - N + 1) - ((long)N * N - 1));
        if (a + 1 < n) { /* (2 beta_a beta_b)^2 = 4 (a+1)(N-1-a)(b+1)(N-1-b) */
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
            if (a > 0) fmpz_addmul(q + a + 1, E2 + a - 1, q + a - 1);
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
        if (fmpz_sgn(q + n - 1) < 0) arb_neg(nrm, nrm);
        for (int a = 0; a < n; a++) arb_mul(arb_mat_entry(V, a, l - m), arb_mat_entry(V, a, l - m), nrm, prec);
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

int slpi_ref_zeitlin_harmonics(slpi_ref_zeitlin *z, slpi_error *err)
{
    int N = z->N;
    if (z->V != NULL) return SLPI_OK;
    if (N > SLPI_ZEITLIN_ARB_NMAX)
        return slpi_error_set(err, SLPI_EINPUT,
                              "euler-zeitlin ref path: N = %d: the T_lm tables as "
                              "balls cover N = 2..%d",
                              N, SLPI_ZEITLIN_ARB_NMAX);
    z->V = flint_malloc(sizeof(arb_mat_struct) * (size_t)N);
    for (int m = 0; m < N; m++) arb_mat_init(z->V + m, N - m, N - m);
    for (int m = 0; m < N; m++) {
        if (!slpi_ref_zeitlin_table(z->V + m, N, m, z->prec)) {
            slpi_ref_zeitlin_harmonics_clear(z);
            return slpi_error_set(err, SLPI_ENUMERIC,
                                  "euler-zeitlin ref path: N = %d: "
                                  "-l(l+1) is not an eigenvalue of L_%d",
                                  N, m);
        }
        slpi_progress_tick("su(%d) tables at %ld bits: %d/%d", N, (long)z->prec, m + 1, N);
    }
    return SLPI_OK;
}

void slpi_ref_zeitlin_harmonics_clear(slpi_ref_zeitlin *z)
{
    for (int m = 0; m < z->N && z->V != NULL; m++) arb_mat_clear(z->V + m);
    flint_free(z->V);
    z->V = NULL;
}

int slpi_ref_zeitlin_degree(int alpha)
{
    /* the l with l^2 - 1 <= alpha < (l + 1)^2 - 1: from the rounded square root, corrected
     * (a linear search cost O(N) for each of the noise's N^2 components) */
    int l = (int)sqrt((double)alpha + 1);
    while (l > 1 && l * l - 1 > alpha) l--;
    while ((l + 1) * (l + 1) - 1 <= alpha) l++;
    return l;
}

/* Order of eigenpairs by decreasing eigenvalue midpoint (l increasing). */
typedef struct {
    double key;
    int idx;
} eig_order;
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
    ok = ord != NULL && acb_mat_eig_simple(E, NULL, R, A, Ea, Ra, prec);
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
                if (!arb_contains_zero(acb_imagref(acb_mat_entry(R, a, k)))) ok = 0;
                arb_addmul(nrm, acb_realref(acb_mat_entry(R, a, k)), acb_realref(acb_mat_entry(R, a, k)), prec);
            }
            arb_rsqrt(nrm, nrm, prec);
            for (int a = 0; a < n; a++)
                arb_mul(arb_mat_entry(out, a, col), acb_realref(acb_mat_entry(R, a, k)), nrm, prec);
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

void slpi_ref_zeitlin_harmonic(acb_mat_t T, const slpi_ref_zeitlin *z, int l, int m)
{
    acb_mat_zero(T);
    for (int a = 0; a < z->N - m; a++) acb_set_arb(acb_mat_entry(T, a + m, a), arb_mat_entry(z->V + m, a, l - m));
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

void slpi_ref_zeitlin_coeff(arb_t w, const acb_mat_t X, int alpha, const slpi_ref_zeitlin *z, slong prec)
{
    int l, j, m;
    alpha_split(alpha, &l, &j, &m);
    int n = z->N - m;
    /* m = 0: sum_a t_a Im X_aa; cosine part: Re X_{a+m,a}; sine part: Im X_{a+m,a}.
     * Column l-m of V has stride n; the diagonal X_{a+m,a} has stride N+1 entries
     * (acb_mat entries are one contiguous row-major array of acb = 2 arb). */
    acb_srcptr e = acb_mat_entry(X, m, 0);
    arb_dot(w, NULL, 0, arb_mat_entry(z->V + m, 0, l - m), n, (j & 1) ? acb_realref(e) : acb_imagref(e), 2 * (z->N + 1),
            n, prec);
    if (m > 0) arb_mul(w, w, z->sqrt2, prec);
}

void slpi_ref_zeitlin_analysis(arb_ptr omega, const acb_mat_t X, const slpi_ref_zeitlin *z, slong prec)
{
    for (int alpha = 0; alpha < z->N * z->N - 1; alpha++) slpi_ref_zeitlin_coeff(omega + alpha, X, alpha, z, prec);
}

void slpi_ref_zeitlin_synthesis(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin *z, slong prec)
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
            while (l0 < N && slpi_ref_zeitlin_alpha(l0, j) < alpha0) l0++;
            if (l0 == N) continue;
            int nl = N - l0, n = N - m, any = 0;
            for (int l = l0; l < N; l++) {
                arb_srcptr cl = c + (slpi_ref_zeitlin_alpha(l, j) - alpha0);
                any |= !arb_is_zero(cl);
                if (m == 0)
                    arb_set(v + (l - l0), cl);
                else
                    arb_mul(v + (l - l0), cl, z->rsqrt2, prec);
            }
            if (!any) continue;
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
