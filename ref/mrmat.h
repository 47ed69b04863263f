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

#include "slpi.h"

/* From this size on matmul=auto takes the BLAS route (bench/bench-ref-blas.c measures the
 * crossover). */
#define SLPI_REF_MRMAT_AUTO_N 32

/* The working precision of a step on the BLAS route (at most): its balls are as wide as
 * binary64 products make them, about k u |A||B|, and Arb's arithmetic around them at
 * more bits narrows nothing (bench-ref-blas at N = 128: radius 2.74e-19 at 64 bits,
 * 2.66e-19 at 128) while costing 1.6x the step. */
#define SLPI_REF_MRMAT_PREC 64

/* 1 if the products of an ISOMP step of p at matrix size N and precision prec take the
 * BLAS route (docs/design.md#blas-route): matmul=blas always; matmul=auto from
 * SLPI_REF_MRMAT_AUTO_N on at the problem's first precision or below it (the route's
 * own, SLPI_REF_MRMAT_PREC; a retry at a raised precision takes Arb's products), if the
 * BLAS passed the probe; never for another scheme. */
int slpi_ref_mrmat_route(const slpi_problem *p, int N, slong prec);

/* m = the double nearest mid(x), r >= rad(x) + |mid(x) - m| (r == NULL: the midpoint
 * only). 0 if mid(x) or the radius is beyond the double range. */
int slpi_ref_mrmat_ball_get(double *m, double *r, const arb_t x);

/* C = A B enclosed. Returns 1, or 0 with the reason in why (C then undefined) if the
 * route cannot enclose it: an input part beyond the double range, a result that
 * overflows, k beyond the bound's range, or a BLAS that failed the probe. */
int slpi_ref_mrmat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, char *why, size_t why_len);

/* The same for real matrices as doubles (row-major, contiguous): mC (m x n) and rC
 * enclose every product of A = <mA, rA> (m x k) and B = <mB, rB> (k x n); rA == NULL
 * stands for the radius sA >= 0 on every entry of A (a table stored with one radius),
 * likewise rB and sB. Returns 1, or 0 with the reason in why. */
int slpi_ref_mrmat_gemm(double *mC, double *rC, int m, int k, int n, const double *mA, const double *rA,
                        double sA, const double *mB, const double *rB, double sB, char *why, size_t why_len);

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

/* The BLAS's behaviour that the bound assumes, probed once per process (dgemm and zgemm
 * at a single-threaded and a multi-threaded size): round to nearest (a tie and an
 * above-tie sum), gradual underflow of results (no flush to zero) and of inputs (no
 * denormals-are-zero), and this thread's rounding mode to nearest. Returns 1, or 0 with
 * the first failure in why. */
int slpi_ref_mrmat_probe(char *why, size_t why_len);

/* Wall seconds this thread spent since the last call in the route's gemm calls (the
 * rounding-error bounds included) and in the conversions from and to balls. */
void slpi_ref_mrmat_seconds_take(double *gemm, double *convert);

#endif
