/* converge-stats.c — the estimators of a convergence study from its batch sums
 * (docs/noise.md#estimators): each cell's error and standard error, the weighted LS slope
 * with its batch-bootstrap CI, and Giles' MLMC consistency check (even against odd batches). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "studies/converge.h"

/* Error estimate of one cell from path sums s1, s2 over n paths. */
static void cell_from_sums(slpi_conv_kind kind, int col, double s1, double s2, double n, slpi_conv_cell *cell)
{
    cell->mean = s1 / n;
    cell->var = n > 1 ? fmax(0, (s2 - s1 * s1 / n) / (n - 1)) : 0;
    double se = sqrt(cell->var / n);
    if (col == SLPI_CONV_PHI) {
        cell->e = cell->mean;
        cell->se = se;
    } else if (kind == SLPI_CONV_WEAK) {
        cell->e = fabs(cell->mean);
        cell->se = se;
    } else {
        cell->e = sqrt(fmax(0, cell->mean));
        cell->se = cell->e > 0 ? se / (2 * cell->e) : 0;
    }
}

/* Cells of column col from batch sums, with batch multiplicities cnt (NULL: all once). */
void slpi_conv_cells(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb, const int *cnt,
                     int col, slpi_conv_cell *out)
{
    for (int i = 0; i < ly->nl1; i++) {
        double s1 = 0, s2 = 0, n = 0;
        for (int b = 0; b < nb; b++) {
            int m = cnt ? cnt[b] : 1;
            const double *q = buf + (size_t)b * (size_t)ly->stride;
            for (int j = 0; j < m; j++) {
                s1 += q[col * ly->nl1 + i];
                s2 += q[ly->nq + col * ly->nl1 + i];
                n += q[2 * ly->nq + Q_PATHS];
            }
        }
        cell_from_sums(c->kind, col, s1, s2, n, &out[i]);
    }
}

void slpi_conv_fit_col(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb, int col,
                       slpi_conv_result *r)
{
    slpi_conv_cell *cl = r->cell[col];
    int use[SLPI_CONV_MAXLEV] = { 0 };
    double e[SLPI_CONV_MAXLEV], se[SLPI_CONV_MAXLEV];
    for (int i = 0; i < ly->nlev; i++) {
        use[i] = (c->kind == SLPI_CONV_WEAK ? cl[i].e > 3 * cl[i].se : cl[i].e > 0) && i >= c->drop_coarse;
        cl[i].fitted = use[i];
        e[i] = cl[i].e;
        se[i] = cl[i].se;
    }
    slpi_conv_fit *f = &r->fit[col];
    f->nfit = slpi_stats_wls(ly->nlev, r->h, e, c->ols ? NULL : se, use, &f->slope, &f->intercept);
    f->lo = f->hi = NAN;
    if (c->boot < 2 || nb < 2 || f->nfit < 2) return;
    double *s = malloc((size_t)c->boot * sizeof *s);
    int *cnt = calloc((size_t)nb, sizeof *cnt);
    slpi_conv_cell bc[SLPI_CONV_MAXLEV];
    if (!s || !cnt) {
        free(s);
        free(cnt);
        return;
    }
    uint64_t st = c->boot_seed + (uint64_t)col;
    int ns = 0;
    for (int k = 0; k < c->boot; k++) {
        memset(cnt, 0, (size_t)nb * sizeof *cnt);
        for (int b = 0; b < nb; b++) cnt[slpi_stats_rand(&st, (uint64_t)nb)]++;
        slpi_conv_cells(c, ly, buf, nb, cnt, col, bc);
        for (int i = 0; i < ly->nlev; i++) {
            e[i] = bc[i].e;
            se[i] = bc[i].se;
        }
        double sl, ic;
        slpi_stats_wls(ly->nlev, r->h, e, c->ols ? NULL : se, use, &sl, &ic);
        if (isfinite(sl)) s[ns++] = sl;
    }
    f->lo = slpi_stats_quantile(s, ns, 0.025);
    f->hi = slpi_stats_quantile(s, ns, 0.975);
    free(s);
    free(cnt);
}

/* Giles' MLMC consistency check per level: |E[P_i - P_{i+1}] - (E P_i - E P_{i+1})| over
 * 3 (sd_a/sqrt(n_a) + sd_b/sqrt(n_b) + sd_c/sqrt(n_c)), the difference from the even
 * batches and the two levels from the odd ones (independent samples); < 1 passes. */
void slpi_conv_mlmc_check(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb,
                          slpi_conv_result *r)
{
    int *even = calloc((size_t)nb, sizeof *even), *odd = calloc((size_t)nb, sizeof *odd);
    for (int b = 0; even && odd && b < nb; b++) (b % 2 ? odd : even)[b] = 1;
    slpi_conv_cell a[SLPI_CONV_MAXLEV], p[SLPI_CONV_MAXLEV];
    if (even && odd && nb >= 2) {
        slpi_conv_cells(c, ly, buf, nb, even, SLPI_CONV_MLMC, a);
        slpi_conv_cells(c, ly, buf, nb, odd, SLPI_CONV_PHI, p);
        double ne = 0, no = 0;
        for (int b = 0; b < nb; b++) {
            double m = buf[(size_t)b * (size_t)ly->stride + 2 * (size_t)ly->nq + Q_PATHS];
            if (b % 2)
                no += m;
            else
                ne += m;
        }
        for (int i = 0; i < ly->nlev; i++) {
            double num = fabs(a[i].mean - (p[i].mean - p[i + 1].mean));
            double den = 3 * (sqrt(a[i].var / ne) + sqrt(p[i].var / no) + sqrt(p[i + 1].var / no));
            r->mlmc_check[i] = den > 0 ? num / den : NAN;
        }
    } else {
        for (int i = 0; i < ly->nlev; i++) r->mlmc_check[i] = NAN;
    }
    free(even);
    free(odd);
}
