/* t-ref-mrmat.c — the BLAS route's certified product (ref/mrmat.c) against Arb's
 * (docs/design.md#blas-route): the same product of ball matrices computed two ways.
 *   - containment: every entry of slpi_ref_mrmat_mul(A, B) contains the midpoint of
 *     acb_mat_mul(A, B) at 256 bits (the Arb route) and the two balls intersect, for
 *     real and complex matrices of sizes 1..128 and five kinds of inputs: random balls
 *     with many-bit midpoints, near-cancelling rows (exact inputs whose products cancel
 *     to a few ulps of |A||B|), entries spanning 2^-300..2^300, products that underflow
 *     to subnormals and subnormal inputs, and exact inputs half an ulp to an ulp beyond
 *     a double (their rounding to doubles must enter the radius);
 *   - vertices: the exact product of the corner matrices (mA + rA)(mB + rB) (nonnegative
 *     midpoints, radii far above them) lies inside the ball: the radius must bound the
 *     input radii's effect with its own rounding (an unrounded |A||B| product, or a
 *     radius taken at the midpoints, falls short);
 *   - centred products (one factor's midpoint 0, the Krawczyk image's): the product of
 *     the corners that makes a part largest lies inside, for a zero midpoint on either
 *     side, real and complex; and a product with a single nonzero midpoint, first or
 *     last, is not taken for one (its radius stays at the rounding level);
 *   - point factors (one factor's radii 0, the iterate at which the map is enclosed): the
 *     corner product inside, for A or B a point, real and complex (the point form's
 *     radius (gamma |mA| + rA) |mB| or |mA| (gamma |mB| + rB) must keep the other
 *     factor's radius; a factor with one radius, at its last entry, is no point), and
 *     the near-cancelling kind, both factors points, bounds the rounding alone;
 *   - the table form (slpi_ref_mrmat_gemm_table, one radius and a norm bound for the
 *     table, the radius from Cauchy–Schwarz): containment of Arb's product on the kinds
 *     above (exact inputs leave only the rounding term), the corner product inside (also
 *     with the data's midpoints 0, whose product the route forms without the table, every
 *     entry written), and every radius at least its formula evaluated exactly (from the
 *     data's norms);
 *   - the sums of the route (slpi_ref_mrmat_scalar_pow2, _axpy: a X, Y + a X, Y + a (X - X^*), a down to an
 *     underflowing 2^-1030) contain Arb's midpoints on every kind, real and complex;
 *   - the upward step (slpi_ref_mrmat_up) lands one or two doubles above x, over every
 *     exponent, subnormals and zero included;
 *   - the probe passes on this machine's BLAS and refuses (in a child process: the probe
 *     runs once per process) a thread rounding upward and, on x86, flush-to-zero; a
 *     product beyond the double range is refused with a reason, and a product and a sum
 *     whose result leaves it at any one entry (check_overflow_at);
 *   - factors far below 2^-511 times factors far above: the product holds the exact
 *     product of the balls' corners (check_tiny: such parts are lifted, not dropped).
 * The verified solve (ref/mrsolve.c) has its own program, t-ref-mrsolve.c; the inputs'
 * generators are tests/ref/mrutil.h. Internal interface ref/mrmat.h. */
#include "mrutil.h"

#include <fenv.h>
#include <float.h>
#include <sys/wait.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif

/* Near-cancellation: the last row of B makes row 0 of A B nearly vanish in every column
 * (B_{k-1,j} = -round(sum_{l<k-1} A_0l B_lj / A_0,k-1)), the inputs exact doubles. */
static void cancel_rows(acb_mat_t B, const acb_mat_t A)
{
    slong k = acb_mat_nrows(B);
    if (k < 2) return;
    acb_t s, t;
    acb_init(s);
    acb_init(t);
    for (slong j = 0; j < acb_mat_ncols(B); j++) {
        acb_zero(s);
        for (slong l = 0; l + 1 < k; l++) acb_addmul(s, acb_mat_entry(A, 0, l), acb_mat_entry(B, l, j), PREC);
        acb_div(t, s, acb_mat_entry(A, 0, k - 1), PREC);
        acb_neg(t, t);
        acb_ptr b = acb_mat_entry(B, k - 1, j);
        arb_set_d(acb_realref(b), arf_get_d(arb_midref(acb_realref(t)), ARF_RND_NEAR));
        arb_set_d(acb_imagref(b), arf_get_d(arb_midref(acb_imagref(t)), ARF_RND_NEAR));
    }
    acb_clear(s);
    acb_clear(t);
}

static void check_product(int m, int k, int n, int kind, int cplx)
{
    acb_mat_t A, B, C, R;
    product_init(A, B, C, R, m, k, n);
    fill(A, kind, cplx);
    fill(B, kind, cplx);
    if (kind == K_CANCEL) cancel_rows(B, A);
    check_against_arb(slpi_ref_mrmat_mul, A, B, C, R, kind_name[kind], cplx);
    product_clear(A, B, C, R);
}

/* Corners (tests/ref/mrutil.h): mA 2^-60 below its radius, radii at 2^-20 .. 2^-27. */
static void check_vertex(int m, int k, int n, int cplx)
{
    check_corners(slpi_ref_mrmat_mul, m, k, n, cplx, -20, -60, -1, 0);
}

/* A centred product (one factor's midpoint 0 in every entry, ref/mrmat.c's header: the
 * Krawczyk image's products): with A (side 0) or B (side 1) made <0, r>, the other factor's
 * midpoints in [0, 1) and every radius at 2^-20 .. 2^-27 (corner_inputs), the ball must
 * hold the product of the corners that makes a part of every entry largest: the centred
 * side's r with its imaginary parts of sign im (-1: the real parts' largest, +1: the
 * imaginary parts'), the other side's mid + r. A radius that drops |m| or r of either
 * factor falls short. */
static void check_centred(int m, int k, int n, int cplx, int side, int im)
{
    check_corners(slpi_ref_mrmat_mul, m, k, n, cplx, -20, 0, side, im);
}

/* A point factor (ref/mrmat.c's header): A (side 0) or B (side 1) with radii 0, the
 * other's radii at 2^-20 .. 2^-27: the corner product inside; and with one radius left
 * at its last entry, which is no point (the general form must bound it) */
static void check_point(int m, int k, int n, int cplx, int side)
{
    check_corners(slpi_ref_mrmat_mul, m, k, n, cplx, -20, 0, 2 + side, 0);
    check_corners(slpi_ref_mrmat_mul, m, k, n, cplx, -20, 0, 4 + side, 0);
}

/* A product that is not centred however few its nonzero midpoints: A exact and zero but
 * for its last entry (at row m - 1, column k - 1, or at row 0 when first), B exact with
 * bits below a double; each entry's radius must be at the rounding level (at most 2^-30
 * of the entry and 2^-400, where the centred form would give the entry's whole size). */
static void check_sparse(int m, int k, int n, int cplx, int first)
{
    acb_mat_t A, B, C, R;
    product_init(A, B, C, R, m, k, n);
    fill(B, K_LOWBITS, cplx);
    acb_ptr a = first ? acb_mat_entry(A, 0, 0) : acb_mat_entry(A, m - 1, k - 1);
    arb_set_d(acb_realref(a), 1 + test_rand_uniform(0, 1));
    if (cplx) arb_set_d(acb_imagref(a), test_rand_uniform(-1, 1));
    int ok = check_against_arb(slpi_ref_mrmat_mul, A, B, C, R, "sparse", cplx), bad = 0;
    slong bi = 0, bj = 0;
    arb_t t;
    arb_init(t);
    for (slong i = 0; ok && i < m && !bad; i++)
        for (slong j = 0; j < n && !bad; j++)
            for (int p = 0; p <= cplx && !bad; p++) {
                acb_srcptr c = acb_mat_entry(C, i, j), r = acb_mat_entry(R, i, j);
                arb_abs(t, p ? acb_imagref(r) : acb_realref(r));
                arb_mul_2exp_si(t, t, -30);
                arb_add_error_2exp_si(t, -400); /* the lifted zeros' terms: 2^-511 |B| */
                arf_add_ui(arb_midref(t), arb_midref(t), 0, 53, ARF_RND_UP);
                mag_t rad;
                mag_init(rad);
                arf_get_mag(rad, arb_midref(t));
                mag_add(rad, rad, arb_radref(t));
                bad = mag_cmp(arb_radref(p ? acb_imagref(c) : acb_realref(c)), rad) > 0;
                mag_clear(rad);
                bi = i, bj = j;
            }
    TEST_CHECKF(!bad, "sparse %dx%dx%d cplx=%d first=%d: entry (%ld,%ld) %s wider than the rounding level", m, k, n,
                cplx, first, (long)bi, (long)bj, arb_get_str(acb_realref(acb_mat_entry(C, bi, bj)), 20, 0));
    arb_clear(t);
    product_clear(A, B, C, R);
}

/* The table form's radius against its formula (ref/mrmat.c's header) in exact arithmetic:
 * every entry of C's vector v (row of X T, column of T X) is at least
 *     sT (|mx|_1 + |rx|_1) + nT (|rx|_2 + gamma_k |mx|_2) + k eta,
 * whatever the BLAS's sums lost to rounding (their bound (fl + k eta) / (1 - gamma_k)). */
static void check_table_formula(const double *rC, const double *mX, const double *rX, int v, int m, int k, int n,
                                int t_left, double sT, double nT, int kind)
{
    arb_t s1, sm, sr, t, g, F;
    arb_init(s1), arb_init(sm), arb_init(sr), arb_init(t), arb_init(g), arb_init(F);
    for (int l = 0; l < k; l++) {
        size_t e = t_left ? (size_t)l * n + v : (size_t)v * k + l;
        arb_set_d(t, fabs(mX[e]));
        arb_add(s1, s1, t, PREC);
        arb_addmul(sm, t, t, PREC);
        arb_set_d(t, rX[e]);
        arb_add(s1, s1, t, PREC);
        arb_addmul(sr, t, t, PREC);
    }
    arb_set_d(g, ldexp((double)k, -53)); /* gamma_k = k u / (1 - k u) */
    arb_sub_ui(t, g, 1, PREC);
    arb_neg(t, t);
    arb_div(g, g, t, PREC);
    arb_sqrt(sm, sm, PREC);
    arb_sqrt(sr, sr, PREC);
    arb_addmul(sr, g, sm, PREC);
    arb_set_d(t, nT);
    arb_mul(F, t, sr, PREC);
    arb_set_d(t, sT);
    arb_addmul(F, t, s1, PREC);
    arb_set_d(t, ldexp((double)k, -1074));
    arb_add(F, F, t, PREC);
    int bad = -1;
    for (int o = 0; o < (t_left ? m : n) && bad < 0; o++) {
        arb_set_d(t, rC[t_left ? (size_t)o * n + v : (size_t)v * n + o]);
        if (!arb_le(F, t)) bad = o;
    }
    TEST_CHECKF(bad < 0, "table %dx%dx%d t_left=%d %s: vector %d: radius below its formula %s", m, k, n, t_left,
                kind < 0 ? "corner" : kind_name[kind], v, arb_get_str(F, 20, 0));
    arb_clear(s1), arb_clear(sm), arb_clear(sr), arb_clear(t), arb_clear(g), arb_clear(F);
}

/* The table form (slpi_ref_mrmat_gemm_table, the su(N) tables' products): C = X T
 * (t_left = 0) or T X with T = <mT, sT> (one radius) of norm bound slpi_ref_mrmat_norm_bound.
 *   - kind (random, cancel, binades, underflow, subnormal; X and T exact doubles, T
 *     exact or with one radius, X exact or with radii): every entry contains the
 *     midpoint of Arb's product of the same balls at 256 bits and overlaps it (an exact
 *     T and X leave only the rounding term);
 *   - corner (kind < 0): mX in [0, 2^-60], mT in [0, 1], radii with 20-bit mantissas far
 *     above mX: the exact (mX + rX)(mT + sT) lies inside (each radius term counts). */
static void check_table(int m, int k, int n, int t_left, int kind)
{
    int xr = t_left ? k : m, xc = t_left ? n : k, tr = t_left ? m : k, tc = t_left ? k : n;
    double *mX = malloc(sizeof(double) * (size_t)xr * xc), *rX = malloc(sizeof(double) * (size_t)xr * xc);
    double *mT = malloc(sizeof(double) * (size_t)tr * tc);
    double *mC = malloc(sizeof(double) * (size_t)m * n), *rC = malloc(sizeof(double) * (size_t)m * n);
    double sT =
        kind < 0 || test_rand_int(2) ? ldexp((double)(1 + test_rand_int(1 << 20)), -20 - (kind < 0 ? 0 : 30)) : 0;
    acb_mat_t X, T, R;
    acb_mat_init(X, xr, xc);
    acb_mat_init(T, tr, tc);
    acb_mat_init(R, m, n);
    int fk = kind == K_BINADES || kind == K_UNDERFLOW || kind == K_SUBNORMAL ? kind : K_CANCEL; /* K_CANCEL: gauss */
    fill(X, fk, 0);
    fill(T, fk, 0);
    if (kind == K_CANCEL) {
        if (t_left)
            cancel_rows(X, T);
        else
            cancel_rows(T, X);
    }
    int rx = kind < 0 || test_rand_int(2);
    for (int side = 0; side < 2; side++) {
        acb_mat_struct *M = side ? T : X;
        for (slong i = 0; i < acb_mat_nrows(M); i++)
            for (slong j = 0; j < acb_mat_ncols(M); j++) {
                arb_ptr v = acb_realref(acb_mat_entry(M, i, j));
                double mid = kind < 0 ? (side             ? test_rand_uniform(0, 1)
                                             : kind == -2 ? 0 /* centred: the midpoints 0, no dgemv */
                                                          : ldexp(test_rand_uniform(0, 1), -60))
                                      : arf_get_d(arb_midref(v), ARF_RND_NEAR);
                double rad = side ? sT
                    : rx          ? ldexp((double)(1 + test_rand_int(1 << 20)), kind < 0 ? -20 : -70) * fabs(mid)
                                  : 0;
                if (kind < 0 && !side) rad = ldexp((double)(1 + test_rand_int(1 << 20)), -20 - (int)test_rand_int(8));
                (side ? mT : mX)[i * acb_mat_ncols(M) + j] = mid;
                if (!side) rX[i * xc + j] = rad;
                arb_set_d(v, mid);
                mag_set_d(arb_radref(v), rad);
            }
    }
    if (kind < 0) { /* the corner: X and T exactly mid + rad */
        for (int side = 0; side < 2; side++) {
            acb_mat_struct *M = side ? T : X;
            for (slong i = 0; i < acb_mat_nrows(M); i++)
                for (slong j = 0; j < acb_mat_ncols(M); j++) {
                    arb_ptr v = acb_realref(acb_mat_entry(M, i, j));
                    arf_t r;
                    arf_init(r);
                    arf_set_d(r, side ? sT : rX[i * xc + j]);
                    arb_set_d(v, (side ? mT : mX)[i * acb_mat_ncols(M) + j]);
                    arb_add_arf(v, v, r, PREC);
                    arf_clear(r);
                }
        }
    }
    double nT = slpi_ref_mrmat_norm_bound(mT, tr, tc);
    for (int e = 0; e < m * n; e++) mC[e] = NAN; /* every entry must be written */
    char why[200] = "";
    /* the table as a block of a wider one (row stride ldt), its padding NaN: never read */
    int ldt = tc + (int)test_rand_int(4);
    double *mTw = malloc(sizeof(double) * (size_t)tr * ldt);
    for (int i = 0; i < tr; i++)
        for (int j = 0; j < ldt; j++) mTw[(size_t)i * ldt + j] = j < tc ? mT[(size_t)i * tc + j] : NAN;
    int ok = slpi_ref_mrmat_gemm_table(mC, rC, m, k, n, mX, rX, mTw, ldt, sT, nT, t_left, why, sizeof why);
    free(mTw);
    TEST_CHECKF(ok, "table %dx%dx%d t_left=%d kind %d: refused: %s", m, k, n, t_left, kind, why);
    if (t_left)
        acb_mat_mul(R, T, X, PREC);
    else
        acb_mat_mul(R, X, T, PREC);
    int in = 1, bi = 0;
    arb_t c;
    arb_init(c);
    for (int i = 0; i < m * n && ok && in; i++) {
        arb_set_d(c, mC[i]);
        mag_set_d(arb_radref(c), rC[i]);
        arb_srcptr r = acb_realref(acb_mat_entry(R, i / n, i % n));
        if (kind < 0 ? !arb_contains(c, r) : !part_ok(c, r)) in = 0, bi = i;
    }
    TEST_CHECKF(in, "table %dx%dx%d t_left=%d %s: entry %d %.17g +- %g misses %s", m, k, n, t_left,
                kind < 0 ? "corner" : kind_name[kind], bi, mC[bi], rC[bi], kind < 0 ? "the corner product" : "Arb's");
    for (int v = 0; v < (t_left ? n : m) && ok; v++) check_table_formula(rC, mX, rX, v, m, k, n, t_left, sT, nT, kind);
    arb_clear(c);
    acb_mat_clear(X);
    acb_mat_clear(T);
    acb_mat_clear(R);
    free(mX);
    free(rX);
    free(mT);
    free(mC);
    free(rC);
}

static void check_refusal(void)
{
    acb_mat_t A, C;
    acb_mat_init(A, 2, 2);
    acb_mat_init(C, 2, 2);
    acb_mat_one(A);
    arb_set_d(acb_realref(acb_mat_entry(A, 0, 1)), 1.0);
    arb_mul_2exp_si(acb_realref(acb_mat_entry(A, 0, 1)), acb_realref(acb_mat_entry(A, 0, 1)), 2000);
    char why[200] = "";
    TEST_CHECK(!slpi_ref_mrmat_mul(C, A, A, why, sizeof why));
    TEST_CHECKF(strstr(why, "double range") != NULL, "the refusal names its reason: %s", why);
    acb_mat_clear(A);
    acb_mat_clear(C);
}

/* Factors far below 2^-511 (A: midpoints about 2^-600, radii about 2^-620) times factors
 * far above (B: about 2^590, radii 2^570 or 0), real and complex: the radius product
 * lifts such parts to 2^-511 instead of dropping them (ref/mrmat.c's header: no
 * subnormal factor), so C = A B holds the exact product of the corners mA + rA, mB + rB,
 * which lies about 2^-30 (relative) from the midpoints' */
/* z = m + r exactly */
static void corner(arb_t z, double m, double r)
{
    arb_t t;
    arb_init(t);
    arb_set_d(z, m);
    arb_set_d(t, r);
    arb_add(z, z, t, ARF_PREC_EXACT);
    arb_clear(t);
}

static void check_tiny(int m, int k, int n, int c)
{
    slpi_ref_mr A = { 0 }, B = { 0 }, C = { 0 };
    char why[200] = "";
    int ok = slpi_ref_mrmat_init(&A, m, k, c) && slpi_ref_mrmat_init(&B, k, n, c);
    int rb = (int)test_rand_int(2);
    for (int e = 0; ok && e < m * k * c; e++)
        A.mid[e] = ldexp(test_rand_uniform(0.5, 1), -600), A.rad[e] = ldexp(test_rand_uniform(0.5, 1), -620);
    for (int e = 0; ok && e < k * n * c; e++)
        B.mid[e] = ldexp(test_rand_uniform(0.5, 1), 590), B.rad[e] = rb ? ldexp(test_rand_uniform(0.5, 1), 570) : 0;
    ok = ok && slpi_ref_mrmat_mul_mr(&C, &A, &B, why, sizeof why);
    TEST_CHECKF(ok, "tiny %dx%dx%d c=%d: refused: %s", m, k, n, c, why);
    acb_t s, x, y;
    arb_t ball;
    acb_init(s), acb_init(x), acb_init(y), arb_init(ball);
    int in = 1;
    for (int i = 0; ok && in && i < m; i++)
        for (int j = 0; in && j < n; j++) {
            acb_zero(s);
            for (int l = 0; l < k; l++) {
                size_t a = ((size_t)i * k + l) * c, b = ((size_t)l * n + j) * c;
                acb_zero(x), acb_zero(y);
                for (int p = 0; p < c; p++) {
                    corner(p ? acb_imagref(x) : acb_realref(x), A.mid[a + p], A.rad[a + p]);
                    corner(p ? acb_imagref(y) : acb_realref(y), B.mid[b + p], B.rad[b + p]);
                }
                acb_addmul(s, x, y, ARF_PREC_EXACT);
            }
            for (int p = 0; p < c; p++) {
                size_t e = ((size_t)i * n + j) * c + p;
                arb_set_d(ball, C.mid[e]);
                mag_set_d(arb_radref(ball), C.rad[e]);
                in = arb_contains(ball, p ? acb_imagref(s) : acb_realref(s));
                TEST_CHECKF(in,
                            "tiny %dx%dx%d c=%d rB=%d: entry (%d,%d) part %d %.17g +- %g misses the corners' product",
                            m, k, n, c, rb, i, j, p, C.mid[e], C.rad[e]);
            }
        }
    acb_clear(s), acb_clear(x), acb_clear(y), arb_clear(ball);
    slpi_ref_mrmat_clear(&A);
    slpi_ref_mrmat_clear(&B);
    slpi_ref_mrmat_clear(&C);
}

/* A result beyond the double range at every position e is refused (the finiteness
 * checks read every entry, the tail after the last whole block of four included): an
 * n x n product (real or complex) whose entry e overflows, with radii and midpoints
 * alone, and Y + X whose midpoint or whose radius alone overflows at e */
static void check_overflow_at(int n, int c)
{
    size_t all = (size_t)n * n * c;
    for (size_t e = 0; e < all; e++) {
        slpi_ref_mr A = { 0 }, B = { 0 }, C = { 0 };
        char why[200] = "";
        int ok = slpi_ref_mrmat_init(&A, n, n, c) && slpi_ref_mrmat_init(&B, n, n, c);
        for (size_t f = 0; ok && f < all; f++) {
            A.mid[f] = f % ((size_t)(n + 1) * c) == 0 ? 2 : 0, A.rad[f] = 0; /* 2 I */
            B.mid[f] = f == e ? 0.75 * DBL_MAX : 0.5, B.rad[f] = 0x1p-60;
        }
        TEST_CHECK(ok);
        for (int with_rad = 0; ok && with_rad < 2; with_rad++) {
            int got = with_rad ? slpi_ref_mrmat_mul_mr(&C, &A, &B, why, sizeof why)
                               : slpi_ref_mrmat_mul_mr_mid(&C, &A, &B, why, sizeof why);
            TEST_CHECKF(!got && strstr(why, "double range") != NULL,
                        "product %dx%d c=%d overflowing at %zu (radii %d): refused: %s", n, n, c, e, with_rad, why);
            slpi_ref_mrmat_clear(&C);
        }
        for (int part = 0; ok && part < 2; part++) { /* 0: the midpoint overflows, 1: the radius alone */
            for (size_t f = 0; f < all; f++) A.mid[f] = B.mid[f] = 0.5, A.rad[f] = B.rad[f] = 0x1p-60;
            if (part)
                A.rad[e] = B.rad[e] = 0.75 * DBL_MAX;
            else
                A.mid[e] = B.mid[e] = 0.75 * DBL_MAX;
            TEST_CHECKF(!slpi_ref_mrmat_axpy(&A, 1, &B, 0), "axpy %dx%d c=%d overflowing at %zu (%s): refused", n, n, c,
                        e, part ? "radius" : "midpoint");
        }
        slpi_ref_mrmat_clear(&A);
        slpi_ref_mrmat_clear(&B);
    }
}

/* The probe in a child: mode 0 rounds upward, mode 1 flushes subnormals to zero; `later`:
 * the probe first passes in the default mode, and the thread changes its mode after (the
 * probe's own run is once per process, its refusals per call). A processor that does not
 * honour the mode (valgrind's emulation ignores it) leaves nothing to refuse: the child
 * then exits 2 and the check says so. */
static void check_probe_refusal(int mode, const char *reason, int later)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char first[200] = "";
        if (later && !slpi_ref_mrmat_probe(first, sizeof first)) _exit(1);
        if (mode == 0) fesetround(FE_UPWARD);
#ifdef __SSE__
        else
            _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
#endif
        volatile double tiny = 0x1p-540, up = 1 + 0x1p-52;
        if (mode == 0 ? up * up == 1 + 0x1p-51 : tiny * 0x1p-500 != 0) _exit(2);
        char why[200] = "";
        int ok = slpi_ref_mrmat_probe(why, sizeof why);
        _exit(!ok && strstr(why, reason) != NULL ? 0 : 1);
    }
    int st = 0;
    TEST_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
        printf("t-ref-mrmat: mode %d is not honoured here (an emulator?): the probe's refusal not checked\n", mode);
    else
        TEST_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the probe does not refuse mode %d%s with \"%s\"", mode,
                    later ? " set after a probe that passed" : "", reason);
}

/* slpi_ref_mrmat_axpy and _scalar_pow2 against Arb: a X, Y + a X and Y + a (X - X^*) (a = 1, 1/2,
 * 2^-1030: the last underflows) on n x n ball matrices of the given kind, complex or real, converted
 * by slpi_ref_mrmat_get; every entry contains Arb's midpoint at 256 bits and overlaps it */
static void check_axpy(int n, int kind, int cplx, int skew)
{
    static const double as[] = { 1, 0.5, 0x1p-1030 };
    double a = as[test_rand_int(3)];
    acb_mat_t X, Y, R, T, C;
    acb_mat_init(X, n, n);
    acb_mat_init(Y, n, n);
    acb_mat_init(R, n, n);
    acb_mat_init(T, n, n);
    acb_mat_init(C, n, n);
    fill(X, kind, cplx);
    fill(Y, kind, cplx);
    slpi_ref_mr x = { 0 }, y = { 0 }, z = { 0 };
    int ok = slpi_ref_mrmat_get(&x, X, cplx ? 2 : 1) && slpi_ref_mrmat_get(&y, Y, cplx ? 2 : 1) &&
        slpi_ref_mrmat_init(&z, n, n, cplx ? 2 : 1);
    for (size_t e = 0; ok && e < (size_t)n * n * z.c; e++)
        slpi_ref_mrmat_scalar_pow2(z.mid + e, z.rad + e, a, x.mid[e], x.rad[e]);
    ok = ok && slpi_ref_mrmat_axpy(&y, a, &x, skew);
    TEST_CHECKF(ok, "axpy %s n=%d: refused", kind_name[kind], n);
    if (ok) { /* the scaling a X alone */
        slpi_ref_mrmat_set(C, &z);
        acb_mat_scalar_mul_2exp_si(R, X, a == 1 ? 0 : a == 0.5 ? -1 : -1030);
        slong bi = 0, bj = 0;
        TEST_CHECKF(contains_mids(C, R, &bi, &bj), "scale %s n=%d cplx=%d a=%a: entry (%ld,%ld) misses Arb's",
                    kind_name[kind], n, cplx, a, (long)bi, (long)bj);
    }
    slpi_ref_mrmat_clear(&z);
    if (ok) {
        slpi_ref_mrmat_set(C, &y);
        acb_mat_set(T, X);
        if (skew) {
            acb_mat_conjugate_transpose(R, X);
            acb_mat_sub(T, X, R, PREC);
        }
        acb_mat_scalar_mul_2exp_si(T, T, a == 1 ? 0 : a == 0.5 ? -1 : -1030);
        acb_mat_add(R, Y, T, PREC);
        slong bi = 0, bj = 0;
        TEST_CHECKF(contains_mids(C, R, &bi, &bj), "axpy %s n=%d cplx=%d skew=%d a=%a: entry (%ld,%ld) misses Arb's",
                    kind_name[kind], n, cplx, skew, a, (long)bi, (long)bj);
    }
    slpi_ref_mrmat_clear(&x);
    slpi_ref_mrmat_clear(&y);
    acb_mat_clear(X);
    acb_mat_clear(Y);
    acb_mat_clear(R);
    acb_mat_clear(T);
    acb_mat_clear(C);
}

/* slpi_ref_mrmat_up(x) lies above x, one or two doubles above it where |x| >= 2^-900 and
 * at most 2^-966 above the second double beyond below that (its underflow term
 * SLPI_REF_MRMAT_TINY = 2^-968, ref/mrmat.h): 0, the subnormals, the binades about
 * 2^-1022 + 53 and 2^-968 + 53 where phi |x| meets the term, powers of two, random doubles
 * of every exponent, and the largest below the overflow threshold */
static void check_up(void)
{
    int bad = 0;
    for (long it = 0; it < test_iters(200000); it++) {
        double x;
        switch (it % 5) {
        case 0:
            x = ldexp(1.0, (int)test_rand_int(2098) - 1074);
            break;
        case 1:
            x = ldexp(test_rand_uniform(1, 2), (int)test_rand_int(2046) - 1022);
            break;
        case 2:
            x = ldexp(test_rand_uniform(1, 2), (int)test_rand_int(80) - (test_rand_int(2) ? 1022 : 968) + 20);
            break;
        case 3:
            x = ldexp((double)test_rand_int(1 << 30), -1074);
            break;
        default:
            x = nextafter(ldexp(1.0, (int)test_rand_int(1100) - 1074), 0);
            break;
        }
        if (test_rand_int(2)) x = -x;
        double u = slpi_ref_mrmat_up(x), s1 = nextafter(x, INFINITY), s2 = nextafter(s1, INFINITY);
        double most = fabs(x) >= 0x1p-900 ? s2 : s2 + 0x1p-966; /* exact: both at most 2^-899 */
        if (!(u >= s1 && u <= most) && bad++ < 3)
            TEST_CHECKF(0, "up(%a) = %a, not above it by one or two doubles (or 2^-966 more below 2^-900)", x, u);
    }
    double big = nextafter(DBL_MAX, 0);
    TEST_CHECKF(slpi_ref_mrmat_up(0) == SLPI_REF_MRMAT_TINY && slpi_ref_mrmat_up(big) >= DBL_MAX, "up(0), up(big)");
}

int main(void)
{
    test_start("t-ref-mrmat", 41);
    check_probe_refusal(0, "does not round to nearest", 0);
    check_probe_refusal(0, "does not round to nearest", 1);
#ifdef __SSE__
    check_probe_refusal(1, "flushes subnormals to zero", 0);
    check_probe_refusal(1, "flushes subnormals to zero", 1);
#endif
    char why[200] = "";
    TEST_CHECKF(slpi_ref_mrmat_probe(why, sizeof why), "probe: %s", why);
    check_up();
    static const int sizes[][3] = { { 1, 1, 1 },    { 3, 5, 2 },    { 4, 4, 4 },      { 17, 9, 13 },
                                    { 32, 32, 32 }, { 64, 64, 64 }, { 128, 128, 128 } };
    int ns = (int)(sizeof sizes / sizeof sizes[0]);
    for (long it = 0; it < test_iters(1); it++)
        for (int s = 0; s < ns; s++)
            for (int kind = 0; kind < K_COUNT; kind++)
                for (int cplx = 0; cplx < 2; cplx++) {
                    if (sizes[s][1] == 128 && kind != K_CANCEL && kind != K_RANDOM) continue;
                    check_product(sizes[s][0], sizes[s][1], sizes[s][2], kind, cplx);
                }
    for (long it = 0; it < test_iters(20); it++) /* k = 1: the rounding to doubles beyond gamma_1 */
        check_product(1, 1, 1, K_LOWBITS, 0);
    for (long it = 0; it < test_iters(2); it++)
        for (int cplx = 0; cplx < 2; cplx++) {
            check_vertex(8, 64, 8, cplx);
            check_vertex(16, 128, 16, cplx);
        }
    for (long it = 0; it < test_iters(2); it++)
        for (int cplx = 0; cplx < 2; cplx++)
            for (int side = 0; side < 2; side++)
                for (int im = -1; im <= cplx; im += 2) {
                    check_centred(8, 64, 8, cplx, side, im);
                    check_centred(3, 5, 2, cplx, side, im);
                }
    for (long it = 0; it < test_iters(2); it++)
        for (int cplx = 0; cplx < 2; cplx++)
            for (int side = 0; side < 2; side++) {
                check_point(8, 64, 8, cplx, side);
                check_point(3, 5, 2, cplx, side);
            }
    for (int cplx = 0; cplx < 2; cplx++)
        for (int first = 0; first < 2; first++) check_sparse(5, 7, 3, cplx, first);
    for (long it = 0; it < test_iters(2); it++)
        for (int t_left = 0; t_left < 2; t_left++)
            for (int kind = -2; kind < K_LOWBITS; kind++) { /* -1: the corner, -2: the same centred */
                check_table(t_left ? 64 : 2, 64, t_left ? 2 : 64, t_left, kind);
                check_table(t_left ? 7 : 1, 5, t_left ? 1 : 7, t_left, kind);
            }
    for (long it = 0; it < test_iters(2); it++)
        for (int kind = 0; kind < K_COUNT; kind++)
            for (int v = 0; v < 4; v++) check_axpy(v & 1 ? 9 : 1, kind, v >> 1, (int)test_rand_int(2));
    check_refusal();
    for (int n = 1; n <= 3; n++)
        for (int c = 1; c <= 2; c++) check_overflow_at(n, c);
    for (long it = 0; it < test_iters(2); it++)
        for (int c = 1; c <= 2; c++) {
            check_tiny(3, 5, 2, c);
            check_tiny(8, 16, 8, c);
        }
    TEST_END();
}
