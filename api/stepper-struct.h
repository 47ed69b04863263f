/* stepper-struct.h — the members of a stepper (slpi/stepper.h), private to the handle
 * API: api/api.c steps it, api/stepper-state.c saves and loads it. */
#ifndef SLPI_API_STEPPER_STRUCT_H
#define SLPI_API_STEPPER_STRUCT_H

#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/diag.h"
#include "slpi/stepper.h"
#include "core/rows.h"
#include "core/steps.h"

struct slpi_stepper {
    slpi_problem *q; /* a copy of its plan's problem (slpi_problem_dup): q's path is the current path */
    int ref, dim, M, ndiag;
    long n; /* steps done */
    slpi_fast *fast;
    double *x, *x0, *dW;
    double *given;         /* the initial state given (given0 or user), or NULL: the problem's */
    double *given0, *user; /* the one given at slpi_stepper_new; the last of slpi_stepper_restart_from */
    slpi_ref *cert;
    arb_ptr bx, bx0;
    slpi_fast_at fat; /* what the steps step: the run object and its state */
    slpi_ref_at rat;
    slpi_steps steps;       /* the problem's noise and the tally (core/steps.h) */
    slpi_rows rows;         /* the problem's output grid (every = 0; core/rows.h) */
    slpi_observer observer; /* slpi_stepper_set_observer (NULL: none) */
    void *observer_ctx;
    int observing;  /* inside the observer: an advance or restart of s is refused */
    double *mid;    /* the certified state's midpoints, for the observer */
    double D;       /* clipping threshold of given increments (+inf: none) */
    long clipped;   /* increments clipped since step 0 */
    long clip_base; /* those clipped before the noise source was opened (a loaded checkpoint's) */
    const char *diag_name[SLPI_MAX_DIAG];
};

#endif
