/* oracle.h — helpers shared inside oracle/ (not part of the public slpi.h): the
 * certified walk over given increments, the initial state and increments of a
 * problem, and the provenance as key/value pairs. */
#ifndef SLPI_ORACLE_H
#define SLPI_ORACLE_H

#include "slpi-tools.h"

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
/* The same with the increments streamed from the problem's noise source (no
 * steps x M array: a long run costs memory independent of its length). */
int slpi_oracle_ref_walk_source(const slpi_problem *p, const double *x0, const long *stops, int nstops,
                                slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err);

/* Certified invariants (no differences) of a state given as doubles, taken as exact. */
void slpi_oracle_invariants_of(slpi_ref *s, const double *x, int dim, slpi_ref_diag *d);

/* Scales of the invariants at the state x (ball midpoints): for each invariant I,
 * max(|I(x)|, sum_j |dI/dx_j| |x_j|), the second term measured as the radius of I on
 * the state widened by the relative radius eps = 2^-30, divided by eps. This is the
 * change of I that relative rounding errors of the state cause, so a near-zero
 * invariant (the trace of su(N), a Casimir that vanishes) is not scaled by itself. */
void slpi_oracle_invariant_scales(slpi_ref *s, arb_srcptr x, int dim, double *scale, int n);

/* A port's trajectory as the verifier sees it: the problem, the state columns, the
 * stated budget (unit roundoff u, PASS at ratio <= budget), the work bound, and the
 * split of the rows over threads and MPI ranks (combine sums the ranks' buffers in
 * place; NULL: one rank). */
typedef struct {
    const slpi_problem *p;
    const slpi_traj *t;
    const int *col;            /* state coordinate i is column col[i] of t */
    int dim;
    const double *x0;          /* the problem's initial state */
    double u, budget;
    long max_steps;            /* < 0: no bound on the steps certified per row */
    int threads, rank, nranks;
    int (*combine)(double *buf, size_t n, void *arg);
    void *combine_arg;
} slpi_oracle_port;

/* One locally checked row: certified bounds of |port - step(port's previous row)| /
 * (k u scale), ulps, verdict, and the certified walk's status (UNABLE: why). */
typedef struct {
    long row;                  /* row index in the trajectory */
    double lo, hi, ulps;
    slpi_verdict verdict;
    slpi_step_status status;
} slpi_oracle_local_row;

/* The error unit of a local row k steps after its predecessor: k m u, m = ceil(sqrt(dim)). */
double slpi_oracle_local_unit(long steps, int dim, double u);

/* Check the rows rows[0..nrows) locally (oracle/local.c); res[i] gets row rows[i]. A
 * row index r > 0 is checked from row r - 1, row 0 (step 0) against x0. */
int slpi_oracle_local(const slpi_oracle_port *port, const long *rows, long nrows, slpi_oracle_local_row *res,
                      slpi_error *err);

/* The provenance lines as key/value pairs (appended to *n, *key, *val). */
void slpi_oracle_provenance(int *n, char ***key, char ***val);

#endif
