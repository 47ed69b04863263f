/* t-ref-mrsolve.c — the BLAS route's verified solve (ref/mrsolve.c) against Arb's
 * (docs/design.md#blas-route): the Cayley factor of ISOMP's update, A = I - Psi/2,
 * B = I + Psi/2, Psi skew-Hermitian of each kind of tests/ref/mrutil.h but cancel
 * (binades 2^-20..2^20), n = 1, 5, 32: the solve's balls contain the midpoints of
 * acb_mat_solve's at 256 bits and intersect them; at a corner of a wide ball (nonnegative
 * inverse, so the first-order radius is sharp) the corner's solution lies inside (the
 * second-order term counts); a singular midpoint and a ball too wide for ||I - R A|| < 1
 * are refused with their reasons. Internal interface ref/mrmat.h. */
#include "mrutil.h"

/* The Cayley solve of ISOMP's CAY update: A = I - Psi/2, B = I + Psi/2 for Psi = F - F^*
 * (F of the given kind: skew-Hermitian, so A is invertible however wide the binades).
 * Every entry of slpi_ref_mrmat_solve contains the midpoint of acb_mat_solve's at 256
 * bits and intersects it. */
static void check_solve(int n, int kind)
{
    acb_mat_t F, Psi, A, B, X, R;
    acb_mat_init(F, n, n);
    acb_mat_init(Psi, n, n);
    acb_mat_init(A, n, n);
    acb_mat_init(B, n, n);
    acb_mat_init(X, n, n);
    acb_mat_init(R, n, n);
    fill(F, kind, 1);
    if (kind == K_BINADES) /* 2^-20..2^20: a condition number up to about 2^20 */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                acb_ptr f = acb_mat_entry(F, i, j);
                acb_set_d_d(f, ldexp(gauss(), (int)test_rand_int(41) - 20),
                            ldexp(gauss(), (int)test_rand_int(41) - 20));
            }
    acb_mat_conjugate_transpose(Psi, F);
    acb_mat_sub(Psi, F, Psi, PREC);
    acb_mat_scalar_mul_2exp_si(Psi, Psi, -1);
    acb_mat_one(A);
    acb_mat_sub(A, A, Psi, PREC);
    acb_mat_one(B);
    acb_mat_add(B, B, Psi, PREC);
    char why[200] = "";
    int ok = slpi_ref_mrmat_solve(X, A, B, 64, why, sizeof why);
    TEST_CHECKF(ok == 1, "solve %s n=%d: refused (%d): %s", kind_name[kind], n, ok, why);
    TEST_CHECKF(acb_mat_solve(R, A, B, PREC), "solve %s n=%d: Arb's solve fails", kind_name[kind], n);
    slong bi = 0, bj = 0;
    if (ok == 1)
        TEST_CHECKF(contains_mids(X, R, &bi, &bj), "solve %s n=%d: entry (%ld,%ld) %s misses Arb's %s", kind_name[kind],
                    n, (long)bi, (long)bj, arb_get_str(acb_realref(acb_mat_entry(X, bi, bj)), 20, 0),
                    arb_get_str(acb_realref(acb_mat_entry(R, bi, bj)), 20, 0));
    acb_mat_clear(F);
    acb_mat_clear(Psi);
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(X);
    acb_mat_clear(R);
}

/* A corner of a wide ball: A = <I - P, 2^-12 Q> (P, Q >= 0 small, so mid(A)^{-1} >= 0),
 * B >= 0 exact; the solution at the corner I - P - 2^-12 Q lies in the solve's ball only if
 * its second-order term (the e_i d_j of ref/mrsolve.c) and every input radius count. */
static void check_solve_vertex(int n)
{
    acb_mat_t A, Av, B, X, R;
    acb_mat_init(A, n, n);
    acb_mat_init(Av, n, n);
    acb_mat_init(B, n, n);
    acb_mat_init(X, n, n);
    acb_mat_init(R, n, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double p = test_rand_uniform(0, 0.5 / n), r = ldexp(test_rand_uniform(0.5, 1), -12);
            arb_ptr a = acb_realref(acb_mat_entry(A, i, j)), v = acb_realref(acb_mat_entry(Av, i, j));
            arb_set_d(a, (i == j) - p);
            mag_set_d(arb_radref(a), r);
            arb_set_d(v, (i == j) - p);
            arb_sub_si(v, v, 0, PREC);
            arb_set_d(acb_imagref(acb_mat_entry(Av, i, j)), 0);
            arb_t t;
            arb_init(t);
            arb_set_d(t, r);
            arb_sub(v, v, t, PREC); /* exact at PREC */
            arb_clear(t);
            arb_set_d(acb_realref(acb_mat_entry(B, i, j)), test_rand_uniform(0, 1));
        }
    char why[200] = "";
    int ok = slpi_ref_mrmat_solve(X, A, B, 64, why, sizeof why);
    TEST_CHECKF(ok == 1, "solve vertex n=%d: refused: %s", n, why);
    TEST_CHECK(acb_mat_solve(R, Av, B, PREC));
    int in = 1;
    slong bi = 0, bj = 0;
    for (slong i = 0; i < n && in; i++)
        for (slong j = 0; j < n && in; j++)
            if (!acb_contains(acb_mat_entry(X, i, j), acb_mat_entry(R, i, j))) in = 0, bi = i, bj = j;
    if (ok == 1)
        TEST_CHECKF(in, "solve vertex n=%d: entry (%ld,%ld) %s misses the corner's solution %s", n, (long)bi, (long)bj,
                    arb_get_str(acb_realref(acb_mat_entry(X, bi, bj)), 20, 0),
                    arb_get_str(acb_realref(acb_mat_entry(R, bi, bj)), 20, 0));
    acb_mat_clear(A);
    acb_mat_clear(Av);
    acb_mat_clear(B);
    acb_mat_clear(X);
    acb_mat_clear(R);
}

/* The solve refuses with its reason: a singular midpoint, a ball too wide for the test. */
static void check_solve_refusal(void)
{
    acb_mat_t A, X;
    acb_mat_init(A, 3, 3);
    acb_mat_init(X, 3, 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) acb_one(acb_mat_entry(A, i, j));
    char why[200] = "";
    TEST_CHECK(slpi_ref_mrmat_solve(X, A, A, 64, why, sizeof why) == -1 && strstr(why, "singular"));
    acb_mat_one(A);
    for (int i = 0; i < 3; i++) mag_set_d(arb_radref(acb_realref(acb_mat_entry(A, i, 0))), 1.0);
    why[0] = 0;
    TEST_CHECKF(slpi_ref_mrmat_solve(X, A, A, 64, why, sizeof why) == -1 && strstr(why, ">= 1"), "wide: %s", why);
    acb_mat_clear(A);
    acb_mat_clear(X);
}

int main(void)
{
    test_start("t-ref-mrsolve", 43);
    for (long it = 0; it < test_iters(1); it++)
        for (int kind = 0; kind < K_COUNT; kind++)
            if (kind != K_CANCEL) {
                check_solve(1, kind);
                check_solve(5, kind);
                check_solve(32, kind);
            }
    for (long it = 0; it < test_iters(2); it++) {
        check_solve_vertex(4);
        check_solve_vertex(16);
    }
    check_solve_refusal();
    TEST_END();
}
