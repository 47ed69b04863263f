/* ref/mrmat.c — certified matrix products on double BLAS (docs/design.md#blas-route).
 *
 * Model (IEEE 754 binary64, u = 2^-53, eta = 2^-1074 the smallest subnormal; S. M. Rump,
 * "Fast interval matrix multiplication", Numer. Algorithms 61(1), 1–34, 2012, §1: no
 * overflow, underflow allowed, rounding to nearest with any tie rule): a product
 * fl(a b) = a b (1 + e) + d with |e| <= u, |d| <= eta/2; a sum fl(a + b) = (a + b)(1 + e)
 * (a sum that underflows is exact); a fused fl(a b + c) = (a b + c)(1 + e) + d.
 *
 * Lemma (N. J. Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM
 * 2002, Lemma 3.1 and eq. (3.5), with the underflow term of Rump 2012): for x, y in F^K
 * and ANY evaluation of sum_i x_i y_i by K products and K - 1 additions or by fused
 * multiply-adds, in any order and blocking, each term passes through at most K
 * roundings, so with gamma_K = K u / (1 - K u) (K u < 1/2)
 *     |fl(x^T y) - x^T y| <= gamma_K |x|^T |y| + K eta.
 * (The d terms pass through at most K - 1 further roundings: K (eta/2)(1 + u)^(K-1)
 * <= K eta.) A BLAS gemm computes every entry as such a sum; zgemm's real (imaginary)
 * part is a real sum of K = 2k products (ar br, -ai bi), whatever its kernel (3M
 * methods are not sums of these products and are never used here).
 *
 * Enclosure (Rump 2012, §2, midpoint-radius product with an a priori bound): for
 * A = <mA, rA>, B = <mB, rB> (doubles, componentwise radii, K = k real or 2k complex),
 *     mC = fl(mA mB),
 *     |A B - mC| <= |mA| rB + rA (|mB| + rB) + gamma_K |mA||mB| + K eta
 *              =  |mA| P + rA Q + K eta,   P = gamma_K |mB| + rB,  Q = |mB| + rB,
 * where for complex parts |mA||mB| is taken per real component (|ar||br| + |ai||bi| for
 * the real part, |ar||bi| + |ai||br| for the imaginary part), and likewise with P, Q.
 * P and Q are formed here entry by entry rounded up (up(x) = the next double above the
 * rounded-to-nearest x, an upper bound whatever the tie rule).
 * Real: the nonnegative sum S = [|mA| rA] [P; Q] (inner dimension 2K) is one dgemm: by
 * the lemma S <= (fl(S) + 2K eta) / (1 - gamma_2K), hence the radius
 *     rC = up(up(fl(S) + 3K eta) * up(1 / down(1 - gamma_2K))).
 * Complex: with x = [|ar| rr], y = [|ai| ri] (rows of A's parts) and X = [Pr; Qr],
 * Y = [Pi; Qi], the parts' sums are S_re = x X + y Y and S_im = y X + x Y, a product of
 * split-complex numbers, which two real products give (inner dimension 2k = K, n
 * columns each; one product per part would be of inner dimension 4k and 2n columns):
 *     Sigma = S_re + S_im = (x + y)(X + Y),   Delta = S_re - S_im = (x - y)(X - Y),
 *     S_re = (Sigma + Delta) / 2,             S_im = (Sigma - Delta) / 2.
 * Sigma's factors are rounded up, so Sigma <= B = up(up(fl(Sigma~) + K eta) * f),
 * f = up(1 / down(1 - gamma_K)). Delta's factors d = fl(x - y), D = fl(X - Y) are
 * rounded to nearest: |d - (x - y)| <= u (x + y) (exact where it underflows), likewise
 * D, and |d| <= (1 + u)(x + y), so |d D - (x - y)(X - Y)| <= (2u (1 + u) + u^2) Sigma
 * <= 3u B, and by the lemma |fl(d D) - d D| <= gamma_K (1 + u)^2 B + K eta. Hence
 *     S_re, S_im <= ((1 + c) B +- fl(d D) + K eta) / 2,   c = 3u + gamma_K (1 + 3u),
 * and rC = up(S + K eta) per part (the midpoint's underflow): per-part radii at twice
 * the real case's cost. (Discs, one radius for both parts from the moduli, cost half
 * this but widen a part near zero to its partner's size, which on the rotating QG model
 * turns the step's Krawczyk test from contracting to expanding.)
 * Centred (one factor's midpoint 0 in every entry, as in a Krawczyk image's direction
 * Z = 0 +/- r and the products formed from it, ref/krawczyk-mr.c): mC = 0 exactly, with no
 * rounding error, and |A B| <= |A| |B| with |X| = |mX| + rX (per real component as above),
 * so the radius is the same sums with L = up(|mA| + rA) and R = Q: inner dimension k (real;
 * complex: k for each of Sigma and Delta), no midpoint product and half the radius
 * product. A point factor (every radius 0, as the iterate at which the map is enclosed,
 * ref/isomp-mr.c): with rB = 0, P = gamma_K |mB| and Q = |mB|, so |mA| P + rA Q =
 * (gamma_K |mA| + rA) Q, the sums with L = up(gamma_K |mA| + rA) and R = Q; with rA = 0,
 * L = |mA| and R = P: a midpoint product and half the radius product. The bounds above,
 * for sums of K or 2K terms, hold for these shorter sums.
 * Every part of the factors (|mA|, rA, P, Q and their sums) is lifted to 2^-511 when
 * below it and not zero: a larger factor keeps every bound above, and no product of
 * two factors is subnormal, which the BLAS kernels otherwise serve by a microcode assist
 * a vector (the radii of exact zeros are a few eta: with them, a step's radius products
 * ran at a tenth to a sixtieth of their speed). The radii gain at most 2^-511 times a
 * factor a term: nothing above data of about 2^-400.
 * Table form (slpi_ref_mrmat_gemm_table, the su(N) tables of ref/zeitlin-mr.c): for a
 * real C = X T with T = <mT, sT> (one radius sT for every entry) and every column of mT
 * of 2-norm at most nT, row x = <mx, rx> of X (K = k), Cauchy–Schwarz bounds each term
 * above by norms of x alone,
 *     |x T - fl(mx mT)|_j <= sT |mx|_1 + rx (|mT| + sT) + gamma_K |mx||mT| + K eta
 *                         <= sT (|mx|_1 + |rx|_1) + nT (|rx|_2 + gamma_K |mx|_2) + K eta,
 * the same for every j; likewise C = T X by columns of X and rows of mT. The norms' sums
 * are BLAS's dasum and ddot, each a sum of k nonnegative products, so by the lemma
 * sum <= (fl + k eta) / (1 - gamma_k); the rest is rounded up operation by operation
 * (up(fl(a + b)) >= a + b, up(fl(a b)) >= a b for a, b >= 0, and up(fl(sqrt(a))) >=
 * sqrt(a): every operation rounds to nearest), so the radius
 * costs O(k) per row of X, not a second product: the tables' O(N^3) absolute values are
 * never formed. The price is Cauchy–Schwarz's slack (|mx||mT_j| <= |mx|_2 |mT_j|_2).
 * The assumptions on the BLAS (round to nearest, gradual underflow in and out) are
 * probed once per process (slpi_ref_mrmat_probe, ref/mrmat-probe.c); any non-finite part
 * refuses. */
#include "slpi/registry-ids.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-scheme.h"
#include "ref/mrmat.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ETA 0x1p-1074

static inline double up(double x)
{
    return slpi_ref_mrmat_up(x);
}

static double down(double x)
{
    return nextafter(x, -INFINITY);
}

/* an upper bound of gamma_K = K u / (1 - K u); K u < 1/2 checked by the caller */
static double gamma_up(long K)
{
    double ku = (double)K * 0x1p-53; /* exact: K < 2^52 */
    return up(ku / (1.0 - ku));      /* 1 - ku exact */
}

/* wall seconds of this thread's gemm calls and conversions (slpi_ref_mrmat_seconds_take) */
static _Thread_local double sec_gemm, sec_convert;

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void slpi_ref_mrmat_seconds_take(double *gemm, double *convert)
{
    *gemm = sec_gemm;
    *convert = sec_convert;
    sec_gemm = sec_convert = 0;
}

/* ---- Arb balls <-> doubles ---- */

static int is_real(const acb_mat_t A)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++)
            if (!arb_is_zero(acb_imagref(acb_mat_entry(A, i, j)))) return 0;
    return 1;
}

/* m = the first 53 bits of a (truncated), *err = 1 ulp of m if bits were dropped, else 0;
 * 0 (nothing set) outside the normal range, where ball_get_round rounds. */
static int mid_truncate(double *m, double *err, const arf_t a)
{
    if (arf_is_zero(a)) {
        *m = *err = 0;
        return 1;
    }
    if (ARF_IS_SPECIAL(a) || !fmpz_fits_si(ARF_EXPREF(a))) return 0;
    slong e = *ARF_EXPREF(a); /* |a| = 0.b_1 b_2 ... 2^e, b_1 = 1 */
    if (e - 53 < -1021 || e > 1023) return 0;
    mp_srcptr d;
    mp_size_t n;
    ARF_GET_MPN_READONLY(d, n, a);
    mp_limb_t top = d[n - 1];
    uint64_t pb = (uint64_t)(e - 53 + 1023) << 52; /* 2^(e-53), a normal double: no ldexp (slow) */
    double p2;
    memcpy(&p2, &pb, sizeof p2);
    *m = (double)(top >> (FLINT_BITS - 53)) * p2; /* exact: a 53-bit integer times a power of 2 */
    *err = (n > 1 || (top & ((UWORD(1) << (FLINT_BITS - 53)) - 1)) != 0) ? p2 : 0;
    if (ARF_SGNBIT(a)) *m = -*m;
    return 1;
}

/* ball_get by correct rounding, for any exponent (arf_get_d) */
static int ball_get_round(double *m, double *r, const arf_struct *mid, const mag_struct *rad)
{
    *m = arf_get_d(mid, ARF_RND_NEAR);
    if (!isfinite(*m)) return 0;
    if (r == NULL) return 1;
    arf_t e;
    mag_t t;
    arf_init(e);
    mag_init(t);
    arf_set_d(e, *m);
    arf_sub(e, mid, e, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_get_mag(t, e);
    mag_add(t, t, rad);
    arf_set_mag(e, t);
    *r = arf_get_d(e, ARF_RND_UP);
    arf_clear(e);
    mag_clear(t);
    return isfinite(*r);
}

int slpi_ref_mrmat_ball_get(double *m, double *r, const arb_t x)
{
    double err;
    if (!mid_truncate(m, &err, arb_midref(x))) return ball_get_round(m, r, arb_midref(x), arb_radref(x));
    if (r != NULL) {
        double rr = mag_get_d(arb_radref(x)); /* an upper bound */
        *r = err == 0 ? rr : up(err + rr);
        return isfinite(*r);
    }
    return 1;
}

static int mr_get(slpi_ref_mr *M, const acb_mat_t A, int c, int with_rad)
{
    M->rows = (int)acb_mat_nrows(A);
    M->cols = (int)acb_mat_ncols(A);
    M->c = c;
    size_t n = (size_t)M->rows * M->cols * c;
    M->mid = malloc((n ? n : 1) * sizeof(double));
    M->rad = with_rad ? malloc((n ? n : 1) * sizeof(double)) : NULL;
    if (M->mid == NULL || (with_rad && M->rad == NULL)) return 0;
    for (int i = 0; i < M->rows; i++)
        for (int j = 0; j < M->cols; j++) {
            acb_srcptr a = acb_mat_entry(A, i, j);
            size_t e = ((size_t)i * M->cols + j) * c;
            if (!slpi_ref_mrmat_ball_get(M->mid + e, with_rad ? M->rad + e : NULL, acb_realref(a))) return 0;
            if (c == 2 && !slpi_ref_mrmat_ball_get(M->mid + e + 1, with_rad ? M->rad + e + 1 : NULL, acb_imagref(a)))
                return 0;
        }
    return 1;
}

int slpi_ref_mrmat_get(slpi_ref_mr *M, const acb_mat_t A, int c)
{
    double t0 = wall();
    int ok = mr_get(M, A, c, 1);
    sec_convert += wall() - t0;
    return ok;
}

int slpi_ref_mrmat_init(slpi_ref_mr *M, int rows, int cols, int c)
{
    size_t n = (size_t)rows * cols * c;
    *M = (slpi_ref_mr){ rows, cols, c, malloc((n ? n : 1) * sizeof(double)), malloc((n ? n : 1) * sizeof(double)) };
    return M->mid != NULL && M->rad != NULL;
}

void slpi_ref_mrmat_clear(slpi_ref_mr *M)
{
    free(M->mid);
    free(M->rad);
    M->mid = M->rad = NULL;
}

/* C = <mid, rad> (exact midpoints; mag_set_d rounds the radius up) */
static void mr_set(acb_mat_t C, const double *mid, const double *rad, int c)
{
    for (slong i = 0; i < acb_mat_nrows(C); i++)
        for (slong j = 0; j < acb_mat_ncols(C); j++) {
            acb_ptr z = acb_mat_entry(C, i, j);
            size_t e = ((size_t)i * acb_mat_ncols(C) + j) * c;
            arb_set_d(acb_realref(z), mid[e]);
            if (rad != NULL) mag_set_d(arb_radref(acb_realref(z)), rad[e]);
            if (c == 2) {
                arb_set_d(acb_imagref(z), mid[e + 1]);
                if (rad != NULL) mag_set_d(arb_radref(acb_imagref(z)), rad[e + 1]);
            } else {
                arb_zero(acb_imagref(z));
            }
        }
}

void slpi_ref_mrmat_set(acb_mat_t C, const slpi_ref_mr *M)
{
    double t0 = wall();
    mr_set(C, M->mid, M->rad, M->c);
    sec_convert += wall() - t0;
}

int slpi_ref_mrmat_is_real(const acb_mat_t A)
{
    return is_real(A);
}

int slpi_ref_mrmat_route(const slpi_problem *p, int N, slong prec)
{
    const slpi_cert_view *cert = slpi_view_cert(p);
    char why[160];
    if (slpi_view_scheme(p)->scheme != SLPI_SCHEME_ISOMP || N == 0 || cert->matmul == SLPI_MATMUL_ARB) return 0;
    if (cert->matmul == SLPI_MATMUL_BLAS) return 1;
    return N >= SLPI_REF_MRMAT_AUTO_N && prec <= cert->prec && slpi_ref_mrmat_probe(why, sizeof why);
}

/* ---- the products ---- */

/* mC = fl(mA mB): zgemm (complex) or dgemm (real), row-major */
static void mid_gemm(double *mC, const slpi_ref_mr *A, const slpi_ref_mr *B)
{
    int m = A->rows, k = A->cols, n = B->cols;
    if (A->c == 2) {
        const double one[2] = { 1.0, 0.0 }, zero[2] = { 0.0, 0.0 };
        cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, one, A->mid, k, B->mid, n, zero, mC, n);
    } else {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A->mid, k, B->mid, n, 0.0, mC, n);
    }
}

/* 1 when every entry of v (n of them) is 0: a midpoint (a Krawczyk image's direction
 * Z = 0 +/- r and the products made from it, ref/krawczyk-mr.c) or a radius (a point) */
static int all_zero(const double *v, size_t n)
{
    for (size_t e = 0; e < n; e++)
        if (v[e] != 0) return 0;
    return 1;
}

/* the radius product's form (ref/mrmat.c's header): both factors balls (inner dimension
 * 2k); one factor's midpoint 0 (centred); B's or A's radius 0 (a point factor) */
enum { FORM_FULL, FORM_CENTRED, FORM_POINT_B, FORM_POINT_A };

/* x, or 2^-511 for 0 < x < 2^-511 (ref/mrmat.c's header: no subnormal factor) */
static inline double lift(double x)
{
    return ((x > 0) & (x < 0x1p-511)) ? 0x1p-511 : x;
}

/* entry at of the Sigma factor (and, complex, of the Delta factor) from the lifted parts
 * x of one entry: real, x itself; complex, up(x0 + x1) lifted and x0 - x1 */
static inline void put(double *sig, double *del, size_t at, const double *x, int c)
{
    sig[at] = c == 1 ? x[0] : lift(up(x[0] + x[1]));
    if (c == 2) del[at] = x[0] - x[1];
}

/* the factors of the radius product: row i of L (m x 2k) is [|mA| rA] and rows l, k + l of
 * R (2k x n) are P, Q of row l of B (ref/mrmat.c's header), each part lifted; real: Sigma's
 * Ls, Rs alone; complex: Ls, Rs of Sigma and Ld, Rd of Delta. The one-sum forms (inner
 * dimension k): centred, L = up(|mA| + rA) and R = Q; B a point (rB = 0, so P = g |mB|
 * and |mA| P + rA Q = (g |mA| + rA) Q), L = up(g |mA| + rA) and R = Q; A a point (rA =
 * 0), L = |mA| and R = P. Inlined with form and c constants (rad_factors), so that each
 * of the eight variants is straight-line code the compiler vectorises. */
static inline __attribute__((always_inline)) void factors_of(double *Ls, double *Rs, double *Ld, double *Rd,
                                                             const slpi_ref_mr *A, const slpi_ref_mr *B, double g,
                                                             const int form, const int c)
{
    int m = A->rows, k = A->cols, n = B->cols, full = form == FORM_FULL, lk = full ? 2 * k : k;
    int off = full ? k : 0;
    for (int i = 0; i < m; i++)
        for (int l = 0; l < k; l++) {
            size_t e = ((size_t)i * k + l) * c;
            double am[2] = { 0, 0 }, ar[2] = { 0, 0 };
            for (int p = 0; p < c; p++) {
                double a = fabs(A->mid[e + p]), r = A->rad[e + p];
                am[p] = lift(a);
                ar[p] = lift(form == FORM_CENTRED       ? up(a + r)
                                 : form == FORM_POINT_B ? up(up(g * a) + r)
                                 : form == FORM_POINT_A ? a
                                                        : r);
            }
            if (full) put(Ls, Ld, (size_t)i * lk + l, am, c);
            put(Ls, Ld, (size_t)i * lk + off + l, ar, c);
        }
    for (int l = 0; l < k; l++)
        for (int j = 0; j < n; j++) {
            double P[2] = { 0, 0 }, Q[2] = { 0, 0 };
            for (int p = 0; p < c; p++) {
                size_t e = ((size_t)l * n + j) * c + p;
                double a = fabs(B->mid[e]), r = B->rad[e];
                P[p] = lift(up(up(g * a) + r)), Q[p] = lift(up(a + r));
            }
            if (full) put(Rs, Rd, (size_t)l * n + j, P, c);
            put(Rs, Rd, (size_t)(off + l) * n + j, form == FORM_POINT_A ? P : Q, c);
        }
}

static void rad_factors(double *Ls, double *Rs, double *Ld, double *Rd, const slpi_ref_mr *A, const slpi_ref_mr *B,
                        double g, int form)
{
#define FACTORS_OF(F)                                                                                                  \
    case F:                                                                                                            \
        if (A->c == 1)                                                                                                 \
            factors_of(Ls, Rs, Ld, Rd, A, B, g, F, 1);                                                                 \
        else                                                                                                           \
            factors_of(Ls, Rs, Ld, Rd, A, B, g, F, 2);                                                                 \
        break
    switch (form) {
        FACTORS_OF(FORM_FULL);
        FACTORS_OF(FORM_CENTRED);
        FACTORS_OF(FORM_POINT_B);
        FACTORS_OF(FORM_POINT_A);
    }
#undef FACTORS_OF
}

/* rC, the radius bound of ref/mrmat.c's header for the product of A and B in the form
 * form (FORM_*) */
static int rad_gemm(double *rC, const slpi_ref_mr *A, const slpi_ref_mr *B, int form)
{
    int m = A->rows, k = A->cols, n = B->cols, lk = form == FORM_FULL ? 2 * k : k, c = A->c;
    long K = (long)c * k;
    size_t mn = (size_t)m * n, nl = (size_t)m * lk, nr = (size_t)lk * n;
    double *L = malloc(c * nl * sizeof *L), *R = malloc(c * nr * sizeof *R), *S = malloc(c * (mn ? mn : 1) * sizeof *S);
    double *D = S + mn, g = gamma_up(K), tail = (double)K * ETA;
    int ok = L != NULL && R != NULL && S != NULL;
    if (ok) rad_factors(L, R, L + nl, R + nr, A, B, g, form);
    if (ok) cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, lk, 1.0, L, lk, R, n, 0.0, S, n);
    if (ok && c == 1) {
        double f = up(1.0 / down(1.0 - gamma_up(2 * K)));
        for (size_t e = 0; e < mn; e++) rC[e] = up(up(S[e] + 3.0 * tail) * f);
    } else if (ok) { /* S holds fl(Sigma~), D fl(d D) */
        double f = up(1.0 / down(1.0 - g)), cB = up(1.0 + up(3 * 0x1p-53 + up(g * (1 + 3 * 0x1p-52))));
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, lk, 1.0, L + nl, lk, R + nr, n, 0.0, D, n);
        for (size_t e = 0; e < mn; e++) {
            double b = up(up(up(S[e] + tail) * f) * cB); /* (1 + c) B */
            rC[2 * e] = up(up(0.5 * up(up(b + D[e]) + tail)) + tail);
            rC[2 * e + 1] = up(up(0.5 * up(up(b - D[e]) + tail)) + tail);
        }
    }
    free(L);
    free(R);
    free(S);
    return ok;
}

static int refuse(char *why, size_t why_len, const char *what)
{
    snprintf(why, why_len, "blas route: %s", what);
    return 0;
}

/* mC = fl(mA mB) and rC, the radius bound of ref/mrmat.c's header, for the views a, b;
 * rC NULL: the midpoint alone */
static int mr_mul(double *mC, double *rC, const slpi_ref_mr *a, const slpi_ref_mr *b, char *why, size_t why_len)
{
    if (!slpi_ref_mrmat_probe(why, why_len)) return 0;
    long K = (long)a->c * a->cols;
    if (4.0 * (double)K * 0x1p-53 >= 0.5)
        return refuse(why, why_len, "inner dimension beyond the bound's range (2K u >= 1/2)");
    double t0 = wall();
    size_t na = (size_t)a->rows * a->cols * a->c, nb = (size_t)b->rows * b->cols * b->c;
    int centred = all_zero(a->mid, na) || all_zero(b->mid, nb);
    if (centred) /* the product's midpoint is 0, exactly */
        memset(mC, 0, (size_t)a->rows * b->cols * a->c * sizeof *mC);
    else
        mid_gemm(mC, a, b);
    int form = centred         ? FORM_CENTRED
        : rC == NULL           ? FORM_FULL
        : all_zero(b->rad, nb) ? FORM_POINT_B
        : all_zero(a->rad, na) ? FORM_POINT_A
                               : FORM_FULL;
    if (rC != NULL && !rad_gemm(rC, a, b, form)) return refuse(why, why_len, "out of memory");
    size_t nc = (size_t)a->rows * b->cols * a->c;
    if ((rC != NULL && !slpi_ref_mrmat_all_finite(rC, nc)) || !slpi_ref_mrmat_all_finite(mC, nc))
        return refuse(why, why_len, "a product beyond the double range");
    sec_gemm += wall() - t0;
    return 1;
}

/* ---- products with a table of known norms ---- */

double slpi_ref_mrmat_norm_bound(const double *M, int rows, int cols)
{
    double *col = calloc((size_t)cols + 1, sizeof *col), most = 0;
    if (col == NULL) return INFINITY;
    for (int i = 0; i < rows; i++) {
        double row = 0;
        for (int j = 0; j < cols; j++) {
            double sq = up(M[(size_t)i * cols + j] * M[(size_t)i * cols + j]);
            row = up(row + sq);
            col[j] = up(col[j] + sq);
        }
        most = fmax(most, row);
    }
    for (int j = 0; j < cols; j++) most = fmax(most, col[j]);
    free(col);
    return up(sqrt(most));
}

/* the radius of ref/mrmat.c's header, table form, for one vector x = <mx, rx> of length
 * k (stride apart): up(sT (|mx|_1 + |rx|_1) + nT (|rx|_2 + g |mx|_2) + k eta), g >=
 * gamma_k; the sums by BLAS (dasum, ddot: each a sum of k products), each bounded by
 * up(up(fl + k eta) f), f >= 1 / (1 - gamma_k) */
static double table_rad(const double *mx, const double *rx, int k, size_t stride, double sT, double nT, double g,
                        double f)
{
    int inc = (int)stride;
    double tail = (double)k * ETA;
    double s1 = up(up(cblas_dasum(k, mx, inc) + cblas_dasum(k, rx, inc)) + 2 * tail);
    double sm = cblas_ddot(k, mx, inc, mx, inc), sr = cblas_ddot(k, rx, inc, rx, inc);
    s1 = up(s1 * f), sm = up(up(sm + tail) * f), sr = up(up(sr + tail) * f);
    double t = up(nT * up(up(sqrt(sr)) + up(g * up(sqrt(sm)))));
    return up(up(up(sT * s1) + t) + tail);
}

int slpi_ref_mrmat_gemm_table(double *mC, double *rC, int m, int k, int n, const double *mX, const double *rX,
                              const double *mT, int ldt, double sT, double nT, int t_left, char *why, size_t why_len)
{
    if (!slpi_ref_mrmat_probe(why, why_len)) return 0;
    if (2.0 * (double)k * 0x1p-53 >= 0.5)
        return refuse(why, why_len, "inner dimension beyond the bound's range (K u >= 1/2)");
    double t0 = wall(), g = gamma_up(k), f = up(1.0 / down(1.0 - g));
    /* one dgemv per vector of X: X has few of them (the tables' data: 2), where dgemm
     * would copy the whole table into its blocks first; none for a vector of midpoints 0
     * (a centred factor's: its product's midpoints are 0 exactly, and the table is not read) */
    for (int v = 0; v < (t_left ? n : m); v++) {
        int zero = 1;
        for (int l = 0; l < k && zero; l++) zero = (t_left ? mX[(size_t)l * n + v] : mX[(size_t)v * k + l]) == 0;
        if (zero)
            for (int o = 0; o < (t_left ? m : n); o++) mC[t_left ? (size_t)o * n + v : (size_t)v * n + o] = 0;
        else if (t_left)
            cblas_dgemv(CblasRowMajor, CblasNoTrans, m, k, 1.0, mT, ldt, mX + v, n, 0.0, mC + v, n);
        else
            cblas_dgemv(CblasRowMajor, CblasTrans, k, n, 1.0, mT, ldt, mX + (size_t)v * k, 1, 0.0, mC + (size_t)v * n,
                        1);
    }
    int vecs = t_left ? n : m; /* X's columns (T X) or rows (X T) */
    for (int v = 0; v < vecs && rC != NULL; v++) {
        double r = t_left ? table_rad(mX + v, rX + v, k, (size_t)n, sT, nT, g, f)
                          : table_rad(mX + (size_t)v * k, rX + (size_t)v * k, k, 1, sT, nT, g, f);
        if (!isfinite(r)) return refuse(why, why_len, "a product beyond the double range");
        for (int o = 0; o < (t_left ? m : n); o++) rC[t_left ? (size_t)o * n + v : (size_t)v * n + o] = r;
    }
    if (!slpi_ref_mrmat_all_finite(mC, (size_t)m * n)) return refuse(why, why_len, "a product beyond the double range");
    sec_gemm += wall() - t0;
    return 1;
}

int slpi_ref_mrmat_mul_mr(slpi_ref_mr *C, const slpi_ref_mr *A, const slpi_ref_mr *B, char *why, size_t why_len)
{
    if (!slpi_ref_mrmat_init(C, A->rows, B->cols, A->c)) return refuse(why, why_len, "out of memory");
    return mr_mul(C->mid, C->rad, A, B, why, why_len);
}

int slpi_ref_mrmat_mul_mr_mid(slpi_ref_mr *C, const slpi_ref_mr *A, const slpi_ref_mr *B, char *why, size_t why_len)
{
    size_t n = (size_t)A->rows * B->cols * A->c;
    *C = (slpi_ref_mr){ A->rows, B->cols, A->c, malloc((n ? n : 1) * sizeof(double)), NULL };
    if (C->mid == NULL) return refuse(why, why_len, "out of memory");
    return mr_mul(C->mid, NULL, A, B, why, why_len);
}

int slpi_ref_mrmat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, char *why, size_t why_len)
{
    int c = is_real(A) && is_real(B) ? 1 : 2, ok = 0;
    slpi_ref_mr a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    size_t nc = (size_t)acb_mat_nrows(A) * acb_mat_ncols(B) * c;
    double *mC = malloc((nc ? nc : 1) * sizeof *mC), *rC = malloc((nc ? nc : 1) * sizeof *rC);
    double t0 = wall();
    if (!mr_get(&a, A, c, 1) || !mr_get(&b, B, c, 1) || mC == NULL || rC == NULL) {
        refuse(why, why_len, "an input part beyond the double range (or out of memory)");
        goto done;
    }
    double t1 = wall();
    ok = mr_mul(mC, rC, &a, &b, why, why_len);
    double t2 = wall();
    if (ok) mr_set(C, mC, rC, c);
    sec_convert += (t1 - t0) + (wall() - t2);
done:
    slpi_ref_mrmat_clear(&a);
    slpi_ref_mrmat_clear(&b);
    free(mC);
    free(rC);
    return ok;
}

int slpi_ref_mrmat_mul_mid(acb_mat_t C, const acb_mat_t A, const acb_mat_t B)
{
    int c = is_real(A) && is_real(B) ? 1 : 2, ok = 0;
    slpi_ref_mr a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    size_t nc = (size_t)acb_mat_nrows(A) * acb_mat_ncols(B) * c;
    double *mC = malloc((nc ? nc : 1) * sizeof *mC);
    if (mr_get(&a, A, c, 0) && mr_get(&b, B, c, 0) && mC != NULL) {
        mid_gemm(mC, &a, &b);
        mr_set(C, mC, NULL, c);
        ok = 1;
    }
    slpi_ref_mrmat_clear(&a);
    slpi_ref_mrmat_clear(&b);
    free(mC);
    return ok;
}
