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
 * Checkpoints (slpi_run_checkpointed; format in core/checkpoint.c): every `every`
 * steps, after the row of that step, the output is flushed and fsync'ed, the digest of
 * its new bytes is added to a running FNV-1a digest, and the path's exact state, the
 * counters and the output length are written atomically. Resuming checks that the
 * problem (its slpi_problem_write text), path, hex flag and the output's first
 * out_bytes bytes are those of the checkpoint and loads the state, and only then (a
 * refused resume leaves the output as it was) truncates the output there and
 * continues with the next step, so the finished output is byte-identical to an
 * uninterrupted run. Noise needs no state: step n's increments are a function of n.
 * An interrupted run (SLPI_EINTR, Ctrl-C) writes one more checkpoint at the last step it
 * took before it returns. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "core/problem-struct.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "core/clock.h"
#include "core/rows.h"
#include "core/steps.h"
#include "core/noise.h"
#include "slpi/noise.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
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

static void print_summary(const slpi_problem *p, const slpi_path_ops *ops, void *ctx,
                          const slpi_run_result *res, FILE *f)
{
    fprintf(f, "%s: %s on %s (%s path): %ld steps of h = %.17g, T = %.17g, %.3f s\n",
            p->preset[0] ? p->preset : "run", slpi_scheme_name(p->scheme), slpi_system_name(p->system), ops->name,
            res->steps_done, p->h, (double)res->steps_done * p->h, res->seconds);
    if (res->max_prec)   /* the certified path: its solver work and its enclosures */
        fprintf(f, "  certified: solver mean %.2f iterations (midpoint iterations and enclosure tests, every "
                "precision tried), max %d; max radius %.3g, precision up to %ld bits, raised above %ld bits on %ld "
                "of %ld steps; clipped increments %ld\n", res->mean_iters, res->max_iters, res->max_radius,
                res->max_prec, p->prec, res->prec_raised, res->steps_done, res->clipped);
    else
        fprintf(f, "  solver: mean %.2f iterations, max %d, stagnated %ld, capped %ld; clipped increments %ld\n",
                res->mean_iters, res->max_iters, res->stagnated, res->capped, res->clipped);
    fprintf(f, "  %-22s %24s %24s %12s\n", "diagnostic", "initial", "final", "max |change|");
    for (int i = 0; i < res->ndiag; i++)
        if (!is_counter(res->diag_name[i]))
            fprintf(f, "  %-22s %24.17g %24.17g %12.3g\n", res->diag_name[i], res->diag_first[i],
                    res->diag_final[i], res->diag_maxchange[i]);
    ops->summary(ctx, f);
}

double slpi_run_output_bytes(const slpi_problem *p, int ball)
{
    /* a row: step, t, the state, about 16 diagnostics and counters, iterations, residual;
     * a double as %.17g is at most 24 characters and a tab, a ball about 64 */
    double rows = (double)(p->steps / p->output_every) + 2.0;
    if (p->save_at[0]) {   /* at most one row per time, and the initial one */
        rows = 2.0;
        for (const char *c = p->save_at; *c; c++) rows += *c == ',';
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
static int emit_row(const slpi_path_ops *ops, void *ctx, FILE *out, long step, double t,
                    const slpi_step_info *info, int hex, slpi_error *err)
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

/* The problem as slpi_problem_write text (malloc'd). */
static char *problem_text(const slpi_problem *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    slpi_problem_write(p, m, "");
    fclose(m);
    return buf;
}

/* Continue the FNV-1a digest of the output over bytes [*upto, to). */
static int digest_output(int fd, uint64_t *digest, long *upto, long to)
{
    char buf[65536];
    while (*upto < to) {
        size_t want = (size_t)(to - *upto) < sizeof buf ? (size_t)(to - *upto) : sizeof buf;
        ssize_t got = pread(fd, buf, want, (off_t)*upto);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        *digest = slpi_fnv1a(*digest, buf, (size_t)got);
        *upto += got;
    }
    return 0;
}

/* The last line of the output's bytes [0, end) (which must end in '\n'), without its
 * newline, malloc'ed; NULL if there is none or it cannot be read. */
static char *last_line(int fd, long end)
{
    char c;
    if (end < 1 || pread(fd, &c, 1, (off_t)(end - 1)) != 1 || c != '\n') return NULL;
    long start = end - 1;
    char buf[4096];
    while (start > 0) {                   /* back to the previous newline, or the file's start */
        long from = start > (long)sizeof buf ? start - (long)sizeof buf : 0;
        ssize_t got = pread(fd, buf, (size_t)(start - from), (off_t)from);
        if (got != start - from) return NULL;
        long i = got;
        while (i > 0 && buf[i - 1] != '\n') i--;
        if (i > 0) { start = from + i; break; }
        start = from;
    }
    char *line = malloc((size_t)(end - start));
    if (!line) errno = ENOMEM;
    if (!line || pread(fd, line, (size_t)(end - 1 - start), (off_t)start) != end - 1 - start) {
        free(line);
        return NULL;
    }
    line[end - 1 - start] = 0;
    return line;
}

/* The kept prefix belongs to the checkpoint: its last row is the row of the checkpoint's
 * step (the last step <= it on the output grid), and (fast path, a row at that very
 * step) its state columns are the checkpoint's state. A checkpoint edited consistently
 * (its step, out_bytes, out_digest and end digest recomputed: FNV-1a is a checksum,
 * anyone can recompute it) would otherwise cut the output to another row and go on from
 * a state that is not that row's. */
static int prefix_matches(int fd, const slpi_checkpoint *c, const slpi_rows *rows, int dim)
{
    errno = 0;
    char *line = last_line(fd, c->out_bytes), *s = line, *e;
    if (!line && errno == ENOMEM) return -1;
    long want = slpi_rows_last(rows, c->step);
    int ok = line && line[0] != '#' && strtol(s, &e, 10) == want && *e == '\t';
    if (ok && want == c->step && !strcmp(c->arith, "fast") && c->ntokens >= dim) {
        s = strchr(e + 1, '\t');         /* past t: the state columns */
        for (int i = 0; ok && i < dim; i++) {
            double v = s ? slpi_parse_strtod(s + 1, &e) : 0, x = slpi_parse_strtod(c->x[i], NULL);
            ok = s && e != s + 1 && (v == x || (v != v && x != x));
            s = strchr(e, '\t');
        }
    }
    free(line);
    return ok;
}

/* The first line where the checkpoint's problem and this run's differ. */
static int problem_mismatch(const char *file, const char *want, const char *have, slpi_error *err)
{
    while (*want && *have) {
        size_t a = strcspn(want, "\n"), b = strcspn(have, "\n");
        if (a != b || memcmp(want, have, a) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s: the checkpoint is of another problem: it has %.*s, this run %.*s",
                                  file, (int)a, want, (int)b, have);
        want += a + (want[a] == '\n');
        have += b + (have[b] == '\n');
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: the checkpoint is of another problem (keys differ)", file);
}

typedef struct {
    const slpi_run_ckpt *ck;
    char *problem;        /* this run's problem text */
    uint64_t digest;      /* FNV-1a of output bytes [0, upto) */
    long upto;
    slpi_steps *steps; /* the run's steps: its noise source's OU state (docs/noise.md#ou) */
} ckpt_state;

/* The checkpoint's OU state into the run's noise source at its step: it must have one
 * exactly when the run has coloured noise. */
static int resume_ou(const ckpt_state *cs, const slpi_checkpoint *c, const char *file, slpi_error *err)
{
    slpi_noise_source *src = cs->steps->noise;
    int M = cs->steps->M;
    double *eta = M > 0 ? calloc((size_t)M, sizeof *eta) : NULL;
    if (M > 0 && !eta) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", file);
    int have = src ? slpi_noise_source_ou_state(src, 0, eta) : 0;
    free(eta);
    if (have != 0 && c->nou != M)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: holds no OU state of the %d noise components (an ou_eta line), "
                              "and the run has noise_tau (docs/noise.md#ou)",
                              file, M);
    if (have == 0 && c->nou != 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s: holds an OU state (ou_eta), and the run has white noise", file);
    if (have != 0 && slpi_noise_source_ou_set(src, c->step, c->ou_eta) != 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s: the OU state cannot be set at step %ld", file, c->step);
    return SLPI_OK;
}

/* Check a checkpoint against this run and restore the state, counters and output. */
static int resume(ckpt_state *cs, const slpi_problem *p, const slpi_rows *rows, const slpi_path_ops *ops, void *ctx,
                  FILE *out, int hex, slpi_run_result *res, long *total_iters, slpi_error *err)
{
    const char *file = cs->ck->resume, *oname = cs->ck->output ? cs->ck->output : "output";
    slpi_checkpoint c;
    int rc = slpi_checkpoint_read(file, &c, err);
    if (rc != SLPI_OK) return rc;
    int fd = fileno(out), dim = slpi_problem_state_dim(p), pm;
    struct stat st;
    if (strcmp(c.problem, cs->problem) != 0) {
        rc = problem_mismatch(file, c.problem, cs->problem, err);
    } else if (strcmp(c.arith, ops->name) != 0 || c.hex != hex || c.dim != dim || c.res.ndiag != res->ndiag) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: written by the %s path (hex %d, %d state doubles, %d diagnostics); "
                            "this run is %s (hex %d, %d, %d)", file, c.arith, c.hex, c.dim, c.res.ndiag, ops->name, hex,
                            dim, res->ndiag);
    } else if (c.step > p->steps) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: step %ld is beyond the run's %ld steps", file, c.step, p->steps);
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < c.out_bytes) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: shorter than the %ld bytes the checkpoint %s recorded", oname,
                            c.out_bytes, file);
    } else if (digest_output(fd, &cs->digest, &cs->upto, c.out_bytes) != 0 || cs->digest != c.out_digest) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: its first %ld bytes are not those the checkpoint %s recorded", oname,
                            c.out_bytes, file);
    } else if ((pm = prefix_matches(fd, &c, rows, dim)) <= 0) {
        rc = pm < 0 ? slpi_error_set(err, SLPI_EINPUT, "%s: out of memory reading its last row", oname)
                    : slpi_error_set(err, SLPI_EINPUT, "%s: its first %ld bytes do not end with the row of step %ld "
                                     "in the state the checkpoint %s holds (an edited checkpoint?): not cut", oname,
                                     c.out_bytes, slpi_rows_last(rows, c.step), file);
    } else if ((rc = resume_ou(cs, &c, file, err)) != SLPI_OK) {
    } else if ((errno = 0, ops->state_load(ctx, c.ntokens, c.x)) != SLPI_OK) {
        rc = errno == ENOMEM ? slpi_error_set(err, SLPI_EINPUT, "%s: out of memory restoring the path's state", file)
                             : slpi_error_set(err, SLPI_EINPUT, "%s: its %d state tokens are not a valid %s path state",
                                              file, c.ntokens, ops->name);
    } else if (ftruncate(fd, (off_t)c.out_bytes) != 0 || lseek(fd, (off_t)c.out_bytes, SEEK_SET) < 0) {
        /* last: the checkpoint is valid in every part before the output is touched */
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: cannot truncate to %ld bytes: %s", oname, c.out_bytes,
                            strerror(errno));
    }
    if (rc == SLPI_OK) {
        /* the checkpoint holds the values, this run the names: keep a copy of the names
         * (res->diag_name is an array inside *res, overwritten by the assignment) */
        const char *names[SLPI_MAX_DIAG];
        int nd = res->ndiag;
        memcpy(names, res->diag_name, (size_t)nd * sizeof names[0]);
        *res = c.res;       /* c.res.ndiag == nd: checked above */
        memcpy(res->diag_name, names, (size_t)nd * sizeof names[0]);
        *total_iters = c.total_iters;
    }
    slpi_checkpoint_free(&c);
    return rc;
}

static int take_checkpoint(ckpt_state *cs, const slpi_path_ops *ops, void *ctx, FILE *out, int hex, int dim,
                           const slpi_run_result *res, long total_iters, slpi_error *err)
{
    int fd = fileno(out);
    const char *oname = cs->ck->output ? cs->ck->output : "output";
    /* the checkpoint names the output: it must be in place before the checkpoint is */
    if (cs->ck->handle && slpi_output_publish(cs->ck->handle, err) != SLPI_OK) return SLPI_EINPUT;
    off_t end = fflush(out) == 0 ? lseek(fd, 0, SEEK_CUR) : -1;
    if (end < 0 || fsync(fd) != 0 || digest_output(fd, &cs->digest, &cs->upto, (long)end) != 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s: cannot flush or read back the output for a checkpoint: %s", oname,
                              strerror(errno));
    slpi_checkpoint c = { 0 };
    c.problem = cs->problem;
    snprintf(c.arith, sizeof c.arith, "%s", ops->name);
    c.hex = hex;
    c.dim = dim;
    c.step = res->steps_done;
    c.out_bytes = (long)end;
    c.out_digest = cs->digest;
    c.total_iters = total_iters;
    c.res = *res;
    const int M = cs->steps->M;
    if (cs->steps->noise && M > 0 && !(c.ou_eta = calloc((size_t)M, sizeof *c.ou_eta)))
        return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the OU state", cs->ck->checkpoint);
    c.nou = cs->steps->noise ? slpi_noise_source_ou_state(cs->steps->noise, c.step, c.ou_eta) : 0;
    if (c.nou < 0) {
        free(c.ou_eta);
        return slpi_error_set(err, SLPI_EINPUT, "%s: the noise does not hold its OU state at step %ld",
                              cs->ck->checkpoint, c.step);
    }
    c.ntokens = ops->state_save(ctx, &c.x);
    int rc = c.ntokens < 0
        ? slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the path's state", cs->ck->checkpoint)
        : slpi_checkpoint_write(cs->ck->checkpoint, &c, err);
    if (c.ntokens >= 0) slpi_checkpoint_tokens_free(c.x, c.ntokens);
    free(c.ou_eta);
    return rc;
}

static int check_ckpt_args(const slpi_run_ckpt *ck, const slpi_path_ops *ops, FILE *out, slpi_error *err)
{
    if (!ck || (!ck->checkpoint && !ck->resume)) return SLPI_OK;
    struct stat st;
    if (!ops->state_save || !ops->state_load)
        return slpi_error_set(err, SLPI_EINPUT, "the %s path cannot write checkpoints", ops->name);
    if (!out || fstat(fileno(out), &st) != 0 || !S_ISREG(st.st_mode))
        return slpi_error_set(err, SLPI_EINPUT, "checkpoints and resume need the output in a regular file (--output FILE)");
    if (ck->checkpoint && ck->every <= 0)
        return slpi_error_set(err, SLPI_EINPUT, "checkpoint-every=%ld: must be a positive number of steps", ck->every);
    return SLPI_OK;
}

int slpi_run(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
             slpi_run_result *res, slpi_error *err)
{
    return slpi_run_checkpointed(p, ops, out, hex, summary, NULL, res, err);
}

static int run_checkpointed(const slpi_plan *plan, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                            const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err)
{
    const slpi_problem *p = slpi_plan_problem(plan);
    memset(res, 0, sizeof *res);
    res->failed_step = -1;
    int rc = check_ckpt_args(ck, ops, out, err);
    if (rc != SLPI_OK) return rc;
    int dim = slpi_problem_state_dim(p);
    /* the set-up has its own line (a certified su(256) path builds tables for minutes) */
    char what[48];
    snprintf(what, sizeof what, "run (%s path), set-up", ops->name);
    slpi_progress *pg = slpi_progress_begin(what, 1);
    slpi_progress_current(pg);
    void *ctx = ops->create(plan, err);
    if (!ctx) {
        slpi_progress_current(NULL);
        slpi_progress_end(pg);
        return err ? err->code : SLPI_EINPUT;
    }

    slpi_steps steps = { 0 };
    slpi_rows rows = { 0 };
    double *x0 = malloc((size_t)dim * sizeof(double));
    char **cols = NULL;
    int ncols = 0;
    ckpt_state cs = { ck && (ck->checkpoint || ck->resume) ? ck : NULL, NULL, SLPI_FNV_INIT, 0, &steps };
    long total_iters = 0, first = 0, clip_base = 0;   /* clipped increments before `first` */

    if (!x0) {
        rc = slpi_error_set(err, SLPI_EINPUT, "run: out of memory (state of %d doubles)", dim);
        goto done;
    }
    int given = slpi_problem_explicit_x0(p, x0, err);
    if (given < 0) { rc = SLPI_EINPUT; goto done; }
    if ((rc = ops->set_state(ctx, given ? x0 : NULL, err)) != SLPI_OK) goto done;
    if ((rc = slpi_steps_open(&steps, p, ops->step, ctx, 1, err)) != SLPI_OK) goto done;
    steps.seek = ops->seek;   /* step n at its time t0 + (n + c) h, from a checkpoint too */
    if ((rc = slpi_rows_open(&rows, p, err)) != SLPI_OK) goto done;

    res->ndiag = ops->diag_names(ctx, res->diag_name, SLPI_MAX_DIAG);
    ops->diag_values(ctx, res->diag_first, res->ndiag);
    memcpy(res->diag_final, res->diag_first, (size_t)res->ndiag * sizeof(double));
    ncols = dim + res->ndiag + 2;
    cols = calloc((size_t)ncols, sizeof(char *));
    if (!cols) {
        rc = slpi_error_set(err, SLPI_EINPUT, "run: out of memory (%d columns)", ncols);
        goto done;
    }
    for (int i = 0; i < dim; i++) {
        char buf[64];
        slpi_problem_state_name(p, i, buf, sizeof buf);
        cols[i] = strdup(buf);
    }
    for (int i = 0; i < res->ndiag; i++) cols[dim + i] = strdup(res->diag_name[i]);
    cols[ncols - 2] = strdup("iters");
    cols[ncols - 1] = strdup("residual");
    for (int i = 0; i < ncols; i++)
        if (!cols[i]) {
            rc = slpi_error_set(err, SLPI_EINPUT, "run: out of memory (column names)");
            goto done;
        }
    if (cs.ck && !(cs.problem = problem_text(p))) {
        rc = slpi_error_set(err, SLPI_EINPUT, "checkpoint: out of memory");
        goto done;
    }
    if (cs.ck && cs.ck->resume) {
        if ((rc = resume(&cs, p, &rows, ops, ctx, out, hex, res, &total_iters, err)) != SLPI_OK) goto done;
        first = res->steps_done;
        clip_base = res->clipped;
        steps.tally = (slpi_step_tally){ .steps = res->steps_done, .iterations = total_iters,
                                         .max_iterations = res->max_iters, .stagnated = res->stagnated,
                                         .capped = res->capped, .max_prec = res->max_prec,
                                         .prec_raised = res->prec_raised, .max_radius = res->max_radius };
    } else if (out) {
        slpi_traj_write_header(out, p, ops->name, ncols, (const char *const *)cols);
        if ((rc = emit_row(ops, ctx, out, 0, 0.0, NULL, hex, err)) != SLPI_OK) goto done;
    }

    double start = slpi_clock_seconds(CLOCK_MONOTONIC), cpu_start = slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    slpi_progress_end(pg);
    snprintf(what, sizeof what, "run (%s path), steps", ops->name);
    slpi_progress_current(pg = slpi_progress_begin(what, p->steps - first));
    if (ops->watch && pg) ops->watch(ctx, pg);
    for (long n = first; n < p->steps; n++) {
        slpi_step_status st;
        if ((rc = slpi_steps_take(&steps, n, NULL, &st, err)) != SLPI_OK) break;
        const slpi_step_info info = steps.info;
        if (slpi_step_failed(st)) {
            res->failed_step = n;
            const char *why = ops->why != NULL ? ops->why(ctx) : "";
            if (info.prec > 0)   /* certified path: the radius, precision and reason tell why */
                rc = slpi_error_set(err, SLPI_ENUMERIC,
                                    "step %ld (t = %.17g): %s at precision %ld bits, radius %.3g, residual %.3g, %d iterations%s%s%s",
                                    n, (double)(n + 1) * p->h, slpi_step_status_name(st), info.prec, info.radius,
                                    info.residual, info.iterations, why[0] ? " (" : "", why, why[0] ? ")" : "");
            else
                rc = slpi_error_set(err, SLPI_ENUMERIC, "step %ld (t = %.17g): %s after %d iterations, residual %.3g%s%s%s",
                                    n, (double)(n + 1) * p->h, slpi_step_status_name(st), info.iterations,
                                    info.residual, why[0] ? " (" : "", why, why[0] ? ")" : "");
            break;
        }
        const slpi_step_tally *t = &steps.tally;
        res->steps_done = t->steps;
        total_iters = t->iterations;
        res->max_iters = t->max_iterations;
        res->stagnated = t->stagnated;
        res->capped = t->capped;
        res->max_radius = t->max_radius;
        res->max_prec = t->max_prec;
        res->prec_raised = t->prec_raised;
        if (slpi_rows_take(&rows, n + 1)) {
            record_diagnostics(ops, ctx, res);
            if (out && (rc = emit_row(ops, ctx, out, n + 1, (double)(n + 1) * p->h, &info, hex, err)) != SLPI_OK)
                break;
        }
        if (cs.ck && cs.ck->checkpoint && (n + 1) % cs.ck->every == 0 && n + 1 < p->steps) {
            res->clipped = clip_base + slpi_steps_clipped(&steps);
            if ((rc = take_checkpoint(&cs, ops, ctx, out, hex, dim, res, total_iters, err)) != SLPI_OK) break;
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
        if (take_checkpoint(&cs, ops, ctx, out, hex, dim, res, total_iters, &cerr) != SLPI_OK) {
            *err = cerr;
            rc = SLPI_EINPUT;
        }
    }
done:
    slpi_progress_current(NULL);
    slpi_progress_end(pg);
    if (cols) for (int i = 0; i < ncols; i++) free(cols[i]);
    free(cols);
    free(cs.problem);
    free(x0);
    slpi_steps_close(&steps);
    slpi_rows_close(&rows);
    ops->destroy(ctx);
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
    int rc = check_ckpt_args(ck, ops, out, err);
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
        json_array_append_new(diag, json_pack("{s:s, s:f, s:f, s:f}", "name", res->diag_name[i], "initial",
                                              res->diag_first[i], "final", res->diag_final[i], "max_change",
                                              res->diag_maxchange[i]));
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:I, s:I, s:I, s:f, s:i, s:I, s:I, s:I, s:f, s:I, s:f, s:f, s:o}",
                          "slpi_version", SLPI_VERSION, "system", slpi_system_name(p->system), "scheme",
                          slpi_scheme_name(p->scheme), "path", path_name, "exit_code", rc, "message", message,
                          "h", p->h, "steps", (json_int_t)p->steps, "steps_done", (json_int_t)res->steps_done,
                          "failed_step", (json_int_t)res->failed_step, "mean_iterations", res->mean_iters,
                          "max_iterations", res->max_iters, "stagnated", (json_int_t)res->stagnated, "capped",
                          (json_int_t)res->capped, "clipped", (json_int_t)res->clipped, "max_radius",
                          res->max_radius, "max_precision", (json_int_t)res->max_prec, "seconds", res->seconds,
                          "cpu_seconds", res->cpu_seconds,
                          "diagnostics", diag);
    if (p->preset[0]) json_object_set_new(j, "preset", json_string(p->preset));
    char cb[256], mark[300];
    if (slpi_problem_callbacks(p, cb, sizeof cb)) {   /* as the header's uncertified= (docs/models.md#callbacks) */
        snprintf(mark, sizeof mark, "callback %s", cb);
        json_object_set_new(j, "uncertified", json_string(mark));
    }
    json_object_set_new(j, "seed", json_integer((json_int_t)p->seed));
    json_object_set_new(j, "noise_path", json_integer((json_int_t)p->path));
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
