/* ref/zeitlin-mr.c — the su(N) basis transforms of the noise on the BLAS route
 * (docs/design.md#blas-route; the same transforms as slpi_ref_zeitlin_analysis and
 * slpi_ref_zeitlin_synthesis of ref/zeitlin-basis.c, docs/systems.md#euler-zeitlin).
 * Per diagonal m (n = N - m entries X_{a+m,a}), with V_m the table of the T_lm (column
 * l - m = t of T_lm):
 *   analysis:  [omega_{l,2m-1}; omega_{l,2m}]_l = s_m [Re d; Im d]^T V_m   (2 x n),
 *   synthesis: [p_cos, p_sin] = V_m [v_cos, v_sin]                           (n x 2),
 * s_m = sqrt2 for m > 0 (1 for m = 0, whose only part is Im), v the coefficients
 * scaled by 1/sqrt2 (m > 0). The products are enclosed by slpi_ref_mrmat_gemm_table; the
 * tables V_m enter as doubles with one radius each, the largest distance of an entry
 * from the exact table, and a bound of their rows' and columns' 2-norms (about 1: V_m is
 * orthogonal), which bounds the products' rounding by the data's norms in O(N^2) a
 * transform (ref/zeitlin-mr-tables.c, once). Only half of each table is kept: L_m is
 * persymmetric (its
 * diagonal (2a - N + 1)(2b - N + 1) - (N^2 - 1), b = a + m, and its squared off-diagonal
 * 4 (a + 1)(N - 1 - a)(b + 1)(N - 1 - b) are unchanged under a -> n - 1 - a, resp.
 * a -> n - 2 - a), and its eigenvalues are simple (a tridiagonal matrix with nonzero
 * off-diagonals), so with J the reversal J t = +-t exactly for every column t of V_m:
 * column c is symmetric for even c and antisymmetric for odd c, the signs checked on the
 * balls of rows 0 and n-1 at set-up. The rows a < ceil(n/2) of each parity hold every
 * entry (N^3/6 doubles: 1.4 GB at N = 1024, where the balls would take about 32 GB), and
 * each transform folds its data first, x_a +- x_{n-1-a} (the analysis), or unfolds its
 * result (the synthesis), so it reads half the table. The noise transforms read only
 * the table's columns of coefficients at or above alpha0 (first_column: on each diagonal
 * the leading columns are the degrees l below the noise's; with the noise on l >= N/2,
 * 31 % of the table's reads are skipped). The generator's Poisson solve is
 * ref/zeitlin-poisson-mr.c's.
 * The multiplier's solve sum_alpha omega_alpha(X) / lambda(l) Y_alpha, linear with
 * M_m = V_m diag(1/lambda) V_m^T on each diagonal, is taken in centred form (on the route
 * and in Arb): the map of X's midpoint, widened by the norms of M_m (made once by one
 * enclosed product per diagonal) times X's radii. The ball analysed and synthesised whole
 * grows a radius r to about n r (|V_m| |V_m^T| r), which on the rotating QG model (F of
 * size 819, multiplied by the solve in the midpoint equation) made the step's Krawczyk
 * test expand at 64 bits and fail up to 512 bits; the centred form grows it to about r / 4. */
#include "core/slpi-flint.h"
#include "ref/mrmat.h"
#include "ref/zeitlin.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* Per diagonal m (n = N - m), the coefficient alpha of (l, part): part 0 the cos (Re, j =
 * 2m - 1), 1 the sin (Im, j = 2m; m = 0: j = 0); -1 where alpha < alpha0 or m = 0, part 0 */
static int coeff_index(int l, int m, int part, int alpha0)
{
    if (m == 0 && part == 0) return -1;
    int alpha = slpi_ref_zeitlin_alpha(l, m == 0 ? 0 : 2 * m - 1 + part);
    return alpha < alpha0 ? -1 : alpha - alpha0;
}

/* The first column j (of the cols of diagonal m's half of parity odd) whose coefficient
 * (l = m + 2 j + odd) has a part at or above alpha0: the columns before it are neither
 * analysed nor synthesised (alpha grows with l, so they are the leading ones) */
static int first_column(int m, int odd, int cols, int alpha0)
{
    int j = 0;
    while (j < cols && coeff_index(m + 2 * j + odd, m, 0, alpha0) < 0 && coeff_index(m + 2 * j + odd, m, 1, alpha0) < 0)
        j++;
    return j;
}

/* om[alpha - alpha0] (radii orad) = the row [Re d; Im d]^T V_m of diagonal m, without
 * the factor s_m: the analysis up to s_m, through the halves: the even columns from the
 * folded d_a + d_{n-1-a}, the odd ones from d_a - d_{n-1-a} (a < n/2; the middle entry
 * of an odd n once, in the even fold, and 0 in the odd one). orad NULL: om alone, the
 * same bits, X's radii not read. d: 12 N doubles of scratch. */
static int analysis_diag(double *om, double *orad, const slpi_ref_mr *X, int m, int alpha0,
                         const slpi_ref_zeitlin_mr *t, double *d)
{
    int N = t->N, ok = 1, n = N - m, h = (n + 1) / 2;
    char why[160];
    double *dm = d, *dr = d + 2 * N, *fm = d + 4 * N, *fr = d + 6 * N, *pm = d + 8 * N, *pr = d + 10 * N;
    for (int a = 0; a < n; a++) {
        size_t e = ((size_t)(a + m) * N + a) * 2;
        dm[a] = X->mid[e], dm[n + a] = X->mid[e + 1];
        if (orad != NULL) dr[a] = X->rad[e], dr[n + a] = X->rad[e + 1];
    }
    for (int odd = 0; odd < 2 && ok; odd++) {
        int cols = odd ? n / 2 : h, j0 = first_column(m, odd, cols, alpha0);
        if (j0 == cols) continue;
        for (int part = 0; part < 2; part++) /* fold row part of d: (2 x h) */
            for (int a = 0; a < h; a++) {
                const double *xm = dm + part * n, *xr = dr + part * n;
                double *ym = fm + part * h + a, *yr = fr + part * h + a;
                if (a == n - 1 - a)
                    *ym = odd ? 0 : xm[a], *yr = odd || orad == NULL ? 0 : xr[a];
                else if (orad == NULL) /* the scalar sums' midpoints */
                    *ym = odd ? xm[a] - xm[n - 1 - a] : xm[a] - -xm[n - 1 - a];
                else if (odd)
                    slpi_ref_mrmat_scalar_sub(ym, yr, xm[a], xr[a], xm[n - 1 - a], xr[n - 1 - a]);
                else
                    slpi_ref_mrmat_scalar_add(ym, yr, xm[a], xr[a], xm[n - 1 - a], xr[n - 1 - a]);
            }
        ok = slpi_ref_mrmat_gemm_table(pm, orad != NULL ? pr : NULL, 2, h, cols - j0, fm, fr,
                                       slpi_ref_zeitlin_mr_half(t, m, odd) + j0, cols, t->rad[m], t->nrm[2 * m + odd],
                                       0, why, sizeof why);
        for (int j = j0; j < cols && ok; j++)
            for (int part = 0; part < 2; part++) {
                int i = coeff_index(m + 2 * j + odd, m, part, alpha0);
                if (i >= 0) {
                    om[i] = pm[part * (cols - j0) + j - j0];
                    if (orad != NULL) orad[i] = pr[part * (cols - j0) + j - j0];
                }
            }
    }
    return ok;
}

/* X = sum_alpha v_alpha (the synthesis's coefficients after the factor 1/s_m) through the
 * tables: [p_cos, p_sin] = V_m [v_cos, v_sin] on each diagonal, from the halves: with E
 * and O the even and odd columns' products (h x 2), p_a = E_a + O_a and p_{n-1-a} = E_a -
 * O_a (a < n/2; the middle entry of an odd n is E + O, O's row there being 0): diagonal
 * m of X (X zero before). X->rad NULL: X's midpoints alone, the same bits, vr not read.
 * d: 12 N doubles of scratch. */
static int synthesis_diag(slpi_ref_mr *X, const double *vm, const double *vr, int m, int alpha0,
                          const slpi_ref_zeitlin_mr *t, double *d)
{
    int N = t->N, ok = 1, n = N - m, h = (n + 1) / 2, any = 0, rad = X->rad != NULL;
    char why[160];
    double *wm = d, *wr = d + 2 * N, *em = d + 4 * N, *er = d + 6 * N, *qm = d + 8 * N, *qr = d + 10 * N;
    for (int odd = 0; odd < 2 && ok; odd++) {
        int cols = odd ? n / 2 : h, anyp = 0, j0 = first_column(m, odd, cols, alpha0);
        double *pm = odd ? qm : em, *pr = odd ? qr : er;
        for (int j = j0; j < cols; j++)
            for (int part = 0; part < 2; part++) {
                int i = coeff_index(m + 2 * j + odd, m, part, alpha0);
                wm[2 * j + part] = i < 0 ? 0 : vm[i];
                if (rad) wr[2 * j + part] = i < 0 ? 0 : vr[i];
                /* without radii as with the noise's, never 0 (their products add eta) */
                anyp |= i >= 0 && (vm[i] != 0 || !rad || vr[i] != 0);
            }
        if (anyp)
            ok = slpi_ref_mrmat_gemm_table(pm, rad ? pr : NULL, h, cols - j0, 2, wm + 2 * j0, wr + 2 * j0,
                                           slpi_ref_zeitlin_mr_half(t, m, odd) + j0, cols, t->rad[m],
                                           t->nrm[2 * m + odd], 1, why, sizeof why);
        else
            memset(pm, 0, sizeof(double) * 2 * (size_t)h), memset(pr, 0, sizeof(double) * 2 * (size_t)h);
        any |= anyp;
    }
    if (!any) return ok;
    for (int a = 0; a < h && ok; a++)
        for (int side = 0; side < 2 && (side == 0 || a != n - 1 - a); side++) {
            int b = side ? n - 1 - a : a;
            size_t lo = ((size_t)(b + m) * N + b) * 2, up = ((size_t)b * N + b + m) * 2;
            double p[2], r[2];
            for (int part = 0; part < 2; part++)
                if (!rad) /* the scalar sums' midpoints */
                    p[part] = side ? em[2 * a + part] - qm[2 * a + part] : em[2 * a + part] - -qm[2 * a + part];
                else if (side)
                    slpi_ref_mrmat_scalar_sub(p + part, r + part, em[2 * a + part], er[2 * a + part], qm[2 * a + part],
                                              qr[2 * a + part]);
                else
                    slpi_ref_mrmat_scalar_add(p + part, r + part, em[2 * a + part], er[2 * a + part], qm[2 * a + part],
                                              qr[2 * a + part]);
            X->mid[lo + 1] = X->mid[up + 1] = p[1];
            if (rad) X->rad[lo + 1] = X->rad[up + 1] = r[1];
            if (m == 0) continue;
            X->mid[lo] = p[0], X->mid[up] = -p[0];
            if (rad) X->rad[lo] = X->rad[up] = r[0];
        }
    return ok;
}

/* X = sum_alpha v_alpha, diagonal by diagonal (synthesis_diag) */
static int synthesis_d(slpi_ref_mr *X, const double *vm, const double *vr, int alpha0, const slpi_ref_zeitlin_mr *t)
{
    int N = t->N, ok = 1;
    double *d = malloc(sizeof(double) * 12 * (size_t)N); /* mid, rad of [v_cos v_sin] and of E and O */
    if (d == NULL) return 0;
    memset(X->mid, 0, sizeof(double) * 2 * (size_t)N * N);
    if (X->rad != NULL) memset(X->rad, 0, sizeof(double) * 2 * (size_t)N * N);
    for (int m = 0; m < N && ok; m++) ok = synthesis_diag(X, vm, vr, m, alpha0, t, d);
    free(d);
    return ok;
}

/* synthesis_d into the balls of X */
static int synthesis_acb(acb_mat_t X, const double *vm, const double *vr, int alpha0, const slpi_ref_zeitlin_mr *t)
{
    slpi_ref_mr Y;
    int ok = slpi_ref_mrmat_init(&Y, t->N, t->N, 2) && synthesis_d(&Y, vm, vr, alpha0, t);
    if (ok) slpi_ref_mrmat_set(X, &Y);
    slpi_ref_mrmat_clear(&Y);
    return ok;
}

int slpi_ref_zeitlin_synthesis_mr(acb_mat_t X, arb_srcptr c, int alpha0, const slpi_ref_zeitlin_mr *t,
                                  const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N, nal = N * N - 1 - alpha0, ok = 1;
    double *v = malloc(sizeof(double) * 2 * (size_t)(nal > 0 ? nal : 1));
    arb_t w;
    if (v == NULL) return 0;
    arb_init(w);
    for (int i = 0; i < nal && ok; i++) { /* v = c / s_m */
        int alpha = alpha0 + i, l = slpi_ref_zeitlin_degree(alpha);
        arb_set(w, c + i);
        if (alpha - (l * l - 1) > 0) /* j > 0: m > 0 */
            arb_mul(w, w, z->rsqrt2, prec);
        ok = slpi_ref_mrmat_ball_get(v + i, v + nal + i, w);
    }
    ok = ok && synthesis_acb(X, v, v + nal, alpha0, t);
    arb_clear(w);
    free(v);
    return ok;
}

int slpi_ref_zeitlin_noise_mr(acb_mat_t T, const acb_mat_t X, int alpha0, const double *wm, const double *wr,
                              const slpi_ref_zeitlin_mr *t)
{
    slpi_ref_mr x, y;
    memset(&y, 0, sizeof y);
    int ok = slpi_ref_mrmat_get(&x, X, 2) && slpi_ref_mrmat_init(&y, t->N, t->N, 2) &&
        slpi_ref_zeitlin_noise_dd(&y, &x, alpha0, wm, wr, t);
    if (ok) slpi_ref_mrmat_set(T, &y);
    slpi_ref_mrmat_clear(&x);
    slpi_ref_mrmat_clear(&y);
    return ok;
}

int slpi_ref_zeitlin_noise_dd(slpi_ref_mr *T, const slpi_ref_mr *X, int alpha0, const double *wm, const double *wr,
                              const slpi_ref_zeitlin_mr *t)
{
    int N = t->N, nal = N * N - 1 - alpha0, ok = 1, rad = T->rad != NULL;
    size_t no = 2 * (size_t)(nal > 0 ? nal : 1);
    double *o = malloc(sizeof(double) * (no + 12 * (size_t)N)), *d = o + no; /* the coefficients, the scratch */
    if (o == NULL) return 0;
    memset(T->mid, 0, sizeof(double) * 2 * (size_t)N * N);
    if (rad) memset(T->rad, 0, sizeof(double) * 2 * (size_t)N * N);
    /* diagonal by diagonal: the analysis of diagonal m gives the coefficients of order m,
     * which are those its synthesis takes, so each half table is read twice while it is
     * in cache (the same operations as the whole analysis, then the whole synthesis) */
    for (int m = 0; m < N && ok; m++) {
        ok = analysis_diag(o, rad ? o + nal : NULL, X, m, alpha0, t, d);
        for (int l = m; l < N && ok; l++)
            for (int part = 0; part < 2; part++) {
                int i = coeff_index(l, m, part, alpha0);
                if (i < 0) continue;
                if (rad) /* (w omega) / s_m = w (omega / s_m): s_m cancels */
                    slpi_ref_mrmat_scalar_mul(o + i, o + nal + i, wm[i], wr[i], o[i], o[nal + i]);
                else
                    o[i] = wm[i] * o[i];
            }
        ok = ok && synthesis_diag(T, o, o + nal, m, alpha0, t, d);
    }
    free(o);
    return ok;
}

/* upper bounds of the largest row sum (norm[0], the infinity norm) and row 2-norm (norm[1])
 * of |<cm, cr>|, taken into norm[] where larger */
static void row_norms_up(double *norm, const double *cm, const double *cr, int n)
{
    for (int i = 0; i < n; i++) {
        double s = 0, q = 0;
        for (int j = 0; j < n; j++) {
            double a = slpi_ref_mrmat_up(fabs(cm[(size_t)i * n + j]) + cr[(size_t)i * n + j]);
            s = slpi_ref_mrmat_up(s + a);
            q = slpi_ref_mrmat_up(q + slpi_ref_mrmat_up(a * a));
        }
        norm[0] = fmax(norm[0], s);
        norm[1] = fmax(norm[1], slpi_ref_mrmat_up(sqrt(q)));
    }
}

/* norm[0] >= ||M||_inf, norm[1] >= its rows' 2-norms, for M = V_m diag(w) V_m^T of one part (w
 * indexed l - m; every V_m and w in their balls): the product enclosed by slpi_ref_mrmat_mul_mr */
static int part_norm(double *norm, const slpi_ref_zeitlin_mr *t, int m, const double *w, const double *wr)
{
    int n = t->N - m, ok;
    size_t nn = (size_t)n * n;
    char why[160];
    double *buf = malloc(sizeof(double) * 4 * nn);
    slpi_ref_mr A = { n, n, 1, buf + 3 * nn, buf }, B = { n, n, 1, buf + nn, buf + 2 * nn }, C = { 0 };
    if (buf == NULL) return 0;
    for (size_t e = 0; e < nn; e++) buf[e] = t->rad[m];
    for (int a = 0; a < n; a++) /* A = V_m, unfolded */
        for (int c = 0; c < n; c++) A.mid[(size_t)a * n + c] = slpi_ref_zeitlin_mr_entry(t, m, a, c);
    for (int r = 0; r < n; r++) /* B = diag(w) V_m^T */
        for (int a = 0; a < n; a++)
            slpi_ref_mrmat_scalar_mul(B.mid + (size_t)r * n + a, B.rad + (size_t)r * n + a, w[r], wr[r],
                                      A.mid[(size_t)a * n + r], t->rad[m]);
    ok = slpi_ref_mrmat_mul_mr(&C, &A, &B, why, sizeof why);
    if (ok) row_norms_up(norm, C.mid, C.rad, n);
    slpi_ref_mrmat_clear(&C);
    free(buf);
    return ok && isfinite(norm[0]) && isfinite(norm[1]);
}

int slpi_ref_zeitlin_weights_norm_mr(double *rho, const double *wm, const double *wr, const slpi_ref_zeitlin_mr *t)
{
    int N = t->N, ok = 1;
    double *w = malloc(sizeof(double) * 2 * (size_t)N);
    if (w == NULL) return 0;
    for (int m = 0; m < N && ok; m++) {
        rho[2 * m] = rho[2 * m + 1] = 0;
        for (int part = m == 0; part < 2 && ok; part++) { /* m = 0: the sin (Im) part only */
            for (int l = m; l < N; l++) {
                int i = coeff_index(l, m, part, 0);
                w[l - m] = i < 0 ? 0 : wm[i];
                w[N + l - m] = i < 0 ? 0 : wr[i];
            }
            ok = part_norm(rho + 2 * m, t, m, w, w + N);
        }
    }
    free(w);
    return ok;
}

int slpi_ref_zeitlin_centre(acb_mat_t Xm, double *r, const acb_mat_t X, int dbl)
{
    int N = (int)acb_mat_nrows(X), ok = 1;
    double xm, xr;
    acb_mat_zero(Xm);
    for (int m = 0; m < N && ok; m++) {
        r[2 * m] = r[2 * m + 1] = 0;
        for (int a = 0; a < N - m && ok; a++)
            for (int part = 0; part < 2 && ok; part++) {
                arb_srcptr e = part ? acb_imagref(acb_mat_entry(X, a + m, a)) : acb_realref(acb_mat_entry(X, a + m, a));
                arb_ptr c = part ? acb_imagref(acb_mat_entry(Xm, a + m, a)) : acb_realref(acb_mat_entry(Xm, a + m, a));
                if (dbl) {
                    ok = slpi_ref_mrmat_ball_get(&xm, &xr, e);
                    arb_set_d(c, xm);
                } else {
                    arb_get_mid_arb(c, e);
                    xr = mag_get_d(arb_radref(e)); /* an upper bound (inf beyond the range) */
                }
                r[2 * m] = fmax(r[2 * m], xr);
                r[2 * m + 1] = slpi_ref_mrmat_up(r[2 * m + 1] + slpi_ref_mrmat_up(xr * xr));
            }
        ok = ok && isfinite(r[2 * m + 1]);
    }
    return ok;
}

int slpi_ref_zeitlin_centred_error(acb_mat_t P, const double *r, const double *rho)
{
    int N = (int)acb_mat_nrows(P), ok = 1;
    mag_t e;
    mag_init(e);
    for (int m = 0; m < N && ok; m++) { /* |M_m (X - mid X)|_i <= min(||M||_inf max r, |row i of M|_2 |r|_2) */
        mag_set_d(e,
                  fmin(slpi_ref_mrmat_up(rho[2 * m] * r[2 * m]),
                       slpi_ref_mrmat_up(rho[2 * m + 1] * slpi_ref_mrmat_up(sqrt(r[2 * m + 1])))));
        ok = mag_is_finite(e);
        for (int a = 0; a < N - m && ok; a++) {
            acb_ptr lo = acb_mat_entry(P, a + m, a), up = acb_mat_entry(P, a, a + m);
            arb_add_error_mag(acb_imagref(lo), e);
            if (m > 0) {
                arb_add_error_mag(acb_realref(lo), e);
                arb_add_error_mag(acb_realref(up), e);
                arb_add_error_mag(acb_imagref(up), e);
            }
        }
    }
    mag_clear(e);
    return ok;
}

int slpi_ref_zeitlin_weighted_mr(acb_mat_t P, const acb_mat_t X, const double *wm, const double *wr, const double *rho,
                                 const slpi_ref_zeitlin_mr *t)
{
    int N = t->N, ok;
    double *r = malloc(sizeof(double) * 2 * (size_t)N);
    acb_mat_t Xm;
    acb_mat_init(Xm, N, N);
    ok = r != NULL && slpi_ref_zeitlin_centre(Xm, r, X, 1) && slpi_ref_zeitlin_noise_mr(P, Xm, 0, wm, wr, t) &&
        slpi_ref_zeitlin_centred_error(P, r, rho);
    acb_mat_clear(Xm);
    free(r);
    return ok;
}

void slpi_ref_zeitlin_divided(acb_mat_t P, const acb_mat_t X, arb_srcptr lam, const double *rho,
                              const slpi_ref_zeitlin *z, slong prec)
{
    int N = z->N, n = N * N - 1;
    double *r = malloc(sizeof(double) * 2 * (size_t)N);
    acb_mat_t Xm;
    acb_mat_init(Xm, N, N);
    int centred = rho != NULL && r != NULL && slpi_ref_zeitlin_centre(Xm, r, X, 0); /* else the plain enclosure */
    arb_ptr om = _arb_vec_init(n);
    slpi_ref_zeitlin_analysis(om, centred ? Xm : X, z, prec);
    for (int a = 0; a < n; a++) arb_div(om + a, om + a, lam + slpi_ref_zeitlin_degree(a), prec);
    slpi_ref_zeitlin_synthesis(P, om, 0, z, prec);
    if (centred && !slpi_ref_zeitlin_centred_error(P, r, rho)) acb_mat_indeterminate(P);
    _arb_vec_clear(om, n);
    acb_mat_clear(Xm);
    free(r);
}

double *slpi_ref_zeitlin_weights_mr(arb_srcptr lam, int N, slong prec)
{
    int n = N * N - 1, ok;
    double *w = malloc(sizeof(double) * 2 * (size_t)n);
    arb_t t;
    arb_init(t);
    ok = w != NULL;
    for (int l = 1; l < N && ok; l++) {
        arb_inv(t, lam + l, prec);
        for (int j = 0; j <= 2 * l && ok; j++)
            ok = slpi_ref_mrmat_ball_get(w + l * l - 1 + j, w + n + l * l - 1 + j, t);
    }
    arb_clear(t);
    if (!ok) {
        free(w);
        w = NULL;
    }
    return w;
}

int slpi_ref_zeitlin_gen_sum_dd(slpi_ref_mr *B, const slpi_ref_mr *V, double delta0, const slpi_ref_mr *G,
                                const double *w, int alpha0, const slpi_ref_zeitlin *z, const slpi_ref_zeitlin_mr *t)
{
    int N = z->N, nal = N * N - 1 - alpha0, ok = V->c == 2, rad = B->rad != NULL;
    size_t n = 2 * (size_t)N * N;
    slpi_ref_mr T = { 0 };
    if (ok && delta0 == 0) {
        memset(B->mid, 0, n * sizeof(double));
        if (rad) memset(B->rad, 0, n * sizeof(double));
    } else if (ok) {
        ok = slpi_ref_zeitlin_poisson_dd(B, V, z) && (G == NULL || slpi_ref_mrmat_axpy(B, -1, G, 0));
        for (size_t i = 0; ok && i < n; i++)
            if (rad)
                slpi_ref_mrmat_scalar_mul(B->mid + i, B->rad + i, B->mid[i], B->rad[i], delta0, 0);
            else
                B->mid[i] *= delta0;
    }
    ok = ok && (w == NULL || slpi_ref_mrmat_init(&T, N, N, 2));
    if (ok && w != NULL && !rad) { /* T's midpoints alone, as B's */
        free(T.rad);
        T.rad = NULL;
    }
    ok = ok &&
        (w == NULL || (slpi_ref_zeitlin_noise_dd(&T, V, alpha0, w, w + nal, t) && slpi_ref_mrmat_axpy(B, 1, &T, 0)));
    slpi_ref_mrmat_clear(&T);
    return ok;
}

double *slpi_ref_zeitlin_noise_weights_mr(const double *delta, int M, const int *alpha, int alpha0, arb_srcptr a, int N)
{
    int nal = N * N - 1 - alpha0;
    double *w = calloc(2 * (size_t)nal + 2 * (size_t)N, sizeof *w), am, ar;
    double *al = w + 2 * nal; /* a_l as balls <al[l], al[N + l]> */
    int ok = w != NULL;
    for (int l = 1; l < N && ok; l++) ok = slpi_ref_mrmat_ball_get(al + l, al + N + l, a + l);
    for (int k = 1; k <= M && ok; k++)
        if (delta[k] != 0) {
            int i = alpha[k - 1] - alpha0, l = slpi_ref_zeitlin_degree(alpha[k - 1]);
            slpi_ref_mrmat_scalar_mul(&am, &ar, -delta[k], 0, al[l], al[N + l]); /* -delta_k a_l */
            slpi_ref_mrmat_scalar_add(w + i, w + nal + i, w[i], w[nal + i], am, ar);
        }
    if (!ok) {
        free(w);
        w = NULL;
    }
    return w;
}
