/* ref/mrmat.h — certified matrix products on double BLAS: midpoint–radius enclosures
 * (docs/design.md#blas-route; the bound and its sources in ref/mrmat.c's header).
 *
 * slpi_ref_mrmat_mul encloses C = A B for acb matrices A (m x k), B (k x n): every
 * entry of C contains the exact product of every pair of matrices in the balls of A and
 * B. Inputs are rounded to doubles with their rounding error added to the radii, the
 * product is one zgemm (dgemm when both are real) for the midpoints and one dgemm of the
 * absolute values for the radii, with the a priori rounding bound of ref/mrmat.c, which
 * holds for any summation order and blocking, with or without FMA, and under gradual
 * underflow. The output's midpoints are doubles and its radii at least the rounding
 * errors of binary64 products (about k u |A||B|), whatever the inputs' precision.
 * Outputs never alias inputs. */
#ifndef SLPI_REF_MRMAT_H
#define SLPI_REF_MRMAT_H

typedef struct slpi_problem slpi_problem;
#include "core/slpi-flint.h"

#include <math.h>
#include <stddef.h>

/* From this size on matmul=auto takes the BLAS route (bench/bench-ref-blas.c measures the
 * crossover). */
#define SLPI_REF_MRMAT_AUTO_N 32

/* The working precision of a step on the BLAS route (at most): its balls are as wide as
 * binary64 products make them, about k u |A||B|, and Arb's arithmetic around them at
 * more bits narrows nothing (bench-ref-blas at N = 128: radius 2.74e-19 at 64 bits,
 * 2.66e-19 at 128) while costing 1.6x the step. */
#define SLPI_REF_MRMAT_PREC 64

/* The underflow term of the scalar arithmetic below: eta = 2^-1074 raised to 2^-968, so
 * that phi t (slpi_ref_mrmat_up) is normal too. A larger term keeps every bound one, and
 * nothing the radii's arithmetic forms from it is subnormal: a subnormal result costs a
 * microcode assist, which made the arithmetic on a centred ball (midpoints 0, each
 * operation's rounding term eta alone; ref/isomp-mr.c's mean-value forms) twice as slow
 * (docs/design.md#mean-value-forms). A radius is then at least 2^-968, nothing beside
 * the 2^-60 or so of a state's scale that the route's balls have. */
#define SLPI_REF_MRMAT_TINY 0x1p-968

/* A double above x, at most 2^-51 |x| + 2^-966 above it (x finite, rounding to
 * nearest): fl(x + fl(fl(phi |x|) + t)), phi = u (1 + 2u), t = SLPI_REF_MRMAT_TINY,
 * Algorithm 2 of S. M. Rump, P. Zimmermann, S. Boldo, G. Melquiond, "Computing
 * predecessor and successor in rounding to nearest", BIT 49 (2009) 419–431 (branch-free:
 * three operations) with t >= its eta (rounding is monotone, so the sum is at least
 * theirs, which is above x). With rounding to nearest, up(fl(a + b)) >= a + b,
 * up(fl(a b)) >= a b, up(fl(a / b)) >= a / b and up(fl(sqrt(a))) >= sqrt(a) for a, b >= 0. */
static inline double slpi_ref_mrmat_up(double x)
{
    return x + (0x1.0000000000001p-53 * fabs(x) + SLPI_REF_MRMAT_TINY);
}

/* 1 when every entry of v (n of them) is finite: x 0 is +-0 for a finite x and NaN
 * otherwise, summed in four chains (a loop the compiler vectorises; no early exit) */
static inline int slpi_ref_mrmat_all_finite(const double *v, size_t n)
{
    double acc[4] = { 0, 0, 0, 0 };
    size_t e = 0;
    for (; e + 4 <= n; e += 4)
        for (int j = 0; j < 4; j++) acc[j] += v[e + j] * 0.0;
    for (; e < n; e++) acc[0] += v[e] * 0.0;
    return isfinite(acc[0] + acc[1] + acc[2] + acc[3]);
}

/* Scalar midpoint–radius arithmetic in binary64 (ref/mrmat.c's model: rounding to
 * nearest, u = 2^-53, eta = 2^-1074; S. M. Rump, "Fast and parallel interval arithmetic",
 * BIT 39 (1999) 534–554, §2, with the underflow term): z = <zm, zr> contains x op y for
 * every x in <xm, xr>, y in <ym, yr>. A sum's rounding is at most u |fl(s)| (exact where
 * it underflows), a product's or a quotient's at most u |fl(p)| + eta/2, taken as
 * u |fl(p)| + SLPI_REF_MRMAT_TINY; the radii are rounded up operation by operation. zm,
 * zr may alias the inputs. */
static inline void slpi_ref_mrmat_scalar_sub(double *zm, double *zr, double xm, double xr, double ym, double yr)
{
    double m = xm - ym;
    *zr = slpi_ref_mrmat_up(slpi_ref_mrmat_up(xr + yr) + slpi_ref_mrmat_up(0x1p-53 * fabs(m)));
    *zm = m;
}

static inline void slpi_ref_mrmat_scalar_add(double *zm, double *zr, double xm, double xr, double ym, double yr)
{
    slpi_ref_mrmat_scalar_sub(zm, zr, xm, xr, -ym, yr);
}

/* |x y - xm ym| <= |xm| yr + xr (|ym| + yr) */
static inline void slpi_ref_mrmat_scalar_mul(double *zm, double *zr, double xm, double xr, double ym, double yr)
{
    double m = xm * ym;
    double prop =
        slpi_ref_mrmat_up(slpi_ref_mrmat_up(fabs(xm) * yr) + slpi_ref_mrmat_up(xr * slpi_ref_mrmat_up(fabs(ym) + yr)));
    *zr = slpi_ref_mrmat_up(prop + slpi_ref_mrmat_up(0x1p-53 * fabs(m) + SLPI_REF_MRMAT_TINY));
    *zm = m;
}

/* z = x / n for an integer 0 < n < 2^53 */
static inline void slpi_ref_mrmat_scalar_div_ui(double *zm, double *zr, double xm, double xr, unsigned long n)
{
    double m = xm / (double)n;
    *zr = slpi_ref_mrmat_up(slpi_ref_mrmat_up(xr / (double)n) +
                            slpi_ref_mrmat_up(0x1p-53 * fabs(m) + SLPI_REF_MRMAT_TINY));
    *zm = m;
}

/* 1 if the products of an ISOMP step of p at matrix size N and precision prec take the
 * BLAS route (docs/design.md#blas-route): matmul=blas always; matmul=auto from
 * SLPI_REF_MRMAT_AUTO_N on at the problem's first precision or below it (the route's
 * own, SLPI_REF_MRMAT_PREC; a retry at a raised precision takes Arb's products), if the
 * BLAS passed the probe; never for another scheme. */
int slpi_ref_mrmat_route(const slpi_problem *p, int N, slong prec);

/* m = the double nearest mid(x), r >= rad(x) + |mid(x) - m| (r == NULL: the midpoint
 * only). 0 if mid(x) or the radius is beyond the double range. */
int slpi_ref_mrmat_ball_get(double *m, double *r, const arb_t x);

/* A matrix of balls as doubles (midpoints and componentwise radii), row-major; c = 2:
 * complex, (re, im) interleaved; c = 1: real. rad NULL: the midpoints alone (an
 * iteration's point, ref/krawczyk-mr.c), which the functions that say so accept as their
 * output, forming the same midpoints bit for bit without radii. */
typedef struct {
    int rows, cols, c;
    double *mid, *rad;
} slpi_ref_mr;

/* 1 if every entry of A is real (its imaginary part exactly zero) */
int slpi_ref_mrmat_is_real(const acb_mat_t A);
/* M = A as doubles (c = 2 complex, 1 real: A's imaginary parts ignored), each radius
 * bounding the ball's and the rounding of its midpoint. 0 where a part is beyond the
 * double range (or out of memory); M is then to be cleared all the same. */
int slpi_ref_mrmat_get(slpi_ref_mr *M, const acb_mat_t A, int c);
void slpi_ref_mrmat_clear(slpi_ref_mr *M);
/* M = rows x cols entries of c parts, allocated (not set); 0 out of memory (M then to be
 * cleared all the same) */
int slpi_ref_mrmat_init(slpi_ref_mr *M, int rows, int cols, int c);
/* C (dimensions of M) = the balls of M */
void slpi_ref_mrmat_set(acb_mat_t C, const slpi_ref_mr *M);
/* C = A B enclosed as slpi_ref_mrmat_mul (same c; C allocated here, to be cleared) */
int slpi_ref_mrmat_mul_mr(slpi_ref_mr *C, const slpi_ref_mr *A, const slpi_ref_mr *B, char *why, size_t why_len);
/* C's midpoints = those of slpi_ref_mrmat_mul_mr, bit for bit, and no radii (C->rad NULL,
 * A's and B's not read): no enclosure (an iteration's point, ref/krawczyk-mr.c); 0 as
 * slpi_ref_mrmat_mul_mr */
int slpi_ref_mrmat_mul_mr_mid(slpi_ref_mr *C, const slpi_ref_mr *A, const slpi_ref_mr *B, char *why, size_t why_len);
/* z = a x for a power of two a: exact but where it underflows (at most eta/2 then) */
static inline void slpi_ref_mrmat_scalar_pow2(double *zm, double *zr, double a, double xm, double xr)
{
    *zm = a * xm;
    *zr = slpi_ref_mrmat_up(slpi_ref_mrmat_up(fabs(a) * xr) + SLPI_REF_MRMAT_TINY);
}

/* Y += a X, or a (X - X^*) (skew, X square), enclosed (a a power of two; the sums by the
 * scalar arithmetic below); Y->rad NULL: Y's midpoints alone, the same bits. 0 where a
 * part leaves the double range. */
int slpi_ref_mrmat_axpy(slpi_ref_mr *Y, double a, const slpi_ref_mr *X, int skew);
/* slpi_ref_mrmat_axpy at one part: <*ym, *yr> += a X's part at e, or a (X - X^*)'s (skew:
 * et the transposed entry's same part, p the part, 1 imaginary); the same operations in
 * the same order, so any subset of the entries gets the bits of the whole. yr NULL: *ym
 * alone, the same bits, X's radii not read. */
static inline void slpi_ref_mrmat_axpy_at(double *ym, double *yr, double a, const slpi_ref_mr *X, size_t e, size_t et,
                                          int p, int skew)
{
    if (yr == NULL) { /* the midpoints alone: the same operations */
        double xm = X->mid[e];
        if (skew) xm -= p ? -X->mid[et] : X->mid[et];
        if (a != 1) xm *= a;
        *ym -= -xm;
        return;
    }
    double xm = X->mid[e], xr = X->rad[e];
    if (skew) /* (X - X^*)_ij: re x_ij - x_ji, im x_ij + x_ji */
        slpi_ref_mrmat_scalar_add(&xm, &xr, xm, xr, p ? X->mid[et] : -X->mid[et], X->rad[et]);
    if (a != 1) slpi_ref_mrmat_scalar_pow2(&xm, &xr, a, xm, xr);
    slpi_ref_mrmat_scalar_add(ym, yr, *ym, *yr, xm, xr);
}

/* C = A B enclosed. Returns 1, or 0 with the reason in why (C then undefined) if the
 * route cannot enclose it: an input part beyond the double range, a result that
 * overflows, k beyond the bound's range, or a BLAS that failed the probe. */
int slpi_ref_mrmat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, char *why, size_t why_len);

/* Real products with a table (docs/design.md#blas-route): C = X T (t_left = 0; X m x k, T
 * k x n) or C = T X (t_left = 1; T m x k, X k x n), row-major doubles (T's rows ldt
 * apart: a block of a wider table), enclosed for every
 * X in <mX, rX> (componentwise radii) and T in <mT, sT> (one radius sT for every entry),
 * given nT >= the 2-norm of every row and column of mT (slpi_ref_mrmat_norm_bound): the
 * midpoints by one dgemm, the radius from norms of X's rows (columns) alone, O(k) each
 * (ref/mrmat.c's header, table form); rC NULL: the midpoints alone (rX not read).
 * Returns 1, or 0 with the reason in why. */
int slpi_ref_mrmat_gemm_table(double *mC, double *rC, int m, int k, int n, const double *mX, const double *rX,
                              const double *mT, int ldt, double sT, double nT, int t_left, char *why, size_t why_len);
/* An upper bound of the 2-norm of every row and every column of the row-major M */
double slpi_ref_mrmat_norm_bound(const double *M, int rows, int cols);

/* X = A^{-1} B enclosed (A n x n, B n x k; X never aliases them): for every pair of
 * matrices in the balls of A and B, A is invertible and A^{-1} B lies in X. R ~ mid(A)^{-1}
 * by LAPACK (never trusted), the residuals I - R A and B - A Xt enclosed by
 * slpi_ref_mrmat_mul, and the norm test ||I - R A||_inf < 1 (ref/mrsolve.c). Returns 1;
 * 0 with the reason where the route cannot enclose (a part beyond the double range:
 * another solver may); -1 with the reason where the test fails (no enclosure). */
int slpi_ref_mrmat_solve(acb_mat_t X, const acb_mat_t A, const acb_mat_t B, slong prec, char *why, size_t why_len);

/* C = mid(A) mid(B) in binary64 (radius 0: an approximation, for candidate iterations
 * only; never part of an enclosure). Returns 0 if a part is beyond the double range. */
int slpi_ref_mrmat_mul_mid(acb_mat_t C, const acb_mat_t A, const acb_mat_t B);

/* The BLAS's behaviour that the bound assumes, probed once per process (dgemm, dgemv and zgemm
 * at a single-threaded and a multi-threaded size): round to nearest (a tie and an
 * above-tie sum), gradual underflow of results (no flush to zero) and of inputs (no
 * denormals-are-zero), and this thread's rounding mode to nearest. Returns 1, or 0 with
 * the first failure in why. */
int slpi_ref_mrmat_probe(char *why, size_t why_len);

/* Wall seconds this thread spent since the last call in the route's gemm calls (the
 * rounding-error bounds included) and in the conversions from and to balls. */
void slpi_ref_mrmat_seconds_take(double *gemm, double *convert);

/* C = A B for ball matrices by error-free slicing on BLAS (ref/mrmat-sliced.c,
 * docs/power.md#sliced-products): midpoints within about K 2^-100 of the scale of A's row
 * times B's column, the radius a rigorous bound of that and of the inputs' radii (the
 * largest of a row or column, so meant for narrow balls). 1, or 0 (C unchanged) where a
 * midpoint is not finite or beyond 2^(WORD_MAX/4). C may alias neither input. */
int slpi_ref_mrmat_mul_sliced(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* From this size on the accurate ISOMP step takes it (bench/bench-ref-sliced.c: 1.14x Arb's
 * product at 128 bits at N = 16, 0.87x at 12; 2.2x at 32, 3.6x at 128). */
#define SLPI_REF_MRMAT_SLICED_N 16

#endif
