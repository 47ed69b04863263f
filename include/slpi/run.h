/* slpi/run.h — the run driver: one arithmetic path as the driver sees it, a run with
 * checkpoints (part of slpi.h). */
#ifndef SLPI_PUBLIC_RUN_H
#define SLPI_PUBLIC_RUN_H

#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/diag.h"
#include "slpi/step.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */
typedef struct slpi_plan slpi_plan;       /* opaque (slpi/plan.h) */
typedef struct slpi_output slpi_output;   /* opaque (slpi/output.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* A progress line (core/progress.c), which a path may draw on (its watch). */
typedef struct slpi_progress slpi_progress;

/* ------------------------------------------------------------- run driver
 * One arithmetic path as seen by the driver (core/run.c); adapters for the fast and
 * ref paths are slpi_fast_path() (fast/path.c) and slpi_ref_path() (ref/path.c). */
typedef struct {
    const char *name; /* "fast" or "ref" */
    /* The path's run object of the plan (slpi/plan.h), holding its own reference to it:
     * a model is read from the plan, not parsed again. NULL on error. */
    void *(*create)(const slpi_plan *plan, slpi_error *err);
    void (*destroy)(void *ctx);
    /* Set the state from doubles; x0 == NULL: the system's default initial state. */
    int (*set_state)(void *ctx, const double *x0, slpi_error *err);
    slpi_step_status (*step)(void *ctx, const double *dW, slpi_step_info *info);
    int (*diag_names)(void *ctx, const char **names, int max); /* count */
    void (*diag_values)(void *ctx, double *v, int n);          /* midpoints for balls */
    /* One trajectory row: the state, the diagnostics, iterations and residual. */
    void (*write_row)(void *ctx, FILE *f, long step, double t, const slpi_step_info *info, int hex);
    void (*summary)(void *ctx, FILE *f); /* path-specific lines */
    /* Checkpoints (core/checkpoint.c): everything the path carries from step to step
     * (the current state, solver counters) as exact one-line text tokens without
     * newlines (*tokens and each token malloc'd; fast: %a and integers, ref:
     * arb_dump_str); returns the count, or -1 when out of memory (nothing to free).
     * Loading sets only what saving wrote: set_state has set the initial state already;
     * it fails with SLPI_EINPUT, and errno ENOMEM when it ran out of memory. */
    int (*state_save)(void *ctx, char ***tokens);
    int (*state_load)(void *ctx, int n, char *const *tokens);
    /* optional (NULL: none): why the last step failed, in words ("" if not known); the
     * certified path's UNABLE reason (a model's domain error names its key and column) */
    const char *(*why)(void *ctx);
    /* optional (NULL: none): show the work inside each step on the progress line pg
     * (NULL: stop); the certified path's steps can take minutes (slpi_ref_set_watch) */
    void (*watch)(void *ctx, slpi_progress *pg);
    /* the next step is step n of the time grid (slpi_fast_set_step_index): a resumed run's */
    void (*seek)(void *ctx, long n);
} slpi_path_ops;

typedef struct slpi_run_result {
    long steps_done, failed_step, stagnated, capped, clipped;
    int max_iters;
    double mean_iters, max_radius, seconds;
    long max_prec;
    int ndiag;                            /* diagnostics: initial, final, and */
    const char *diag_name[SLPI_MAX_DIAG]; /* the largest |value - initial| over */
    double diag_first[SLPI_MAX_DIAG];     /* the written steps */
    double diag_final[SLPI_MAX_DIAG];
    double diag_maxchange[SLPI_MAX_DIAG];
    long prec_raised;   /* ref path: steps above p->prec bits */
    double cpu_seconds; /* the process's CPU time over the steps
                                                   (seconds: their wall time) */
} slpi_run_result;

/* Integrate p->steps steps on the canonical noise (or p->noise_file), streaming rows
 * to out (hex: doubles as %a) and a summary to summary. NULL: out (no rows), summary
 * (no summary). */
int slpi_run(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary, slpi_run_result *res,
             slpi_error *err);
/* Checkpoint/resume (core/checkpoint.c documents the file format). checkpoint: write
 * the file every `every` steps (atomically: write, fsync, rename); resume: continue the
 * run recorded in that file. Both need `out` to be a regular file opened for update,
 * named output (resume truncates it to the checkpointed length after checking its
 * digest, then appends), so that the finished file is byte-identical to an
 * uninterrupted run. */
typedef struct {
    const char *checkpoint; /* NULL: no checkpoints */
    long every;             /* steps between checkpoints (> 0) */
    const char *resume;     /* NULL: start at step 0 */
    const char *output;     /* the output file's name (for messages) */
    slpi_output *handle;    /* may be NULL; else published before the first checkpoint */
} slpi_run_ckpt;
/* slpi_run and slpi_run_checkpointed compile p (which slpi_problem_finish finished) into a
 * plan of their own, parsing a model once; a caller that holds the plan already
 * (slpi_problem_plan) runs it with slpi_run_plan, which parses nothing.
 * NULL: out, summary (as slpi_run), ck (no checkpoint: slpi_run). */
int slpi_run_checkpointed(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                          const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err);
/* slpi_run_checkpointed on the plan's finished problem.
 * NULL: out, summary, ck (as slpi_run_checkpointed). */
int slpi_run_plan(const slpi_plan *plan, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
                  const slpi_run_ckpt *ck, slpi_run_result *res, slpi_error *err);
/* The two paths' adapters: the double path (fast/path.c) and the certified path (ref/path.c). */
const slpi_path_ops *slpi_fast_path(void);
const slpi_path_ops *slpi_ref_path(void);

#ifdef __cplusplus
}
#endif
#endif
