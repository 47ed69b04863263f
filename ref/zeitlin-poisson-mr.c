/* ref/zeitlin-poisson-mr.c — the generator's Poisson solve on the BLAS route
 * (docs/design.md#blas-route; the solve of ref/zeitlin-basis.c, docs/systems.md#euler-zeitlin):
 * (Delta_N - shift)^{-1} X diagonal by diagonal, the per-diagonal Thomas solves of
 * ref/zeitlin-basis.c in midpoint–radius doubles (the scalar arithmetic of ref/mrmat.h) on
 * the Thomas factors as doubles (z->twd, made with the factors). Four diagonals are solved
 * side by side (thomas_mr): each solve's operations and their order are its own, so the
 * bits are those of one at a time, and one lane's chain of roundings up (bound by its
 * latency) overlaps the others' (docs/experiments.md#thomas-lanes). */
#include "core/slpi-flint.h"
#include "ref/mrmat.h"
#include "ref/zeitlin.h"

#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* the factors freed on failure, as ref/zeitlin-basis.c frees them (twd_free) */
static void factors_free(slpi_ref_zeitlin *z)
{
    for (int d = 0; d < z->N; d++) free(z->twd[d]);
    free(z->twd);
    z->twd = NULL;
}

void slpi_ref_zeitlin_factors_mr(slpi_ref_zeitlin *z)
{
    int N = z->N, ok;
    if (z->twd != NULL) return;
    z->twd = calloc((size_t)N, sizeof *z->twd);
    ok = z->twd != NULL;
    for (int d = 0; d < N && ok; d++) {
        int n = N - d;
        double *t = z->twd[d] = malloc(sizeof(double) * 6 * (size_t)n);
        ok = t != NULL;
        for (int i = 0; i < 2 * n && ok; i++) ok = slpi_ref_mrmat_ball_get(t + i, t + 2 * n + i, z->tw[d] + i);
        for (int i = 0; i < n && ok; i++) ok = slpi_ref_mrmat_ball_get(t + 4 * n + i, t + 5 * n + i, z->loff[d] + i);
    }
    if (!ok && z->twd != NULL) factors_free(z);
}

/* <*zm, *zr> = <*zm, *zr> - x y (rad 0: *zm alone, the scalar products' and sums' midpoints) */
static inline void mul_sub(double *zm, double *zr, double xm, double xr, double ym, double yr, int rad)
{
    double tm, tr;
    if (!rad) {
        *zm -= xm * ym;
        return;
    }
    slpi_ref_mrmat_scalar_mul(&tm, &tr, xm, xr, ym, yr);
    slpi_ref_mrmat_scalar_sub(zm, zr, *zm, *zr, tm, tr);
}

/* <*zm, *zr> = <*zm, *zr> y (rad 0: *zm alone) */
static inline void mul_by(double *zm, double *zr, double ym, double yr, int rad)
{
    if (rad)
        slpi_ref_mrmat_scalar_mul(zm, zr, *zm, *zr, ym, yr);
    else
        *zm *= ym;
}

/* One tridiagonal solve: its right-hand side and solution p (n complex balls: mid pm,
 * rad pr, re and im interleaved), its Thomas factors f (mid fm, rad fr: 1/w_i at i, the
 * multipliers at n + i) and off-diagonal e (em, er) */
typedef struct {
    double *pm, *pr;
    const double *fm, *fr, *em, *er;
    int n;
} thomas_lane;

/* the solve of each of the L lanes, as thomas_solve of ref/zeitlin-basis.c; rad 0: pm
 * alone (pr, fr, er not read), the same bits. Each lane's chain of dependent operations is
 * its own and in its own order; the lanes advance side by side, row by row, so that one
 * lane's radius arithmetic (a chain of roundings up, bound by its latency) overlaps the
 * others' (docs/experiments.md#thomas-lanes) */
static void thomas_mr(thomas_lane *s, int L, int rad)
{
    int most = 0;
    for (int l = 0; l < L; l++) most = s[l].n > most ? s[l].n : most;
    for (int i = 1; i < most; i++)
        for (int l = 0; l < L; l++) {
            thomas_lane *t = s + l;
            if (i >= t->n) continue;
            for (int c = 0; c < 2; c++) {
                int a = 2 * i + c, b = 2 * (i - 1) + c;
                mul_sub(t->pm + a, rad ? t->pr + a : NULL, t->pm[b], rad ? t->pr[b] : 0, t->fm[t->n + i - 1],
                        rad ? t->fr[t->n + i - 1] : 0, rad);
            }
        }
    for (int l = 0; l < L; l++) {
        thomas_lane *t = s + l;
        for (int c = 0; c < 2 && t->n > 0; c++) {
            int a = 2 * (t->n - 1) + c;
            mul_by(t->pm + a, rad ? t->pr + a : NULL, t->fm[t->n - 1], rad ? t->fr[t->n - 1] : 0, rad);
        }
    }
    for (int i = most - 2; i >= 0; i--)
        for (int l = 0; l < L; l++) {
            thomas_lane *t = s + l;
            if (i > t->n - 2) continue;
            for (int c = 0; c < 2; c++) {
                int a = 2 * i + c, b = 2 * (i + 1) + c;
                mul_sub(t->pm + a, rad ? t->pr + a : NULL, t->pm[b], rad ? t->pr[b] : 0, t->em[i], rad ? t->er[i] : 0,
                        rad);
                mul_by(t->pm + a, rad ? t->pr + a : NULL, t->fm[i], rad ? t->fr[i] : 0, rad);
            }
        }
}

/* the lane of diagonal d's factors t (n = N - d unknowns) on p; off 1: the d = 0 solve
 * on 1..N-1 (p_0 pinned), n - 1 unknowns */
static thomas_lane lane_of(double *pm, double *pr, const double *t, int n, int off)
{
    thomas_lane s = { pm + 2 * off, pr + 2 * off, t, t + 2 * n, t + 4 * n + off, t + 5 * n + off, n - off };
    return s;
}

/* the mean of the n parts x[2 i] (stride 2) subtracted from each, as balls (rad 0: xm alone) */
static void mean_sub_mr(double *xm, double *xr, int n, int rad)
{
    double sm = 0, sr = 0;
    for (int i = 0; i < n; i++)
        if (rad)
            slpi_ref_mrmat_scalar_add(&sm, &sr, sm, sr, xm[2 * i], xr[2 * i]);
        else
            sm -= -xm[2 * i];
    if (rad)
        slpi_ref_mrmat_scalar_div_ui(&sm, &sr, sm, sr, (unsigned long)n);
    else
        sm /= (double)n;
    for (int i = 0; i < n; i++)
        if (rad)
            slpi_ref_mrmat_scalar_sub(xm + 2 * i, xr + 2 * i, xm[2 * i], xr[2 * i], sm, sr);
        else
            xm[2 * i] -= sm;
}

int slpi_ref_zeitlin_poisson_mr(acb_mat_t P, const acb_mat_t X, const slpi_ref_zeitlin *z)
{
    slpi_ref_mr x, y;
    memset(&y, 0, sizeof y);
    int ok = slpi_ref_mrmat_get(&x, X, 2) && slpi_ref_mrmat_init(&y, z->N, z->N, 2) &&
        slpi_ref_zeitlin_poisson_dd(&y, &x, z);
    if (ok) slpi_ref_mrmat_set(P, &y);
    slpi_ref_mrmat_clear(&x);
    slpi_ref_mrmat_clear(&y);
    return ok;
}

/* diagonals solved side by side (thomas_mr) */
#define POISSON_LANES 4

int slpi_ref_zeitlin_poisson_dd(slpi_ref_mr *P, const slpi_ref_mr *X, const slpi_ref_zeitlin *z)
{
    int N = z->N, ok = z->twd != NULL, rad = P->rad != NULL;
    double *pm = malloc(sizeof(double) * 4 * POISSON_LANES * (size_t)N), *pr = pm + 2 * POISSON_LANES * N;
    thomas_lane s[POISSON_LANES];
    ok = ok && pm != NULL;
    /* d = 0: x_a = Im X_aa - Tr/N (real), shift 0: p_0 pinned, solve on 1..N-1; the mean subtracted */
    for (int a = 0; a < N && ok; a++) {
        pm[2 * a] = X->mid[((size_t)a * N + a) * 2 + 1], pm[2 * a + 1] = 0;
        if (rad) pr[2 * a] = X->rad[((size_t)a * N + a) * 2 + 1], pr[2 * a + 1] = 0;
    }
    if (ok) {
        int pinned = arb_is_zero(z->shift);
        mean_sub_mr(pm, pr, N, rad);
        if (pinned) pm[0] = pr[0] = 0;
        s[0] = lane_of(pm, pr, z->twd[0], N, pinned);
        thomas_mr(s, 1, rad);
        mean_sub_mr(pm, pr, N, rad);
        memset(P->mid, 0, sizeof(double) * 2 * (size_t)N * N);
        if (rad) memset(P->rad, 0, sizeof(double) * 2 * (size_t)N * N);
        for (int a = 0; a < N; a++) {
            P->mid[((size_t)a * N + a) * 2 + 1] = pm[2 * a];
            if (rad) P->rad[((size_t)a * N + a) * 2 + 1] = pr[2 * a];
        }
    }
    /* d >= 1: L_d p = x_d on the superdiagonal, POISSON_LANES diagonals at a time; mirror
     * to the subdiagonal */
    for (int d0 = 1; d0 < N && ok; d0 += POISSON_LANES) {
        int L = N - d0 < POISSON_LANES ? N - d0 : POISSON_LANES;
        for (int l = 0; l < L; l++) {
            int d = d0 + l, n = N - d;
            double *qm = pm + 2 * l * N, *qr = pr + 2 * l * N;
            for (int a = 0; a < n; a++) {
                size_t e = ((size_t)a * N + a + d) * 2;
                qm[2 * a] = X->mid[e], qm[2 * a + 1] = X->mid[e + 1];
                if (rad) qr[2 * a] = X->rad[e], qr[2 * a + 1] = X->rad[e + 1];
            }
            s[l] = lane_of(qm, qr, z->twd[d], n, 0);
        }
        thomas_mr(s, L, rad);
        for (int l = 0; l < L; l++) {
            int d = d0 + l, n = N - d;
            const double *qm = pm + 2 * l * N, *qr = pr + 2 * l * N;
            for (int a = 0; a < n; a++) {
                size_t up = ((size_t)a * N + a + d) * 2, lo = ((size_t)(a + d) * N + a) * 2;
                P->mid[up] = qm[2 * a], P->mid[lo] = -qm[2 * a];
                P->mid[up + 1] = P->mid[lo + 1] = qm[2 * a + 1];
                if (!rad) continue;
                P->rad[up] = P->rad[lo] = qr[2 * a];
                P->rad[up + 1] = P->rad[lo + 1] = qr[2 * a + 1];
            }
        }
    }
    free(pm);
    return ok;
}
