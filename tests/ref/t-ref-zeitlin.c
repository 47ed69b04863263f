/* t-ref-zeitlin.c — certified Euler–Zeitlin mathematics on su(N) (ref/zeitlin-basis.c, ref/zeitlin-laplacian.c,
 * docs/systems.md#euler-zeitlin): every quantity is computed two ways and the balls must overlap or
 * contain the exact value, with radii small enough that the check has teeth (the traces of
 * powers X^1..X^7 from half the powers against the successive products among them). */
#include "testutil.h"
#include "ref/matrix.h"
#include "ref/zeitlin.h"

#define PREC 128

/* |radius| <= 2^-e for every entry */
static int mat_rad_below(const acb_mat_t A, slong e)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++)
            if (mag_cmp_2exp_si(arb_radref(acb_realref(acb_mat_entry(A, i, j))), -e) > 0 ||
                mag_cmp_2exp_si(arb_radref(acb_imagref(acb_mat_entry(A, i, j))), -e) > 0)
                return 0;
    return 1;
}

static int mat_contains_zero(const acb_mat_t A)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++)
            if (!acb_contains_zero(acb_mat_entry(A, i, j))) return 0;
    return 1;
}

/* the larger radius of a complex ball's parts */
static double wide(acb_srcptr z)
{
    return fmax(mag_get_d(arb_radref(acb_realref(z))), mag_get_d(arb_radref(acb_imagref(z))));
}

/* slpi_ref_mat_trace_powers (Tr X^k as Tr(X^(k/2) X^(k - k/2))) against the traces of the
 * successive products X, X^2, ..., X^7, each kmax = 1..7: the balls overlap, and none is
 * more than 4 times as wide as the successive products' (or 2^-100) */
static void check_trace_powers(const acb_mat_t X, int N)
{
    acb_ptr T = _acb_vec_init(7), U = _acb_vec_init(7);
    acb_mat_t P, Q;
    acb_mat_init(P, N, N);
    acb_mat_init(Q, N, N);
    acb_mat_set(P, X);
    for (int k = 0; k < 7; k++) {
        if (k > 0) {
            acb_mat_mul(Q, P, X, PREC);
            acb_mat_swap(P, Q);
        }
        acb_mat_trace(U + k, P, PREC);
    }
    for (int kmax = 1; kmax <= 7; kmax++) {
        slpi_ref_mat_trace_powers(T, X, kmax, PREC);
        for (int k = 0; k < kmax; k++)
            TEST_CHECKF(acb_overlaps(T + k, U + k) && wide(T + k) <= 4 * wide(U + k) + 0x1p-100,
                        "N=%d: Tr X^%d (kmax %d) two ways disagree, or %g wide against %g", N, k + 1, kmax, wide(T + k),
                        wide(U + k));
    }
    acb_mat_clear(P);
    acb_mat_clear(Q);
    _acb_vec_clear(T, 7);
    _acb_vec_clear(U, 7);
}

/* Parts far below the largest (ref/matrix.c moves them into the radius before the
 * products): X = the cyclic shift of size N with one entry 2^-200 in place of 1, so X^N =
 * 2^-200 I and Tr X^N = N 2^-200 come from that entry alone; the balls of
 * slpi_ref_mat_trace_powers must hold it (against the successive products: exact). */
static void check_trace_powers_tiny(int N)
{
    acb_mat_t X;
    acb_mat_init(X, N, N);
    for (int i = 0; i < N; i++) acb_set_si(acb_mat_entry(X, i, (i + 1) % N), 1);
    acb_mul_2exp_si(acb_mat_entry(X, N - 1, 0), acb_mat_entry(X, N - 1, 0), -200);
    check_trace_powers(X, N);
    acb_mat_clear(X);
}

static int vec_overlaps(arb_srcptr x, arb_srcptr y, int n)
{
    for (int i = 0; i < n; i++)
        if (!arb_overlaps(x + i, y + i)) return 0;
    return 1;
}

static int arb_tight(const arb_t x, slong e)
{
    return mag_cmp_2exp_si(arb_radref(x), -e) <= 0;
}

/* A random skew-Hermitian matrix with binary64 entries (trace included). */
static void random_state(acb_mat_t X, int N)
{
    int n = N * N;
    arb_ptr x = _arb_vec_init(n);
    for (int k = 0; k < n; k++) arb_set_d(x + k, test_rand_uniform(-1, 1));
    slpi_ref_sun_unpack(X, x, N, PREC);
    _arb_vec_clear(x, n);
}

/* 3j basis vs certified eigenvectors of every L_m, and 3j identities. */
static void check_basis(const slpi_ref_zeitlin *z)
{
    int N = z->N;
    arb_t u, v;
    arb_init(u);
    arb_init(v);
    for (int m = 0; m < N; m++) {
        arb_mat_t E;
        arb_mat_init(E, N - m, N - m);
        int ok = slpi_ref_zeitlin_eigbasis(E, z, m, PREC);
        TEST_CHECKF(ok, "N=%d m=%d: eigenvectors of L_m not certified", N, m);
        if (ok) {
            int agree = arb_mat_overlaps(E, z->V + m);
            TEST_CHECKF(agree, "N=%d m=%d: 3j basis and eigenvectors of L_m disagree", N, m);
        }
        arb_mat_clear(E);
    }
    /* T_lm^* = (-1)^m T_{l,-m} entrywise from the 3j formula; T_00 = I/sqrt(N) */
    int bad = 0;
    for (int l = 0; l < N; l++)
        for (int m = 0; m <= l; m++)
            for (int b = 0; b + m < N; b++) {
                slpi_ref_zeitlin_threej(u, N, l, m, b + m, b, PREC);
                slpi_ref_zeitlin_threej(v, N, l, -m, b, b + m, PREC);
                if (m & 1) arb_neg(v, v);
                if (!arb_overlaps(u, v) || !arb_tight(u, PREC - 8)) bad++;
            }
    TEST_CHECKF(bad == 0, "N=%d: %d entries violate T_lm^T = (-1)^m T_l,-m", N, bad);
    arb_rsqrt_ui(v, (ulong)N, PREC);
    bad = 0;
    for (int a = 0; a < N; a++) {
        slpi_ref_zeitlin_threej(u, N, 0, 0, a, a, PREC);
        bad += !arb_overlaps(u, v);
    }
    TEST_CHECKF(bad == 0, "N=%d: T_00 != I/sqrt(N)", N);
    arb_clear(u);
    arb_clear(v);
}

/* Delta_N T_lm = -l(l+1) T_lm in both Laplacian forms; Y orthonormal, traceless. */
static void check_eigen_orthonormal(const slpi_ref_zeitlin *z)
{
    int N = z->N, nalpha = N * N - 1;
    acb_mat_t T, L1, L2;
    acb_mat_init(T, N, N);
    acb_mat_init(L1, N, N);
    acb_mat_init(L2, N, N);
    int bad_eig = 0, bad_loose = 0;
    for (int l = 0; l < N; l++)
        for (int m = 0; m <= l; m++) {
            slpi_ref_zeitlin_harmonic(T, z, l, m);
            slpi_ref_zeitlin_laplacian(L1, T, z, PREC);
            slpi_ref_zeitlin_laplacian_spin(L2, T, N, PREC);
            acb_mat_scalar_addmul_si(L1, T, (slong)l * (l + 1), PREC);
            acb_mat_scalar_addmul_si(L2, T, (slong)l * (l + 1), PREC);
            if (!mat_contains_zero(L1) || !mat_contains_zero(L2)) bad_eig++;
            if (!mat_rad_below(L1, PREC - 16) || !mat_rad_below(L2, PREC - 16)) bad_loose++;
        }
    TEST_CHECKF(bad_eig == 0, "N=%d: %d T_lm fail Delta T = -l(l+1) T", N, bad_eig);
    TEST_CHECKF(bad_loose == 0, "N=%d: %d Laplacian residual balls too wide", N, bad_loose);

    /* Gram matrix of Y_alpha by the full Frobenius sum Re sum_ab conj(Y_a) Y_b. */
    acb_mat_struct *Y = flint_malloc(sizeof(acb_mat_struct) * (size_t)nalpha);
    for (int a = 0; a < nalpha; a++) {
        acb_mat_init(Y + a, N, N);
        slpi_ref_zeitlin_basis(Y + a, z, a);
    }
    arb_t g, t;
    acb_t tr;
    arb_init(g);
    arb_init(t);
    acb_init(tr);
    int bad_gram = 0, bad_tr = 0, bad_skew = 0;
    for (int a = 0; a < nalpha; a++) {
        acb_mat_trace(tr, Y + a, PREC);
        bad_tr += !acb_contains_zero(tr);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                acb_conj(tr, acb_mat_entry(Y + a, j, i));
                acb_add(tr, tr, acb_mat_entry(Y + a, i, j), PREC);
                bad_skew += !acb_contains_zero(tr);
            }
        for (int b = a; b < nalpha; b++) {
            arb_zero(g);
            for (int i = 0; i < N * N; i++) {
                acb_srcptr ya = (Y + a)->entries + i, yb = (Y + b)->entries + i;
                arb_addmul(g, acb_realref(ya), acb_realref(yb), PREC);
                arb_addmul(g, acb_imagref(ya), acb_imagref(yb), PREC);
            }
            arb_set_si(t, a == b);
            if (!arb_contains(g, t) || !arb_tight(g, PREC - 16)) bad_gram++;
        }
    }
    TEST_CHECKF(bad_gram == 0, "N=%d: %d Gram entries of Y do not contain delta", N, bad_gram);
    TEST_CHECKF(bad_tr == 0, "N=%d: %d Y_alpha not traceless", N, bad_tr);
    TEST_CHECKF(bad_skew == 0, "N=%d: %d Y entries not skew-Hermitian", N, bad_skew);
    for (int a = 0; a < nalpha; a++) acb_mat_clear(Y + a);
    flint_free(Y);
    arb_clear(g);
    arb_clear(t);
    acb_clear(tr);
    acb_mat_clear(T);
    acb_mat_clear(L1);
    acb_mat_clear(L2);
}

/* On random states: Laplacian forms overlap; the Poisson solve has residual 0 and
 * matches the spectral solve; H0 two ways; coefficient maps invert each other;
 * Casimirs and eigenvalue enclosures agree. */
static void check_random(const slpi_ref_zeitlin *z, int reps)
{
    int N = z->N, nalpha = N * N - 1;
    acb_mat_t X, X0, P, L1, L2, S;
    arb_ptr om = _arb_vec_init(nalpha), c = _arb_vec_init(nalpha), lam = _arb_vec_init(N);
    arb_t H1, H2, t, s1, s2;
    acb_t tr;
    acb_ptr trp = _acb_vec_init(3);
    acb_mat_init(X, N, N);
    acb_mat_init(X0, N, N);
    acb_mat_init(P, N, N);
    acb_mat_init(L1, N, N);
    acb_mat_init(L2, N, N);
    acb_mat_init(S, N, N);
    arb_init(H1);
    arb_init(H2);
    arb_init(t);
    arb_init(s1);
    arb_init(s2);
    acb_init(tr);
    for (int r = 0; r < reps; r++) {
        random_state(X, N);

        slpi_ref_zeitlin_laplacian(L1, X, z, PREC);
        slpi_ref_zeitlin_laplacian_spin(L2, X, N, PREC);
        TEST_CHECKF(acb_mat_overlaps(L1, L2) && mat_rad_below(L1, PREC - 16), "N=%d: Laplacian forms disagree", N);

        /* X0 = X - Tr(X)/N I; Delta P - X0 contains 0 */
        acb_mat_trace(tr, X, PREC);
        acb_div_ui(tr, tr, (ulong)N, PREC);
        acb_mat_set(X0, X);
        for (int a = 0; a < N; a++) acb_sub(acb_mat_entry(X0, a, a), acb_mat_entry(X0, a, a), tr, PREC);
        slpi_ref_zeitlin_poisson(P, X, z, PREC);
        slpi_ref_zeitlin_laplacian(L1, P, z, PREC);
        acb_mat_sub(L1, L1, X0, PREC);
        TEST_CHECKF(mat_contains_zero(L1) && mat_rad_below(L1, PREC - 24),
                    "N=%d: Poisson residual does not contain 0 (or too wide)", N);
        acb_mat_trace(tr, P, PREC);
        TEST_CHECKF(acb_contains_zero(tr), "N=%d: Tr Delta^-1 X != 0", N);

        /* spectral solve: P = -sum omega_alpha / (l(l+1)) Y_alpha */
        slpi_ref_zeitlin_analysis(om, X, z, PREC);
        arb_zero(H2);
        for (int a = 0; a < nalpha; a++) {
            int l = slpi_ref_zeitlin_degree(a);
            arb_div_si(c + a, om + a, -(slong)l * (l + 1), PREC);
            arb_submul(H2, c + a, om + a, PREC);
        }
        arb_mul_2exp_si(H2, H2, -1);
        slpi_ref_zeitlin_synthesis(S, c, 0, z, PREC);
        TEST_CHECKF(acb_mat_overlaps(S, P), "N=%d: Thomas and spectral Poisson solves differ", N);
        slpi_ref_zeitlin_h0(H1, X, z, PREC);
        TEST_CHECKF(arb_overlaps(H1, H2) && arb_tight(H1, PREC - 24) && arb_is_positive(H1),
                    "N=%d: H0 two ways disagree", N);

        /* synth(coeffs(X)) = X0; coeffs(synth(c)) = c */
        slpi_ref_zeitlin_synthesis(S, om, 0, z, PREC);
        TEST_CHECKF(acb_mat_overlaps(S, X0), "N=%d: synth(coeffs(X)) != X - Tr X/N", N);
        slpi_ref_zeitlin_analysis(c, S, z, PREC);
        TEST_CHECKF(vec_overlaps(c, om, nalpha), "N=%d: coeffs(synth(w)) != w", N);

        /* Casimirs: Tr X0^2 = -||X0||_F^2 = -sum omega^2; eigenvalues of iX0 */
        slpi_ref_mat_trace_powers(trp, X0, 3, PREC);
        check_trace_powers(X0, N);
        acb_srcptr tr2 = trp + 2;
        acb_set(tr, trp + 1);
        arb_zero(t);
        for (int a = 0; a < nalpha; a++) arb_submul(t, om + a, om + a, PREC);
        TEST_CHECKF(arb_overlaps(acb_realref(tr), t) && arb_contains_zero(acb_imagref(tr)),
                    "N=%d: enstrophy two ways disagree", N);
        int kind = slpi_ref_mat_eig_skewh(lam, X0, PREC);
        TEST_CHECKF(kind == 2, "N=%d: eigenvalues of a random state not isolated", N);
        arb_zero(s1);
        arb_zero(s2);
        arb_zero(t);
        for (int k = 0; k < N; k++) {
            arb_add(s1, s1, lam + k, PREC);
            arb_addmul(s2, lam + k, lam + k, PREC);
            arb_pow_ui(H1, lam + k, 3, PREC);
            arb_add(t, t, H1, PREC);
            if (k > 0) TEST_CHECKF(arb_lt(lam + k - 1, lam + k), "N=%d: eigenvalues not sorted", N);
        }
        /* sum lam = 0, sum lam^2 = -Tr X^2, sum lam^3 = Tr (iX)^3 = -i Tr X^3 */
        arb_neg(H2, acb_realref(tr));
        TEST_CHECKF(arb_contains_zero(s1) && arb_overlaps(s2, H2), "N=%d: eig power sums", N);
        TEST_CHECKF(arb_overlaps(t, acb_imagref(tr2)) && arb_contains_zero(acb_realref(tr2)),
                    "N=%d: sum lambda^3 != Im Tr X^3", N);
    }
    acb_mat_clear(X);
    acb_mat_clear(X0);
    acb_mat_clear(P);
    acb_mat_clear(L1);
    acb_mat_clear(L2);
    acb_mat_clear(S);
    _arb_vec_clear(om, nalpha);
    _arb_vec_clear(c, nalpha);
    _arb_vec_clear(lam, N);
    arb_clear(H1);
    arb_clear(H2);
    arb_clear(t);
    arb_clear(s1);
    arb_clear(s2);
    acb_clear(tr);
    _acb_vec_clear(trp, 3);
}

int main(void)
{
    test_start("t-ref-zeitlin", 20261121);
    int Ns[] = { 2, 5, 12, 16 };
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++) {
        slpi_ref_zeitlin z;
        slpi_error err;
        int N = Ns[i];
        TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK &&
                   slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_OK);
        check_basis(&z);
        if (N <= 12) check_eigen_orthonormal(&z);
        check_random(&z, (int)test_iters(N <= 5 ? 4 : 1));
        slpi_ref_zeitlin_clear(&z);
    }
    for (int N = 2; N <= 7; N++) check_trace_powers_tiny(N);
    /* bad N is an input error with a message */
    {
        slpi_ref_zeitlin z;
        slpi_error err = { 0, "" };
        TEST_CHECK(slpi_ref_zeitlin_init(&z, SLPI_ZEITLIN_NMAX + 1, PREC, &err) == SLPI_EINPUT && err.msg[0]);
        TEST_CHECK(slpi_ref_zeitlin_init(&z, 1, PREC, &err) == SLPI_EINPUT);
        /* beyond the tables as balls: the Laplacian's tables, then a refusal naming the range */
        TEST_CHECK(slpi_ref_zeitlin_init(&z, SLPI_ZEITLIN_ARB_NMAX + 1, PREC, &err) == SLPI_OK);
        err.msg[0] = 0;
        TEST_CHECK(slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_EINPUT && z.V == NULL && strstr(err.msg, "2..512"));
        slpi_ref_zeitlin_clear(&z);
    }
    flint_cleanup();
    TEST_END();
}
