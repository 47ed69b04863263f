/* run.c — the run driver shared by every arithmetic path (`slpi run`, `slpi run --ref`):
 * canonical noise in, one step at a time, trajectory rows streamed out, a summary at
 * the end (text, and JSON through Jansson). The path (fast doubles, ref balls) is
 * reached only through slpi_path_ops, so core does not depend on fast/ or ref/ (their
 * adapters are in oracle/path-fast.c and oracle/path-ref.c).
 *
 * Failure policy (DESIGN §6, SPEC §3.0): a step that fails (not converged under policy
 * FAIL, diverged, UNABLE, invalid) stops the run with its step index and residual or
 * radius, exit 3, and no success summary. Output rows are flushed as they are written,
 * so a killed run leaves a valid prefix of whole lines. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slpi.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(double start, long n, long total, int *shown)
{
    double el = now_seconds() - start;
    if (el < 2.0 || !isatty(2)) return;
    int width = 40, done = (int)((double)width * (double)n / (double)total);
    fprintf(stderr, "\r[%.*s%*s] %3d%% step %ld/%ld %.0fs", done, "########################################",
            width - done, "", (int)(100.0 * (double)n / (double)total), n, total, el);
    *shown = 1;
}

static void record_diagnostics(const slpi_path_ops *ops, void *ctx, slpi_run_result *res)
{
    ops->diag_values(ctx, res->diag_final, res->ndiag);
    for (int i = 0; i < res->ndiag; i++) {
        double d = fabs(res->diag_final[i] - res->diag_first[i]);
        if (d > res->diag_maxchange[i] || isnan(d)) res->diag_maxchange[i] = d;
    }
}

static void print_summary(const slpi_problem *p, const slpi_path_ops *ops, void *ctx,
                          const slpi_run_result *res, FILE *f)
{
    fprintf(f, "%s: %s on %s (%s path): %ld steps of h = %.17g, T = %.17g, %.3f s\n",
            p->preset[0] ? p->preset : "run", slpi_scheme_name(p->scheme), slpi_system_name(p->system), ops->name,
            res->steps_done, p->h, (double)res->steps_done * p->h, res->seconds);
    fprintf(f, "  solver: mean %.2f iterations, max %d, stagnated %ld, capped %ld; clipped increments %ld\n",
            res->mean_iters, res->max_iters, res->stagnated, res->capped, res->clipped);
    if (res->max_prec)
        fprintf(f, "  certified: max radius %.3g, precision up to %ld bits\n", res->max_radius, res->max_prec);
    fprintf(f, "  %-22s %24s %24s %12s\n", "diagnostic", "initial", "final", "max |change|");
    for (int i = 0; i < res->ndiag; i++)
        fprintf(f, "  %-22s %24.17g %24.17g %12.3g\n", res->diag_name[i], res->diag_first[i], res->diag_final[i],
                res->diag_maxchange[i]);
    ops->summary(ctx, f);
}

int slpi_run(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
             slpi_run_result *res, slpi_error *err)
{
    memset(res, 0, sizeof *res);
    res->failed_step = -1;
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    void *ctx = ops->create(p, err);
    if (!ctx) return err ? err->code : SLPI_EINPUT;

    slpi_noise_source *noise = NULL;
    double *dW = calloc((size_t)(M > 0 ? M : 1), sizeof(double));
    double *x0 = malloc((size_t)dim * sizeof(double));
    char **cols = NULL;
    int rc = SLPI_OK, ncols = 0;

    int given = slpi_problem_explicit_x0(p, x0, err);
    if (given < 0) { rc = SLPI_EINPUT; goto done; }
    if ((rc = ops->set_state(ctx, given ? x0 : NULL, err)) != SLPI_OK) goto done;
    if ((rc = slpi_noise_source_open(&noise, p, err)) != SLPI_OK) goto done;

    res->ndiag = ops->diag_names(ctx, res->diag_name, SLPI_MAX_DIAG);
    ops->diag_values(ctx, res->diag_first, res->ndiag);
    memcpy(res->diag_final, res->diag_first, (size_t)res->ndiag * sizeof(double));
    ncols = dim + res->ndiag + 2;
    cols = malloc((size_t)ncols * sizeof(char *));
    for (int i = 0; i < dim; i++) {
        char buf[64];
        slpi_problem_state_name(p, i, buf, sizeof buf);
        cols[i] = strdup(buf);
    }
    for (int i = 0; i < res->ndiag; i++) cols[dim + i] = strdup(res->diag_name[i]);
    cols[ncols - 2] = strdup("iters");
    cols[ncols - 1] = strdup("residual");
    if (out) {
        slpi_traj_write_header(out, p, ops->name, ncols, (const char *const *)cols);
        ops->write_row(ctx, out, 0, 0.0, NULL, hex);
        fflush(out);
    }

    double start = now_seconds();
    int shown = 0;
    long total_iters = 0;
    for (long n = 0; n < p->steps; n++) {
        if ((rc = slpi_noise_source_step(noise, n, dW, err)) != SLPI_OK) break;
        slpi_step_info info = { 0 };
        slpi_step_status st = ops->step(ctx, dW, &info);
        if (slpi_step_failed(st)) {
            res->failed_step = n;
            rc = slpi_error_set(err, SLPI_ENUMERIC,
                                "step %ld (t = %.17g): %s after %d iterations, residual %.3g, radius %.3g, precision %ld bits",
                                n, (double)(n + 1) * p->h, slpi_step_status_name(st), info.iterations,
                                info.residual, info.radius, info.prec);
            break;
        }
        res->steps_done = n + 1;
        total_iters += info.iterations;
        if (info.iterations > res->max_iters) res->max_iters = info.iterations;
        if (st == SLPI_STEP_STAGNATED) res->stagnated++;
        if (st == SLPI_STEP_CAPPED) res->capped++;
        if (info.radius > res->max_radius) res->max_radius = info.radius;
        if (info.prec > res->max_prec) res->max_prec = info.prec;
        if ((n + 1) % p->output_every == 0 || n + 1 == p->steps) {
            record_diagnostics(ops, ctx, res);
            if (out) {
                ops->write_row(ctx, out, n + 1, (double)(n + 1) * p->h, &info, hex);
                fflush(out);
            }
        }
        if ((n & 255) == 0) progress(start, n + 1, p->steps, &shown);
    }
    if (shown) fputc('\n', stderr);
    res->mean_iters = res->steps_done ? (double)total_iters / (double)res->steps_done : 0.0;
    res->clipped = slpi_noise_source_clipped(noise);
    res->seconds = now_seconds() - start;
    if (rc == SLPI_OK && summary) print_summary(p, ops, ctx, res, summary);
done:
    if (cols) for (int i = 0; i < ncols; i++) free(cols[i]);
    free(cols);
    free(x0);
    free(dW);
    if (noise) slpi_noise_source_close(noise);
    ops->destroy(ctx);
    return rc;
}

int slpi_run_write_json(const slpi_problem *p, const char *path_name, const slpi_run_result *res, int rc,
                        const char *message, const char *file, slpi_error *err)
{
    json_t *diag = json_array();
    for (int i = 0; i < res->ndiag; i++)
        json_array_append_new(diag, json_pack("{s:s, s:f, s:f, s:f}", "name", res->diag_name[i], "initial",
                                              res->diag_first[i], "final", res->diag_final[i], "max_change",
                                              res->diag_maxchange[i]));
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:I, s:I, s:I, s:f, s:i, s:I, s:I, s:I, s:f, s:I, s:f, s:o}",
                          "slpi_version", SLPI_VERSION, "system", slpi_system_name(p->system), "scheme",
                          slpi_scheme_name(p->scheme), "path", path_name, "exit_code", rc, "message", message,
                          "h", p->h, "steps", (json_int_t)p->steps, "steps_done", (json_int_t)res->steps_done,
                          "failed_step", (json_int_t)res->failed_step, "mean_iterations", res->mean_iters,
                          "max_iterations", res->max_iters, "stagnated", (json_int_t)res->stagnated, "capped",
                          (json_int_t)res->capped, "clipped", (json_int_t)res->clipped, "max_radius",
                          res->max_radius, "max_precision", (json_int_t)res->max_prec, "seconds", res->seconds,
                          "diagnostics", diag);
    if (p->preset[0]) json_object_set_new(j, "preset", json_string(p->preset));
    json_object_set_new(j, "seed", json_integer((json_int_t)p->seed));
    json_object_set_new(j, "noise_path", json_integer((json_int_t)p->path));
    int bad = json_dump_file(j, file, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (bad) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write the JSON summary", file);
    return SLPI_OK;
}
