/* converge-report.c — the report of a convergence study (studies/converge.c): the text
 * table (`slpi converge`, standard output or -o) and its JSON form (--json). Both open
 * with the provenance every slpi output carries (slpi, git revision, Arb, FLINT, MPFR,
 * GMP, OpenBLAS core, libc, compiler, flags) and the study's problem keys, and hold no
 * wall-clock figure: every byte is a deterministic function of the study and the build
 * (docs/experiments.md). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "studies/studies.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "slpi/step.h"
#include "slpi/version.h"

/* A weak study's column col: the paths a slope would need (docs/noise.md#path-counts).
 * Level i (not left out by drop_coarse) enters the fit when e_i > 3 SE_i; with the
 * measured e_i and SE_i held fixed and SE scaling as 1/sqrt(paths), it needs
 * R_i = ceil(R (3 SE_i / e_i)^2) of them (R: the paths that survived; infinity when e_i = 0).
 * *two: the second smallest R_i (a slope needs two levels), *all: the largest (every
 * level); infinity when there are fewer than two levels. */
static void paths_needed(const slpi_conv_cfg *c, const slpi_conv_result *r, int col, double *two, double *all)
{
    double lo1 = INFINITY, lo2 = INFINITY, hi = 0;
    int n = 0;
    for (int i = c->drop_coarse; i < r->nlev; i++, n++) {
        const slpi_conv_cell *cl = &r->cell[col][i];
        double q = cl->e > 0 ? 3 * cl->se / cl->e : INFINITY, need = ceil((double)r->paths * q * q);
        if (need < lo1) {
            lo2 = lo1;
            lo1 = need;
        } else if (need < lo2) {
            lo2 = need;
        }
        if (need > hi) hi = need;
    }
    *two = n >= 2 ? lo2 : INFINITY;
    *all = n >= 2 ? hi : INFINITY;
}

void slpi_conv_print(const slpi_conv_cfg *c, const slpi_conv_result *r, FILE *f)
{
    const slpi_problem *p = c->base;
    fputs("# slpi-converge 1\n", f);
    slpi_provenance_write(f, "# ");
    slpi_problem_write(p, f, "# problem.");
    fprintf(f,
            "# slpi converge: %s study, %s on %s%s%s, T = %.17g, seed %llu, paths %llu..%llu"
            " (%ld), %d batches\n",
            slpi_conv_kind_name(c->kind), slpi_scheme_name(slpi_view_scheme(p)->scheme),
            slpi_system_name(slpi_view_system(p)->system), slpi_view_system(p)->preset[0] ? ", preset " : "",
            slpi_view_system(p)->preset, slpi_view_grid(p)->T, (unsigned long long)slpi_view_noise(p)->seed,
            (unsigned long long)c->path0, (unsigned long long)(c->path0 + (uint64_t)c->paths - 1), r->paths,
            c->batches > 0 ? c->batches : (int)(c->paths < 32 ? c->paths : 32));
    fprintf(f, "# levels %d..%d, reference level %d (same scheme)", c->kmin, c->kmax, c->L);
    if (c->indep) fprintf(f, " and %s (independent)", slpi_scheme_name(c->indep_scheme));
    if (c->exact) fprintf(f, " and the exact value %.17g", c->exact_value);
    fprintf(f, "\n# truncation %s; solver iterations %ld; clipped increments %ld\n",
            slpi_problem_truncates(p) ? "per level after summation" : "off", r->iters, r->clipped);
    if (r->failed > 0) { /* docs/noise.md#failed-paths */
        char why[400];
        slpi_conv_failure_text(c, &r->first_failure, why, sizeof why);
        fprintf(f, "# failed paths %ld of %ld, left out of every estimate (docs/noise.md#failed-paths); per level:",
                r->failed, c->paths);
        for (int i = 0; i < r->nlev + 1 + (c->indep != 0); i++)
            fprintf(f, " %d%s %ld", i < r->nlev ? r->level[i] : c->L, i == r->nlev + 1 ? " (independent)" : "",
                    r->failed_at[i]);
        fprintf(f, "\n# first failure: %s\n", why);
    }
    if (c->kind == SLPI_CONV_WEAK)
        fprintf(f, "# phi = %s\n",
                c->phi == SLPI_PHI_X1           ? "x_1"
                    : c->phi == SLPI_PHI_SIN2PI ? "sum_i sin(2 pi x_i)"
                                                : slpi_conv_phi_name(c));
    if (c->ols || c->drop_coarse) /* the default fit (WLS over every level) is not named */
        fprintf(f, "# slope fit: %s, the %d coarsest level(s) left out\n",
                c->ols ? "equal weights (OLS)" : "weights (e/se)^2 (WLS)", c->drop_coarse);
    fprintf(f, "%-6s %-24s", "level", "h");
    for (int col = 0; col < SLPI_CONV_NCOL; col++)
        if (r->have[col]) fprintf(f, " %-13s %-10s", slpi_conv_col_name(col), "SE");
    if (c->kind == SLPI_CONV_WEAK) fprintf(f, " %-10s %-10s", "var(dP)", "giles");
    if (c->exact) fprintf(f, " %-20s %-8s", "quadrature", "z");
    fputc('\n', f);
    for (int i = 0; i < r->nlev; i++) {
        fprintf(f, "%-6d %-24.17g", r->level[i], r->h[i]);
        for (int col = 0; col < SLPI_CONV_NCOL; col++)
            if (r->have[col]) fprintf(f, " %-13.6e %-10.3e", r->cell[col][i].e, r->cell[col][i].se);
        if (c->kind == SLPI_CONV_WEAK) fprintf(f, " %-10.3e %-10.3f", r->cell[SLPI_CONV_MLMC][i].var, r->mlmc_check[i]);
        if (c->exact) {
            const slpi_conv_cell *ph = &r->cell[SLPI_CONV_PHI][i];
            fprintf(f, " %-20.15f %-8.2f", r->quad[i], ph->se > 0 ? (ph->mean - r->quad[i]) / ph->se : 0.0);
        }
        fputc('\n', f);
    }
    for (int col = 0; col < SLPI_CONV_NCOL; col++) {
        if (!r->have[col] || col == SLPI_CONV_PHI) continue;
        const slpi_conv_fit *ft = &r->fit[col];
        fprintf(f, "slope %-5s %8.4f  95%% CI [%.4f, %.4f]  (%d levels fitted%s)\n", slpi_conv_col_name(col), ft->slope,
                ft->lo, ft->hi, ft->nfit, c->kind == SLPI_CONV_WEAK ? ", e > 3 SE" : "");
    }
    for (int col = 0; col < SLPI_CONV_NCOL && c->kind == SLPI_CONV_WEAK; col++) {
        if (!r->have[col] || col == SLPI_CONV_PHI) continue;
        double two, all;
        paths_needed(c, r, col, &two, &all);
        fprintf(f,
                "paths for a slope %-5s %.0f for two levels with e > 3 SE, %.0f for every level (now %ld; "
                "docs/noise.md#path-counts)\n",
                slpi_conv_col_name(col), two, all, r->paths);
    }
    if (c->indep)
        fprintf(f, "reference gap (self vs %s at level %d): %.6e +- %.3e\n", slpi_scheme_name(c->indep_scheme), c->L,
                r->refgap, r->refgap_se);
}

/* "key=value" lines (as slpi_provenance_write and slpi_problem_write print them) as
 * the members of a JSON object. */
static json_t *object_of_lines(char *text)
{
    json_t *o = json_object();
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        json_object_set_new(o, line, json_string(eq + 1));
    }
    return o;
}

static json_t *object_of(const slpi_problem *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return json_object();
    if (p)
        slpi_problem_write(p, m, "");
    else
        slpi_provenance_write(m, "");
    fclose(m);
    json_t *o = object_of_lines(buf);
    free(buf);
    return o;
}

static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

int slpi_conv_write_json(const slpi_conv_cfg *c, const slpi_conv_result *r, FILE *f)
{
    json_t *levels = json_array(), *slopes = json_object();
    for (int i = 0; i < r->nlev; i++) {
        json_t *l = json_pack("{s:i, s:f}", "level", r->level[i], "h", r->h[i]);
        for (int col = 0; col < SLPI_CONV_NCOL; col++)
            if (r->have[col])
                json_object_set_new(l, slpi_conv_col_name(col),
                                    json_pack("{s:f, s:f, s:f, s:f, s:b}", "e", r->cell[col][i].e, "se",
                                              r->cell[col][i].se, "mean", r->cell[col][i].mean, "var",
                                              r->cell[col][i].var, "fitted", r->cell[col][i].fitted));
        if (c->kind == SLPI_CONV_WEAK) json_object_set_new(l, "giles", json_real(r->mlmc_check[i]));
        if (c->exact) json_object_set_new(l, "quadrature", json_real(r->quad[i]));
        json_array_append_new(levels, l);
    }
    for (int col = 0; col < SLPI_CONV_NCOL; col++) {
        if (!r->have[col] || col == SLPI_CONV_PHI) continue;
        const slpi_conv_fit *ft = &r->fit[col];
        /* null where a value is not finite (JSON has no NaN or infinity): the column is
         * there even when its slope cannot be fitted, with the paths it would need */
        json_t *o = json_pack("{s:o, s:o, s:o, s:i}", "slope", real_or_null(ft->slope), "ci_lo", real_or_null(ft->lo),
                              "ci_hi", real_or_null(ft->hi), "levels_fitted", ft->nfit);
        if (c->kind == SLPI_CONV_WEAK) {
            double two, all;
            paths_needed(c, r, col, &two, &all);
            json_object_set_new(o, "paths_needed", real_or_null(two));
            json_object_set_new(o, "paths_needed_all", real_or_null(all));
        }
        json_object_set_new(slopes, slpi_conv_col_name(col), o);
    }
    json_t *study =
        json_pack("{s:s, s:i, s:i, s:i, s:I, s:I, s:i, s:I, s:s}", "kind", slpi_conv_kind_name(c->kind), "level_min",
                  c->kmin, "level_max", c->kmax, "reference_level", c->L, "paths", (json_int_t)c->paths, "path0",
                  (json_int_t)c->path0, "boot", c->boot, "boot_seed", (json_int_t)c->boot_seed, "independent",
                  c->indep ? slpi_scheme_name(c->indep_scheme) : "none");
    json_object_set_new(study, "fit", json_string(c->ols ? "ols" : "wls")); /* --fit, --drop-coarse */
    json_object_set_new(study, "drop_coarse", json_integer(c->drop_coarse));
    if (c->kind == SLPI_CONV_WEAK) /* the functional: --phi's names */
        json_object_set_new(study, "phi", json_string(slpi_conv_phi_name(c)));
    json_t *doc = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I}", "slpi_converge", 1, "provenance",
                            object_of(NULL), "problem", object_of(c->base), "study", study, "levels", levels, "slopes",
                            slopes, "paths", (json_int_t)r->paths, "solver_iterations", (json_int_t)r->iters,
                            "clipped_increments", (json_int_t)r->clipped);
    if (c->indep)
        json_object_set_new(doc, "reference_gap", json_pack("{s:f, s:f}", "gap", r->refgap, "se", r->refgap_se));
    json_object_set_new(doc, "failed_paths", json_integer(r->failed));
    if (r->failed > 0) { /* docs/noise.md#failed-paths */
        const slpi_conv_failure *ff = &r->first_failure;
        json_t *per = json_array();
        for (int i = 0; i < r->nlev + 1 + (c->indep != 0); i++)
            json_array_append_new(per,
                                  json_pack("{s:i, s:b, s:I}", "level", i < r->nlev ? r->level[i] : c->L, "independent",
                                            i == r->nlev + 1, "failed", (json_int_t)r->failed_at[i]));
        json_object_set_new(doc, "failed_per_level", per);
        /* JSON has no NaN or infinity: a residual that is not finite is null, phi's value
         * (never finite here) its printf text */
        char value[32];
        snprintf(value, sizeof value, "%g", ff->value);
        json_t *first = ff->functional
            ? json_pack("{s:I, s:i, s:f, s:I, s:s, s:s, s:s}", "path", (json_int_t)ff->path, "level", ff->level, "h",
                        ff->h, "step", (json_int_t)ff->step, "status", "functional not finite", "functional",
                        slpi_conv_phi_name(c), "value", value)
            : json_pack("{s:I, s:i, s:f, s:I, s:s, s:i, s:o}", "path", (json_int_t)ff->path, "level", ff->level, "h",
                        ff->h, "step", (json_int_t)ff->step, "status", slpi_step_status_name(ff->status), "iterations",
                        ff->iterations, "residual", isfinite(ff->residual) ? json_real(ff->residual) : json_null());
        json_object_set_new(doc, "first_failure", first);
    }
    int bad = !doc || json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 || fputc('\n', f) == EOF;
    json_decref(doc);
    return bad ? SLPI_EINPUT : SLPI_OK;
}
