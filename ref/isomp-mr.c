/* ref/isomp-mr.c — ISOMP's map on the BLAS route in midpoint–radius doubles (ref/isomp-mr.h;
 * the map, its derivative and their skew-Hermitian forms: ref/isomp.c). The packed
 * coordinates of su(N) (slpi_ref_sun_pack's layout: Im X_aa, then Re and Im X_ab for
 * a < b) are copied into the matrices and back exactly; the generator sum is the system's
 * m_gen_sum_mr, the products and sums those of ref/mrmat.h. */
#include "ref/isomp-mr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the products of the sum t: T2 = A2 B2, T3 = T2 B3, T1 = A1 B1 (those it has, and not
 * formed already: mid non-NULL) */
static int sum_products(slpi_ref_mr *T, const slpi_ref_isomp_sum *t)
{
    char why[160];
    int (*mul)(slpi_ref_mr *, const slpi_ref_mr *, const slpi_ref_mr *, char *, size_t) =
        t->mid_only ? slpi_ref_mrmat_mul_mr_mid : slpi_ref_mrmat_mul_mr;
    int ok = T[2].mid != NULL || mul(T + 2, t->A2, t->B2, why, sizeof why);
    ok = ok && (t->B3 == NULL || T[3].mid != NULL || mul(T + 3, T + 2, t->B3, why, sizeof why));
    return ok && (t->A1 == NULL || T[1].mid != NULL || mul(T + 1, t->A1, t->B1, why, sizeof why));
}

/* the sum t at one part (e; et the transposed entry's, p the part) from its products T:
 * S = X_n or a3 T3, then + a1 skew(T1), + a2 skew(T2), + a3 T3 (ref/isomp-mr.h), by
 * slpi_ref_mrmat_axpy_at, so that the entries of one triangle get the whole sum's bits
 * (r NULL: *m alone, the same bits, no radius read) */
static void sum_at(double *m, double *r, const slpi_ref_mr *xn, const slpi_ref_mr *T, const slpi_ref_isomp_sum *t,
                   size_t e, size_t et, int p)
{
    const slpi_ref_mr *S0 = t->A1 == NULL ? xn : T + 3;
    double r0;
    if (t->A1 == NULL || t->a3 == 1) {
        *m = S0->mid[e];
        if (r != NULL) *r = S0->rad[e];
    } else {
        slpi_ref_mrmat_scalar_pow2(m, r != NULL ? r : &r0, t->a3, S0->mid[e], r != NULL ? S0->rad[e] : 0);
    }
    if (t->A1 != NULL) slpi_ref_mrmat_axpy_at(m, r, t->a1, T + 1, e, et, p, 1);
    slpi_ref_mrmat_axpy_at(m, r, t->a2, T + 2, e, et, p, 1);
    if (t->A1 == NULL && t->B3 != NULL) slpi_ref_mrmat_axpy_at(m, r, t->a3, T + 3, e, et, p, 0);
}

static void sum_clear(slpi_ref_mr *T)
{
    for (int i = 1; i < 4; i++) slpi_ref_mrmat_clear(T + i);
}

int slpi_ref_isomp_sum_mr(slpi_ref_mr *S, const slpi_ref_mr *xn, const slpi_ref_isomp_sum *t)
{
    slpi_ref_mr T[4] = { { 0 } };
    int N = xn->rows, c = xn->c;
    *S = (slpi_ref_mr){ 0 };
    int ok = sum_products(T, t) && slpi_ref_mrmat_init(S, N, N, c);
    for (int i = 0; i < N && ok; i++)
        for (int j = 0; j < N; j++)
            for (int p = 0; p < c; p++) {
                size_t e = ((size_t)i * N + j) * c + p, et = ((size_t)j * N + i) * c + p;
                sum_at(S->mid + e, S->rad + e, xn, T, t, e, et, p);
                ok &= isfinite(S->mid[e]) && isfinite(S->rad[e]);
            }
    sum_clear(T);
    return ok;
}

int slpi_ref_isomp_mr_init(slpi_ref_isomp_mr *w, const slpi_ref_system *s, const double *delta, const slpi_ref_mr *xn,
                           slong prec)
{
    int N = s->N, ok = s->m_gen_sum_mr != NULL && xn->c == 2;
    memset(w, 0, sizeof *w);
    w->s = s, w->delta = delta, w->xn = xn, w->prec = prec;
    ok = ok && slpi_ref_mrmat_init(&w->Y, N, N, 2) && slpi_ref_mrmat_init(&w->W, N, N, 2) &&
        slpi_ref_mrmat_init(&w->Psi, N, N, 2) && slpi_ref_mrmat_init(&w->dPsi, N, N, 2) &&
        slpi_ref_mrmat_init(&w->M, N, N, 2) && (w->pt = malloc(sizeof(double) * (size_t)s->dim)) != NULL;
    if (!ok) slpi_ref_isomp_mr_clear(w);
    return ok;
}

void slpi_ref_isomp_mr_clear(slpi_ref_isomp_mr *w)
{
    slpi_ref_mrmat_clear(&w->Y);
    slpi_ref_mrmat_clear(&w->W);
    slpi_ref_mrmat_clear(&w->Psi);
    slpi_ref_mrmat_clear(&w->dPsi);
    slpi_ref_mrmat_clear(&w->M);
    slpi_ref_mrmat_clear(&w->Up);
    slpi_ref_mrmat_clear(&w->Pp);
    free(w->pt);
    w->pt = NULL;
}

/* X = the su(N) matrix of the packed <xm, xr> (xr NULL: radius 0; X->rad NULL: the
 * midpoints alone), exactly */
static void unpack(slpi_ref_mr *X, const double *xm, const double *xr)
{
    int N = X->rows, idx = N;
    for (int a = 0; a < N; a++) {
        size_t e = ((size_t)a * N + a) * 2;
        X->mid[e] = 0;
        X->mid[e + 1] = xm[a];
        if (X->rad != NULL) X->rad[e] = 0, X->rad[e + 1] = xr != NULL ? xr[a] : 0;
    }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, idx += 2) {
            size_t ab = ((size_t)a * N + b) * 2, ba = ((size_t)b * N + a) * 2;
            X->mid[ab] = xm[idx], X->mid[ba] = -xm[idx];
            X->mid[ab + 1] = X->mid[ba + 1] = xm[idx + 1];
            if (X->rad == NULL) continue;
            X->rad[ab] = X->rad[ba] = xr != NULL ? xr[idx] : 0;
            X->rad[ab + 1] = X->rad[ba + 1] = xr != NULL ? xr[idx + 1] : 0;
        }
}

/* the sum t (su(N): X_n complex) into the packed coordinates <om, orad> (orad NULL: om
 * alone), the upper triangle's entries and the diagonal's imaginary parts alone, each with
 * the bits of slpi_ref_isomp_sum_mr's, from its products T (those not formed yet formed
 * here; the caller clears T); 0 where the route cannot */
static int sum_pack(const slpi_ref_isomp_mr *w, double *om, double *orad, const slpi_ref_isomp_sum *t, slpi_ref_mr *T)
{
    const slpi_ref_mr *xn = w->xn;
    int N = xn->rows, idx = N, ok = sum_products(T, t);
    double r = 0, *rp = orad != NULL ? &r : NULL;
    for (int a = 0; a < N && ok; a++) {
        size_t e = ((size_t)a * N + a) * 2 + 1;
        sum_at(om + a, rp, xn, T, t, e, e, 1);
        if (orad != NULL) orad[a] = r;
        ok = isfinite(om[a]) && isfinite(r);
    }
    for (int a = 0; a < N && ok; a++)
        for (int b = a + 1; b < N && ok; b++, idx += 2)
            for (int p = 0; p < 2 && ok; p++) {
                size_t e = ((size_t)a * N + b) * 2 + p, et = ((size_t)b * N + a) * 2 + p;
                sum_at(om + idx + p, rp, xn, T, t, e, et, p);
                if (orad != NULL) orad[idx + p] = r;
                ok = isfinite(om[idx + p]) && isfinite(r);
            }
    return ok;
}

/* D = S (allocated where D has no matrix yet); 0 out of memory */
static int mr_copy(slpi_ref_mr *D, const slpi_ref_mr *S)
{
    size_t n = (size_t)S->rows * S->cols * S->c * sizeof(double);
    if (D->mid == NULL && !slpi_ref_mrmat_init(D, S->rows, S->cols, S->c)) return 0;
    memcpy(D->mid, S->mid, n);
    memcpy(D->rad, S->rad, n);
    return 1;
}

/* G(Y) = X_n + 1/2 skew(U) + 1/4 U Psi, U = Psi Y (ref/isomp.c isomp_G); enclosed at a
 * point (yr NULL), U and Psi are kept for G' there (w->Up, w->Pp, w->pt) */
int slpi_ref_isomp_G_mr(slpi_ref_isomp_mr *w, double *om, double *orad, const double *ym, const double *yr)
{
    const slpi_ref_system *s = w->s;
    slpi_ref_mr Y = w->Y, Psi = w->Psi, T[4] = { { 0 } }; /* without orad, their midpoints alone */
    if (orad == NULL) Y.rad = Psi.rad = NULL;
    unpack(&Y, ym, yr);
    if (!s->m_gen_sum_mr(s, &Psi, w->delta, &Y, NULL, w->prec)) return 0;
    slpi_ref_isomp_sum t = { &Psi, &Y, &Psi, NULL, NULL, 0, 0.5, 0.25, orad == NULL };
    int ok = sum_pack(w, om, orad, &t, T);
    if (ok && orad != NULL && yr == NULL) {
        w->pt_ok = 0;
        slpi_ref_mrmat_clear(&w->Up);
        w->Up = T[2];
        T[2] = (slpi_ref_mr){ 0 };
        ok = mr_copy(&w->Pp, &Psi);
        memcpy(w->pt, ym, sizeof(double) * (size_t)s->dim);
        w->pt_ok = ok;
    }
    sum_clear(T);
    return ok;
}

/* 1 where G' at <ym, yr> along <zm, zr> takes the mean-value forms: ym is the kept point
 * p, and <zm, zr> holds 0 +/- yr (yr, zr NULL: 0) */
static int mean_value_applies(const slpi_ref_isomp_mr *w, const double *ym, const double *yr, const double *zm,
                              const double *zr)
{
    int n = w->s->dim;
    if (!w->pt_ok || memcmp(w->pt, ym, sizeof(double) * (size_t)n) != 0) return 0;
    for (int i = 0; i < n; i++) { /* |zm| + yr <= zr (exact where zm = 0, the test's) */
        double r = yr != NULL ? yr[i] : 0, z = zr != NULL ? zr[i] : 0;
        if (!(zm[i] == 0 ? r <= z : slpi_ref_mrmat_up(fabs(zm[i]) + r) <= z)) return 0;
    }
    return 1;
}

/* G'(Y)[W] = skew(dPsi M + 1/2 Psi W) + 1/4 (Psi W) Psi, M = 1/2 Y + 1/4 U^*, U = Psi Y
 * (ref/isomp.c dG_apply, dG_parts_init). In the mean-value forms
 * (docs/design.md#mean-value-forms), with Y = p +/- yr, every y in Y is p + e, e in W:
 * Psi(y) = Psi(p) + Psi'(.)[e] in Pp + dPsi, and Psi(y) y = Psi(p) p + (Psi(y) - Psi(p)) y +
 * Psi(p) e in Up + dPsi Y + Psi W, products of a centred factor. */
int slpi_ref_isomp_dG_mr(slpi_ref_isomp_mr *w, double *om, double *orad, const double *ym, const double *yr,
                         const double *zm, const double *zr)
{
    const slpi_ref_system *s = w->s;
    char why[160];
    int N = s->N, ok, mv = mean_value_applies(w, ym, yr, zm, zr);
    slpi_ref_mr T[4] = { { 0 } }, U = { 0 }, D = { 0 };
    unpack(&w->Y, ym, yr);
    unpack(&w->W, zm, zr);
    ok = s->m_gen_sum_mr(s, &w->dPsi, w->delta, &w->Y, &w->W, w->prec);
    if (mv) /* Psi = Pp + dPsi, T2 = Psi W, U = Up + dPsi Y + T2 */
        ok = ok && mr_copy(&w->Psi, &w->Pp) && slpi_ref_mrmat_axpy(&w->Psi, 1, &w->dPsi, 0) &&
            slpi_ref_mrmat_mul_mr(T + 2, &w->Psi, &w->W, why, sizeof why) &&
            slpi_ref_mrmat_mul_mr(&D, &w->dPsi, &w->Y, why, sizeof why) && mr_copy(&U, &w->Up) &&
            slpi_ref_mrmat_axpy(&U, 1, &D, 0) && slpi_ref_mrmat_axpy(&U, 1, T + 2, 0);
    else
        ok = ok && s->m_gen_sum_mr(s, &w->Psi, w->delta, &w->Y, NULL, w->prec) &&
            slpi_ref_mrmat_mul_mr(&U, &w->Psi, &w->Y, why, sizeof why);
    for (int i = 0; i < N && ok; i++) /* M = (U^* / 2 + Y) / 2 */
        for (int j = 0; j < N; j++)
            for (int p = 0; p < 2; p++) {
                size_t e = ((size_t)i * N + j) * 2 + p, et = ((size_t)j * N + i) * 2 + p;
                double m = p ? -U.mid[et] : U.mid[et], r = U.rad[et];
                r = slpi_ref_mrmat_up(slpi_ref_mrmat_up(0.5 * r) + SLPI_REF_MRMAT_TINY);
                slpi_ref_mrmat_scalar_add(&m, &r, 0.5 * m, r, w->Y.mid[e], w->Y.rad[e]);
                w->M.mid[e] = 0.5 * m;
                w->M.rad[e] = slpi_ref_mrmat_up(slpi_ref_mrmat_up(0.5 * r) + SLPI_REF_MRMAT_TINY);
                ok &= isfinite(w->M.mid[e]) && isfinite(w->M.rad[e]);
            }
    slpi_ref_mrmat_clear(&U);
    slpi_ref_mrmat_clear(&D);
    slpi_ref_isomp_sum t = { &w->Psi, &w->W, &w->Psi, &w->dPsi, &w->M, 1, 0.5, 0.25, 0 };
    ok = ok && sum_pack(w, om, orad, &t, T);
    sum_clear(T);
    return ok;
}

int slpi_ref_isomp_update_mr(slpi_ref_isomp_mr *w, arb_ptr x, arb_srcptr y)
{
    const slpi_ref_system *s = w->s;
    int n = s->dim, ok = 1;
    double *buf = malloc(sizeof(double) * 4 * (size_t)n);
    if (buf == NULL) return 0;
    double *ym = buf, *yr = buf + n, *om = yr + n, *orad = om + n;
    slpi_ref_mr T[4] = { { 0 } };
    for (int i = 0; i < n && ok; i++) ok = slpi_ref_mrmat_ball_get(ym + i, yr + i, y + i);
    if (ok) {
        unpack(&w->Y, ym, yr);
        ok = s->m_gen_sum_mr(s, &w->Psi, w->delta, &w->Y, NULL, w->prec);
    }
    slpi_ref_isomp_sum t = { &w->Psi, &w->Y, NULL, NULL, NULL, 0, 1, 0, 0 };
    ok = ok && sum_pack(w, om, orad, &t, T);
    sum_clear(T);
    for (int i = 0; i < n && ok; i++) {
        arb_set_d(x + i, om[i]);
        mag_set_d(arb_radref(x + i), orad[i]);
    }
    free(buf);
    return ok;
}

int slpi_ref_isomp_psi_near(acb_mat_t Psi, const slpi_ref_system *s, const double *delta, const acb_mat_t Xt,
                            const acb_mat_t Y0, const acb_mat_t Psi0, slong prec)
{
    int N = s->N, ok;
    acb_mat_t D;
    acb_mat_init(D, N, N);
    acb_mat_sub(D, Xt, Y0, prec);
    slpi_ref_mr d = { 0 }, b = { 0 }, p = { 0 };
    ok = slpi_ref_mrmat_get(&d, D, 2) && slpi_ref_mrmat_get(&b, Y0, 2) && slpi_ref_mrmat_init(&p, N, N, 2);
    double dmax = 0, ymax = 0;
    for (size_t e = 0; ok && e < 2 * (size_t)N * N; e++) {
        double w = slpi_ref_mrmat_up(fabs(d.mid[e]) + d.rad[e]);
        b.rad[e] = slpi_ref_mrmat_up(b.rad[e] + w);
        dmax = fmax(dmax, w);
        ymax = fmax(ymax, fabs(b.mid[e]));
    }
    ok = ok && dmax <= 0x1p-40 * ymax && s->m_gen_sum_mr(s, &p, delta, &b, &d, prec);
    if (ok) {
        slpi_ref_mrmat_set(D, &p);
        acb_mat_add(Psi, Psi0, D, prec);
    }
    slpi_ref_mrmat_clear(&d);
    slpi_ref_mrmat_clear(&b);
    slpi_ref_mrmat_clear(&p);
    acb_mat_clear(D);
    return ok;
}
