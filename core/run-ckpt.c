/* run-ckpt.c — the checkpoints of a run (core/run.c's slpi_run_checkpointed; the file
 * format is core/checkpoint.c's): every `every`
 * steps, after the row of that step, the output is flushed and fsync'ed, the digest of
 * its new bytes is added to a running FNV-1a digest, and the path's exact state, the
 * counters and the output length are written atomically. Resuming checks that the
 * problem (its slpi_problem_write text), path, hex flag and the output's first
 * out_bytes bytes are those of the checkpoint and loads the state, and only then (a
 * refused resume leaves the output as it was) truncates the output there and
 * continues with the next step, so the finished output is byte-identical to an
 * uninterrupted run. Noise needs no state: step n's increments are a function of n.
 * An interrupted run (SLPI_EINTR, Ctrl-C) writes one more checkpoint at the last step it
 * took before it returns (core/run.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/blas.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "core/rows.h"
#include "core/steps.h"
#include "core/noise.h"
#include "core/parse.h"
#include "core/run-ckpt.h"
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "slpi/output.h"
#include "slpi/run.h"

/* The problem as slpi_problem_write text (malloc'd). */
char *slpi_run_ckpt_problem_text(const slpi_problem *p)
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
    while (start > 0) { /* back to the previous newline, or the file's start */
        long from = start > (long)sizeof buf ? start - (long)sizeof buf : 0;
        ssize_t got = pread(fd, buf, (size_t)(start - from), (off_t)from);
        if (got != start - from) return NULL;
        long i = got;
        while (i > 0 && buf[i - 1] != '\n') i--;
        if (i > 0) {
            start = from + i;
            break;
        }
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
        s = strchr(e + 1, '\t'); /* past t: the state columns */
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
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: the checkpoint is of another problem: it has %.*s, this run %.*s", file, (int)a,
                                  want, (int)b, have);
        want += a + (want[a] == '\n');
        have += b + (have[b] == '\n');
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: the checkpoint is of another problem (keys differ)", file);
}


/* The checkpoint's OU state into the run's noise source at its step: it must have one
 * exactly when the run has coloured noise. */
static int resume_ou(const slpi_run_ckpt_state *cs, const slpi_checkpoint *c, const char *file, slpi_error *err)
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

int slpi_run_ckpt_read(const slpi_run_ckpt *ck, slpi_checkpoint *c, slpi_error *err)
{
    int rc = slpi_checkpoint_read(ck->resume, c, err);
    if (rc != SLPI_OK) return rc;
    const int m3 = slpi_blas_zproduct_env(c->zproduct);
    if (m3 >= 0 && slpi_blas_zproduct_pin(m3) != 0) {
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "%s: the run formed its complex products with %s, and this process forms them with %s "
                            "(%s): resumed so, it would not continue the run's bits; unset SLPI_ZPRODUCT or set it "
                            "to %s (docs/install.md#products)",
                            ck->resume, c->zproduct, slpi_blas_zproduct_name(), slpi_blas_zproduct_why(), c->zproduct);
        slpi_checkpoint_free(c);
    }
    return rc;
}

/* Check a checkpoint against this run and restore the state, counters and output. */
int slpi_run_ckpt_resume(slpi_run_ckpt_state *cs, const slpi_checkpoint *cp, const slpi_problem *p,
                         const slpi_rows *rows, const slpi_path_ops *ops, void *ctx, FILE *out, int hex,
                         slpi_run_result *res, long *total_iters, slpi_error *err)
{
    const char *file = cs->ck->resume, *oname = cs->ck->output ? cs->ck->output : "output";
    const slpi_checkpoint c = *cp;
    int rc = SLPI_OK;
    int fd = fileno(out), dim = slpi_problem_state_dim(p), pm;
    struct stat st;
    if (strcmp(c.problem, cs->problem) != 0) {
        rc = problem_mismatch(file, c.problem, cs->problem, err);
    } else if (strcmp(c.arith, ops->name) != 0 || c.hex != hex || c.dim != dim || c.res.ndiag != res->ndiag) {
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "%s: written by the %s path (hex %d, %d state doubles, %d diagnostics); "
                            "this run is %s (hex %d, %d, %d)",
                            file, c.arith, c.hex, c.dim, c.res.ndiag, ops->name, hex, dim, res->ndiag);
    } else if (c.step > p->grid.steps) {
        rc =
            slpi_error_set(err, SLPI_EINPUT, "%s: step %ld is beyond the run's %ld steps", file, c.step, p->grid.steps);
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < c.out_bytes) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: shorter than the %ld bytes the checkpoint %s recorded", oname,
                            c.out_bytes, file);
    } else if (digest_output(fd, &cs->digest, &cs->upto, c.out_bytes) != 0 || cs->digest != c.out_digest) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: its first %ld bytes are not those the checkpoint %s recorded", oname,
                            c.out_bytes, file);
    } else if ((pm = prefix_matches(fd, &c, rows, dim)) <= 0) {
        rc = pm < 0 ? slpi_error_set(err, SLPI_EINPUT, "%s: out of memory reading its last row", oname)
                    : slpi_error_set(err, SLPI_EINPUT,
                                     "%s: its first %ld bytes do not end with the row of step %ld "
                                     "in the state the checkpoint %s holds (an edited checkpoint?): not cut",
                                     oname, c.out_bytes, slpi_rows_last(rows, c.step), file);
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
        *res = c.res; /* c.res.ndiag == nd: checked above */
        memcpy(res->diag_name, names, (size_t)nd * sizeof names[0]);
        *total_iters = c.total_iters;
    }
    return rc;
}

int slpi_run_ckpt_take(slpi_run_ckpt_state *cs, const slpi_path_ops *ops, void *ctx, FILE *out, int hex, int dim,
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
    snprintf(c.zproduct, sizeof c.zproduct, "%s", slpi_blas_zproduct_used());
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

int slpi_run_ckpt_check(const slpi_run_ckpt *ck, const slpi_path_ops *ops, FILE *out, slpi_error *err)
{
    if (!ck || (!ck->checkpoint && !ck->resume)) return SLPI_OK;
    struct stat st;
    if (!ops->state_save || !ops->state_load)
        return slpi_error_set(err, SLPI_EINPUT, "the %s path cannot write checkpoints", ops->name);
    if (!out || fstat(fileno(out), &st) != 0 || !S_ISREG(st.st_mode))
        return slpi_error_set(err, SLPI_EINPUT,
                              "checkpoints and resume need the output in a regular file (--output FILE)");
    if (ck->checkpoint && ck->every <= 0)
        return slpi_error_set(err, SLPI_EINPUT, "checkpoint-every=%ld: must be a positive number of steps", ck->every);
    return SLPI_OK;
}
