/* api-converge.c — the handle API's convergence study (slpi-tools.h, slpi_api_converge and
 * slpi_api_converge_json; the Python package's slpi.converge): the engine of
 * studies/converge.c on a problem set up by key names, its per-level errors and slope
 * returned in the caller's arrays, or the whole study written as `slpi converge --json`
 * writes it. The same validation as `slpi converge` (check_cfg), the same numbers as its
 * report. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "api/api.h"
#include "studies/studies.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/tools.h"
#include "core/noise.h"

/* The study's options as `slpi converge` takes them (its --kind, --indep and --phi names). */
static int api_conv_cfg(slpi_conv_cfg *c, slpi_problem *q, const slpi_problem *p, const char *kind, int kmin, int kmax,
                        int ref, long paths, uint64_t path0, int batches, int boot, const char *indep, const char *phi,
                        int exact, const char *fit, int drop_coarse, const char *checkpoint, int checkpoint_every,
                        const char *resume, int threads, slpi_error *err)
{
    slpi_conv_init(c, q); /* q: a copy of p, the study's problem with its own level (below), outlives it */
    int rc = slpi_problem_many_paths(p, 0, "converge", "path0", err);
    if (rc != SLPI_OK) return rc;
    if (!kind || !strcmp(kind, "strong"))
        c->kind = SLPI_CONV_STRONG;
    else if (!strcmp(kind, "sup"))
        c->kind = SLPI_CONV_SUP;
    else if (!strcmp(kind, "weak"))
        c->kind = SLPI_CONV_WEAK;
    else
        rc = slpi_error_set(err, SLPI_EINPUT, "converge: kind '%s': strong | sup | weak", kind);
    if (rc == SLPI_OK && indep) {
        c->indep = 1;
        if (slpi_scheme_from_name(indep, &c->indep_scheme) != SLPI_OK)
            rc = slpi_error_set(err, SLPI_EINPUT, "converge: indep '%s': unknown scheme", indep);
    }
    if (rc == SLPI_OK && phi) {
        slpi_conv_phi_set(c, phi); /* a name, or an expression parsed when the study starts */
    }
    if (rc == SLPI_OK && fit && strcmp(fit, "wls") && strcmp(fit, "ols"))
        rc = slpi_error_set(err, SLPI_EINPUT, "converge: fit '%s': wls | ols", fit);
    if (rc == SLPI_OK && (drop_coarse < 0 || drop_coarse > 30)) /* --drop-coarse's range */
        rc = slpi_error_set(err, SLPI_EINPUT, "converge: drop_coarse=%d: need 0..30", drop_coarse);
    if (rc == SLPI_OK && (checkpoint_every < 0 || checkpoint_every > 65536)) /* --checkpoint-every's range */
        rc = slpi_error_set(err, SLPI_EINPUT, "converge: checkpoint_every=%d: need 1..65536 (0: 1)", checkpoint_every);
    if (rc == SLPI_OK && (batches < 0 || threads < 0 || exact < 0 || exact > 1))
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "converge: batches=%d, threads=%d, exact=%d: need batches >= 0 "
                            "(0: min(paths, 32)), threads >= 0 (0: the runtime's), exact 0 or 1",
                            batches, threads, exact);
    c->kmin = kmin;
    c->kmax = kmax;
    c->L = ref;
    c->paths = paths;
    c->path0 = path0;
    c->batches = batches;
    c->boot = boot;
    c->exact = exact;
    c->ols = fit && !strcmp(fit, "ols");
    c->drop_coarse = drop_coarse;
    c->checkpoint = checkpoint;
    c->checkpoint_every = checkpoint_every > 0 ? checkpoint_every : 1;
    c->resume = resume;
    c->exact_value = slpi_weak_exact_sde(slpi_view_system(p)->rb.amp, slpi_view_grid(p)->T);
    c->threads = threads;
    slpi_view_grid_edit(q)->level = -1;
    return rc;
}

int slpi_api_converge(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths, uint64_t path0,
                      int boot, const char *indep, double *h, double *e, double *se, double fit[3])
{
    slpi_error err = { 0, "" };
    slpi_conv_cfg c;
    slpi_problem *q = slpi_problem_dup(p);
    slpi_conv_result r;
    int rc = !q ? slpi_error_set(&err, SLPI_EINPUT, "converge: out of memory")
                : api_conv_cfg(&c, q, p, kind, kmin, kmax, ref, paths, path0, 0, boot, indep, NULL, 0, NULL, 0, NULL, 0,
                               NULL, 0, &err);
    if (rc == SLPI_OK) rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    slpi_problem_free(q);
    int col = rc == SLPI_OK && c.indep ? SLPI_CONV_INDEP : SLPI_CONV_SELF;
    for (int i = 0; rc == SLPI_OK && i < r.nlev; i++) {
        h[i] = r.h[i];
        e[i] = r.cell[col][i].e;
        se[i] = r.cell[col][i].se;
    }
    if (rc == SLPI_OK) {
        fit[0] = r.fit[col].slope;
        fit[1] = r.fit[col].lo;
        fit[2] = r.fit[col].hi;
    }
    return slpi_api_record(&err, rc);
}

/* The study of slpi_api_converge_json, the functional phi_fn when it is not NULL. */
static int converge_json(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                         uint64_t path0, int batches, int boot, const char *indep, const char *phi, int exact,
                         const char *fit, int drop_coarse, const char *checkpoint, int checkpoint_every,
                         const char *resume, int threads, slpi_conv_phi_fn phi_fn, void *phi_data, const char *json)
{
    slpi_error err = { 0, "" };
    slpi_conv_cfg c;
    slpi_problem *q = slpi_problem_dup(p);
    slpi_conv_result r;
    int rc = !q ? slpi_error_set(&err, SLPI_EINPUT, "converge: out of memory")
                : api_conv_cfg(&c, q, p, kind, kmin, kmax, ref, paths, path0, batches, boot, indep, phi, exact, fit,
                               drop_coarse, checkpoint, checkpoint_every, resume, threads, &err);
    if (rc == SLPI_OK && phi_fn) {
        c.phi = SLPI_PHI_FN;
        c.phi_fn = phi_fn;
        c.phi_data = phi_data;
    }
    if (rc == SLPI_OK) rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    FILE *f = rc == SLPI_OK ? fopen(json, "w") : NULL;
    if (rc == SLPI_OK && !f) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: cannot write", json);
    if (f) {
        if (slpi_conv_write_json(&c, &r, f) != SLPI_OK)
            rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
        if (fclose(f) != 0 && rc == SLPI_OK) rc = slpi_error_set(&err, SLPI_EINPUT, "json=%s: write error", json);
    }
    slpi_problem_free(q);
    return slpi_api_record(&err, rc);
}

int slpi_api_converge_json(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                           uint64_t path0, int batches, int boot, const char *indep, const char *phi, int exact,
                           const char *fit, int drop_coarse, const char *checkpoint, int checkpoint_every,
                           const char *resume, int threads, const char *json)
{
    return converge_json(p, kind, kmin, kmax, ref, paths, path0, batches, boot, indep, phi, exact, fit, drop_coarse,
                         checkpoint, checkpoint_every, resume, threads, NULL, NULL, json);
}

int slpi_api_converge_json_fn(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                              uint64_t path0, int batches, int boot, const char *indep,
                              int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                              const char *fit, int drop_coarse, int threads, const char *json)
{
    if (!phi_fn) {
        slpi_error err = { 0, "" };
        return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "converge: phi_fn: NULL (give a function)"));
    }
    return converge_json(p, kind, kmin, kmax, ref, paths, path0, batches, boot, indep, NULL, 0, fit, drop_coarse, NULL,
                         0, NULL, threads, phi_fn, phi_data, json);
}
