/* diagnose.c — the diagnosis beside a statistical FAIL of `slpi verify --local`
 * (oracle/README.md#diagnosis has the rule; slpi-tools.h slpi_verify_diagnosis the result).
 *
 * Per locally checked row, from the port's previous row over its k steps, with r the
 * port's certified deviation in units of k u s (oracle/stat.c):
 *
 *   D_i = (F_i(x) - F(x)) / (EPS k u s)    F the fast path's k steps in the unfused form of
 *                                          fast/ingredients.h, F_i the same with ingredient
 *                                          i's coefficient 1 + EPS: the derivative of the
 *                                          step with respect to a relative error of i
 *   z_i = <r, D_i>, |D_i|^2
 *
 * Pooled over rows: beta_i = sum z_i / sum |D_i|^2 is the least-squares relative error of
 * ingredient i alone per step, and (sum z_i)^2 / sum |D_i|^2 the part of sum |r|^2 it
 * explains. Its standard error is the sandwich one of independent rows,
 * sqrt(n / (n - 1) sum (z_i - beta_i |D_i|^2)^2) / sum |D_i|^2 (the rows' residuals about the
 * fit, not z_i's own spread, which the fit's own variation from row to row would swell);
 * its t is the excess of |beta_i| over what the format's data allow
 * (DATA_REL u: two data stored at u, as oracle/stat.c's DATA_BIAS), and p the two-sided t
 * tail times the ingredient count (Bonferroni). The ingredients are named by the part
 * they explain, largest first, when the statistics FAIL and the first's p <= alpha;
 * otherwise none explains the deviation better than chance. Ingredients whose D_i is 0
 * on every row (the time stage of a model that does not read t, the solver's stop of an
 * explicit step) are not this step's: they are not ranked nor counted. The window: of the
 * contiguous runs of the SLPI_DIAG_BINS bins of steps, the one where the first
 * ingredient's sum of z has the largest t against the noise of z between rows (window()),
 * when its t^2 exceeds the whole range's by more than 2 ln(runs) (a penalty for the runs
 * tried) and it spans at most a quarter of the steps; else "all steps".
 *
 * Separability (rule fixed 2026-11-28 11:05 UTC, f765ae7c, before any outcome was seen): the
 * rows separate the first ingredient f from another ranked one j when, in the joint
 * least-squares fit r ~ b_f D_f + b_j D_j pooled over the rows (the 2 x 2 Gram of the
 * pooled sums <D_a, D_b>), f's coefficient differs from 0 beyond chance: its t against
 * the joint fit's sandwich standard error (independent rows, as above), p the two-sided
 * t tail times the ranked - 1 others (Bonferroni), at most alpha, with the degrees of
 * freedom of that sandwich error (since 2026-12-01 23:00 UTC, docs/power.md#separability-df:
 * Satterthwaite's (sum q)^2 / sum q^2, q a row's part of the coefficient's variance, at
 * most n - 2; a few rows that carry a direction leave few degrees of freedom); and (since
 * 2026-12-01, docs/power.md#window-sandwich) j's coefficient does not:
 * where both do, neither alone explains the rows ("both"). Otherwise j is
 * indistinguishable from f on these rows, whatever their shares.
 * Why this t: when the deviation is b D_f plus noise of sigma per unit of direction, the
 * joint t of f is b |D_f| sin(theta) / sigma = t_f sin(theta), theta the angle between
 * the pooled directions (cos = sum <D_f, D_j> / sqrt(sum |D_f|^2 sum |D_j|^2)): the rows
 * resolve the angles down to arcsin(c / t_f), c the critical t, and j's joint t is a
 * draw of Student's t. The line says which are indistinguishable, their angle to f and
 * the angle these rows resolve (theta c / |t|, in sines), and what would separate them:
 * t grows as sqrt(rows), so (c / t)^2 times the rows at these states, or rows from states
 * where the directions part (paths from other x0, longer paths); an angle of 0 (the same
 * direction on every row) only those; a pair of both, neither.
 * When a window is named, the rows outside it carry no defect: a pass over the window's
 * rows alone (oracle/verify.c) gives their sums, and slpi_oracle_diag_window ranks the
 * ingredients by their shares there and decides separability from that pass's joint fit
 * (docs/power.md#separability-window, #window-first, #window-sandwich). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/fast.h"
#include "slpi/tools.h"
#include "fast/ingredients.h"
#include "oracle/oracle.h"

/* The relative change of a coefficient that gives the derivative: large enough that the
 * change of the step, EPS |term|, stands far above the step's rounding (u |x|), small
 * enough that the second derivative's part, EPS^2 |term|, is negligible. */
#define EPS 0x1p-20
/* The relative error of an ingredient that a correct port's data explain (oracle/stat.c's
 * DATA_BIAS: a term carrying two data stored at u). */
#define DATA_REL 2.0
/* z_{0.975}: the interval's half width in standard errors. */
#define Z95 1.959963984540054
/* A window is local when it spans at most this many of the SLPI_DIAG_BINS bins (a quarter
 * of the steps); the evidence of a defect acting on every step but stronger on some
 * (a drift component along a coordinate that passes near 0) is no local defect. */
#define LOCAL_BINS (SLPI_DIAG_BINS / 4)
/* The drift's components are ingredients of their own up to this many coordinates. */
#define DRIFT_PARTS 9

static const char *const drift_name[] = {
    "drift dH/dx1", "drift dH/dx2", "drift dH/dx3", "drift dH/dx4", "drift dH/dx5",
    "drift dH/dx6", "drift dH/dx7", "drift dH/dx8", "drift dH/dx9",
};
_Static_assert(sizeof drift_name / sizeof *drift_name == DRIFT_PARTS, "a name per drift part");

/* The drift's components that are ingredients: one a coordinate, or none. */
static int drift_parts(int dim)
{
    return dim <= DRIFT_PARTS ? dim : 0;
}

void slpi_oracle_diag_init(slpi_verify_diagnosis *d, const slpi_problem *p, int dim, long first, long last, double u)
{
    memset(d, 0, sizeof *d);
    d->n = p ? slpi_fast_ingredients(p, d->name) : 0;
    for (int i = 0; p && i < drift_parts(dim); i++) d->name[d->n++] = drift_name[i];
    d->step0 = first > 0 ? first : 0;
    long span = last - d->step0 + 1;
    d->width = span > SLPI_DIAG_BINS ? (span + SLPI_DIAG_BINS - 1) / SLPI_DIAG_BINS : 1;
    d->u = u;
    d->from = d->to = -1;
}

/* Ingredient i's direction of row lr into D (dim doubles, in units of `unit`): the fast
 * ingredients' by their coefficient 1 + EPS against base (the unfused k steps), the
 * drift's components' as k h ad*_{g_i} x averaged over the row's start and end. */
static int direction(slpi_fast *f, const slpi_oracle_local_row *lr, const double *dw, int M, int nf, int i,
                     const double *base, double unit, int dim, double *D, double *tmp, const double *ones, int *nomem)
{
    if (i < nf) {
        double e = slpi_fast_ingredient_discrete(slpi_fast_problem(f), i) ? 1.0 : EPS;
        int ok = slpi_fast_ingredient_scale(f, i, 1.0 + e) == 0 &&
            slpi_oracle_fast_steps(f, lr, lr->start, dw, M, ones, D, dim, nomem) == 0 &&
            slpi_fast_ingredient_scale(f, i, 1.0) == 0;
        for (int j = 0; ok && j < dim; j++) D[j] = (D[j] - base[j]) / (e * unit);
        return ok ? 0 : -1;
    }
    double k = (double)(lr->to - lr->from);
    if (slpi_fast_drift_part(f, i - nf, lr->start, D) || slpi_fast_drift_part(f, i - nf, base, tmp)) return -1;
    for (int j = 0; j < dim; j++) D[j] = k * (D[j] + tmp[j]) / 2 / unit;
    return 0;
}

void slpi_oracle_diag_row(slpi_fast *f, const slpi_oracle_local_row *lr, const double *dw, int M, const double *r,
                          const double *rr, double unit, int dim, double *out, int *nomem)
{
    int nf = slpi_fast_ingredients(slpi_fast_problem(f), NULL), n = nf + drift_parts(dim);
    memset(out, 0, SLPI_DIAG_FIELDS * sizeof *out);
    out[0] = -1;
    double *w = malloc(((2 + (size_t)n) * (size_t)dim + (size_t)M + 1) * sizeof *w);
    if (!w) {
        *nomem = 1;
        return;
    }
    double *base = w, *tmp = w + dim, *ones = tmp + dim, *D = ones + M; /* D: ingredient i's at D + i dim */
    for (int l = 0; l < M; l++) ones[l] = 1.0;
    int ok = slpi_fast_ingredient_scale(f, 0, 1.0) == 0;
    if (!ok) *nomem = 1; /* its one failure: the coefficients' memory */
    ok = ok && slpi_oracle_fast_steps(f, lr, lr->start, dw, M, ones, base, dim, nomem) == 0;
    for (int i = 0; ok && i < n; i++) {
        double *Di = D + (size_t)i * dim;
        if (direction(f, lr, dw, M, nf, i, base, unit, dim, Di, tmp, ones, nomem)) {
            ok = i >= nf; /* a system without coordinate operations: no drift components */
            memset(Di, 0, (size_t)dim * sizeof *Di);
            continue;
        }
        double dd = 0, z = 0, zr = 0;
        for (int j = 0; j < dim; j++) {
            dd += Di[j] * Di[j];
            z += r[j] * Di[j];
            zr += rr[j] * Di[j];
        }
        out[1 + 3 * i] = dd;
        out[2 + 3 * i] = z;
        out[3 + 3 * i] = zr;
        for (int a = 0; a < i; a++) {
            double g = 0;
            for (int j = 0; j < dim; j++) g += D[(size_t)a * dim + j] * Di[j];
            out[SLPI_DIAG_PAIR(a, i)] = g;
        }
    }
    slpi_fast_ingredient_scale(f, -1, 1.0);
    if (ok) out[0] = (double)lr->to;
    free(w);
}

void slpi_oracle_diag_add(slpi_verify_diagnosis *d, const double *row)
{
    if (row[0] < 0 || d->n == 0) return;
    long b = ((long)row[0] - d->step0) / d->width;
    b = b < 0 ? 0 : b >= SLPI_DIAG_BINS ? SLPI_DIAG_BINS - 1 : b;
    d->rows++;
    d->bin_rows[b]++;
    for (int i = 0; i < d->n; i++) {
        double dd = row[1 + 3 * i];
        d->dd[i] += dd;
        d->d4[i] += dd * dd;
        for (int form = 0; form < 2; form++) {
            double z = row[2 + form + 3 * i];
            d->z[form][i] += z;
            d->zz[form][i] += z * z;
            d->zd[form][i] += z * dd;
            d->bin_z[form][b][i] += z;
            d->bin_zz[form][b][i] += z * z;
        }
        for (int j = 0; j < d->n; j++) {
            if (j == i) continue;
            double g = row[i < j ? SLPI_DIAG_PAIR(i, j) : SLPI_DIAG_PAIR(j, i)], ddj = row[1 + 3 * j];
            d->gram[i][j] += g;
            d->gram2[i][j] += g * g;
            d->dgram[i][j] += dd * g;
            d->ddpair[i][j] += dd * ddj;
            for (int form = 0; form < 2; form++) {
                double z = row[2 + form + 3 * i];
                d->zpair[form][i][j] += z * row[2 + form + 3 * j];
                d->zgram[form][i][j] += z * g;
                d->zdpair[form][i][j] += z * ddj;
            }
        }
    }
}

void slpi_oracle_diag_merge(slpi_verify_diagnosis *to, const slpi_verify_diagnosis *from)
{
    to->rows += from->rows;
    for (int b = 0; b < SLPI_DIAG_BINS; b++) to->bin_rows[b] += from->bin_rows[b];
    for (int i = 0; i < to->n; i++) {
        to->dd[i] += from->dd[i];
        to->d4[i] += from->d4[i];
        for (int form = 0; form < 2; form++) {
            to->z[form][i] += from->z[form][i];
            to->zz[form][i] += from->zz[form][i];
            to->zd[form][i] += from->zd[form][i];
            for (int b = 0; b < SLPI_DIAG_BINS; b++) {
                to->bin_z[form][b][i] += from->bin_z[form][b][i];
                to->bin_zz[form][b][i] += from->bin_zz[form][b][i];
            }
        }
        for (int j = 0; j < to->n; j++) {
            to->gram[i][j] += from->gram[i][j];
            to->gram2[i][j] += from->gram2[i][j];
            to->dgram[i][j] += from->dgram[i][j];
            to->ddpair[i][j] += from->ddpair[i][j];
            for (int form = 0; form < 2; form++) {
                to->zpair[form][i][j] += from->zpair[form][i][j];
                to->zgram[form][i][j] += from->zgram[form][i][j];
                to->zdpair[form][i][j] += from->zdpair[form][i][j];
            }
        }
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The run of d's bins *ba..*bb where ingredient i's sum of z, of sign sgn, has the largest
 * t^2 = (sum z)^2 / (n s^2): s^2, the noise of z per row, is the median over the bins of
 * z's variance within a bin (a local defect raises it in the few bins it covers only),
 * into *s2. Returns that t^2, or -1 when no noise is measured. */
static double best_run(const slpi_verify_diagnosis *d, int form, int i, double sgn, int *ba, int *bb, double *s2)
{
    double var[SLPI_DIAG_BINS];
    int nv = 0;
    for (int b = 0; b < SLPI_DIAG_BINS; b++) {
        double n = (double)d->bin_rows[b], z = d->bin_z[form][b][i];
        if (n >= 2) var[nv++] = fmax((d->bin_zz[form][b][i] - z * z / n) / (n - 1), 0);
    }
    if (nv == 0) return -1;
    qsort(var, (size_t)nv, sizeof *var, by_value);
    *s2 = nv % 2 ? var[nv / 2] : (var[nv / 2 - 1] + var[nv / 2]) / 2;
    if (!(*s2 > 0)) return -1;
    double best = -1;
    *ba = 0;
    *bb = SLPI_DIAG_BINS - 1;
    for (int a = 0; a < SLPI_DIAG_BINS; a++) {
        double z = 0, n = 0;
        for (int b = a; b < SLPI_DIAG_BINS; b++) {
            z += d->bin_z[form][b][i];
            n += (double)d->bin_rows[b];
            double t2 = n > 0 && sgn * z > 0 ? z * z / (n * *s2) : 0;
            if (t2 > best) {
                best = t2;
                *ba = a;
                *bb = b;
            }
        }
    }
    return best;
}

/* The window of ingredient i's evidence (the file's header comment): the best run of bins,
 * named when its t^2 beats the whole range's by the penalty and it spans at most a quarter
 * of the steps. */
static void window(slpi_verify_diagnosis *d, int form, int i)
{
    double s2, sgn = d->z[form][i] >= 0 ? 1.0 : -1.0;
    int ba, bb, runs = SLPI_DIAG_BINS * (SLPI_DIAG_BINS + 1) / 2;
    double best = best_run(d, form, i, sgn, &ba, &bb, &s2);
    if (best < 0) return;
    double all = d->z[form][i] * d->z[form][i] / ((double)d->rows * s2);
    if (best - all > 2 * log((double)runs) && bb - ba + 1 <= LOCAL_BINS) {
        d->from = d->step0 + ba * d->width;
        d->to = d->step0 + (bb + 1) * d->width - 1;
    }
}

/* Pooled directions whose sin^2 of angle is at most this are parallel: the sums of a
 * row per step carry relative errors of about rows eps, some 1e-12 at 10^4 rows. */
#define PARALLEL 1e-12

/* The angle in degrees between two pooled directions of squared lengths A > 0 and B and
 * product C: acos(|C| / sqrt(A B)), 90 when B = 0 (b has no direction). */
static double angle_deg(double A, double B, double C)
{
    return B > 0 ? acos(fmin(1.0, fabs(C) / sqrt(A * B))) * 180 / acos(-1.0) : 90;
}

/* Satterthwaite's degrees of freedom of the sandwich variance of the coefficient v . (b_a,
 * b_b), v = G^-1 e_k, over the rows summed in d: a row's score along v has variance sigma^2
 * q, q = |v_a D_a + v_b D_b|^2, so the sandwich is about sigma^2 sum q chi^2_1 and its
 * degrees of freedom (sum q)^2 / sum q^2, at most n - 2 (docs/power.md#separability-df). */
static double joint_df(const slpi_verify_diagnosis *d, int a, int b, double va, double vb)
{
    double n = (double)d->rows, A = d->dd[a], B = d->dd[b], C = d->gram[a][b];
    double sq = va * va * A + 2 * va * vb * C + vb * vb * B;
    double sq2 = va * va * va * va * d->d4[a] + vb * vb * vb * vb * d->d4[b] +
        va * va * vb * vb * (4 * d->gram2[a][b] + 2 * d->ddpair[a][b]) + 4 * va * va * va * vb * d->dgram[a][b] +
        4 * va * vb * vb * vb * d->dgram[b][a];
    return sq2 > 0 ? fmax(1.0, fmin(n - 2, sq * sq / sq2)) : n - 2;
}

/* The joint fit of the first ingredient a with b over the rows summed in d (the file's
 * header comment): each coefficient's t against the fit's sandwich error, into *ta and
 * *tb, 0 when their pooled directions are parallel, and its degrees of freedom, into
 * *dfa and *dfb; the angle between the directions, in degrees, into *angle. */
static void joint_t(const slpi_verify_diagnosis *d, int form, int a, int b, double *ta, double *tb, double *dfa,
                    double *dfb, double *angle)
{
    double n = (double)d->rows, A = d->dd[a], B = d->dd[b], C = d->gram[a][b], det = A * B - C * C;
    *angle = angle_deg(A, B, C);
    *ta = *tb = 0;
    *dfa = *dfb = n - 2;
    if (B == 0) { /* b has no direction on these rows */
        *ta = INFINITY;
        return;
    }
    if (!(det > PARALLEL * A * B)) return;
    double Sa = d->z[form][a], Sb = d->z[form][b];
    double ba = (B * Sa - C * Sb) / det, bb = (A * Sb - C * Sa) / det;
    /* the rows' scores e = (z_a, z_b) - G_row (ba, bb): their sums of squares and product */
    double eaa = d->zz[form][a] + ba * ba * d->d4[a] + bb * bb * d->gram2[a][b] - 2 * ba * d->zd[form][a] -
        2 * bb * d->zgram[form][a][b] + 2 * ba * bb * d->dgram[a][b];
    double ebb = d->zz[form][b] + ba * ba * d->gram2[a][b] + bb * bb * d->d4[b] - 2 * ba * d->zgram[form][b][a] -
        2 * bb * d->zd[form][b] + 2 * ba * bb * d->dgram[b][a];
    double eab = d->zpair[form][a][b] - ba * d->zgram[form][a][b] - bb * d->zdpair[form][a][b] -
        ba * d->zdpair[form][b][a] - bb * d->zgram[form][b][a] + ba * ba * d->dgram[a][b] +
        ba * bb * (d->ddpair[a][b] + d->gram2[a][b]) + bb * bb * d->dgram[b][a];
    /* G^-1 E G^-1 n / (n - 1), G^-1's rows (B, -C) / det and (-C, A) / det */
    double va = (B * B * eaa - 2 * B * C * eab + C * C * ebb) / (det * det) * n / (n - 1);
    double vb = (A * A * ebb - 2 * A * C * eab + C * C * eaa) / (det * det) * n / (n - 1);
    *ta = va > 0 ? ba / sqrt(va) : ba != 0 ? INFINITY : 0;
    *tb = vb > 0 ? bb / sqrt(vb) : bb != 0 ? INFINITY : 0;
    *dfa = joint_df(d, a, b, B / det, -C / det);
    *dfb = joint_df(d, a, b, -C / det, A / det);
}

/* d's ranked ingredients ordered by share[i], largest first; a tie keeps the order they
 * had (insertion: ranked <= SLPI_DIAG_INGREDIENTS). */
static void order_by(slpi_verify_diagnosis *d, const double *share)
{
    for (int i = 1; i < d->ranked; i++)
        for (int j = i; j > 0 && share[d->order[j]] > share[d->order[j - 1]]; j--) {
            int t = d->order[j];
            d->order[j] = d->order[j - 1];
            d->order[j - 1] = t;
        }
}

/* The two-sided tail of t with df degrees of freedom, times the pairs (Bonferroni). */
static double pair_p(double t, double df, double pairs)
{
    return isfinite(t) ? fmin(1.0, pairs * slpi_oracle_f_tail(t * t, 1, df)) : 0.0;
}

/* The critical t of pair_p: pairs P(|t_df| > c) = alpha. */
static double pair_crit(double df, double pairs, double alpha)
{
    double lo = 0, hi = 1e3;
    for (int it = 0; it < 100; it++) {
        double c = (lo + hi) / 2;
        if (pair_p(c, df, pairs) > alpha)
            lo = c;
        else
            hi = c;
    }
    return hi;
}

/* Which ranked ingredients of d the rows summed in src separate from the first (the file's
 * header comment): j is separated when the first's joint t is beyond its critical t and
 * j's is not; the critical t of each pair, and the factor of rows that would separate
 * those whose first's t falls short. src is d itself, or the pass over a named window's
 * rows. */
static void separability(slpi_verify_diagnosis *d, const slpi_verify_diagnosis *src, int form, double alpha)
{
    double pairs = d->ranked - 1;
    int first = d->order[0], short_of_c = 0;
    d->alike = 0;
    d->more_rows = 1;
    d->separated[first] = d->both[first] = 0;
    d->angle[first] = d->sep_t[first] = d->sep_p[first] = d->other_t[first] = 0;
    d->sep_df[first] = d->other_df[first] = d->sep_crit[first] = 0;
    for (int k = 1; k < d->ranked; k++) {
        int j = d->order[k];
        double t, tj;
        joint_t(src, form, first, j, &t, &tj, &d->sep_df[j], &d->other_df[j], &d->angle[j]);
        d->sep_t[j] = t;
        d->other_t[j] = tj;
        d->sep_p[j] = pair_p(t, d->sep_df[j], pairs);
        d->sep_crit[j] = pair_crit(d->sep_df[j], pairs, alpha);
        d->both[j] = d->sep_p[j] <= alpha && pair_p(tj, d->other_df[j], pairs) <= alpha;
        d->separated[j] = d->sep_p[j] <= alpha && !d->both[j];
        if (d->separated[j]) continue;
        d->alike++;
        if (d->both[j]) continue; /* more rows of these states do not part a mixture */
        short_of_c++;
        double need = t != 0 ? d->sep_crit[j] * d->sep_crit[j] / (t * t) : INFINITY;
        d->more_rows = fmax(d->more_rows, need);
    }
    if (d->alike > 0 && short_of_c == 0) d->more_rows = NAN; /* every one a mixture: no factor of rows */
}

void slpi_oracle_diag_window(slpi_verify_diagnosis *d, const slpi_verify_diagnosis *w, int rounded, double alpha)
{
    int form = rounded ? 1 : 0;
    if (d->from < 0 || d->ranked == 0 || w->rows < 3) return;
    double share[SLPI_DIAG_INGREDIENTS] = { 0 };
    for (int k = 0; k < d->ranked; k++) {
        int i = d->order[k];
        share[i] = w->dd[i] > 0 ? w->z[form][i] * w->z[form][i] / w->dd[i] : 0;
    }
    order_by(d, share); /* a tie keeps the whole range's order */
    int first = d->order[0];
    d->window_rel = w->dd[first] > 0 ? w->z[form][first] / w->dd[first] : 0;
    if (d->ranked > 1) separability(d, w, form, alpha);
}

int slpi_oracle_diag_refine(const slpi_verify_diagnosis *d, const slpi_verify_diagnosis *w, int rounded, long *from,
                            long *to)
{
    int form = rounded ? 1 : 0, first = d->order[0], ba, bb;
    double s2;
    if (d->from < 0 || d->ranked == 0 || w->rows < 3) return 0;
    if (best_run(w, form, first, w->z[form][first] >= 0 ? 1.0 : -1.0, &ba, &bb, &s2) < 0) return 0;
    long lo = w->step0 + ba * w->width, hi = w->step0 + (bb + 1) * w->width - 1;
    *from = lo > d->from ? lo : d->from;
    *to = hi < d->to ? hi : d->to;
    return *from > d->from || *to < d->to;
}

void slpi_oracle_diag_finish(slpi_verify_diagnosis *d, int rounded, double r2, double alpha, int fail)
{
    double n = (double)d->rows;
    d->named = 0;
    d->p = 1.0;
    d->alike = 0;
    d->more_rows = 1;
    d->from = d->to = -1;
    if (d->n == 0 || d->rows < 3) return;
    int form = rounded ? 1 : 0;
    d->ranked = 0;
    for (int i = 0; i < d->n; i++) {
        double z = d->z[form][i], dd = d->dd[i], beta = dd > 0 ? z / dd : 0;
        /* the residuals' sum of squares sum (z - beta |D|^2)^2, with n / (n - 1) */
        double res = d->zz[form][i] - 2 * beta * d->zd[form][i] + beta * beta * d->d4[i];
        double se = dd > 0 ? sqrt(fmax(res, 0) * n / (n - 1)) / dd : INFINITY;
        d->rel[i] = beta;
        d->lo[i] = d->rel[i] - Z95 * se;
        d->hi[i] = d->rel[i] + Z95 * se;
        double excess = fmax(fabs(d->rel[i]) - DATA_REL * d->u, 0);
        d->t[i] = se > 0 ? excess / se : excess > 0 ? INFINITY : 0;
        d->share[i] = dd > 0 && r2 > 0 ? fmin(1.0, z * z / dd / r2) : 0;
        if (dd > 0) d->order[d->ranked++] = i; /* D_i = 0 on every row: not this step's */
    }
    if (d->ranked == 0) return;
    order_by(d, d->share);
    int first = d->order[0];
    double t = d->t[first];
    d->p = fmin(1.0, d->ranked * (isfinite(t) ? slpi_oracle_f_tail(t * t, 1, n - 1) : 0.0));
    d->named = fail && d->p <= alpha;
    if (d->named) window(d, form, first);
    if (d->from < 0 && d->ranked > 1) separability(d, d, form, alpha);
    /* with a window, slpi_oracle_diag_window decides from the pass over its rows */
}
