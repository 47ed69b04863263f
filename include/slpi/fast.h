/* slpi/fast.h — the double path: run objects, steps, diagnostics (part of slpi.h). */
#ifndef SLPI_PUBLIC_FAST_H
#define SLPI_PUBLIC_FAST_H

#include <stdint.h>

#include "slpi/errors.h"
#include "slpi/step.h"
typedef struct slpi_diag slpi_diag; /* slpi/diag.h */

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */
typedef struct slpi_plan slpi_plan;       /* opaque (slpi/plan.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ fast path API */

typedef struct slpi_fast slpi_fast;
/* A run object of the plan (holding a reference to it). */
int slpi_fast_create_plan(slpi_fast **out, const slpi_plan *plan, slpi_error *err);
/* slpi_fast_create_plan on the plan of p, which slpi_problem_finish finished. */
int slpi_fast_create(slpi_fast **out, const slpi_problem *p, slpi_error *err);
void slpi_fast_free(slpi_fast *s);
/* The finished problem the run object integrates (h and steps resolved): its plan's, so
 * slpi_fast_set_step changes the run object's step size, not this problem's h. */
const slpi_problem *slpi_fast_problem(const slpi_fast *s);
/* The problem's initial state (slpi_problem_initial_state) in core's layout, coefficient
 * descriptions mapped with the binary64 basis. */
int slpi_fast_initial_state(const slpi_fast *s, double *x, slpi_error *err);
/* One step in place. dW: the M (truncated) Wiener increments of this step. */
slpi_step_status slpi_fast_step(slpi_fast *s, double *x, const double *dW, slpi_step_info *info);
/* Why the last failed step failed where the system knows more than its status (a model's
 * callback that returned non-zero or a non-finite value, named); "" otherwise. */
const char *slpi_fast_failure_reason(const slpi_fast *s);
/* A run object and its state as one thing to step (the stepping primitive of core/steps.h
 * takes it with slpi_fast_step_at: slpi_fast_step(at->f, at->x, dW, info); fast/path.c). */
typedef struct {
    slpi_fast *f;
    double *x;
} slpi_fast_at;
slpi_step_status slpi_fast_step_at(void *at, const double *dW, slpi_step_info *info);
/* slpi_fast_set_step_index(at->f, n): the stepping primitive's seek (core/steps.h). */
void slpi_fast_seek_at(void *at, long n);
/* Step size of the following steps: any finite h != 0; h < 0 steps backwards (the
 * reversibility property, step with (-h, -dW)). Returns SLPI_EINPUT otherwise. */
int slpi_fast_set_step(slpi_fast *s, double h);
/* The index n of the next step on the problem's time grid: a model whose Hamiltonians
 * read t evaluates step n at t = t0 + (n + c) h, c the scheme's stage
 * (docs/models.md#time); diagnostics read H at t0 + n h. A new run object starts at 0 and
 * each slpi_fast_step advances it by one; set it when the next step is not the one after
 * the last (a resumed run: the checkpoint's step; verify's row n; a path restarted at 0;
 * a backward run with h < 0 from step N: -N). */
void slpi_fast_set_step_index(slpi_fast *s, long n);
/* The solver counters the diagnostics report (steps, iterations, max iterations,
 * stagnated, capped, failed), read and restored by checkpoints. */
#define SLPI_FAST_NCOUNTERS 6
void slpi_fast_counters(const slpi_fast *s, long c[SLPI_FAST_NCOUNTERS]);
void slpi_fast_set_counters(slpi_fast *s, const long c[SLPI_FAST_NCOUNTERS]);
/* What a run carries from step to step besides the state and the counters: ISOMP's warm
 * start (warm_start=1|2, docs/schemes.md#solver), read and restored by checkpoints so that a
 * resumed run is byte-identical. slpi_fast_carry_get writes it into buf (or counts
 * only) and returns its length in doubles, 0 if nothing is carried; slpi_fast_carry_set
 * restores n doubles taken by slpi_fast_carry_get, for the state x that the next step is
 * handed, or returns SLPI_EINPUT (n or the values not of this run). */
int slpi_fast_carry_get(const slpi_fast *s, double *buf); /* NULL: buf (counts only) */
int slpi_fast_carry_set(slpi_fast *s, const double *x, const double *buf, int n);
/* Diagnostics of a state; x0 is the initial state (for departures). NULL: x0 (no departures).
 * A model whose Hamiltonians read t: at the time t0 + n h of the step index n. */
void slpi_fast_diagnostics(slpi_fast *s, const double *x, const double *x0, slpi_diag *d);
/* The equation's vector fields at the algebra state x (its first dim coordinates,
 * docs/conventions.md#sde): for k = 0..M, the generator xi_k(x) = grad H_k in the system's
 * pairing into xi + k dim and the field V_k(x) = ad*_{xi_k(x)} x into V + k dim (V_0 the
 * drift per unit time, V_k the noise field of dW^k). Returns the algebra dimension dim,
 * -1 out of memory. `slpi model` prints them (docs/models.md#equations). A model whose
 * Hamiltonians read t: at t0 + n h, n the step index (a new run object: t0).
 * NULL: xi, V (that output is not computed). */
int slpi_fast_fields(slpi_fast *s, double *xi, double *V, const double *x);
/* The same initial state for a problem without an integrator (only the system's basis
 * tables are built): the binary64 state that golden files and `slpi verify` start from. */
int slpi_fast_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err);
/* The fast path from step 0 on the problem's noise: states[rows][dim]; counters as
 * slpi_fast_counters. NULL: counters (not asked). */
int slpi_integrate(const slpi_problem *p, double *states, long counters[SLPI_FAST_NCOUNTERS]);
/* Final states of paths first_path .. first_path+npaths-1: finals[npaths][dim]. */
int slpi_integrate_ensemble(const slpi_problem *p, uint64_t first_path, long npaths, double *finals);

#ifdef __cplusplus
}
#endif
#endif
