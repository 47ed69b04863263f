/* ref/mrmat-sliced.c — a ball matrix product on BLAS by error-free slicing, accurate to
 * about 2^-100 of the rows' and columns' scale: the products of binary64's accurate
 * reference (docs/power.md#sliced-products), where Arb's products at 128 bits cost the
 * step. The idea is that of K. Ozaki, T. Ogita, S. Oishi, S. M. Rump, "Error-free
 * transformations of matrix multiplication by using fast routines of matrix
 * multiplication and its applications", Numer. Algorithms 59 (2012) 95–118.
 *
 * The complex product is one real product: Abar = [Re A | Im A] (m x K, K = 2k) times
 * Bbar = [[Re B, Im B]; [-Im B, Re B]] (K x 2n) gives [Re C | Im C]; for real A and B,
 * Abar = A, Bbar = B, K = k. Row i of Abar's midpoints is scaled by sigma_i = 2^e_i > its
 * largest entry, column j of Bbar's by tau_j = 2^f_j; a scaled entry x (|x| < 1) is
 * rounded to M = round(x 2^(S beta)) (|x - M 2^(-S beta)| <= 2^(-S beta - 1)) and M
 * written in S balanced digits of beta bits, x^(s) = d_s 2^(-s beta): |d_1| <= 2^beta + 1,
 * |d_s| <= 2^(beta - 1) for s >= 2. Every product of two digits is at most 2^(2 beta + 1)
 * in absolute value, so with S K 2^(2 beta + 1) <= 2^53 every partial sum of a level
 * L_l = sum_{s + t = l} Abar^(s) Bbar^(t) is an integer multiple of 2^(-l beta) below
 * 2^53 of them: exact in binary64, whatever the gemm's order, blocking or FMA. Level l is
 * one dgemm of the digits Abar^(1..l-1) (stored side by side) and Bbar^(l-1..1) (stored
 * in reverse, so both are contiguous). The levels l <= S + 1 are kept, summed exactly
 * (level_sum: integers in three words) and rounded once to prec by Arb (its error into the
 * radius).
 * Radius: the omitted pairs (s, t <= S, s + t >= S + 2: at most S(S-1)/2 of them, each
 * term at most 2^(-S beta - 2)) and the rounding remainders (each term at most
 * 2^(-S beta) (1 + 2^(-S beta - 1))) give, per entry, at most
 *     sigma_i tau_j K 2^(-S beta) (S (S - 1)/2 + 2);
 * the inputs' radii at most K (sigma_i rho_B,j + rho_A,i (tau_j + rho_B,j)), rho the
 * largest radius of Abar's row i (Bbar's column j); both in Arb's mag arithmetic (upward). */
#include "core/slpi-flint.h"
#include "ref/mrmat.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#define SLICES 5

/* the digits' width: the largest beta with SLICES K 2^(2 beta + 1) <= 2^53 */
static int slice_bits(slong K)
{
    int lg = 0;
    while (((slong)1 << lg) < SLICES * K) lg++;
    return (53 - 1 - lg) / 2;
}

/* the exponent e with |x| < 2^e for every midpoint of the parts given (0 where all are
 * zero); 0 where one is not finite or beyond the double range of slices */
static int row_exp(slong *e, const arb_struct *const *x, slong n)
{
    slong best = WORD_MIN;
    for (slong i = 0; i < n; i++) {
        const arf_struct *m = arb_midref(x[i]);
        if (!arf_is_finite(m)) return 0;
        if (arf_is_zero(m)) continue;
        slong b = arf_abs_bound_lt_2exp_si(m);
        if (b >= WORD_MAX / 4 || b <= -WORD_MAX / 4) return 0;
        if (b > best) best = b;
    }
    *e = best == WORD_MIN ? 0 : best;
    return 1;
}

/* the S digits of the midpoint of x scaled by 2^-e into d[0], d[step], ..., as doubles
 * d_s 2^(-s beta) (so d[(s-1) step] is slice s); grain[s] = 2^(-s beta), s <= S (exact
 * powers of two: the digits' values by products) */
static void slice(double *d, size_t step, const arb_t x, slong e, int beta, const double *grain, arf_t t, fmpz_t z)
{
    arf_mul_2exp_si(t, arb_midref(x), SLICES * beta - e);
    arf_get_fmpz(z, t, ARF_RND_NEAR);
    ulong hi, lo;
    fmpz_get_signed_uiui(&hi, &lo, z); /* |M| <= 2^(S beta) < 2^127: two's complement */
    const ulong mask = ((ulong)1 << beta) - 1, half = (ulong)1 << (beta - 1);
    for (int s = SLICES; s >= 2; s--) {
        ulong r = lo & mask;
        slong dg = r >= half ? (slong)r - (slong)(mask + 1) : (slong)r;
        /* M -= dg, then M >>= beta (exact: M - dg is a multiple of 2^beta) */
        ulong nlo = lo - (ulong)dg;
        ulong borrow = dg >= 0 ? nlo > lo : nlo < lo;
        hi = dg >= 0 ? hi - borrow : hi + borrow;
        lo = (nlo >> beta) | (hi << (64 - beta));
        hi = (hi >> beta) | ((hi >> 63) ? ~(~(ulong)0 >> beta) : 0);
        d[(size_t)(s - 1) * step] = (double)dg * grain[s];
    }
    d[0] = (double)(slong)lo * grain[1]; /* |d_1| <= 2^beta + 1: one word */
}

/* x = the exact sum of one entry's levels, L[q stride] for level l = q + 2 (q < SLICES), as
 * the integer I = sum_l L_l 2^(l beta) 2^((S + 1 - l) beta), so that the sum is
 * I 2^(-(S + 1) beta): each L_l 2^(l beta) is an integer below 2^53 (the exactness bound
 * above), shifted by at most (S - 1) beta <= 96 bits, so I fits three words (two's
 * complement); pow2[q] = 2^((q + 2) beta). Not inlined: inlined, GCC 14 (Debian 13)
 * reports a false 16-byte access to the radius written after it (-Wstringop-overflow). */
__attribute__((noinline)) static void level_sum(arf_t x, const double *L, size_t stride, const double *pow2, int beta)
{
    ulong acc[3] = { 0, 0, 0 };
    for (int q = 0; q < SLICES; q++) {
        slong v = (slong)(L[(size_t)q * stride] * pow2[q]); /* exact: an integer below 2^53 */
        if (v == 0) continue;
        int sh = (SLICES - 1 - q) * beta, w = sh / 64, b = sh % 64;
        /* v << sh in three words: v's word and its sign's shifted by b bits, then w words */
        ulong ext = v < 0 ? ~(ulong)0 : 0, lo = (ulong)v << b, mid = (ext << b) | (b ? (ulong)v >> (64 - b) : 0);
        ulong add[3] = { w == 0 ? lo : 0, w == 0 ? mid : w == 1 ? lo : 0, w == 0 ? ext : w == 1 ? mid : lo };
        ulong carry = 0;
        for (int k = 0; k < 3; k++) {
            ulong s = acc[k] + add[k], c = s < add[k];
            acc[k] = s + carry;
            carry = c | (acc[k] < carry);
        }
    }
    int neg = (acc[2] >> 63) != 0;
    if (neg) { /* |I|: negate the two's complement */
        ulong carry = 1;
        for (int k = 0; k < 3; k++) {
            acc[k] = ~acc[k] + carry;
            carry = carry && acc[k] == 0;
        }
    }
    int n = 3;
    while (n > 0 && acc[n - 1] == 0) n--;
    if (n == 0)
        arf_zero(x);
    else
        arf_set_mpn(x, acc, n, neg);
}

/* Abar's parts: row i, column l < K (complex: Re A then Im A) */
static const arb_struct *a_part(const acb_mat_t A, slong i, slong l, slong k)
{
    const acb_struct *z = acb_mat_entry(A, i, l % k);
    return l < k ? acb_realref(z) : acb_imagref(z);
}

int slpi_ref_mrmat_mul_sliced(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    slong m = acb_mat_nrows(A), k = acb_mat_ncols(A), n = acb_mat_ncols(B);
    if (m == 0 || n == 0) return 1;
    if (k == 0) {
        acb_mat_zero(C);
        return 1;
    }
    int c = slpi_ref_mrmat_is_real(A) && slpi_ref_mrmat_is_real(B) ? 1 : 2;
    slong K = c * k, W = c * n, SK = SLICES * K;
    int beta = slice_bits(K);
    double grain[SLICES + 1];
    for (int s = 0; s <= SLICES; s++) grain[s] = ldexp(1, -s * beta);
    double *As = calloc((size_t)m * SK, sizeof(double)), *Bs = calloc((size_t)SK * W, sizeof(double));
    double *L = calloc((size_t)SLICES * m * W, sizeof(double));
    slong *ea = malloc(sizeof(slong) * (size_t)m), *fb = malloc(sizeof(slong) * (size_t)n);
    mag_struct *ra = _mag_vec_init(m), *rb = _mag_vec_init(n);
    const arb_struct **parts = malloc(sizeof(arb_struct *) * (size_t)K); /* a row of Abar, a column of Bbar */
    int ok = As && Bs && L && ea && fb && parts;
    arf_t t;
    fmpz_t z;
    arf_init(t);
    fmpz_init(z);
    /* Abar's rows: exponent, largest radius, digits (slice s at columns (s-1)K..sK) */
    for (slong i = 0; ok && i < m; i++) {
        for (slong l = 0; l < K; l++) parts[l] = a_part(A, i, l, k);
        ok = row_exp(ea + i, parts, K);
        for (slong l = 0; ok && l < K; l++) {
            mag_max(ra + i, ra + i, arb_radref(parts[l]));
            slice(As + (size_t)i * SK + l, (size_t)K, parts[l], ea[i], beta, grain, t, z);
        }
    }
    /* Bbar's columns j (and n + j, the same magnitudes): slice s of row l at row
     * (S - s) K + l, so that Bbar^(l-1..1) are the last l - 1 blocks */
    for (slong j = 0; ok && j < n; j++) {
        for (slong l = 0; l < k; l++) {
            const acb_struct *b = acb_mat_entry(B, l, j);
            parts[l] = acb_realref(b);
            if (c == 2) parts[k + l] = acb_imagref(b);
        }
        ok = row_exp(fb + j, parts, c * k);
        for (slong l = 0; ok && l < c * k; l++) mag_max(rb + j, rb + j, arb_radref(parts[l]));
        for (slong l = 0; ok && l < k; l++) {
            double re[SLICES], im[SLICES] = { 0 };
            slice(re, 1, parts[l], fb[j], beta, grain, t, z);
            if (c == 2) slice(im, 1, parts[k + l], fb[j], beta, grain, t, z);
            for (int s = 1; s <= SLICES; s++) {
                double *blk = Bs + (size_t)(SLICES - s) * K * W;
                blk[(size_t)l * W + j] = re[s - 1];
                if (c == 2) {
                    blk[(size_t)l * W + n + j] = im[s - 1];
                    blk[(size_t)(k + l) * W + j] = -im[s - 1];
                    blk[(size_t)(k + l) * W + n + j] = re[s - 1];
                }
            }
        }
    }
    /* level l = 2..S+1: Abar^(1..l-1) Bbar^(l-1..1), exact */
    for (int l = 2; ok && l <= SLICES + 1; l++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)W, (int)((l - 1) * K), 1.0, As, (int)SK,
                    Bs + (size_t)(SLICES - l + 1) * K * W, (int)W, 0.0, L + (size_t)(l - 2) * m * W, (int)W);
    if (ok) {
        mag_t trunc, tj, r, u;
        mag_init(trunc);
        mag_init(tj);
        mag_init(r);
        mag_init(u);
        /* K 2^(-S beta) (S(S-1)/2 + 2) */
        mag_set_ui_2exp_si(trunc, (ulong)K * (SLICES * (SLICES - 1) / 2 + 2), -SLICES * beta);
        double pow2[SLICES];
        for (int q = 0; q < SLICES; q++) pow2[q] = ldexp(1, (q + 2) * beta);
        for (slong i = 0; i < m; i++)
            for (slong j = 0; j < W; j++) {
                slong jb = j % n;
                level_sum(t, L + (size_t)i * W + j, (size_t)m * W, pow2, beta);
                acb_ptr cz = acb_mat_entry(C, i, jb);
                arb_ptr out = j < n || c == 1 ? acb_realref(cz) : acb_imagref(cz);
                arf_mul_2exp_si(arb_midref(out), t, ea[i] + fb[jb] - (SLICES + 1) * beta);
                mag_zero(arb_radref(out));
                arb_set_round(out, out, prec);
                /* sigma tau trunc + K (sigma rho_B + rho_A (tau + rho_B)) */
                mag_mul_2exp_si(r, trunc, ea[i] + fb[jb]);
                mag_one(tj);
                mag_mul_2exp_si(tj, tj, fb[jb]);
                mag_add(tj, tj, rb + jb);
                mag_mul(tj, tj, ra + i);
                mag_one(u);
                mag_mul_2exp_si(u, u, ea[i]);
                mag_mul(u, u, rb + jb);
                mag_add(u, u, tj);
                mag_mul_ui(u, u, (ulong)K);
                mag_add(r, r, u);
                mag_add(arb_radref(out), arb_radref(out), r);
            }
        if (c == 1)
            for (slong i = 0; i < m; i++)
                for (slong j = 0; j < n; j++) arb_zero(acb_imagref(acb_mat_entry(C, i, j)));
        mag_clear(trunc);
        mag_clear(tj);
        mag_clear(r);
        mag_clear(u);
    }
    arf_clear(t);
    fmpz_clear(z);
    free(As);
    free(Bs);
    free(L);
    free(ea);
    free(fb);
    free(parts);
    _mag_vec_clear(ra, m);
    _mag_vec_clear(rb, n);
    return ok;
}
