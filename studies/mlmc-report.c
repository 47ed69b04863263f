/* mlmc-report.c — the reports of a multilevel Monte Carlo estimate (studies/mlmc.c) and of
 * Giles' mlmc_test (studies/mlmc-test.c): the text tables of `slpi mlmc` and `slpi mlmc
 * --test` and their JSON forms (--json; Python's slpi.mlmc and slpi.mlmc_test read them,
 * and slpi.plot.mlmc_test draws the test's, read back by slpi.MlmcTest.read), and the
 * handle API's entry points slpi_api_mlmc_json(_fn) and slpi_api_mlmc_test_json(_fn)
 * (slpi/tools.h). The texts hold no wall-clock figure (every byte a deterministic function
 * of the estimate and the build); the JSON adds each level's seconds. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "api/api.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "studies/mlmc.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "slpi/tools.h"
#include "slpi/version.h"

void slpi_mlmc_print(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f)
{
    const slpi_problem *p = c->conv.base;
    fputs("# slpi-mlmc 1\n", f);
    slpi_provenance_write(f, "# ");
    slpi_problem_write(p, f, "# problem.");
    fprintf(f, "# slpi mlmc: %s of E phi(X_T), phi = %s; %s on %s%s%s, T = %.17g, seed %llu\n",
            c->plain ? "plain Monte Carlo" : "multilevel Monte Carlo", slpi_conv_phi_name(&c->conv),
            slpi_scheme_name(slpi_view_scheme(p)->scheme), slpi_system_name(slpi_view_system(p)->system),
            slpi_view_system(p)->preset[0] ? ", preset " : "", slpi_view_system(p)->preset, slpi_view_grid(p)->T,
            (unsigned long long)slpi_view_noise(p)->seed);
    fprintf(f,
            "# requested rmse %.6g (variance <= rmse^2/2, bias <= rmse/sqrt 2), levels %d..%d, %ld pilot paths, "
            "alpha %.3g; %d rounds%s\n",
            c->rmse, c->l0, c->lmax, c->n0, c->alpha, r->rounds, r->converged ? "" : "; NOT CONVERGED: lmax reached");
    fprintf(f, "# cost: steps per path, fine plus coarse (docs/noise.md#mlmc); truncation %s\n",
            slpi_problem_truncates(p) ? "per level after summation" : "off");
    fprintf(f, "%-6s %-24s %-10s %-10s %-8s %-8s %-14s %-10s %-10s\n", "level", "h", "paths", "failed", "clipped",
            "cost", "mean", "var", "N*cost");
    for (int j = 0; j < r->nlev; j++)
        fprintf(f, "%-6d %-24.17g %-10ld %-10ld %-8ld %-8.0f %-14.6e %-10.3e %-10.3e\n", c->l0 + j,
                ldexp(slpi_view_grid(p)->T, -(c->l0 + j)), r->n[j], r->failed[j], r->clipped[j], r->cost[j], r->mean[j],
                r->var[j], (double)r->drawn[j] * r->cost[j]);
    fprintf(f, "estimate %.12g  SE %.3e  bias estimate %.3e\n", r->estimate, r->se, r->bias);
    fprintf(f, "cost %.6e steps; plain MC at level %d to the same rmse: %.6e steps (var %.4e); ratio %.3g\n",
            r->total_cost, c->l0 + r->nlev - 1, r->mc_cost, r->var_fine, r->mc_cost / r->total_cost);
}

static json_t *object_of(const slpi_problem *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    json_t *o = json_object();
    if (!m) return o;
    if (p)
        slpi_problem_write(p, m, "");
    else
        slpi_provenance_write(m, "");
    fclose(m);
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        json_object_set_new(o, line, json_string(eq + 1));
    }
    free(buf);
    return o;
}

int slpi_mlmc_write_json(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f)
{
    json_t *levels = json_array();
    long failed = 0, clipped = 0;
    for (int j = 0; j < r->nlev; j++) {
        failed += r->failed[j];
        clipped += r->clipped[j];
        json_array_append_new(levels,
                              json_pack("{s:i, s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}", "level", c->l0 + j, "h",
                                        ldexp(slpi_view_grid(c->conv.base)->T, -(c->l0 + j)), "paths",
                                        (json_int_t)r->n[j], "drawn", (json_int_t)r->drawn[j], "failed",
                                        (json_int_t)r->failed[j], "clipped", (json_int_t)r->clipped[j], "cost",
                                        r->cost[j], "mean", r->mean[j], "var", r->var[j], "seconds", r->seconds[j]));
    }
    json_t *est = json_pack("{s:f, s:i, s:i, s:I, s:f, s:b, s:s}", "rmse", c->rmse, "level_min", c->l0, "level_max",
                            c->lmax, "pilot_paths", (json_int_t)c->n0, "alpha", c->alpha, "plain", c->plain, "phi",
                            slpi_conv_phi_name(&c->conv));
    json_t *doc = json_pack("{s:i, s:o, s:o, s:o, s:o, s:f, s:f, s:o, s:b, s:i, s:f, s:f, s:f, s:I, s:I, s:I, s:f}",
                            "slpi_mlmc", 1, "provenance", object_of(NULL), "problem", object_of(c->conv.base),
                            "estimator", est, "levels", levels, "estimate", r->estimate, "se", r->se, "bias",
                            isfinite(r->bias) ? json_real(r->bias) : json_null(), "converged", r->converged, "rounds",
                            r->rounds, "cost", r->total_cost, "mc_cost", r->mc_cost, "var_fine", r->var_fine,
                            "failed_paths", (json_int_t)failed, "clipped_increments", (json_int_t)clipped,
                            "resumed_paths", (json_int_t)r->resumed, "seconds", r->wall);
    int bad = !doc || json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 || fputc('\n', f) == EOF;
    json_decref(doc);
    return bad ? SLPI_EINPUT : SLPI_OK;
}

/* The estimate of slpi_api_mlmc_json, the functional phi_fn when it is not NULL. */
static int mlmc_json(const slpi_problem *p, const char *phi, double rmse, int l0, int lmax, long n0, double alpha,
                     int plain, const char *checkpoint, const char *resume, int threads, slpi_conv_phi_fn phi_fn,
                     void *phi_data, const char *json)
{
    slpi_error err = { 0, "" };
    slpi_mlmc_cfg c;
    slpi_mlmc_result r;
    slpi_problem *q = slpi_problem_dup(p); /* the study's problem, with its own level; q outlives the study */
    if (!q) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "mlmc: out of memory"));
    slpi_view_grid_edit(q)->level = -1;
    slpi_mlmc_init(&c, q);
    if (phi) slpi_conv_phi_set(&c.conv, phi);
    if (phi_fn) {
        c.conv.phi = SLPI_PHI_FN;
        c.conv.phi_fn = phi_fn;
        c.conv.phi_data = phi_data;
    }
    c.conv.threads = threads;
    c.rmse = rmse;
    c.l0 = l0;
    c.lmax = lmax;
    c.n0 = n0;
    c.alpha = alpha;
    c.plain = plain;
    c.checkpoint = checkpoint;
    c.resume = resume;
    int rc = threads < 0 ? slpi_error_set(&err, SLPI_EINPUT, "mlmc: threads=%d: need >= 0 (0: the runtime's)", threads)
                         : slpi_mlmc_run(&c, &r, &err);
    FILE *f = rc == SLPI_OK ? fopen(json, "w") : NULL;
    if (rc == SLPI_OK && !f) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: cannot write", json);
    if (f) {
        if (slpi_mlmc_write_json(&c, &r, f) != SLPI_OK)
            rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
        if (fclose(f) != 0 && rc == SLPI_OK) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
    }
    slpi_problem_free(q);
    return slpi_api_record(&err, rc);
}

int slpi_api_mlmc_json(const slpi_problem *p, const char *phi, double rmse, int l0, int lmax, long n0, double alpha,
                       int plain, const char *checkpoint, const char *resume, int threads, const char *json)
{
    return mlmc_json(p, phi, rmse, l0, lmax, n0, alpha, plain, checkpoint, resume, threads, NULL, NULL, json);
}

int slpi_api_mlmc_json_fn(const slpi_problem *p,
                          int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                          double rmse, int l0, int lmax, long n0, double alpha, int plain, int threads,
                          const char *json)
{
    if (!phi_fn) {
        slpi_error err = { 0, "" };
        return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "mlmc: phi_fn: NULL (give a function)"));
    }
    return mlmc_json(p, NULL, rmse, l0, lmax, n0, alpha, plain, NULL, NULL, threads, phi_fn, phi_data, json);
}

/* ------------------------------------------------------------------ mlmc_test */

/* The flags of Giles' mlmc_test, one line each into f after prefix; the count. */
static int flags(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, FILE *f, const char *prefix)
{
    int n = 0, top = r->nlev - 1;
    if (r->check_flag) {
        int j = r->check_flag - 1;
        fprintf(f,
                "%sconsistency check %.3g > 1 at level %d: E[P_l - P_l-1] = E P_l - E P_l-1 does not hold "
                "(a coupling or functional error)\n",
                prefix, r->check[j], c->m.l0 + j);
        n++;
    }
    if (r->kurt_flag) {
        fprintf(f,
                "%skurtosis %.3g > 100 on the finest level: the correction is dominated by a few rare paths, "
                "so its variance estimate (and the path counts) are unreliable\n",
                prefix, r->kurt[top]);
        n++;
    }
    return n;
}

void slpi_mlmc_test_print(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, FILE *f)
{
    const slpi_problem *p = c->m.conv.base;
    fputs("# slpi-mlmc-test 1\n", f);
    slpi_provenance_write(f, "# ");
    slpi_problem_write(p, f, "# problem.");
    fprintf(f, "# slpi mlmc --test: Giles' mlmc_test of E phi(X_T), phi = %s; %s on %s%s%s, T = %.17g, seed %llu\n",
            slpi_conv_phi_name(&c->m.conv), slpi_scheme_name(slpi_view_scheme(p)->scheme),
            slpi_system_name(slpi_view_system(p)->system), slpi_view_system(p)->preset[0] ? ", preset " : "",
            slpi_view_system(p)->preset, slpi_view_grid(p)->T, (unsigned long long)slpi_view_noise(p)->seed);
    fprintf(f,
            "# %ld paths per level, levels %d..%d; Y_l = P_l at l = %d, P_l - P_l-1 above (docs/noise.md#mlmc-test); "
            "cost: steps per path; check: |E Y_l - E P_l + E P_l-1| / 3 SE bound, flagged above 1\n",
            c->paths, c->m.l0, c->m.lmax, c->m.l0);
    fprintf(f, "%-6s %-10s %-8s %-8s %-8s %-15s %-10s %-10s %-15s %-10s %-8s\n", "level", "paths", "failed", "clipped",
            "cost", "mean Y", "var Y", "kurtosis", "mean P", "var P", "check");
    for (int j = 0; j < r->nlev; j++) {
        char kurt[32] = "-", check[32] = "-"; /* undefined at l0 (null in the JSON): "-", not "nan" */
        if (!isnan(r->kurt[j])) snprintf(kurt, sizeof kurt, "%.4g", r->kurt[j]);
        if (!isnan(r->check[j])) snprintf(check, sizeof check, "%.3g", r->check[j]);
        fprintf(f, "%-6d %-10.0f %-8ld %-8ld %-8.0f %-15.8e %-10.4e %-10s %-15.8e %-10.4e %-8s\n", c->m.l0 + j,
                r->y[j].n, r->failed[j], r->clipped[j], r->cost[j], r->mean[j], r->var[j], kurt, r->mean_p[j],
                r->var_p[j], check);
    }
    fprintf(f,
            "alpha %.4g (%d levels)  beta %.4g (%d levels)  gamma %.4g (%d levels): OLS of log2 |mean Y|, "
            "log2 var Y, log2 cost on l, l > %d\n",
            r->alpha, r->nfit[0], r->beta, r->nfit[1], r->gamma, r->nfit[2], c->m.l0);
    if (flags(c, r, f, "WARNING: ") == 0) fputs("no warning: every check <= 1, finest kurtosis <= 100\n", f);
    fprintf(f,
            "# sweep: finest level L where max(|m_L|, |m_L-1|/2^a)/(2^a - 1) <= eps/sqrt 2, a = max(0.5, alpha); "
            "m, var beyond level %d extrapolated with max(0.5, alpha), max(0.5, beta)\n",
            c->m.lmax);
    fprintf(f, "%-12s %-6s %-14s %-14s %-8s\n", "eps", "L", "mlmc cost", "MC cost", "MC/MLMC");
    for (int i = 0; i < c->neps; i++) {
        if (r->sweep_level[i] < 0) {
            fprintf(f, "%-12.6g %-6s none up to level 24\n", c->eps[i], "-");
            continue;
        }
        fprintf(f, "%-12.6g %-6d %-14.6e %-14.6e %-8.4g\n", c->eps[i], r->sweep_level[i], r->mlmc_cost[i],
                r->mc_cost[i], r->mc_cost[i] / r->mlmc_cost[i]);
    }
}

/* A double, or null when it is not finite (JSON has no NaN). */
static json_t *num(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

int slpi_mlmc_test_write_json(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, FILE *f)
{
    json_t *levels = json_array(), *sw = json_array(), *eps = json_array(), *fl = json_array();
    for (int j = 0; j < r->nlev; j++) {
        json_t *o = json_pack("{s:i, s:f, s:I, s:I, s:I, s:I, s:f}", "level", c->m.l0 + j, "h",
                              ldexp(slpi_view_grid(c->m.conv.base)->T, -(c->m.l0 + j)), "paths", (json_int_t)r->y[j].n,
                              "drawn", (json_int_t)r->drawn[j], "failed", (json_int_t)r->failed[j], "clipped",
                              (json_int_t)r->clipped[j], "cost", r->cost[j]);
        const char *k[] = { "mean", "var", "kurtosis", "mean_p", "var_p", "check" };
        const double v[] = { r->mean[j], r->var[j], r->kurt[j], r->mean_p[j], r->var_p[j], r->check[j] };
        for (int i = 0; i < 6; i++) json_object_set_new(o, k[i], num(v[i]));
        json_object_set_new(o, "seconds", json_real(r->seconds[j])); /* last: the run's own figure */
        json_array_append_new(levels, o);
    }
    for (int i = 0; i < c->neps; i++) {
        json_array_append_new(eps, json_real(c->eps[i]));
        json_t *o = json_pack("{s:f, s:o, s:o, s:o}", "eps", c->eps[i], "level",
                              r->sweep_level[i] < 0 ? json_null() : json_integer(r->sweep_level[i]), "mlmc_cost",
                              num(r->mlmc_cost[i]), "mc_cost", num(r->mc_cost[i]));
        json_t *np = json_array();
        for (int j = 0; r->sweep_level[i] >= 0 && j <= r->sweep_level[i] - c->m.l0; j++)
            json_array_append_new(np, json_real(slpi_mlmc_test_paths(c, r, r->sweep_level[i], j, c->eps[i])));
        json_object_set_new(o, "paths", np);
        json_array_append_new(sw, o);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        flags(c, r, m, "");
        fclose(m);
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            json_array_append_new(fl, json_string(line));
        free(text);
    }
    json_t *test = json_pack("{s:s, s:i, s:i, s:I, s:o}", "phi", slpi_conv_phi_name(&c->m.conv), "level_min", c->m.l0,
                             "level_max", c->m.lmax, "paths", (json_int_t)c->paths, "eps", eps);
    json_t *doc = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:[i,i,i], s:o, s:o, s:I, s:f}", "slpi_mlmc_test",
                            1, "provenance", object_of(NULL), "problem", object_of(c->m.conv.base), "test", test,
                            "levels", levels, "alpha", num(r->alpha), "beta", num(r->beta), "gamma", num(r->gamma),
                            "fit_levels", r->nfit[0], r->nfit[1], r->nfit[2], "flags", fl, "sweep", sw, "resumed_paths",
                            (json_int_t)r->resumed, "seconds", r->wall);
    int bad = !doc || json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 || fputc('\n', f) == EOF;
    json_decref(doc);
    return bad ? SLPI_EINPUT : SLPI_OK;
}

/* The test of slpi_api_mlmc_test_json(_fn), the functional phi_fn when it is not NULL. */
static int test_json(const slpi_problem *p, const char *phi, slpi_conv_phi_fn phi_fn, void *phi_data, int l0, int L,
                     long paths, const double *eps, int neps, const char *checkpoint, const char *resume, int threads,
                     const char *json)
{
    slpi_error err = { 0, "" };
    slpi_mlmc_test_cfg c;
    slpi_mlmc_test_result r;
    slpi_problem *q = slpi_problem_dup(p); /* the test's problem, with its own level */
    if (!q) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "mlmc: out of memory"));
    slpi_view_grid_edit(q)->level = -1;
    slpi_mlmc_test_init(&c, q);
    if (phi) slpi_conv_phi_set(&c.m.conv, phi);
    if (phi_fn) {
        c.m.conv.phi = SLPI_PHI_FN;
        c.m.conv.phi_fn = phi_fn;
        c.m.conv.phi_data = phi_data;
    }
    c.m.conv.threads = threads;
    c.m.l0 = l0;
    c.m.lmax = L;
    c.paths = paths;
    c.neps = neps;
    c.m.checkpoint = checkpoint;
    c.m.resume = resume;
    int rc = SLPI_OK;
    if (threads < 0)
        rc = slpi_error_set(&err, SLPI_EINPUT, "mlmc: threads=%d: need >= 0 (0: the runtime's)", threads);
    else if (!eps || neps < 1 || neps > SLPI_MLMC_TEST_MAXEPS)
        rc = slpi_error_set(&err, SLPI_EINPUT, "mlmc test: eps: need 1..%d requested RMSEs (got %d%s)",
                            SLPI_MLMC_TEST_MAXEPS, neps, eps ? "" : ", NULL");
    else
        memcpy(c.eps, eps, (size_t)neps * sizeof *eps);
    if (rc == SLPI_OK) rc = slpi_mlmc_test_run(&c, &r, &err);
    FILE *f = rc == SLPI_OK ? fopen(json, "w") : NULL;
    if (rc == SLPI_OK && !f) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: cannot write", json);
    if (f) {
        if (slpi_mlmc_test_write_json(&c, &r, f) != SLPI_OK)
            rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
        if (fclose(f) != 0 && rc == SLPI_OK) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
    }
    slpi_problem_free(q);
    return slpi_api_record(&err, rc);
}

int slpi_api_mlmc_test_json(const slpi_problem *p, const char *phi, int l0, int L, long paths, const double *eps,
                            int neps, const char *checkpoint, const char *resume, int threads, const char *json)
{
    return test_json(p, phi, NULL, NULL, l0, L, paths, eps, neps, checkpoint, resume, threads, json);
}

int slpi_api_mlmc_test_json_fn(const slpi_problem *p,
                               int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                               int l0, int L, long paths, const double *eps, int neps, int threads, const char *json)
{
    if (!phi_fn) {
        slpi_error err = { 0, "" };
        return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "mlmc: phi_fn: NULL (give a function)"));
    }
    return test_json(p, NULL, phi_fn, phi_data, l0, L, paths, eps, neps, NULL, NULL, threads, json);
}
