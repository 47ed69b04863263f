/* oracle.h — helpers shared inside oracle/ (not part of the public slpi.h): the
 * certified walk over given increments, the initial state and increments of a
 * problem, and the provenance as key/value pairs. */
#ifndef SLPI_ORACLE_H
#define SLPI_ORACLE_H

#include "slpi.h"

/* Increments of steps 0..steps-1 (steps * M doubles, row n = step n) from the
 * problem's noise source (canonical generator or noise_file, truncation applied). */
int slpi_oracle_increments(const slpi_problem *p, long steps, double *dW, slpi_error *err);

/* Called by the walk after each stop step with the certified state and invariants. */
typedef int (*slpi_oracle_visit)(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv,
                                 const slpi_step_info *info);

/* Run the ref path from x0 over dW (row n = step n) and visit each step listed in
 * stops[0..nstops) (increasing). Returns SLPI_OK, the visitor's non-zero code, or
 * SLPI_ENUMERIC with step index and reason when a step is UNABLE or fails; *done gets
 * the number of steps certified. */
int slpi_oracle_ref_walk(const slpi_problem *p, const double *x0, const double *dW, const long *stops,
                         int nstops, slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err);

/* Certified invariants (no differences) of a state given as doubles, taken as exact. */
void slpi_oracle_invariants_of(slpi_ref *s, const double *x, int dim, slpi_ref_diag *d);

/* Scales of the invariants at the state x (ball midpoints): for each invariant I,
 * max(|I(x)|, sum_j |dI/dx_j| |x_j|), the second term measured as the radius of I on
 * the state widened by the relative radius eps = 2^-30, divided by eps. This is the
 * change of I that relative rounding errors of the state cause, so a near-zero
 * invariant (the trace of su(N), a Casimir that vanishes) is not scaled by itself. */
void slpi_oracle_invariant_scales(slpi_ref *s, arb_srcptr x, int dim, double *scale, int n);

/* The provenance lines as key/value pairs (appended to *n, *key, *val). */
void slpi_oracle_provenance(int *n, char ***key, char ***val);

#endif
