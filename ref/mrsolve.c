/* ref/mrsolve.c — a certified linear solve on the BLAS route (docs/design.md#blas-route):
 * X = A^{-1} B for ball matrices A (n x n) and B (n x k), the Cayley factor of ISOMP's
 * CAY update (ISO §4.3, eq. (30)) at the sizes where acb_mat_solve's O(n^3) Arb work
 * dominates the step.
 *
 * Method (the norm bound of verified linear solvers: S. M. Rump, "Verification methods:
 * rigorous results using floating-point arithmetic", Acta Numerica 19 (2010) 287–449,
 * Part 2, dense linear systems; INTLAB's verifylss). R ~ mid(A)^{-1} and Xt ~ R mid(B) are
 * any matrices of doubles (LAPACK's zgesv: never trusted). For any A, B in the balls and
 * D = A^{-1} B - Xt (when A is invertible),
 *     D = R (B - A Xt) + (I - R A) D.
 * With Z an enclosure of R (B - A Xt) and E one of I - R A (three products enclosed by
 * slpi_ref_mrmat_mul, ref/mrmat.c), e_i >= sum_j |E_ij| (complex moduli) and beta = max_i
 * e_i: if beta < 1, then R A is invertible (a Neumann series), so A is, and for every
 * column j, ||D e_j||_inf <= ||Z e_j||_inf + beta ||D e_j||_inf, so
 *     ||D e_j||_inf <= d_j = max_i |Z_ij| / (1 - beta),
 * and entrywise |D_ij - Z_ij| <= sum_l |E_il| |D_lj| <= e_i d_j. Hence
 *     A^{-1} B in Xt + Z + disc(e_i d_j)   (each part widened by e_i d_j),
 * every bound rounded upward in Arb's mag arithmetic (1 - beta downward). beta >= 1 is a
 * failed test: no enclosure is claimed. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "ref/mrmat.h"

#include <lapacke.h>
#include <stdio.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>

/* out = the doubles z (n x k complex, row-major), exact balls of radius 0 */
static void set_exact(acb_mat_t out, const lapack_complex_double *z)
{
    slong k = acb_mat_ncols(out);
    for (slong i = 0; i < acb_mat_nrows(out); i++)
        for (slong j = 0; j < k; j++) {
            const double *p = (const double *)(z + i * k + j);
            acb_set_d_d(acb_mat_entry(out, i, j), p[0], p[1]);
        }
}

/* M[i * ld + j] = mid of A's entry (i, j) as a double; 0 if beyond the double range */
static int get_mid(lapack_complex_double *M, int ld, const acb_mat_t A)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++) {
            double *p = (double *)(M + i * ld + j);
            if (!slpi_ref_mrmat_ball_get(p, NULL, acb_realref(acb_mat_entry(A, i, j))) ||
                !slpi_ref_mrmat_ball_get(p + 1, NULL, acb_imagref(acb_mat_entry(A, i, j))))
                return 0;
        }
    return 1;
}

/* R and Xt by one LU of mid(A) with the right-hand sides [I, mid(B)]: 1, 0 if a part is
 * beyond the double range (or out of memory), -1 if LAPACK finds mid(A) singular */
static int approx_inverse(acb_mat_t R, acb_mat_t Xt, const acb_mat_t A, const acb_mat_t B)
{
    int n = (int)acb_mat_nrows(A), k = (int)acb_mat_ncols(B), w = n + k, ok;
    lapack_complex_double *M = calloc((size_t)n * n + 1, sizeof *M), *S = calloc((size_t)n * w + 1, sizeof *S);
    lapack_int *piv = malloc(sizeof *piv * (size_t)(n + 1));
    ok = M != NULL && S != NULL && piv != NULL && get_mid(M, n, A) && get_mid(S + n, w, B);
    if (ok) {
        for (int i = 0; i < n; i++) S[(size_t)i * w + i] = 1.0;
        ok = LAPACKE_zgesv(LAPACK_ROW_MAJOR, n, w, M, n, piv, S, w) == 0 ? 1 : -1;
    }
    for (size_t e = 0; ok == 1 && e < (size_t)n * w; e++)
        if (!isfinite(creal(S[e])) || !isfinite(cimag(S[e]))) ok = -1;
    if (ok == 1) {
        lapack_complex_double *r = malloc(sizeof *r * ((size_t)n * n + 1)),
                              *x = malloc(sizeof *x * ((size_t)n * k + 1));
        ok = r != NULL && x != NULL;
        for (int i = 0; ok && i < n; i++)
            for (int j = 0; j < w; j++) {
                if (j < n)
                    r[(size_t)i * n + j] = S[(size_t)i * w + j];
                else
                    x[(size_t)i * k + j - n] = S[(size_t)i * w + j];
            }
        if (ok) {
            set_exact(R, r);
            set_exact(Xt, x);
        }
        free(r);
        free(x);
    }
    free(M);
    free(S);
    free(piv);
    return ok;
}

int slpi_ref_mrmat_solve(acb_mat_t X, const acb_mat_t A, const acb_mat_t B, slong prec, char *why, size_t why_len)
{
    int n = (int)acb_mat_nrows(A), k = (int)acb_mat_ncols(B), ok;
    acb_mat_t R, Xt, E, T, Z;
    mag_ptr e = _mag_vec_init(n), d = _mag_vec_init(k);
    mag_t beta, t, gap;
    acb_mat_init(R, n, n);
    acb_mat_init(Xt, n, k);
    acb_mat_init(E, n, n);
    acb_mat_init(T, n, k);
    acb_mat_init(Z, n, k);
    mag_init(beta);
    mag_init(t);
    mag_init(gap);
    ok = approx_inverse(R, Xt, A, B);
    if (ok == 0) { /* out of memory too: through slpi_error_set */
        slpi_error e;
        slpi_error_set(&e, SLPI_EINPUT, "blas route: a part of the solve beyond the double range (or out of memory)");
        snprintf(why, why_len, "%s", e.msg);
    } else if (ok < 0)
        snprintf(why, why_len, "blas route: the solve's matrix is singular in binary64 (LAPACK zgesv)");
    if (ok == 1) { /* E = I - R A, Z = R (B - A Xt) */
        ok = slpi_ref_mrmat_mul(E, R, A, why, why_len) && slpi_ref_mrmat_mul(T, A, Xt, why, why_len);
        if (ok) {
            acb_mat_neg(E, E);
            for (int i = 0; i < n; i++) acb_add_ui(acb_mat_entry(E, i, i), acb_mat_entry(E, i, i), 1, prec);
            acb_mat_sub(T, B, T, prec);
            ok = slpi_ref_mrmat_mul(Z, R, T, why, why_len);
        }
    }
    if (ok == 1) { /* e_i, beta */
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                acb_get_mag(t, acb_mat_entry(E, i, j));
                mag_add(e + i, e + i, t);
            }
            mag_max(beta, beta, e + i);
        }
        mag_one(t);
        mag_sub_lower(gap, t, beta);
        if (mag_cmp_2exp_si(beta, 0) >= 0 || mag_is_zero(gap)) {
            snprintf(why, why_len, "blas route: the solve's test fails: ||I - R A||_inf = %.3g >= 1", mag_get_d(beta));
            ok = -1;
        }
    }
    if (ok == 1) { /* d_j, then X = Xt + Z + disc(e_i d_j) */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < k; j++) {
                acb_get_mag(t, acb_mat_entry(Z, i, j));
                mag_max(d + j, d + j, t);
            }
        for (int j = 0; j < k; j++) mag_div(d + j, d + j, gap);
        acb_mat_add(X, Xt, Z, prec);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < k; j++) {
                mag_mul(t, e + i, d + j);
                acb_add_error_mag(acb_mat_entry(X, i, j), t);
            }
    }
    acb_mat_clear(R);
    acb_mat_clear(Xt);
    acb_mat_clear(E);
    acb_mat_clear(T);
    acb_mat_clear(Z);
    _mag_vec_clear(e, n);
    _mag_vec_clear(d, k);
    mag_clear(beta);
    mag_clear(t);
    mag_clear(gap);
    return ok;
}
