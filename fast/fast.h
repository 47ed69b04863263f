/* fast/fast.h — the double path's run object (slpi.h's slpi_fast; fast/fast.c): the
 * problem, its system, its scheme and workspace, the solver policy and statistics (the
 * twin of ref/ref.h). The interfaces by concern: fast/system.h (the system table),
 * fast/scheme.h (the scheme table), fast/solver.h (the solver policy), fast/vector-field.h,
 * fast/dense.h, fast/so3.h, fast/team.h, fast/lie-ops.h, fast/sun.h. Not installed; only
 * the fast/ sources and tests include it. */
#ifndef SLPI_FAST_H
#define SLPI_FAST_H

typedef struct slpi_problem slpi_problem;
typedef struct slpi_fast slpi_fast;
typedef struct slpi_plan slpi_plan;
#include "fast/scheme.h"
#include "fast/solver.h"

/* The run object behind the public slpi_fast handle. */
struct slpi_fast {
    const slpi_plan *plan; /* a reference (slpi_plan_ref), released by slpi_fast_free */
    const slpi_problem *p; /* the plan's finished problem, read through its views (core/view-*.h) */
    double h;              /* the step size: the plan's h until slpi_fast_set_step changes it */
    slpi_fast_system sys;
    const slpi_fast_scheme *scheme;
    void *work; /* scheme workspace */
    slpi_fast_policy pol;
    double *delta; /* M+1 increments (h, dW...) of the current step, which
                                 * slpi_fast_step passes to the scheme's step */
    /* solver statistics (docs/schemes.md#solver) */
    long steps, iters, max_iters, stagnated, capped, failed;
    char why[256];  /* the system's fault in the last step, "" if none */
    double *coef;   /* the ingredients' coefficients (fast/ingredients.h), */
    int coef_on;    /* read while coef_on */
    int stop_pred;  /* the solver's stop counts from the Euler predictor (ISOMP's terms) */
    int stop_plain; /* the solver's stop in plain sweeps, pol.fixed_iters of them, SVI's 0 among
                     * them (TMK, SVI-SO3, SVI-SD: fast/ingredients.h) */
};

/* The ISOMP terms of fast/ingredients.h, in the order of their coefficients. */
#define SLPI_FAST_TERMS 4
/* Scale the increments delta = (h, dW) by the drift's and the noises' coefficients (when
 * set); the coefficients of ISOMP's terms [Psi,Y]/2, Psi Y Psi/4, update and Psi Y Psi/4
 * reordered, or NULL when
 * none is set or the step has none (fast/ingredients.c). */
void slpi_fast_ingredients_apply(const slpi_fast *f, double *delta);
const double *slpi_fast_ingredient_terms(const slpi_fast *f);

#endif
