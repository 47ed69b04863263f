/* ref/zeitlin-mr.c — the su(N) basis transforms of the noise on the BLAS route
 * (docs/design.md#blas-route; the same transforms as slpi_ref_zeitlin_analysis and
 * slpi_ref_zeitlin_synthesis of ref/zeitlin-basis.c, docs/systems.md#euler-zeitlin).
 * Per diagonal m (n = N - m entries X_{a+m,a}), with V_m the table of the T_lm (column
 * l - m = t of T_lm):
 *   analysis:  [omega_{l,2m-1}; omega_{l,2m}]_l = s_m [Re d; Im d]^T V_m   (2 x n),
 *   synthesis: [p_cos, p_sin] = V_m [v_cos, v_sin]                           (n x 2),
 * s_m = sqrt2 for m > 0 (1 for m = 0, whose only part is Im), v the coefficients
 * scaled by 1/sqrt2 (m > 0). The products are enclosed by slpi_ref_mrmat_gemm; the
 * tables V_m enter as doubles with one radius each, the largest distance of an entry
 * from the exact table (slpi_ref_zeitlin_mr_init, once, from balls at
 * SLPI_REF_MRMAT_PREC bits: N^3/3 doubles, 2.9 GB at N = 1024, where the balls would
 * take about 32 GB). */
#include "ref/mrmat.h"
#include "ref/zeitlin.h"

#include <math.h>
#include <stdlib.h>

int slpi_ref_zeitlin_mr_init(slpi_ref_zeitlin_mr *t, int N)
{
    int ok = 1;
    t->N = N;
    t->mid = calloc((size_t)N, sizeof *t->mid);
    t->rad = calloc((size_t)N, sizeof *t->rad);
    ok = t->mid != NULL && t->rad != NULL;
    for (int m = 0; m < N && ok; m++) {
        int n = N - m;
        arb_mat_t V;                   /* one table as balls at a time: O(N^2) of them */
        arb_mat_init(V, n, n);
        t->mid[m] = malloc(sizeof(double) * (size_t)n * n);
        ok = t->mid[m] != NULL && slpi_ref_zeitlin_table(V, N, m, SLPI_REF_MRMAT_PREC);
        for (int a = 0; a < n && ok; a++)
            for (int c = 0; c < n && ok; c++) {
                double r;
                ok = slpi_ref_mrmat_ball_get(t->mid[m] + (size_t)a * n + c, &r, arb_mat_entry(V, a, c));
                if (ok)
                    t->rad[m] = fmax(t->rad[m], r);
            }
        arb_mat_clear(V);
        slpi_progress_tick("su(%d) tables as doubles: %d/%d", N, m + 1, N);
    }
    if (!ok)
        slpi_ref_zeitlin_mr_clear(t);
    return ok;
}

void slpi_ref_zeitlin_mr_clear(slpi_ref_zeitlin_mr *t)
{
    for (int m = 0; m < t->N && t->mid != NULL; m++)
        free(t->mid[m]);
    free(t->mid);
    free(t->rad);
    t->mid = NULL;
    t->rad = NULL;
    t->N = 0;
}

/* the ball <mid, rad> */
static void ball_set(arb_t x, double mid, double rad)
{
    arb_set_d(x, mid);
    mag_set_d(arb_radref(x), rad);
}

int slpi_ref_zeitlin_analysis_mr(arb_ptr omega, const acb_mat_t X, int alpha0, const slpi_ref_zeitlin_mr *t,
                                 const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N, ok = 1;
    char why[160];
    double *d = malloc(sizeof(double) * 8 * (size_t)N);   /* mid, rad of [Re; Im] and of the result */
    if (d == NULL)
        return 0;
    double *dm = d, *dr = d + 2 * N, *om = d + 4 * N, *orad = d + 6 * N;
    for (int m = 0; m < N && ok; m++) {
        int n = N - m;
        for (int a = 0; a < n && ok; a++) {
            acb_srcptr e = acb_mat_entry(X, a + m, a);
            ok = slpi_ref_mrmat_ball_get(dm + a, dr + a, acb_realref(e)) &&
                 slpi_ref_mrmat_ball_get(dm + n + a, dr + n + a, acb_imagref(e));
        }
        ok = ok && slpi_ref_mrmat_gemm(om, orad, 2, n, n, dm, dr, 0, t->mid[m], NULL, t->rad[m], why, sizeof why);
        for (int l = m; l < N && ok; l++)
            for (int j = m == 0 ? 0 : 2 * m - 1; j <= 2 * m; j++) {
                int alpha = slpi_ref_zeitlin_alpha(l, j), part = m == 0 ? 1 : j & 1 ? 0 : 1;
                if (alpha < alpha0)
                    continue;
                ball_set(omega + alpha - alpha0, om[part * n + l - m], orad[part * n + l - m]);
                if (m > 0)
                    arb_mul(omega + alpha - alpha0, omega + alpha - alpha0, z->sqrt2, prec);
            }
    }
    free(d);
    return ok;
}

int slpi_ref_zeitlin_synthesis_mr(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin_mr *t,
                                  const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N, ok = 1;
    char why[160];
    double *d = malloc(sizeof(double) * 8 * (size_t)N);   /* mid, rad of [v_cos v_sin] and of p */
    arb_t v;
    if (d == NULL)
        return 0;
    arb_init(v);
    double *vm = d, *vr = d + 2 * N, *pm = d + 4 * N, *pr = d + 6 * N;
    acb_mat_zero(X);
    for (int m = 0; m < N && ok; m++) {
        int n = N - m, any = 0;
        for (int l = m; l < N && ok; l++)
            for (int part = 0; part < 2 && ok; part++) {
                int j = m == 0 ? 0 : 2 * m - 1 + part, alpha = slpi_ref_zeitlin_alpha(l, j);
                arb_zero(v);
                if (alpha >= alpha0 && (m > 0 || part == 1)) {
                    arb_set(v, c + alpha - alpha0);
                    if (m > 0)
                        arb_mul(v, v, z->rsqrt2, prec);
                }
                any |= !arb_is_zero(v);
                ok = slpi_ref_mrmat_ball_get(vm + 2 * (l - m) + part, vr + 2 * (l - m) + part, v);
            }
        if (!ok || !any)
            continue;
        ok = slpi_ref_mrmat_gemm(pm, pr, n, n, 2, t->mid[m], NULL, t->rad[m], vm, vr, 0, why, sizeof why);
        for (int a = 0; a < n && ok; a++) {
            acb_ptr lo = acb_mat_entry(X, a + m, a), up = acb_mat_entry(X, a, a + m);
            if (m == 0) {
                ball_set(acb_imagref(lo), pm[2 * a + 1], pr[2 * a + 1]);
                continue;
            }
            ball_set(acb_realref(lo), pm[2 * a], pr[2 * a]);
            arb_neg(acb_realref(up), acb_realref(lo));
            ball_set(acb_imagref(lo), pm[2 * a + 1], pr[2 * a + 1]);
            arb_set(acb_imagref(up), acb_imagref(lo));
        }
    }
    arb_clear(v);
    free(d);
    return ok;
}
