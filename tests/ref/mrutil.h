/* mrutil.h — what the tests of the BLAS route's certified arithmetic share
 * (tests/ref/t-ref-mrmat.c, the products and sums; tests/ref/t-ref-mrsolve.c, the verified
 * solve): the kinds of input entries (random many-bit balls, near-cancellation, binades
 * 2^-300..2^300, underflowing products, subnormal inputs, exact inputs with bits below a
 * double), their generators, and the check that a ball matrix contains the midpoints of
 * Arb's and overlaps it. */
#ifndef SLPI_TESTS_MRUTIL_H
#define SLPI_TESTS_MRUTIL_H

#include "testutil.h"
#include "ref/mrmat.h"

#define PREC 256

enum { K_RANDOM, K_CANCEL, K_BINADES, K_UNDERFLOW, K_SUBNORMAL, K_LOWBITS, K_COUNT };
static const char *const kind_name[K_COUNT] = { "random", "cancel", "binades", "underflow", "subnormal", "lowbits" };

static inline double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* one real part of an input entry of the given kind */
static inline void part(arb_t x, int kind)
{
    switch (kind) {
    case K_RANDOM: /* a 200-bit midpoint and a radius up to 2^-40 */
        arb_set_d(x, gauss() * 0x1p-60);
        arb_add_si(x, x, 1 + test_rand_int(3), PREC);
        arb_add_error_2exp_si(x, -40 - (slong)test_rand_int(30));
        if (test_rand_int(4) == 0) mag_zero(arb_radref(x));
        break;
    case K_BINADES:
        arb_set_d(x, ldexp(gauss(), (int)test_rand_int(601) - 300));
        break;
    case K_UNDERFLOW:
        arb_set_d(x, ldexp(gauss(), -530 - (int)test_rand_int(20)));
        break;
    case K_SUBNORMAL: /* half subnormal, half large enough to lift them */
        arb_set_d(x, test_rand_int(2) ? ldexp(gauss(), -1040 - (int)test_rand_int(30)) : ldexp(gauss(), 40));
        break;
    case K_LOWBITS: /* exact, 1/2..1 ulp of bits below a double: the rounding to doubles must count */
        arb_set_d(x, ldexp(test_rand_uniform(0.5, 1), -53));
        arb_add_si(x, x, 1, PREC);
        arb_mul_2exp_si(x, x, (slong)test_rand_int(41) - 20);
        if (test_rand_int(2)) arb_neg(x, x);
        break;
    default:
        arb_set_d(x, gauss());
        break;
    }
}

static inline void fill(acb_mat_t A, int kind, int cplx)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++) {
            acb_ptr z = acb_mat_entry(A, i, j);
            part(acb_realref(z), kind);
            if (cplx)
                part(acb_imagref(z), kind);
            else
                arb_zero(acb_imagref(z));
        }
}

/* the ball c contains the midpoint of r and overlaps it */
static inline int part_ok(const arb_struct *c, const arb_struct *r)
{
    return arb_contains_arf(c, arb_midref(r)) && arb_overlaps(c, r);
}

/* every entry of C contains the midpoint of R's and overlaps R */
static inline int contains_mids(const acb_mat_t C, const acb_mat_t R, slong *bad_i, slong *bad_j)
{
    for (slong i = 0; i < acb_mat_nrows(C); i++)
        for (slong j = 0; j < acb_mat_ncols(C); j++) {
            acb_srcptr c = acb_mat_entry(C, i, j), r = acb_mat_entry(R, i, j);
            if (!part_ok(acb_realref(c), acb_realref(r)) || !part_ok(acb_imagref(c), acb_imagref(r))) {
                *bad_i = i, *bad_j = j;
                return 0;
            }
        }
    return 1;
}

/* Corners: A, B with nonnegative midpoints (B's in [0, 1), A's in [0, 2^a_exp)) and radii
 * doubles of 20-bit mantissas at 2^(r_exp - 0..7) (exact mags); Av, Bv their corners
 * mid + rad, exact at PREC, whose product must lie in the ball of A B. */
static inline void corner_inputs(acb_mat_t A, acb_mat_t B, acb_mat_t Av, acb_mat_t Bv, int cplx, int r_exp, int a_exp)
{
    for (int side = 0; side < 2; side++) {
        acb_mat_struct *X = side ? B : A, *V = side ? Bv : Av;
        for (slong i = 0; i < acb_mat_nrows(X); i++)
            for (slong j = 0; j < acb_mat_ncols(X); j++)
                for (int p = 0; p <= cplx; p++) {
                    arb_ptr x = p ? acb_imagref(acb_mat_entry(X, i, j)) : acb_realref(acb_mat_entry(X, i, j));
                    arb_ptr v = p ? acb_imagref(acb_mat_entry(V, i, j)) : acb_realref(acb_mat_entry(V, i, j));
                    double r = ldexp((double)(1 + test_rand_int(1 << 20)), r_exp - (int)test_rand_int(8));
                    double mid = side ? test_rand_uniform(0, 1) : ldexp(test_rand_uniform(0, 1), a_exp);
                    arb_set_d(x, mid);
                    mag_set_d(arb_radref(x), r);
                    arb_set_d(v, r);
                    arb_add_arf(v, v, arb_midref(x), PREC); /* exact at PREC */
                }
    }
}

/* every entry of C contains R's; else 0 with the first that does not */
static inline int contains_all(const acb_mat_t C, const acb_mat_t R, slong *bad_i, slong *bad_j)
{
    for (slong i = 0; i < acb_mat_nrows(C); i++)
        for (slong j = 0; j < acb_mat_ncols(C); j++)
            if (!acb_contains(acb_mat_entry(C, i, j), acb_mat_entry(R, i, j))) {
                *bad_i = i, *bad_j = j;
                return 0;
            }
    return 1;
}

/* A product under test: C = A B, 1, or 0 with the reason in why (refused). */
typedef int (*mr_product)(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, char *why, size_t why_len);

/* A (m x k), B (k x n), and C, R (m x n) for a product and Arb's. */
static inline void product_init(acb_mat_t A, acb_mat_t B, acb_mat_t C, acb_mat_t R, int m, int k, int n)
{
    acb_mat_init(A, m, k);
    acb_mat_init(B, k, n);
    acb_mat_init(C, m, n);
    acb_mat_init(R, m, n);
}

static inline void product_clear(acb_mat_t A, acb_mat_t B, acb_mat_t C, acb_mat_t R)
{
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(C);
    acb_mat_clear(R);
}

/* C = A B by mul against Arb's R = A B at PREC (named what in the messages): the product
 * not refused, and every entry of C containing R's midpoint and overlapping it. Returns 1
 * where the product was taken. */
static inline int check_against_arb(mr_product mul, const acb_mat_t A, const acb_mat_t B, acb_mat_t C, acb_mat_t R,
                                    const char *what, int cplx)
{
    int m = (int)acb_mat_nrows(A), k = (int)acb_mat_ncols(A), n = (int)acb_mat_ncols(B);
    char why[200] = "";
    int ok = mul(C, A, B, why, sizeof why);
    TEST_CHECKF(ok, "%s %dx%dx%d cplx=%d: refused: %s", what, m, k, n, cplx, why);
    acb_mat_mul(R, A, B, PREC);
    slong bi = 0, bj = 0;
    if (ok)
        TEST_CHECKF(contains_mids(C, R, &bi, &bj), "%s %dx%dx%d cplx=%d: entry (%ld,%ld) %s misses Arb's %s", what, m,
                    k, n, cplx, (long)bi, (long)bj, arb_get_str(acb_realref(acb_mat_entry(C, bi, bj)), 40, 0),
                    arb_get_str(acb_realref(acb_mat_entry(R, bi, bj)), 40, 0));
    return ok;
}

/* X made <0, r> (a centred factor: its midpoints 0) and its corners V its radii r, the
 * imaginary parts' of sign im */
static inline void centre_inputs(acb_mat_t X, acb_mat_t V, int cplx, int im)
{
    for (slong i = 0; i < acb_mat_nrows(X); i++)
        for (slong j = 0; j < acb_mat_ncols(X); j++)
            for (int p = 0; p <= cplx; p++) {
                arb_ptr x = p ? acb_imagref(acb_mat_entry(X, i, j)) : acb_realref(acb_mat_entry(X, i, j));
                arb_ptr v = p ? acb_imagref(acb_mat_entry(V, i, j)) : acb_realref(acb_mat_entry(V, i, j));
                arf_zero(arb_midref(x));
                arf_set_mag(arb_midref(v), arb_radref(x));
                if (p && im < 0) arb_neg(v, v);
            }
}

/* X made a point (its radii 0) and its corners V its midpoints */
static inline void point_inputs(acb_mat_t X, acb_mat_t V, int keep_last)
{
    slong r = acb_mat_nrows(X), c = acb_mat_ncols(X);
    for (slong i = 0; i < r; i++)
        for (slong j = 0; j < c; j++) {
            if (keep_last && i == r - 1 && j == c - 1) continue;
            acb_get_mid(acb_mat_entry(X, i, j), acb_mat_entry(X, i, j));
            acb_set(acb_mat_entry(V, i, j), acb_mat_entry(X, i, j));
        }
}

/* The corners' check (corner_inputs): the product's ball of A B contains the exact
 * (mA + rA)(mB + rB), for an m x k times k x n product; centred 0 (1): A (B) made
 * centred first (centre_inputs, its corners' imaginary parts of sign im), 2 (3): A (B)
 * made a point (point_inputs), 4 (5): the same but for its last entry (not a point),
 * else -1. */
static inline void check_corners(mr_product mul, int m, int k, int n, int cplx, int r_exp, int a_exp, int centred,
                                 int im)
{
    acb_mat_t A, B, Av, Bv, C, R;
    acb_mat_init(A, m, k);
    acb_mat_init(B, k, n);
    acb_mat_init(Av, m, k);
    acb_mat_init(Bv, k, n);
    acb_mat_init(C, m, n);
    acb_mat_init(R, m, n);
    corner_inputs(A, B, Av, Bv, cplx, r_exp, a_exp);
    if (centred >= 2)
        point_inputs(centred % 2 ? B : A, centred % 2 ? Bv : Av, centred >= 4);
    else if (centred >= 0)
        centre_inputs(centred ? B : A, centred ? Bv : Av, cplx, im);
    char why[200] = "";
    int ok = mul(C, A, B, why, sizeof why);
    TEST_CHECKF(ok, "vertex %dx%dx%d: refused: %s", m, k, n, why);
    acb_mat_mul(R, Av, Bv, PREC);
    slong bi = 0, bj = 0;
    if (ok)
        TEST_CHECKF(contains_all(C, R, &bi, &bj),
                    "vertex %dx%dx%d cplx=%d centred=%d im=%d: entry (%ld,%ld) %s %s misses the corner product %s %s",
                    m, k, n, cplx, centred, im, (long)bi, (long)bj,
                    arb_get_str(acb_realref(acb_mat_entry(C, bi, bj)), 20, 0),
                    arb_get_str(acb_imagref(acb_mat_entry(C, bi, bj)), 20, 0),
                    arb_get_str(acb_realref(acb_mat_entry(R, bi, bj)), 20, 0),
                    arb_get_str(acb_imagref(acb_mat_entry(R, bi, bj)), 20, 0));
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(Av);
    acb_mat_clear(Bv);
    acb_mat_clear(C);
    acb_mat_clear(R);
}

#endif
