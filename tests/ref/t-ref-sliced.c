/* t-ref-sliced.c — the accurate reference's product by error-free slicing on BLAS
 * (ref/mrmat-sliced.c, docs/power.md#sliced-products) against Arb's: the same product of
 * ball matrices computed two ways, at the accurate step's 128 bits.
 *   - containment: every entry of slpi_ref_mrmat_mul_sliced(A, B) contains the midpoint of
 *     acb_mat_mul(A, B) at 256 bits and overlaps it, real and complex, sizes 1..130, on
 *     the BLAS route's kinds of inputs (tests/ref/mrutil.h) and on "rows": exact positive
 *     many-bit midpoints (so that a level's sum is as large as it gets: a slice too wide
 *     for exact sums shows) scaled by a random power of two per row and per column, with
 *     zero rows and columns; and on "digits": every entry written in 5 digits of two bits more
 *     than the product's (each digit near its largest, all of one sign), so that a slice
 *     two bits too wide overflows a level's sum of 2^53 grains where the rounding shows;
 *   - the radius is at most the bound the header states, recomputed here from the
 *     inputs (the slices' truncation, the inputs' radii, Arb's rounding to 128 bits);
 *   - vertices: the exact product of the corner matrices (mA + rA)(mB + rB) lies inside;
 *   - a midpoint that is not finite is refused, the output untouched. */
#include "mrutil.h"

#define ACC 128 /* the accurate step's precision */
#define S 5
enum { K_ROWS = K_COUNT, K_DIGITS };

/* the exponent e with |x| < 2^e over the midpoints given (0 where all are zero) */
static slong bound_exp(const arb_struct *const *x, slong n)
{
    slong e = WORD_MIN;
    for (slong i = 0; i < n; i++)
        if (!arf_is_zero(arb_midref(x[i]))) {
            slong b = arf_abs_bound_lt_2exp_si(arb_midref(x[i]));
            if (b > e) e = b;
        }
    return e == WORD_MIN ? 0 : e;
}

static void fill_rows(acb_mat_t A, int cplx, int by_row)
{
    slong r = acb_mat_nrows(A), c = acb_mat_ncols(A), lines = by_row ? r : c;
    arf_t t;
    arf_init(t);
    for (slong a = 0; a < lines; a++) {
        int zero = lines > 2 && test_rand_int(6) == 0, ex = (int)test_rand_int(81) - 40;
        for (slong b = 0; b < (by_row ? c : r); b++) {
            acb_ptr z = by_row ? acb_mat_entry(A, a, b) : acb_mat_entry(A, b, a);
            for (int p = 0; p < 2; p++) {
                arb_ptr x = p ? acb_imagref(z) : acb_realref(z);
                if (zero || (p && !cplx)) {
                    arb_zero(x);
                    continue;
                }
                arb_set_d(x, ldexp(test_rand_uniform(0, 1), -60)); /* 60 bits below a double's */
                arf_set_d(t, test_rand_uniform(0.5, 1));
                arb_add_arf(x, x, t, 4 * ACC); /* exact */
                arb_mul_2exp_si(x, x, ex);
            }
        }
    }
    arf_clear(t);
}

/* the parts of row i of A (by_row) or column i of B into x (real parts, then imaginary),
 * their largest radius into rho; the exponent e with |mid| < 2^e over them */
static slong line_parts(const arb_struct **x, mag_t rho, const acb_mat_t M, slong i, int by_row)
{
    slong k = by_row ? acb_mat_ncols(M) : acb_mat_nrows(M);
    for (slong l = 0; l < k; l++) {
        acb_srcptr z = by_row ? acb_mat_entry(M, i, l) : acb_mat_entry(M, l, i);
        x[l] = acb_realref(z);
        x[k + l] = acb_imagref(z);
        mag_max(rho, rho, arb_radref(x[l]));
        mag_max(rho, rho, arb_radref(x[k + l]));
    }
    return bound_exp(x, 2 * k);
}

/* the header's digit width for inner dimension K (recomputed here, not taken from it) */
static int slice_bits(slong K)
{
    int lg = 0;
    while (((slong)1 << lg) < S * K) lg++;
    return (53 - 1 - lg) / 2;
}

/* Entries of S digits of b bits, near their largest and of one sign: D_1 = 2^b - 1 - r,
 * D_s = 2^(b-1) - 1 - r (r < 4), x = sum_s D_s 2^(-s b), exact. */
static void fill_digits(acb_mat_t A, int cplx, int b)
{
    arb_t t;
    arb_init(t);
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++)
            for (int p = 0; p < 2; p++) {
                arb_ptr x = p ? acb_imagref(acb_mat_entry(A, i, j)) : acb_realref(acb_mat_entry(A, i, j));
                arb_zero(x);
                for (int d = 1; d <= S && (cplx || !p); d++) {
                    arb_set_si(t, (d == 1 ? ((slong)1 << b) : ((slong)1 << (b - 1))) - 1 - test_rand_int(4));
                    arb_mul_2exp_si(t, t, -d * b);
                    arb_add(x, x, t, 4 * ACC);
                }
            }
    arb_clear(t);
}

/* the header's radius bound of entry (i, j), part p, with Arb's rounding of mid to ACC bits */
static void rad_bound(mag_t out, const acb_mat_t A, const acb_mat_t B, slong i, slong j, const arb_t mid)
{
    slong k = acb_mat_ncols(A), m2 = 2 * k > 0 ? 2 * k : 1;
    int cplx = !(slpi_ref_mrmat_is_real(A) && slpi_ref_mrmat_is_real(B));
    slong K = cplx ? 2 * k : k;
    int beta = slice_bits(K);
    const arb_struct **x = calloc((size_t)m2, sizeof(arb_struct *));
    mag_t ra, rb, t, u;
    mag_init(ra);
    mag_init(rb);
    mag_init(t);
    mag_init(u);
    slong e = line_parts(x, ra, A, i, 1), f = line_parts(x, rb, B, j, 0);
    /* 2^(e+f) K 2^(-S beta) (S(S-1)/2 + 2) + K (2^e rb + ra (2^f + rb)) + 2^(1-ACC) |mid| */
    mag_set_ui_2exp_si(out, (ulong)K * (S * (S - 1) / 2 + 2), e + f - S * beta);
    mag_set_ui_2exp_si(t, 1, f);
    mag_add(t, t, rb);
    mag_mul(t, t, ra);
    mag_set_ui_2exp_si(u, 1, e);
    mag_mul(u, u, rb);
    mag_add(t, t, u);
    mag_mul_ui(t, t, (ulong)K);
    mag_add(out, out, t);
    arf_get_mag(t, arb_midref(mid));
    mag_mul_2exp_si(t, t, 1 - ACC);
    mag_add(out, out, t);
    free(x);
    mag_clear(ra);
    mag_clear(rb);
    mag_clear(t);
    mag_clear(u);
}

/* the product under test in mrutil.h's form */
static int sliced(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, char *why, size_t why_len)
{
    snprintf(why, why_len, "a midpoint not finite or beyond the exponent range");
    return slpi_ref_mrmat_mul_sliced(C, A, B, ACC);
}

static void check_product(int m, int k, int n, int kind, int cplx)
{
    acb_mat_t A, B, C, R;
    product_init(A, B, C, R, m, k, n);
    if (kind == K_ROWS) {
        fill_rows(A, cplx, 1);
        fill_rows(B, cplx, 0);
    } else if (kind == K_DIGITS) {
        int b = slice_bits(cplx ? 2 * k : k) + 2;
        fill_digits(A, cplx, b);
        fill_digits(B, cplx, b);
    } else {
        fill(A, kind, cplx);
        fill(B, kind, cplx);
    }
    const char *name = kind == K_ROWS ? "rows" : kind == K_DIGITS ? "digits" : kind_name[kind];
    int ok = check_against_arb(sliced, A, B, C, R, name, cplx);
    mag_t bound;
    mag_init(bound);
    for (slong i = 0; ok && i < m; i++)
        for (slong j = 0; ok && j < n; j++)
            for (int p = 0; p < 2; p++) {
                acb_srcptr z = acb_mat_entry(C, i, j);
                arb_srcptr part = p ? acb_imagref(z) : acb_realref(z);
                rad_bound(bound, A, B, i, j, part);
                if (mag_cmp(arb_radref(part), bound) > 0) {
                    TEST_CHECKF(0, "%s %dx%dx%d cplx=%d: entry (%ld,%ld) part %d radius %g above the bound %g", name, m,
                                k, n, cplx, (long)i, (long)j, p, mag_get_d(arb_radref(part)), mag_get_d(bound));
                    ok = 0;
                    break;
                }
            }
    mag_clear(bound);
    product_clear(A, B, C, R);
}


/* Corners (tests/ref/mrutil.h): midpoints in [0, 1), radii at 2^-30 .. 2^-37. */
static void check_vertex(int m, int k, int n, int cplx)
{
    check_corners(sliced, m, k, n, cplx, -30, 0, -1, 0);
}

static void check_refusal(void)
{
    acb_mat_t A, B, C;
    acb_mat_init(A, 3, 3);
    acb_mat_init(B, 3, 3);
    acb_mat_init(C, 3, 3);
    fill(A, K_RANDOM, 1);
    fill(B, K_RANDOM, 1);
    acb_mat_one(C);
    arf_nan(arb_midref(acb_imagref(acb_mat_entry(B, 2, 1))));
    TEST_CHECKF(!slpi_ref_mrmat_mul_sliced(C, A, B, ACC), "a NaN midpoint is not refused");
    acb_mat_t I;
    acb_mat_init(I, 3, 3);
    acb_mat_one(I);
    TEST_CHECKF(acb_mat_equal(C, I), "a refused product changed its output");
    acb_mat_clear(I);
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(C);
}

int main(void)
{
    test_start("t-ref-sliced", 97);
    static const int sizes[][3] = { { 1, 1, 1 },    { 3, 5, 2 },    { 4, 4, 4 },    { 17, 9, 13 },
                                    { 32, 32, 32 }, { 64, 64, 64 }, { 130, 130, 6 } };
    int ns = (int)(sizeof sizes / sizeof sizes[0]);
    for (long it = 0; it < test_iters(1); it++)
        for (int s = 0; s < ns; s++)
            for (int kind = 0; kind <= K_DIGITS; kind++)
                for (int cplx = 0; cplx < 2; cplx++) check_product(sizes[s][0], sizes[s][1], sizes[s][2], kind, cplx);
    for (long it = 0; it < test_iters(2); it++)
        for (int cplx = 0; cplx < 2; cplx++) {
            check_vertex(8, 64, 8, cplx);
            check_vertex(5, 128, 3, cplx);
        }
    check_refusal();
    TEST_END();
}
