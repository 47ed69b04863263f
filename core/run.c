/* run.c — the run driver shared by every arithmetic path (`slpi run`, `slpi run --ref`):
 * canonical noise in, one step at a time, trajectory rows streamed out, a summary at
 * the end (text, and JSON through Jansson). The path (fast doubles, ref balls) is
 * reached only through slpi_path_ops, so core does not depend on fast/ or ref/ (their
 * adapters are fast/path.c and ref/path.c).
 *
 * Failure policy (docs/design.md#command, docs/schemes.md#solver): a step that fails (not converged under policy
 * FAIL, diverged, UNABLE, invalid) stops the run with its step index and residual or
 * radius, exit 3, and no success summary. Each output row is formatted in memory and
 * handed to the kernel in one write(2), so a run ended by SIGTERM (handled) leaves a
 * valid prefix of whole lines; SIGKILL leaves a valid prefix whose last line may be cut,
 * since Linux stops a write(2) between two pages once a fatal signal is pending (so does
 * a file system that runs out of space). The trajectory reader reports a cut line as
 * truncated, and --resume cuts the output back to its checkpoint.
 *
 * Checkpoints and resuming: core/run-ckpt.c. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "core/problem-struct.h"
#include "core/checkpoint.h"
#include "core/run-ckpt.h"
#include "core/digest.h"
#include "core/clock.h"
#include "core/rows.h"
#include "core/steps.h"
#include "core/noise.h"
#include "slpi/noise.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "slpi/trajectory.h"
#include "slpi/output.h"
#include "slpi/plan.h"
#include "slpi/run.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/callback.h"
#include "slpi/problem-finish.h"
#include "core/progress.h"
#include "core/command.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/plan.h"

static void record_diagnostics(const slpi_path_ops *ops, void *ctx, slpi_run_result *res)
{
    ops->diag_values(ctx, res->diag_final, res->ndiag);
    for (int i = 0; i < res->ndiag; i++) {
        double d = fabs(res->diag_final[i] - res->diag_first[i]);
        if (d > res->diag_maxchange[i] || isnan(d)) res->diag_maxchange[i] = d;
    }
}

/* Solver counters that a path also reports as diagnostic columns (fast/): they go in
 * the summary's solver line, not in the table of diagnostics. */
static int is_counter(const char *name)
{
    static const char *const counters[] = { "mean_iters", "max_iters", "stagnated", "capped", "failed" };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        if (strcmp(name, counters[i]) == 0) return 1;
    return 0;
}

static void print_summary(const slpi_problem *p, const slpi_path_ops *ops, void *ctx, const slpi_run_result *res,
                          FILE *f)
{
    fprintf(f, "%s: %s on %s (%s path): %ld steps of h = %.17g, T = %.17g, %.3f s\n",
            p->sys.preset[0] ? p->sys.preset : "run", slpi_scheme_name(p->sch.scheme), slpi_system_name(p->sys.system),
            ops->name, res->steps_done, p->grid.h, (double)res->steps_done * p->grid.h, res->seconds);
    if (res->max_prec) /* the certified path: its solver work and its enclosures */
        fprintf(f,
                "  certified: solver mean %.2f iterations (midpoint iterations and enclosure tests, every "
                "precision tried), max %d; max radius %.3g, precision up to %ld bits, raised above %ld bits on %ld "
                "of %ld steps; clipped increments %ld\n",
                res->mean_iters, res->max_iters, res->max_radius, res->max_prec, p->cert.prec, res->prec_raised,
                res->steps_done, res->clipped);
    else
        fprintf(f, "  solver: mean %.2f iterations, max %d, stagnated %ld, capped %ld; clipped increments %ld\n",
                res->mean_iters, res->max_iters, res->stagnated, res->capped, res->clipped);
    fprintf(f, "  %-22s %24s %24s %12s\n", "diagnostic", "initial", "final", "max |change|");
    for (int i = 0; i < res->ndiag; i++)
        if (!is_counter(res->diag_name[i]))
            fprintf(f, "  %-22s %24.17g %24.17g %12.3g\n", res->diag_name[i], res->diag_first[i], res->diag_final[i],
                    res->diag_maxchange[i]);
    ops->summary(ctx, f);
}

double slpi_run_output_bytes(const slpi_problem *p, int ball)
{
    /* a row: step, t, the state, about 16 diagnostics and counters, iterations, residual;
     * a double as %.17g is at most 24 characters and a tab, a ball about 64 */
    double rows = (double)(p->grid.steps / p->grid.output_every) + 2.0;
    if (p->grid.save_at[0]) { /* at most one row per time, and the initial one */
        rows = 2.0;
        for (const char *c = p->grid.save_at; *c; c++) rows += *c == ',';
    }
    double cols = 20.0 + (double)slpi_problem_state_dim(p);
    return rows * cols * (ball ? 64.0 : 25.0);
}

static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* One row, formatted in memory and written with one write(2) (see the header). */
static int emit_row(const slpi_path_ops *ops, void *ctx, FILE *out, long step, double t, const slpi_step_info *info,
                    int hex, slpi_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return slpi_error_set(err, SLPI_EINPUT, "output: out of memory for a row");
    ops->write_row(ctx, m, step, t, info, hex);
    fclose(m);
    int bad = fflush(out) != 0 || write_all(fileno(out), buf, len) != 0;
    free(buf);
    return bad ? slpi_error_set(err, SLPI_EINPUT, "output: write error at step %ld: %s", step, strerror(errno))
               : SLPI_OK;
}

int slpi_run(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary, slpi_run_result *res,
             slpi_error *err)
{
    return slpi_run_checkpointed(p, ops, out, hex, summary, NULL, res, err);
}

/* The trajectory's columns: the state's coordinates, the path's diagnostics, iters and
 * residual; *cols is freed by the caller, also after a failure. */
static int column_names(char ***cols, int *ncols, const slpi_problem *p, const slpi_run_result *res, int dim,
                        slpi_error *err)
{
    *ncols = dim + res->ndiag + 2;
    char **c = *cols = calloc((size_t)*ncols, sizeof(char *));
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "run: out of memory (%d columns)", *ncols);
    for (int i = 0; i < dim; i++) {
        char buf[64];
        slpi_problem_state_name(p, i, buf, sizeof buf);
        c[i] = strdup(buf);
    }
    for (int i = 0; i < res->ndiag; i++) c[dim + i] = strdup(res->diag_name[i]);
    c[*ncols - 2] = strdup("iters");
    c[*ncols - 1] = strdup("residual");
    for (int i = 0; i < *ncols; i++)
        if (!c[i]) return slpi_error_set(err, SLPI_EINPUT, "run: out of memory (column names)");
    return SLPI_OK;
}

/* The error of step n, failed with status st: on the certified path its precision and
 * radius, on both its iterations, residual and the path's reason. */
static int step_failed(slpi_error *err, const slpi_path_ops *ops, void *ctx, const slpi_problem *p, long n,
                       slpi_step_status st, const slpi_step_info *info)
{
    const char *why = ops->why != NULL ? ops->why(ctx) : "";
    if (info->prec > 0) /* certified path: the radius, precision and reason tell why */
        return slpi_error_set(
            err, SLPI_ENUMERIC,
            "step %ld (t = %.17g): %s at precision %ld bits, radius %.3g, residual %.3g, %d iterations%s%s%s", n,
            (double)(n + 1) * p->grid.h, slpi_step_status_name(st), info->prec, info->radius, info->residual,
            info->iterations, why[0] ? " (" : "", why, why[0] ? ")" : "");
    return slpi_error_set(err, SLPI_ENUMERIC, "step %ld (t = %.17g): %s after %d iterations, residual %.3g%s%s%s", n,
                          (double)(n + 1) * p->grid.h, slpi_step_status_name(st), info->iterations, info->residual,
                          why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* The steps' tally so far, into the run's result. */
static void take_tally(slpi_run_result *res, long *total_iters, const slpi_step_tally *t)
{
    res->steps_done = t->steps;
    *total_iters = t->iterations;
    res->max_iters = t->max_iterations;
    res->stagnated = t->stagnated;
    res->capped = t->capped;
    res->max_radius = t->max_radius;
    res->max_prec = t->max_prec;
    res->prec_raised = t->prec_raised;
}

static int run_checkpointed(const slpi_plan *plan, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                            const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err)
{
    const slpi_problem *p = slpi_plan_problem(plan);
    memset(res, 0, sizeof *res);
    res->failed_step = -1;
    int rc = slpi_run_ckpt_check(ck, ops, out, err);
    if (rc != SLPI_OK) return rc;
    int dim = slpi_problem_state_dim(p);
    /* the set-up has its own line (a certified su(256) path builds tables for minutes) */
    char what[48];
    snprintf(what, sizeof what, "run (%s path), set-up", ops->name);
    slpi_checkpoint rk = { 0 }; /* the checkpoint resumed: read before the path is made */
    if (ck && ck->resume && (rc = slpi_run_ckpt_read(ck, &rk, err)) != SLPI_OK) return rc;
    slpi_progress *pg = slpi_progress_begin(what, 1);
    slpi_progress_current(pg);
    void *ctx = ops->create(plan, err);
    if (!ctx) {
        slpi_progress_current(NULL);
        slpi_progress_end(pg);
        slpi_checkpoint_free(&rk);
        return err ? err->code : SLPI_EINPUT;
    }

    slpi_steps steps = { 0 };
    slpi_rows rows = { 0 };
    double *x0 = malloc((size_t)dim * sizeof(double));
    char **cols = NULL;
    int ncols = 0;
    slpi_run_ckpt_state cs = { ck && (ck->checkpoint || ck->resume) ? ck : NULL, NULL, SLPI_FNV_INIT, 0, &steps };
    long total_iters = 0, first = 0, clip_base = 0; /* clipped increments before `first` */

    if (!x0) {
        rc = slpi_error_set(err, SLPI_EINPUT, "run: out of memory (state of %d doubles)", dim);
        goto done;
    }
    int given = slpi_problem_explicit_x0(p, x0, err);
    if (given < 0) {
        rc = SLPI_EINPUT;
        goto done;
    }
    if ((rc = ops->set_state(ctx, given ? x0 : NULL, err)) != SLPI_OK) goto done;
    if ((rc = slpi_steps_open(&steps, p, ops->step, ctx, 1, err)) != SLPI_OK) goto done;
    steps.seek = ops->seek; /* step n at its time t0 + (n + c) h, from a checkpoint too */
    if ((rc = slpi_rows_open(&rows, p, err)) != SLPI_OK) goto done;

    res->ndiag = ops->diag_names(ctx, res->diag_name, SLPI_MAX_DIAG);
    ops->diag_values(ctx, res->diag_first, res->ndiag);
    memcpy(res->diag_final, res->diag_first, (size_t)res->ndiag * sizeof(double));
    if ((rc = column_names(&cols, &ncols, p, res, dim, err)) != SLPI_OK) goto done;
    if (cs.ck && !(cs.problem = slpi_run_ckpt_problem_text(p))) {
        rc = slpi_error_set(err, SLPI_EINPUT, "checkpoint: out of memory");
        goto done;
    }
    if (cs.ck && cs.ck->resume) {
        if ((rc = slpi_run_ckpt_resume(&cs, &rk, p, &rows, ops, ctx, out, hex, res, &total_iters, err)) != SLPI_OK)
            goto done;
        first = res->steps_done;
        clip_base = res->clipped;
        steps.tally = (slpi_step_tally){ .steps = res->steps_done,
                                         .iterations = total_iters,
                                         .max_iterations = res->max_iters,
                                         .stagnated = res->stagnated,
                                         .capped = res->capped,
                                         .max_prec = res->max_prec,
                                         .prec_raised = res->prec_raised,
                                         .max_radius = res->max_radius };
    } else if (out) {
        slpi_traj_write_header(out, p, ops->name, ncols, (const char *const *)cols);
        if ((rc = emit_row(ops, ctx, out, 0, 0.0, NULL, hex, err)) != SLPI_OK) goto done;
    }

    double start = slpi_clock_seconds(CLOCK_MONOTONIC), cpu_start = slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    slpi_progress_end(pg);
    snprintf(what, sizeof what, "run (%s path), steps", ops->name);
    slpi_progress_current(pg = slpi_progress_begin(what, p->grid.steps - first));
    if (ops->watch && pg) ops->watch(ctx, pg);
    for (long n = first; n < p->grid.steps; n++) {
        slpi_step_status st;
        if ((rc = slpi_steps_take(&steps, n, NULL, &st, err)) != SLPI_OK) break;
        const slpi_step_info info = steps.info;
        if (slpi_step_failed(st)) {
            res->failed_step = n;
            rc = step_failed(err, ops, ctx, p, n, st, &info);
            break;
        }
        take_tally(res, &total_iters, &steps.tally);
        if (slpi_rows_take(&rows, n + 1)) {
            record_diagnostics(ops, ctx, res);
            if (out && (rc = emit_row(ops, ctx, out, n + 1, (double)(n + 1) * p->grid.h, &info, hex, err)) != SLPI_OK)
                break;
        }
        if (cs.ck && cs.ck->checkpoint && (n + 1) % cs.ck->every == 0 && n + 1 < p->grid.steps) {
            res->clipped = clip_base + slpi_steps_clipped(&steps);
            if ((rc = slpi_run_ckpt_take(&cs, ops, ctx, out, hex, dim, res, total_iters, err)) != SLPI_OK) break;
        }
        slpi_progress_set(pg, n + 1 - first);
    }
    if (ops->watch && pg) ops->watch(ctx, NULL);
    res->mean_iters = res->steps_done ? (double)total_iters / (double)res->steps_done : 0.0;
    res->clipped = clip_base + slpi_steps_clipped(&steps);
    res->seconds = slpi_clock_seconds(CLOCK_MONOTONIC) - start;
    res->cpu_seconds = slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    if (rc == SLPI_OK && summary) print_summary(p, ops, ctx, res, summary);
    /* interrupted (SLPI_EINTR): a checkpoint at the last step taken, so no step is lost */
    if (rc == SLPI_EINTR && cs.ck && cs.ck->checkpoint && res->steps_done > first) {
        slpi_error cerr = { 0, "" };
        if (slpi_run_ckpt_take(&cs, ops, ctx, out, hex, dim, res, total_iters, &cerr) != SLPI_OK) {
            *err = cerr;
            rc = SLPI_EINPUT;
        }
    }
done:
    slpi_progress_current(NULL);
    slpi_progress_end(pg);
    if (cols)
        for (int i = 0; i < ncols; i++) free(cols[i]);
    free(cols);
    free(cs.problem);
    free(x0);
    slpi_steps_close(&steps);
    slpi_rows_close(&rows);
    ops->destroy(ctx);
    slpi_checkpoint_free(&rk);
    return rc;
}

/* The whole run rounds to nearest, whatever the caller's direction (core/fpmode.h): its
 * rows, header and summary are the same text for every caller. */
int slpi_run_plan(const slpi_plan *plan, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                  const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err)
{
    slpi_fpmode r = slpi_round_nearest();
    int rc = run_checkpointed(plan, ops, out, hex, summary, ck, res, err);
    slpi_round_restore(r);
    return rc;
}

/* The plan of p compiled here (its model parsed once), under the same rounding as the run;
 * the checks in the order the path's own create made them before it took a plan: the
 * checkpoint arguments, then p finished, then valid. */
int slpi_run_checkpointed(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                          const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err)
{
    slpi_fpmode r = slpi_round_nearest();
    slpi_plan *plan = NULL;
    memset(res, 0, sizeof *res);
    res->failed_step = -1;
    int rc = slpi_run_ckpt_check(ck, ops, out, err);
    if (rc == SLPI_OK &&
        (slpi_problem_check_finished(p, ops->name, err) != SLPI_OK || slpi_plan_compile(&plan, p, err) != SLPI_OK))
        rc = SLPI_EINPUT;
    if (rc == SLPI_OK) rc = run_checkpointed(plan, ops, out, hex, summary, ck, res, err);
    slpi_plan_unref(plan);
    slpi_round_restore(r);
    return rc;
}

int slpi_run_write_json(const slpi_problem *p, const char *path_name, const slpi_run_result *res, int rc,
                        const char *message, const char *file, slpi_error *err)
{
    json_t *diag = json_array();
    for (int i = 0; i < res->ndiag; i++)
        json_array_append_new(diag,
                              json_pack("{s:s, s:f, s:f, s:f}", "name", res->diag_name[i], "initial",
                                        res->diag_first[i], "final", res->diag_final[i], "max_change",
                                        res->diag_maxchange[i]));
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:I, s:I, s:I, s:f, s:i, s:I, s:I, s:I, s:f, s:I, s:f, s:f, s:o}",
        "slpi_version", SLPI_VERSION, "system", slpi_system_name(p->sys.system), "scheme",
        slpi_scheme_name(p->sch.scheme), "path", path_name, "exit_code", rc, "message", message, "h", p->grid.h,
        "steps", (json_int_t)p->grid.steps, "steps_done", (json_int_t)res->steps_done, "failed_step",
        (json_int_t)res->failed_step, "mean_iterations", res->mean_iters, "max_iterations", res->max_iters, "stagnated",
        (json_int_t)res->stagnated, "capped", (json_int_t)res->capped, "clipped", (json_int_t)res->clipped,
        "max_radius", res->max_radius, "max_precision", (json_int_t)res->max_prec, "seconds", res->seconds,
        "cpu_seconds", res->cpu_seconds, "diagnostics", diag);
    if (p->sys.preset[0]) json_object_set_new(j, "preset", json_string(p->sys.preset));
    char cb[256], mark[300];
    if (slpi_problem_callbacks(p, cb, sizeof cb)) { /* as the header's uncertified= (docs/models.md#callbacks) */
        snprintf(mark, sizeof mark, "callback %s", cb);
        json_object_set_new(j, "uncertified", json_string(mark));
    }
    json_object_set_new(j, "seed", json_integer((json_int_t)p->noise.seed));
    json_object_set_new(j, "noise_path", json_integer((json_int_t)p->noise.path));
    slpi_output *o;
    int wrc = slpi_output_open(&o, file, SLPI_OUTPUT_REPLACE, err);
    if (wrc == SLPI_OK) {
        if (json_dumpf(j, slpi_output_file(o), JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0) {
            slpi_output_abort(o);
            wrc = slpi_error_set(err, SLPI_EINPUT, "%s: cannot write the JSON summary", file);
        } else {
            wrc = slpi_output_commit(o, err);
        }
    }
    json_decref(j);
    return wrc;
}
