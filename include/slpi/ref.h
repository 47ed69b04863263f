/* slpi/ref.h — the certified path: run objects on Arb balls (part of slpi.h). With
 * SLPI_FAST_ONLY defined, the declarations that need Arb's types are left out. */
#ifndef SLPI_PUBLIC_REF_H
#define SLPI_PUBLIC_REF_H

#ifndef SLPI_FAST_ONLY
#include "slpi-flint.h" /* Arb from either FLINT generation (core/slpi-flint.h) */
#endif

#include "slpi/errors.h"
#include "slpi/diag.h"
#include "slpi/step.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */
typedef struct slpi_plan slpi_plan;       /* opaque (slpi/plan.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- ref path API
 * Certified: every output ball contains the exact result of the discrete scheme for
 * the given binary64 inputs (docs/design.md#two-paths), or the step reports SLPI_STEP_UNABLE. */

typedef struct slpi_ref slpi_ref;
/* A certified run object of the plan (holding a reference to it). */
int slpi_ref_create_plan(slpi_ref **out, const slpi_plan *plan, slpi_error *err);
/* slpi_ref_create_plan on the plan of p, which slpi_problem_finish finished. */
int slpi_ref_create(slpi_ref **out, const slpi_problem *p, slpi_error *err);
void slpi_ref_free(slpi_ref *s);
/* One step in place on a vector of slpi_problem_state_dim balls. */
#ifndef SLPI_FAST_ONLY
slpi_step_status slpi_ref_step(slpi_ref *s, arb_ptr x, const double *dW, slpi_step_info *info);
/* As slpi_fast_at: slpi_ref_step_at(at, dW, info) is slpi_ref_step(at->r, at->x, dW, info). */
typedef struct {
    slpi_ref *r;
    arb_ptr x;
} slpi_ref_at;
slpi_step_status slpi_ref_step_at(void *at, const double *dW, slpi_step_info *info);
/* slpi_ref_set_step_index(at->r, n), as slpi_fast_seek_at. */
void slpi_ref_seek_at(void *at, long n);
#endif
/* As slpi_fast_set_step: h < 0 steps backwards. */
int slpi_ref_set_step(slpi_ref *s, double h);
/* The index n of the next step on the time grid, as slpi_fast_set_step_index: a model
 * whose Hamiltonians read t evaluates step n at t0 + (n + c) h, exactly in balls. */
void slpi_ref_set_step_index(slpi_ref *s, long n);
/* 1 if the matrix products of s's ISOMP steps at precision prec take the BLAS route
 * (key matmul, docs/design.md#blas-route), 0 if they are Arb's. */
int slpi_ref_blas_route(const slpi_ref *s, long prec);
/* Why the last step was UNABLE or INVALID (step index, precision cap, reason); "" if
 * it was certified. */
const char *slpi_ref_unable_reason(const slpi_ref *s);
#ifndef SLPI_FAST_ONLY
/* Certified Poisson-map defect of one step from x with increments dW (claims V4, V5,
 * V19, I11): D J(x) D^T - J(x_1) as d x d balls (row-major), D the Jacobian of x -> x_1.
 * Scheme svi in vector form: D by the implicit function theorem in balls, d = 3 for the
 * rigid body (J = hat Pi), d = 6 for the heavy top (J = [[hat Pi, hat Gamma],
 * [hat Gamma, 0]]; R is not differentiated); c = +1/4: contains 0; c = -1/4: excludes 0.
 * Scheme isomp with update=comm and no fixed_iters, on a state of at most 64 numbers
 * that is the algebra's dual (rigid body, Manakov, vortices, Zeitlin, sine-Euler): D the
 * scheme's certified step Jacobian, d the state dimension, J(y) e_j = ad*_(e_j / g_j) y
 * with g_j the Frobenius weight of coordinate j (2 for the off-diagonal entries of the
 * su(N) layout; a constant factor and the sign do not matter). SLPI_EINPUT otherwise, SLPI_ENUMERIC if it cannot
 * be certified at the precision cap. */
int slpi_ref_poisson_defect(slpi_ref *s, arb_srcptr x, const double *dW, arb_ptr defect, slpi_error *err);
/* Certified diagnostics (balls): invariants, and with x0 their departures from it and the
 * system's other departures, named as the double path names them (NAME_dev, NAME_rel_dev,
 * eig_dev, ...: docs/architecture.md#twin-diagnostics). */
typedef struct slpi_ref_diag {
    int n;
    int n_inv; /* the invariants: entries [0, n_inv); with x0, their departures next */
    const char *name[SLPI_MAX_DIAG];
    arb_struct value[SLPI_MAX_DIAG];
} slpi_ref_diag;
void slpi_ref_diag_init(slpi_ref_diag *d);
void slpi_ref_diag_clear(slpi_ref_diag *d);
/* As slpi_fast_diagnostics, as balls: an exact state's at the precision cap, another's
 * at the first precision of the step's ladder with 64 bits more than the state's own
 * accuracy (docs/design.md#certified-diagnostics). NULL: x0 (no departures). */
void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d);
/* Mean-value (Lohner) propagation of the trajectory stepped by s (on = 1, off = 0; on
 * from slpi_ref_create where it applies, unless the problem says propagation=ball): far
 * smaller radii over long runs (ISOMP with update=comm and solved steps, states of at
 * most 64 entries: the rigid body, point vortices, Manakov up to so(11)). The balls then
 * depend on the trajectory's history (the set the run checkpoints, `slpi run
 * --checkpoint`), not on the last ball alone. SLPI_EINPUT (and off) where the scheme or
 * the state size does not allow it. */
int slpi_ref_set_lohner(slpi_ref *s, int on);
/* Work inside one certified step, for a caller that shows progress within steps (a
 * step can take minutes: TMK's dense chord matrix on su(N), Euler-Zeitlin at large N):
 * fn(ctx, w) is called on the stepping thread at each precision the step tries, after
 * each solver iteration (midpoint iteration or enclosure test) and each Jacobian column,
 * with the step's work so far. `slpi run --ref` draws it on its progress line. */
typedef struct slpi_ref_work {
    long step;       /* the step's index (steps attempted before it) */
    long prec;       /* the precision of the attempt, bits */
    long iterations; /* solver iterations in the step so far, every precision */
    long columns;    /* Jacobian columns formed in the step so far */
} slpi_ref_work;
/* NULL: fn (no calls), ctx. */
void slpi_ref_set_watch(slpi_ref *s, void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx);
/* The problem's initial state (slpi_problem_initial_state) as slpi_problem_state_dim
 * balls: values exactly, coefficients mapped with the certified basis (balls containing
 * the exact state). Needs no fast path. */
int slpi_ref_initial_state(slpi_ref *s, arb_ptr x, slpi_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif
