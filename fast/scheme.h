/* fast/scheme.h — the scheme table of the double path (one file per scheme; the twin of
 * ref/scheme.h). A scheme steps the run object (fast/fast.h) in place on the state with
 * the increments delta = (h, dW_1..dW_M); `check` rejects N/A pairs with SLPI_EINPUT.
 * Not installed. */
#ifndef SLPI_FAST_SCHEME_H
#define SLPI_FAST_SCHEME_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem;
#include "slpi/step.h"
typedef struct slpi_fast slpi_fast;
#include "fast/system.h"

typedef struct slpi_fast_scheme slpi_fast_scheme;

/* The scheme table, the same shape as ref/scheme.h's slpi_ref_scheme: id, check, step, then
 * the path's own slot (here init; there jac). */
struct slpi_fast_scheme {
    slpi_scheme_id id;
    /* Whether system s has what the scheme needs for problem p (core's validator has
     * checked the problem's own rules); SLPI_EINPUT naming the pair and why. */
    int (*check)(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
    /* One step in place on the state x (state_dim doubles) with the increments
     * delta = (h, dW_1..dW_M). */
    slpi_step_status (*step)(slpi_fast *f, double *x, const double *delta, slpi_step_info *info);
    /* After check: allocate the workspace f->work (slpi_fast_work_new; freed by
     * slpi_fast_free). */
    int (*init)(slpi_fast *f, slpi_error *err);
    /* Optional (NULL: the scheme carries nothing from step to step): what it carries, as
     * doubles (slpi_fast_carry_get/_set in slpi.h). carry_get writes it into buf (NULL:
     * counts only) and returns the count; carry_set restores it (n doubles) for the state
     * x that the next step is handed, or returns SLPI_EINPUT if the values cannot be its. */
    int (*carry_get)(const slpi_fast *f, double *buf);
    int (*carry_set)(slpi_fast *f, const double *x, const double *buf, int n);
};

/* Scheme workspace in one zeroed allocation: f->work = a struct of wsize bytes, followed
 * by ndoubles doubles (16-byte aligned), whose address is returned; NULL with an
 * SLPI_EINPUT error (out of memory) naming the scheme (fast/workspace.c). slpi_fast_work_free
 * (slpi_fast_free) frees it. */
double *slpi_fast_work_new(slpi_fast *f, size_t wsize, size_t ndoubles, slpi_error *err);
void slpi_fast_work_free(slpi_fast *f);

extern const slpi_fast_scheme slpi_fast_scheme_tmk, slpi_fast_scheme_rkmk_le, slpi_fast_scheme_rkmk_heun,
    slpi_fast_scheme_im_direct, slpi_fast_scheme_trap_direct, slpi_fast_scheme_isomp, slpi_fast_scheme_svi;

#endif
