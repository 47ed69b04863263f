/* audit-studies.c — checks on coupled convergence studies (docs/noise.md#coupling, docs/noise.md#estimators, docs/claims.md): slope
 * KIND ..., gap SCHEME ..., resolvable ... (reports/converge.c runs the study) and the
 * Monte-Carlo-free weak oracle weakexact (reports/weak-exact.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/audit-checks.h"

/* ---- convergence studies: slope, gap, resolvable */
static int study(const slpi_audit *a, slpi_audit_check *c, char **tok, int n, slpi_conv_kind kind,
                 int kmin, int kmax, int L, long R, slpi_conv_cfg *cfg, slpi_conv_result *res,
                 char *cmd, size_t ncmd)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    char args[512];
    if (slpi_audit_case(a, c, &p, args, sizeof args, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return -1;
    }
    p.level = -1;
    slpi_conv_init(cfg, &p);
    cfg->kind = kind;
    cfg->kmin = kmin;
    cfg->kmax = kmax;
    cfg->L = L;
    cfg->paths = R;
    cfg->boot = 400;
    char extra[128] = "";
    for (int i = 0; i < n; i++) {
        if (!strncmp(tok[i], "indep=", 6) && !slpi_scheme_from_name(tok[i] + 6, &cfg->indep_scheme)) {
            cfg->indep = 1;
            snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --indep %s", tok[i] + 6);
        }
        if (!strcmp(tok[i], "inconsistent")) {
            cfg->allow_inconsistent = 1;
            snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --allow-inconsistent");
        }
    }
    char pre[256];
    snprintf(pre, sizeof pre, "%s", c->kase);
    char *sp = strchr(pre, ' ');
    if (sp) *sp = 0;
    snprintf(cmd, ncmd, "slpi converge --preset %s%s --kind %s --levels %d..%d --ref %d --paths %ld%s",
             pre, args, kind == SLPI_CONV_WEAK ? "weak" : kind == SLPI_CONV_SUP ? "sup" : "strong",
             kmin, kmax, L, R, extra);
    if (slpi_conv_run(cfg, NULL, NULL, res, &err)) {
        c->outcome = SLPI_CHECK_FAIL;
        c->value = NAN;
        snprintf(c->evidence, sizeof c->evidence, "the study failed: %s", err.msg);
        return -1;
    }
    return 0;
}

static void slope_figure(const slpi_audit *a, slpi_audit_check *c, const slpi_conv_result *r,
                         int col, const char *what)
{
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX];
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (!f) return;
    fprintf(f, "# h\te\tSE\tfitted\n");
    for (int i = 0; i < r->nlev; i++)
        fprintf(f, "%.17g\t%.17g\t%.17g\t%d\n", r->h[i], r->cell[col][i].e, r->cell[col][i].se,
                r->cell[col][i].fitted);
    fclose(f);
    const slpi_conv_fit *ft = &r->fit[col];
    snprintf(body, sizeof body, "plot '%s' using 1:2:3 with yerrorbars pt 7 title '%s error +- SE', "
             "exp(%.17g)*x**%.17g with lines title sprintf('WLS slope %.3f [%.3f, %.3f]')", data,
             what, isfinite(ft->intercept) ? ft->intercept : 0.0, isfinite(ft->slope) ? ft->slope : 0.0,
             ft->slope, ft->lo, ft->hi);
    slpi_audit_plot(a, c, name, NULL, "h", "error", "set logscale xy\nset format y '%.0e'\nset format x '%.0e'", body);
    strcpy(c->figure, name);
}

void slpi_audit_check_slope(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n < 8) {
        slpi_audit_unable(c, "check syntax: %s", "slope KIND A B L R LO HI");
        return;
    }
    slpi_conv_kind kind = !strcmp(tok[1], "weak") ? SLPI_CONV_WEAK
                          : !strcmp(tok[1], "sup") ? SLPI_CONV_SUP : SLPI_CONV_STRONG;
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, tok, n, kind, atoi(tok[2]), atoi(tok[3]), atoi(tok[4]), atol(tok[5]), &cfg, &r,
              c->command, sizeof c->command))
        return;
    int col = cfg.indep && !cfg.allow_inconsistent ? SLPI_CONV_INDEP : SLPI_CONV_SELF;
    const slpi_conv_fit *f = &r.fit[col];
    double lo = atof(tok[6]), hi = atof(tok[7]);
    slpi_audit_outcome(c, f->nfit >= 2 && f->slope >= lo && f->slope <= hi, f->slope);
    int last = r.nlev - 1;
    snprintf(c->evidence, sizeof c->evidence, "%s slope %.3f (95%% batch-bootstrap CI [%.3f, %.3f], "
             "%d levels fitted) against the %s reference, window [%.2f, %.2f]; e = %.3e +- %.1e at "
             "h = %.4g, %.3e at h = %.4g; %ld paths%s", slpi_conv_kind_name(kind), f->slope, f->lo,
             f->hi, f->nfit, col == SLPI_CONV_INDEP ? slpi_scheme_name(cfg.indep_scheme) : "same-scheme",
             lo, hi, r.cell[col][last].e, r.cell[col][last].se, r.h[last], r.cell[col][0].e, r.h[0],
             r.paths, cfg.indep ? "" : "");
    if (cfg.indep) {
        size_t l = strlen(c->evidence);
        snprintf(c->evidence + l, sizeof c->evidence - l, "; self slope %.3f; reference gap to %s at "
                 "level %d: %.3e", r.fit[SLPI_CONV_SELF].slope, slpi_scheme_name(cfg.indep_scheme),
                 cfg.L, r.refgap);
    }
    slope_figure(a, c, &r, col, slpi_conv_kind_name(kind));
}

void slpi_audit_check_gap(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n != 6) {
        slpi_audit_unable(c, "check syntax: %s", "gap SCHEME L R >= X");
        return;
    }
    char ind[64];
    snprintf(ind, sizeof ind, "indep=%s", tok[1]);
    char *t2[3] = {ind, "inconsistent", NULL};
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    int L = atoi(tok[2]);
    if (study(a, c, t2, 2, SLPI_CONV_STRONG, 3, 4, L, atol(tok[3]), &cfg, &r, c->command,
              sizeof c->command))
        return;
    double thr = atof(tok[5]);
    slpi_audit_outcome(c, slpi_audit_compare(tok[4], r.refgap, thr), r.refgap);
    snprintf(c->evidence, sizeof c->evidence, "rms gap at level %d (h = %.4g) between %s and %s on the "
             "same %ld paths: %.3e +- %.1e (%s %s %.1e); self-convergence error at h = %.4g: %.3e",
             L, r.h[r.nlev], slpi_scheme_name(cfg.base.scheme), tok[1], r.paths, r.refgap,
             r.refgap_se, c->outcome == SLPI_CHECK_PASS ? "meets" : "misses", tok[4], thr,
             r.h[r.nlev - 1], r.cell[SLPI_CONV_SELF][r.nlev - 1].e);
}

/* Levels an UNCOUPLED estimator would resolve: |E phi_l - E phi_ref| > 3 SE_uncoupled. */
void slpi_audit_check_resolvable(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n != 7) {
        slpi_audit_unable(c, "check syntax: %s", "resolvable A B L R >= N");
        return;
    }
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, tok, 0, SLPI_CONV_WEAK, atoi(tok[1]), atoi(tok[2]), atoi(tok[3]), atol(tok[4]),
              &cfg, &r, c->command, sizeof c->command))
        return;
    int k = 0;
    double se_u = 0, se_c = 0;
    for (int i = 0; i < r.nlev; i++) {
        se_u = sqrt((r.cell[SLPI_CONV_PHI][i].var + r.cell[SLPI_CONV_PHI][r.nlev].var) / (double)r.paths);
        se_c = r.cell[SLPI_CONV_SELF][i].se;
        k += r.cell[SLPI_CONV_SELF][i].e > 3 * se_u;
    }
    int need = atoi(tok[6]);
    slpi_audit_outcome(c, slpi_audit_compare(tok[5], k, need), k);
    snprintf(c->evidence, sizeof c->evidence, "uncoupled estimation resolves %d of %d levels (e_w > 3 "
             "SE); at h = %.4g: e_w = %.3e, uncoupled SE %.2e, coupled SE %.2e (%ld paths; ratio %.0f)",
             k, r.nlev, r.h[r.nlev - 1], r.cell[SLPI_CONV_SELF][r.nlev - 1].e, se_u, se_c, r.paths,
             se_c > 0 ? se_u / se_c : 0.0);
    slope_figure(a, c, &r, SLPI_CONV_SELF, "coupled weak");
}

/* ---- weak-exact oracle: quadrature error slope, and Monte Carlo through the steps */
void slpi_audit_check_weakexact(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_scheme_id k;
    if (n != 4 || slpi_scheme_from_name(tok[1], &k)) {
        slpi_audit_unable(c, "check syntax: %s", "weakexact SCHEME LO HI");
        return;
    }
    double h[6], e[6], se[6];
    int use[6];
    for (int i = 0; i < 6; i++) {
        h[i] = ldexp(1, -3 - i);
        e[i] = fabs(slpi_weak_exact_scheme(k, 1, 1, h[i], 2, 1) - exp(-0.5));
        se[i] = 1e-3 * e[i];
        use[i] = 1;
    }
    double s, ic;
    slpi_stats_wls(6, h, e, se, use, &s, &ic);
    char *t2[1] = {NULL};
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, t2, 0, SLPI_CONV_WEAK, 3, 5, 7, 400, &cfg, &r, c->command, sizeof c->command))
        return;
    double zmax = 0;
    for (int i = 0; i < r.nlev; i++) {
        const slpi_conv_cell *d = &r.cell[SLPI_CONV_MLMC][i];
        double z = d->se > 0 ? fabs(d->mean - (r.quad[i] - r.quad[i + 1])) / d->se : 0;
        zmax = fmax(zmax, z);
    }
    double lo = atof(tok[2]), hi = atof(tok[3]);
    slpi_audit_outcome(c, s >= lo && s <= hi && zmax < 4, s);
    snprintf(c->evidence, sizeof c->evidence, "quadrature (no Monte Carlo) |E x_1(T) - exp(-1/2)| = %.5f, "
             "%.5f, %.5f, %.5f, %.5f, %.5f at h = 2^-3..2^-8: slope %.4f (window [%.2f, %.2f]); "
             "Monte Carlo through the implemented %s step (400 coupled paths) agrees with the "
             "quadrature's level differences: max |z| = %.2f (< 4)", e[0], e[1], e[2], e[3], e[4],
             e[5], s, lo, hi, tok[1], zmax);
    strcat(c->command, " --phi x1 --exact");
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX];
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (f) {
        for (int i = 0; i < 6; i++) fprintf(f, "%.17g\t%.17g\n", h[i], e[i]);
        fclose(f);
        snprintf(body, sizeof body, "plot '%s' using 1:2 with linespoints pt 7 title 'quadrature weak "
                 "error', exp(%.17g)*x**%.17g title 'slope %.3f'", data, ic, s, s);
        slpi_audit_plot(a, c, name, NULL, "h", "|E x_1(T) - exp(-T/2)|", "set logscale xy", body);
        strcpy(c->figure, name);
    }
}

