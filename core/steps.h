/* steps.h — the one stepping primitive (docs/architecture.md#steps): the increments of step
 * n of a problem's noise and one step of a path on them, with the tally of the steps taken.
 * Every caller that steps a path on a problem's noise goes through it: the run driver
 * (core/run.c), the handle API's steppers (api/api.c), the certified walk and the local
 * check of verify (oracle/), the audit's runs (reports/) and its extra mathematics (gaps/).
 * I/O-free: it writes nothing; failures are returned as the step's status and info, which
 * the caller words. */
#ifndef SLPI_STEPS_H
#define SLPI_STEPS_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
typedef struct slpi_noise_source slpi_noise_source;
#include "slpi/step.h"

/* One step of a path in place on increments dW = (dW_1..dW_M) of the step size the path
 * was made for; the path's own state and workspace are behind `path`. */
typedef slpi_step_status (*slpi_step_fn)(void *path, const double *dW, slpi_step_info *info);

/* What the steps taken so far did (failed steps are not counted). */
typedef struct {
    long steps;      /* steps taken */
    long iterations; /* solver iterations, summed */
    int max_iterations;
    long stagnated, capped; /* steps with status STAGNATED, CAPPED */
    long max_prec;          /* certified path: the largest precision in bits, else 0 */
    long prec_raised;       /* certified path: steps above the problem's precision */
    double max_radius;      /* certified path: the largest radius of a state, else 0 */
} slpi_step_tally;

/* Tell a path that its next step is step n of the problem's time grid (the time a model's
 * Hamiltonians read, docs/models.md#time): slpi_fast_seek_at, slpi_ref_seek_at. */
typedef void (*slpi_seek_fn)(void *path, long n);

typedef struct {
    slpi_step_fn step;
    void *path;
    slpi_seek_fn seek;        /* optional (NULL: the path takes its steps in order from 0);
                                  set after slpi_steps_open: every slpi_steps_take(n) seeks n */
    long prec;                /* the problem's precision (prec_raised counts steps above it) */
    int M;                    /* increments per step */
    slpi_noise_source *noise; /* the problem's noise: canonical, or its noise_file, truncated */
    double *dW;               /* the increments of the last step taken from the noise (M) */
    slpi_step_info info;      /* the last step's report */
    slpi_step_tally tally;
} slpi_steps;

/* Ready to step `path` with `step` on the problem's increments: noise = 1 opens the
 * problem's noise source; noise = 0 when the caller gives every step's increments. */
int slpi_steps_open(slpi_steps *s, const slpi_problem *p, slpi_step_fn step, void *path, int noise, slpi_error *err);
/* Take step n: on the increments dW (M doubles, used as given), or when dW is NULL on the
 * noise source's increments of step n (left in s->dW; the source must be open). *st gets the step's status, s->info
 * its report; the tally counts it unless it failed. Returns SLPI_OK, or the noise source's
 * error, or SLPI_EINTR once slpi_interrupt_request was called (then no step is taken). */
int slpi_steps_take(slpi_steps *s, long n, const double *dW, slpi_step_status *st, slpi_error *err);
/* Increments the noise source has clipped so far (the problem's truncation). */
long slpi_steps_clipped(const slpi_steps *s);
/* Back to no step taken on the problem p (e.g. another noise path): a fresh tally, and a
 * fresh noise source (its clipped count 0) if one was open. */
int slpi_steps_rewind(slpi_steps *s, const slpi_problem *p, slpi_error *err);
void slpi_steps_close(slpi_steps *s);

/* The increments steps first..first+count-1 of a run of p (finished here on a copy) step
 * on, count x M doubles into out, rounded to nearest whatever the caller's direction;
 * clipped (or NULL) gets the source's clipped count (slpi_problem_increments). */
int slpi_steps_increments(const slpi_problem *p, long first, long count, double *out, long *clipped, slpi_error *err);

#endif
