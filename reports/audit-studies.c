/* audit-studies.c — checks on coupled convergence studies (docs/noise.md#coupling, docs/noise.md#estimators, docs/claims.md): slope
 * KIND ..., gap SCHEME ..., resolvable ... (studies/converge.c runs the study) and the
 * Monte-Carlo-free weak oracle weakexact (studies/weak-exact.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>
#include <unistd.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "core/digest.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "reports/audit-checks.h"

/* ---- convergence studies: slope, gap, resolvable */
/* The audit's store of studies (with --cache DIR): a study's batch sums are kept as a
 * converge checkpoint, DIR/study-KEY.ckpt (studies/converge.c), KEY the FNV-1a of this
 * executable, of what ran (the BLAS kernel, the BLAS and libm objects' sha256 and the libm's
 * label: reports/audit-loaded.c, not what the environment names), and of the study's
 * command without its fit (which only reads the sums). A later run of the same study,
 * whatever its fit or level range (the multiverse's fit and levels members) or claim,
 * reloads the sums instead of recomputing them, and an interrupted study resumes from its
 * last batch: a resumed study gives the same bytes as an uninterrupted one. The path (with
 * its temporary file's 13 more bytes) must fit in SLPI_PATH_MAX; else, or when the store
 * cannot be read or written, the study runs without it and says so on stderr. */
static int store_path(const slpi_audit *a, const char *study, char *out, size_t n)
{
    static uint64_t exe;
    if (!exe) exe = slpi_fnv1a_file(SLPI_FNV_INIT, "/proc/self/exe");
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, &exe, sizeof exe);
    const slpi_audit_ran *r = slpi_audit_loaded_once();
    const char *ran[4] = { r->blas_kernel, r->blas_sha256, r->libm_label, r->libm_sha256 };
    for (int i = 0; i < 4; i++) h = slpi_fnv1a(h, ran[i], strlen(ran[i]) + 1);
    h = slpi_fnv1a(h, study, strlen(study));
    int len = snprintf(out, n, "%s/study-%016llx.ckpt", a->cache, (unsigned long long)h);
    return len >= 0 && len + 13 < SLPI_PATH_MAX;
}

/* slpi_conv_run through the store (a->cache), or without it when it is absent or fails */
static int run_stored(const slpi_audit *a, const slpi_audit_check *c, slpi_conv_cfg *cfg, const char *study,
                      slpi_conv_result *res, slpi_error *err)
{
    char path[SLPI_PATH_MAX + 64];
    if (!a->cache) return slpi_conv_run(cfg, NULL, NULL, res, err);
    if (!store_path(a, study, path, sizeof path)) {
        fprintf(stderr,
                "audit: claim %s: its study's store path (%zu bytes of folder) does not fit in %d bytes: "
                "not stored\n",
                c->id, strlen(a->cache), SLPI_PATH_MAX);
        return slpi_conv_run(cfg, NULL, NULL, res, err);
    }
    cfg->checkpoint = path;
    cfg->checkpoint_every = 1;
    cfg->resume = access(path, F_OK) == 0 ? path : NULL;
    int rc = slpi_conv_run(cfg, NULL, NULL, res, err);
    if (rc != SLPI_OK && rc != SLPI_ENUMERIC && rc != SLPI_EINTR) {
        /* the store's fault only if the study runs without it: else the caller reports
         * the study's own error, and the store is not blamed */
        char was[sizeof err->msg];
        snprintf(was, sizeof was, "%s", err->msg);
        cfg->checkpoint = cfg->resume = NULL;
        rc = slpi_conv_run(cfg, NULL, NULL, res, err);
        if (rc == SLPI_OK)
            fprintf(stderr, "audit: claim %s: the study store %s: %s: recomputed without it\n", c->id, path, was);
    } else if (res->resumed > 0) {
        fprintf(stderr, "audit: claim %s: %ld of %ld paths of its study reloaded from %s\n", c->id, res->resumed,
                cfg->paths, path);
    }
    cfg->checkpoint = cfg->resume = NULL;
    return rc;
}

/* The study of c's case (indep: the independent reference scheme, phi: the weak
 * functional x1; either NULL or not present: none; exact: the so(3) oracle's functional
 * x1 against its exact value, with each level's quadrature in res->quad). */
static int study(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_arg *indep, const slpi_audit_arg *phi,
                 int exact, slpi_conv_kind kind, int kmin, int kmax, int L, long R, slpi_conv_cfg *cfg,
                 slpi_conv_result *res, char *cmd, size_t ncmd)
{
    slpi_problem *p = c->problem[0]; /* lives while the check runs: cfg->base after return */
    slpi_error err = { 0, "" };
    char args[512];
    if (slpi_audit_case(a, c, p, args, sizeof args, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return -1;
    }
    slpi_view_grid_edit(p)->level = -1;
    slpi_conv_init(cfg, p);
    cfg->kind = kind;
    cfg->kmin = kmin;
    cfg->kmax = kmax;
    cfg->L = L;
    cfg->paths = R;
    cfg->boot = 400;
    cfg->ols = a->fit_ols;
    cfg->drop_coarse = a->drop_coarse;
    char fit[64] = "", extra[128] = "";
    if (a->fit_ols) snprintf(fit + strlen(fit), sizeof fit - strlen(fit), " --fit ols");
    if (a->drop_coarse) snprintf(fit + strlen(fit), sizeof fit - strlen(fit), " --drop-coarse 1");
    if (indep && indep->present) { /* a scheme name (the table) */
        cfg->indep = 1;
        cfg->indep_scheme = (slpi_scheme_id)indep->e;
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --indep %s", indep->s);
    }
    if (phi && phi->present) {
        cfg->phi = SLPI_PHI_X1;
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --phi x1");
    }
    if (exact) {
        cfg->phi = SLPI_PHI_X1;
        cfg->exact = 1;
        cfg->exact_value = slpi_weak_exact_sde(slpi_view_system(p)->rb.amp, slpi_view_grid(p)->T);
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --phi x1 --exact");
    }
    char pre[256];
    snprintf(pre, sizeof pre, "%s", c->kase);
    char *sp = strchr(pre, ' ');
    if (sp) *sp = 0;
    char head[1024];
    snprintf(head, sizeof head, "slpi converge --preset %s%s --kind %s --levels %d..%d --ref %d --paths %ld", pre, args,
             kind == SLPI_CONV_WEAK      ? "weak"
                 : kind == SLPI_CONV_SUP ? "sup"
                                         : "strong",
             kmin, kmax, L, R);
    snprintf(cmd, ncmd, "%s%s%s", head, fit, extra);
    /* one study, several rules: a study already run in this process with the same command
     * (case, kind, levels, reference, paths, reference scheme) is reused, so a claim read
     * two ways (I4: Thm 5.4's bound, Fig. 5's first order) runs the 10^7-path study once */
    static slpi_audit_memo memo;
    const slpi_conv_result *kept = slpi_audit_memo_find(&memo, cmd);
    if (kept) {
        *res = *kept;
        return 0;
    }
    char study_cmd[1280]; /* the study without its fit: the store's key */
    snprintf(study_cmd, sizeof study_cmd, "%s%s", head, extra);
    if (run_stored(a, c, cfg, study_cmd, res, &err)) {
        if (err.code != SLPI_ENUMERIC) {
            slpi_audit_unable(c, "the study could not be run: %s", err.msg);
            return -1;
        }
        c->outcome = SLPI_CHECK_FAIL; /* the scheme stopped: a numerical outcome */
        c->value = NAN;
        snprintf(c->evidence, sizeof c->evidence,
                 "not met: the scheme stopped on a path of the "
                 "study, so no slope is measured (%s)",
                 err.msg);
        return -1;
    }
    slpi_audit_memo_put(&memo, cmd, res);
    return 0;
}

const slpi_conv_result *slpi_audit_memo_find(const slpi_audit_memo *m, const char *cmd)
{
    for (int i = 0; i < m->n && i < SLPI_AUDIT_MEMO; i++)
        if (!strcmp(m->e[i].cmd, cmd)) return &m->e[i].res;
    return NULL;
}

void slpi_audit_memo_put(slpi_audit_memo *m, const char *cmd, const slpi_conv_result *res)
{
    int i = m->n % SLPI_AUDIT_MEMO; /* a ring: the oldest study makes room */
    snprintf(m->e[i].cmd, sizeof m->e[i].cmd, "%s", cmd);
    m->e[i].res = *res;
    m->n++;
}

/* The study's errors with SE bars, the fit, and a reference line of slope ref through the
 * first fitted point (ref <= 0: none). */
static void slope_figure(const slpi_audit *a, slpi_audit_check *c, const slpi_conv_result *r, int col, const char *what,
                         double ref)
{
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX], refline[256] = "";
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (!f) return;
    fprintf(f, "# h\te\tSE\tfitted\n");
    int first = -1;
    for (int i = 0; i < r->nlev; i++) {
        fprintf(f, "%.17g\t%.17g\t%.17g\t%d\n", r->h[i], r->cell[col][i].e, r->cell[col][i].se, r->cell[col][i].fitted);
        if (first < 0 && r->cell[col][i].fitted) first = i;
    }
    fclose(f);
    const slpi_conv_fit *ft = &r->fit[col];
    if (ref > 0 && first >= 0)
        snprintf(refline, sizeof refline,
                 ", %.17g*(x/%.17g)**%.17g with lines dt 2 lw 2 title "
                 "'reference slope %.2g'",
                 r->cell[col][first].e, r->h[first], ref, ref);
    char fit[512] = "";
    if (isfinite(ft->slope) && isfinite(ft->intercept) && ft->nfit >= 2) {
        if (isfinite(ft->lo) && isfinite(ft->hi))
            snprintf(fit, sizeof fit,
                     ", exp(%.17g)*x**%.17g with lines lw 2 title 'WLS slope %.3f, "
                     "95%% CI [%.3f, %.3f] (%d levels)'",
                     ft->intercept, ft->slope, ft->slope, ft->lo, ft->hi, ft->nfit);
        else
            snprintf(fit, sizeof fit,
                     ", exp(%.17g)*x**%.17g with lines lw 2 title 'WLS slope %.3f "
                     "(%d levels, no CI)'",
                     ft->intercept, ft->slope, ft->slope, ft->nfit);
    }
    snprintf(body, sizeof body,
             "plot '%s' using 1:2:3 with yerrorbars pt 7 ps 1.3 title '%s error "
             "+- SE%s'%s%s",
             data, what, fit[0] ? "" : " (fewer than 3 resolved levels: no slope)", fit, refline);
    slpi_audit_plot(a, c, name, NULL, "h", "error",
                    "set logscale xy\nset format y '%.0e'\n"
                    "set format x '%.0e'",
                    body);
    strcpy(c->figure, name);
}

/* The interval rule of a slope check: met iff the 95% CI lies inside [lo, hi], not met iff
 * it lies outside, UNABLE (undecided) when it straddles a bound or fewer than 3 levels
 * carry the fit. */
static void slope_decision(slpi_audit_check *c, const slpi_conv_fit *f, double lo, double hi)
{
    if (f->nfit < 3 || !isfinite(f->lo) || !isfinite(f->hi)) {
        c->outcome = SLPI_CHECK_UNABLE;
        c->value = f->slope;
    } else if (f->lo >= lo && f->hi <= hi) {
        slpi_audit_outcome(c, 1, f->slope);
    } else if (f->hi < lo || f->lo > hi) {
        slpi_audit_outcome(c, 0, f->slope);
    } else {
        c->outcome = SLPI_CHECK_UNABLE;
        c->value = f->slope;
    }
}

static const char *slope_words(const slpi_audit_check *c, const slpi_conv_fit *f)
{
    if (c->outcome == SLPI_CHECK_PASS) return "the CI lies inside the window";
    if (c->outcome == SLPI_CHECK_FAIL) return "the CI lies outside the window";
    return f->nfit < 3 ? "undecided: fewer than 3 resolved levels"
                       : "undecided: the CI straddles the window (more paths needed)";
}

void slpi_audit_check_slope(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    static const slpi_conv_kind kinds[] = { SLPI_CONV_STRONG, SLPI_CONV_WEAK, SLPI_CONV_SUP };
    slpi_conv_kind kind = kinds[slpi_audit_get(ck, "KIND")->e]; /* strong weak sup (the table) */
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, slpi_audit_get(ck, "indep"), slpi_audit_get(ck, "phi"), 0, kind, (int)slpi_audit_get(ck, "A")->i,
              (int)slpi_audit_get(ck, "B")->i, (int)slpi_audit_get(ck, "L")->i, slpi_audit_get(ck, "R")->i, &cfg, &r,
              c->command, sizeof c->command))
        return;
    int col = cfg.indep ? SLPI_CONV_INDEP : SLPI_CONV_SELF;
    const slpi_conv_fit *f = &r.fit[col];
    double lo = slpi_audit_get(ck, "LO")->r, hi = slpi_audit_get(ck, "HI")->r;
    slope_decision(c, f, lo, hi);
    slpi_audit_num(c, "value", f->slope);
    slpi_audit_num(c, "lo", f->lo);
    slpi_audit_num(c, "hi", f->hi);
    slpi_audit_num(c, "nfit", f->nfit);
    slpi_audit_num(c, "paths", (double)r.paths);
    int last = r.nlev - 1;
    char fit[160];
    if (isfinite(f->slope) && isfinite(f->lo) && isfinite(f->hi))
        snprintf(fit, sizeof fit, "%s slope %.3f, 95%% batch-bootstrap CI [%.3f, %.3f] (%d levels fitted)",
                 slpi_conv_kind_name(kind), f->slope, f->lo, f->hi, f->nfit);
    else
        snprintf(fit, sizeof fit, "no %s slope: %d of %d levels resolved (3 needed)", slpi_conv_kind_name(kind),
                 f->nfit, r.nlev);
    snprintf(c->evidence, sizeof c->evidence,
             "%s against the %s reference, window [%.2f, %.2f]: %s; "
             "e = %.3e +- %.1e at h = %.4g, %.3e at h = %.4g; %ld paths",
             fit, col == SLPI_CONV_INDEP ? slpi_scheme_name(cfg.indep_scheme) : "same-scheme", lo, hi,
             slope_words(c, f), r.cell[col][last].e, r.cell[col][last].se, r.h[last], r.cell[col][0].e, r.h[0],
             r.paths);
    if (cfg.indep) {
        size_t l = strlen(c->evidence);
        snprintf(c->evidence + l, sizeof c->evidence - l,
                 "; self slope %.3f; reference gap to %s at "
                 "level %d: %.3e",
                 r.fit[SLPI_CONV_SELF].slope, slpi_scheme_name(cfg.indep_scheme), cfg.L, r.refgap);
    }
    /* the order the window tests: its middle, or lo / 0.7 for an open window [lo, inf) */
    double mid = isfinite(hi) ? 0.5 * (lo + hi) : lo / 0.7, ref = mid < 0.75 ? 0.5 : mid < 1.5 ? 1 : 2;
    slope_figure(a, c, &r, col, slpi_conv_kind_name(kind), ref);
}

void slpi_audit_check_gap(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    int L = (int)slpi_audit_get(ck, "L")->i;
    if (study(a, c, slpi_audit_get(ck, "SCHEME"), NULL, 0, SLPI_CONV_STRONG, 3, 4, L, slpi_audit_get(ck, "R")->i, &cfg,
              &r, c->command, sizeof c->command))
        return;
    double thr = slpi_audit_get(ck, "X")->r;
    slpi_audit_outcome(c, slpi_audit_compare(slpi_audit_get(ck, "OP")->e, r.refgap, thr), r.refgap);
    snprintf(c->evidence, sizeof c->evidence,
             "rms gap at level %d (h = %.4g) between %s and %s on the "
             "same %ld paths: %.3e +- %.1e (%s %s %.1e); self-convergence error at h = %.4g: %.3e",
             L, r.h[r.nlev], slpi_scheme_name(slpi_view_scheme(cfg.base)->scheme), slpi_audit_get(ck, "SCHEME")->s,
             r.paths, r.refgap, r.refgap_se, slpi_audit_meets(c), slpi_audit_get(ck, "OP")->s, thr, r.h[r.nlev - 1],
             r.cell[SLPI_CONV_SELF][r.nlev - 1].e);
}

/* resolvable A B L R RPAPER OP N: how many levels an UNCOUPLED estimator with RPAPER
 * independent paths per step size would resolve (the paper's design): level l is resolved
 * for sure when the coupled weak error's lower bound e - 3 SE_coupled exceeds 3 SE_u,
 * SE_u = sqrt((var_l + var_ref) / RPAPER), surely not when its upper bound e + 3 SE_coupled
 * is below 3 SE_u, else undecided. "<= N" is met iff sure + undecided <= N, not met iff
 * sure > N (">= N" the mirror); otherwise UNABLE. */
void slpi_audit_check_resolvable(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, NULL, slpi_audit_get(ck, "phi"), 0, SLPI_CONV_WEAK, (int)slpi_audit_get(ck, "A")->i,
              (int)slpi_audit_get(ck, "B")->i, (int)slpi_audit_get(ck, "L")->i, slpi_audit_get(ck, "R")->i, &cfg, &r,
              c->command, sizeof c->command))
        return;
    double rp = slpi_audit_get(ck, "RPAPER")->r;
    int sure = 0, und = 0, need = (int)slpi_audit_get(ck, "N")->i;
    char list[500] = "";
    for (int i = 0; i < r.nlev; i++) {
        const slpi_conv_cell *e = &r.cell[SLPI_CONV_SELF][i];
        double se_u = sqrt((r.cell[SLPI_CONV_PHI][i].var + r.cell[SLPI_CONV_PHI][r.nlev].var) / rp);
        int yes = e->e - 3 * e->se > 3 * se_u, no = e->e + 3 * e->se < 3 * se_u;
        sure += yes;
        und += !yes && !no;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%sh=%.3g: e %.2e +- %.1e, 3 SE_u %.1e", l ? "; " : "", r.h[i], e->e,
                 3 * e->se, 3 * se_u);
    }
    int le = slpi_audit_get(ck, "OP")->e == SLPI_AUDIT_LE;
    if (le ? sure + und <= need : sure >= need)
        slpi_audit_outcome(c, 1, sure);
    else if (le ? sure > need : sure + und < need)
        slpi_audit_outcome(c, 0, sure);
    else
        c->outcome = SLPI_CHECK_UNABLE, c->value = sure;
    snprintf(c->evidence, sizeof c->evidence,
             "an uncoupled estimator with %.3g paths per step size "
             "resolves %d of %d levels for sure, %d undecided (bounds from %ld coupled paths) -- %s %s "
             "%d: %s",
             rp, sure, r.nlev, und, r.paths,
             c->outcome == SLPI_CHECK_PASS       ? "met"
                 : c->outcome == SLPI_CHECK_FAIL ? "not met"
                                                 : "undecided",
             slpi_audit_get(ck, "OP")->s, need, list);
    slope_figure(a, c, &r, SLPI_CONV_SELF, "coupled weak", 1);
}

/* ---- weak-exact oracle: quadrature error slope, and Monte Carlo through the steps */
int slpi_audit_weakexact_mc(const slpi_conv_result *r, double *zmax)
{
    *zmax = 0;
    for (int i = 0; i < r->nlev; i++) {
        const slpi_conv_cell *d = &r->cell[SLPI_CONV_MLMC][i];
        double dev = fabs(d->mean - (r->quad[i] - r->quad[i + 1]));
        *zmax = fmax(*zmax, d->se > 0 ? dev / d->se : dev > 0 ? INFINITY : 0);
    }
    return *zmax < 4;
}

void slpi_audit_check_weakexact(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_scheme_id k = (slpi_scheme_id)slpi_audit_get(ck, "SCHEME")->e; /* a scheme (the table) */
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, NULL, NULL, 1, SLPI_CONV_WEAK, 3, 5, 7, 400, &cfg, &r, c->command, sizeof c->command)) return;
    const slpi_problem *p = cfg.base;
    if (slpi_view_scheme(p)->scheme != k) {
        char why[96];
        snprintf(why, sizeof why, "%s, the check names %s", slpi_scheme_name(slpi_view_scheme(p)->scheme),
                 slpi_audit_get(ck, "SCHEME")->s);
        slpi_audit_unable(c, "the case runs %s: the quadrature is of the check's scheme", why);
        return;
    }
    double h[6], e[6], se[6];
    int use[6];
    for (int i = 0; i < 6; i++) {
        h[i] = ldexp(slpi_view_grid(p)->T, -3 - i);
        e[i] = fabs(slpi_weak_exact_scheme(k, slpi_view_system(p)->rb.amp, slpi_view_grid(p)->T, h[i],
                                           slpi_view_noise(p)->trunc_ell, 1) -
                    cfg.exact_value);
        se[i] = 1e-3 * e[i];
        use[i] = 1;
    }
    double s, ic;
    slpi_stats_wls(6, h, e, se, use, &s, &ic);
    double zmax, lo = slpi_audit_get(ck, "LO")->r, hi = slpi_audit_get(ck, "HI")->r;
    int agree = slpi_audit_weakexact_mc(&r, &zmax);
    slpi_audit_outcome(c, s >= lo && s <= hi && agree, s);
    slpi_audit_num(c, "z", zmax);
    char dq[160] = "";
    for (int i = 0; i < r.nlev; i++) {
        char q[12];
        snprintf(q, sizeof q, "q%d", r.level[i]);
        slpi_audit_num(c, q, r.quad[i]);
        snprintf(dq + strlen(dq), sizeof dq - strlen(dq), "%s%.3e", i ? ", " : "", r.quad[i] - r.quad[i + 1]);
    }
    slpi_audit_num(c, "qref", r.quad[r.nlev]);
    snprintf(c->evidence, sizeof c->evidence,
             "quadrature (no Monte Carlo) |E x_1(T) - exp(-%g/2)| = %.5f, "
             "%.5f, %.5f, %.5f, %.5f, %.5f at h = T 2^-3..T 2^-8: slope %.4f (window [%.2f, %.2f]); "
             "Monte Carlo of x_1(T) through the implemented %s step (%ld coupled paths) %s the "
             "quadrature's level differences E x_1 at h = T 2^-%d..T 2^-%d minus the next finer "
             "(to T 2^-%d): %s: max |z| = %.2f (%s 4)",
             slpi_view_system(p)->rb.amp * slpi_view_system(p)->rb.amp * slpi_view_grid(p)->T, e[0], e[1], e[2], e[3],
             e[4], e[5], s, lo, hi, slpi_audit_get(ck, "SCHEME")->s, r.paths, agree ? "agrees with" : "disagrees with",
             r.level[0], r.level[r.nlev - 1], r.level[r.nlev], dq, zmax, agree ? "<" : "not <");
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX];
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (f) {
        for (int i = 0; i < 6; i++) fprintf(f, "%.17g\t%.17g\n", h[i], e[i]);
        fclose(f);
        snprintf(body, sizeof body,
                 "plot '%s' using 1:2 with linespoints pt 7 title 'quadrature weak "
                 "error', exp(%.17g)*x**%.17g title 'slope %.3f'",
                 data, ic, s, s);
        slpi_audit_plot(a, c, name, NULL, "h", "|E x_1(T) - exp(-T/2)|", "set logscale xy", body);
        strcpy(c->figure, name);
    }
}
