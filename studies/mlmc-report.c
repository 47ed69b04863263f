/* mlmc-report.c — the report of a multilevel Monte Carlo estimate (studies/mlmc.c): the
 * text table of `slpi mlmc` and its JSON form (--json; Python's slpi.mlmc reads it), and
 * the handle API's entry point slpi_api_mlmc_json (slpi/tools.h). The text holds no
 * wall-clock figure (every byte a deterministic function of the estimate and the build);
 * the JSON adds each level's seconds. */
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
