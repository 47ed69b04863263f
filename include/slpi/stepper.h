/* slpi/stepper.h — steppers: a run of a problem that advances in pieces (part of slpi.h). */
#ifndef SLPI_PUBLIC_STEPPER_H
#define SLPI_PUBLIC_STEPPER_H

#include <stdint.h>
#include <stddef.h>

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------- handle API for bindings
 * (api/api.c; python/slpi uses it): no struct needs mirroring. Functions return
 * SLPI_OK or an error code; slpi_api_last_error() (slpi/errors.h) is the calling
 * thread's last message. */
/* Steppers: a run that advances in pieces, on the fast path (ref = 0) or the certified
 * path (ref = 1: states and diagnostics as midpoints and radii; every exact value lies
 * within radius of the midpoint). x0 (nx0 doubles, may be NULL: the problem's initial
 * state) must lie on the system's manifold (slpi_problem_check_state). Any split of the
 * steps into advances gives the same bits as one advance. */
typedef struct slpi_stepper slpi_stepper;
/* The stepper copies the problem (finished: T or level become h and steps) and x0, so
 * both may change or be freed after the call; the functions and user_data of callbacks
 * set on p (slpi_problem_set_callback) are shared, not copied, and must outlive it.
 * *out is NULL on error. Owns: *out, freed with slpi_stepper_free.
 * NULL: x0 (the problem's initial state). */
int slpi_stepper_new(slpi_stepper **out, const slpi_problem *p, int ref, const double *x0, int nx0);
/* NULL: s (nothing done). */
void slpi_stepper_free(slpi_stepper *s);
/* Back to step 0 from the initial state on another path of the problem's noise. */
int slpi_stepper_restart(slpi_stepper *s, uint64_t path);
/* As slpi_stepper_restart, from the state x0 (nx0 doubles, on the system's manifold as
 * for slpi_stepper_new), which stays the stepper's initial state until the next call.
 * NULL: x0 (the initial state slpi_stepper_new was given, or the problem's). */
int slpi_stepper_restart_from(slpi_stepper *s, uint64_t path, const double *x0, int nx0);
/* State doubles, Wiener processes, diagnostics, steps and step size of the stepper.
 * NULL: dim, noises, ndiag, steps, h (not asked). */
void slpi_stepper_shape(const slpi_stepper *s, int *dim, int *noises, int *ndiag, long *steps, double *h);
/* The rows an advance over the whole run writes with `every` (slpi_stepper_advance's; 0:
 * the problem's output grid, save_at or output_every), the initial row included, and
 * their step numbers to steps[rows] (0 first); -1 (SLPI_EINPUT recorded) for every < 0.
 * NULL: steps (the count only). */
long slpi_stepper_row_steps(const slpi_stepper *s, long every, long *steps);

const char *slpi_stepper_diag_name(const slpi_stepper *s, int i); /* NULL past the last */
long slpi_stepper_position(const slpi_stepper *s);                /* steps done */
/* Counts since step 0: steps, solver iterations, max iterations, stagnated and capped
 * steps, clipped increments, the largest precision in bits (certified path). */
enum {
    SLPI_STEPPER_STEPS,
    SLPI_STEPPER_ITERATIONS,
    SLPI_STEPPER_MAX_ITERATIONS,
    SLPI_STEPPER_STAGNATED,
    SLPI_STEPPER_CAPPED,
    SLPI_STEPPER_CLIPPED,
    SLPI_STEPPER_MAX_PREC,
    SLPI_STEPPER_NCOUNTS
};
void slpi_stepper_counts(const slpi_stepper *s, long counts[SLPI_STEPPER_NCOUNTS]);
/* The current state x[dim] and its radii, diagnostics diag[ndiag] and their radii (the
 * radii 0 on the fast path). NULL: xrad, diag, drad (not asked). */
void slpi_stepper_row(slpi_stepper *s, double *x, double *xrad, double *diag, double *drad);
/* Advance count steps (at most those left): increments dW[count][M] (clipped at the
 * problem's truncation threshold, as a noise file's), or (NULL) the problem's noise. After
 * each step whose number (steps done) is a multiple of every, or the problem's last (every
 * = 0: each step of the problem's output grid, as slpi_problem_shape counts its rows), one
 * row goes to x, xrad, diag, drad (as slpi_stepper_row), iters and resid (the step's
 * solver iterations and residual; may be NULL); *rows gets their number. A failing step
 * stops with SLPI_ENUMERIC naming it; the rows before it are written. An observer
 * (slpi_stepper_set_observer) that returns nonzero stops the advance after that step
 * with SLPI_OK: slpi_stepper_position tells where, and the rows written are those of
 * an uninterrupted advance up to that step.
 * NULL: dW (the problem's noise), xrad, diag, drad, iters, resid (not asked). */
int slpi_stepper_advance(slpi_stepper *s, long count, const double *dW, long every, double *x, double *xrad,
                         double *diag, double *drad, int *iters, double *resid, long *rows);
typedef int (*slpi_observer)(void *ctx, long step, double t, const double *x, int dim);
/* A per-step observer: fn(ctx, step, t, x, dim) after every step an advance takes, with
 * the steps done, t = step h and the state x[dim] (the certified path: its midpoints),
 * valid during the call only; a nonzero return stops the advance (slpi_stepper_advance).
 * Called on the advancing thread. Without one (the default) an advance tests one pointer
 * per step. Inside fn, an advance or restart of the same stepper is refused (SLPI_EINPUT,
 * "called from the stepper's own observer"): return nonzero to stop instead.
 * NULL: fn (no observer), ctx (passed as given). */
void slpi_stepper_set_observer(slpi_stepper *s, slpi_observer fn, void *ctx);
/* A checkpoint of the stepper: the text of a run checkpoint (docs/design.md#checkpoints,
 * format slpi-checkpoint 2) holding its step, state, solver counters, warm start, OU
 * state and counts (slpi_stepper_counts), and its problem, noise path and initial state,
 * written into buf (at most n bytes, NUL-terminated, as snprintf); returns its length (the
 * whole text's, as snprintf), -1 on error (recorded). Save after an advance or inside the
 * observer: slpi_stepper_load of the text into a stepper of the same problem, noise path
 * and initial state continues with the bits of one that never stopped.
 * NULL: buf (the length only; n must then be 0). */
long slpi_stepper_save(slpi_stepper *s, char *buf, size_t n);
/* Load a checkpoint text of slpi_stepper_save: the stepper then stands at its step, as
 * the saving one did. SLPI_EINPUT, naming what differs, for text that is malformed or was
 * edited (its end digest), of `slpi run`, or of another problem, noise path, initial
 * state, state size or path (fast/ref); the stepper is then unchanged, or back at step 0
 * where its state tokens were refused. Refused inside the stepper's own observer. */
int slpi_stepper_load(slpi_stepper *s, const char *text);

#ifdef __cplusplus
}
#endif
#endif
