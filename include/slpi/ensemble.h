/* slpi/ensemble.h — ensembles: many paths of one problem, their rows and statistics, the
 * same bits on any threads and split (part of slpi.h). */
#ifndef SLPI_PUBLIC_ENSEMBLE_H
#define SLPI_PUBLIC_ENSEMBLE_H

#include <stdint.h>

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- ensembles */

/* Ensembles (api/ensemble.c; docs/api.md#ensembles): paths of one problem on the fast path
 * (ref = 0) or the certified path (ref = 1: midpoints, and the largest radius), each from
 * its own initial state and on its own increments or the problem's noise, on `threads`
 * threads (<= 0: the OpenMP default), with their rows at step 0, every `every`-th step and
 * the last (every = 0: the problem's output grid, save_at or output_every; the rows of
 * slpi_ensemble_shape, their steps slpi_ensemble_row_steps) kept or not, and online statistics of the states
 * and the diagnostics at those rows: a million paths take memory for the statistics only.
 * The paths are numbered 0, 1, ... in the order slpi_ensemble_run receives them; path k
 * runs on noise path first_path + k. Blocks of SLPI_ENSEMBLE_BLOCK consecutive paths are
 * summed by Welford's update and combined in a fixed binary tree by Chan's pairwise form
 * (the formulas: api/ensemble.c), so that the statistics are the same bits for any number
 * of threads and any split of the paths into calls.
 * The ensemble copies the problem as slpi_stepper_new does (callbacks shared, not
 * copied); *out is NULL on error. Owns: *out, freed with slpi_ensemble_free.
 * Thread: the ensemble's threads are OpenMP's, and a problem with callbacks
 * (slpi_problem_set_callback) has them called from those threads concurrently. */
#define SLPI_ENSEMBLE_BLOCK 64
typedef struct slpi_ensemble slpi_ensemble;
int slpi_ensemble_new(slpi_ensemble **out, const slpi_problem *p, int ref, uint64_t first_path, long every,
                      int threads);
/* NULL: e (nothing done). */
void slpi_ensemble_free(slpi_ensemble *e);
/* State doubles, Wiener processes, diagnostics, steps, and rows of a path.
 * NULL: dim, noises, ndiag, steps, rows (not asked). */
void slpi_ensemble_shape(const slpi_ensemble *e, int *dim, int *noises, int *ndiag, long *steps, long *rows);
/* The step numbers of a path's rows, steps[rows] (as slpi_stepper_row_steps). */
void slpi_ensemble_row_steps(const slpi_ensemble *e, long *steps);
const char *slpi_ensemble_diag_name(const slpi_ensemble *e, int i); /* NULL past the last */
long slpi_ensemble_paths(const slpi_ensemble *e);                   /* paths in the statistics */
/* How the paths run: "lanes" (blocks of paths in lock-step SIMD lanes: the rigid body's
 * ISOMP-COMM and SVI-SO3, and ISOMP-COMM of models on so3 and so3^k, on the fast path), else "general: " or "lanes: " and the reason
 * each path runs alone on its thread's stepper. The values are the same bits either way. */
const char *slpi_ensemble_route(const slpi_ensemble *e);
/* Over the paths in the statistics that this object ran (not those slpi_ensemble_import
 * added): the Wiener increments clipped by the problem's truncation (docs/noise.md#truncation)
 * and the steps whose solve was capped and kept (on_cap=accept). A failed path stops the
 * run (slpi_ensemble_run), so none is ever in the statistics. NULL: clipped, capped (not asked). */
void slpi_ensemble_counts(const slpi_ensemble *e, long *clipped, long *capped);
/* on = 0: every path runs alone on the general route from now on (route "general: asked"),
 * to compare the routes; on != 0: the lanes again where the problem has them. */
void slpi_ensemble_set_lanes(slpi_ensemble *e, int on);
/* The statistics' exact state, to combine ensembles of disjoint path ranges run apart
 * (MPI ranks, jobs, machines) into the bits of one run: slpi_ensemble_export writes it to
 * buf (its pieces: the subtrees of whole blocks, the block in progress) and returns its
 * length in doubles; slpi_ensemble_import appends an exported state's paths to e (the
 * same problem and saved rows) as its next paths. The bits are one run's when every range
 * starts at a multiple of 64 x 2^k paths from the first, 2^k blocks its largest piece
 * (ranges of equal size 64 x 2^k, the last one shorter, do), and only the last range ends
 * inside a block; otherwise SLPI_EINPUT, nothing added.
 * NULL: buf (the length only). */
long slpi_ensemble_export(const slpi_ensemble *e, double *buf);
/* Append the n doubles of slpi_ensemble_export's buf (see there). */
int slpi_ensemble_import(slpi_ensemble *e, const double *buf, long n);
/* Run the next count paths (path i of the call is path slpi_ensemble_paths() + i of the
 * ensemble) and add them to the statistics: initial states x0[count][dim], increments
 * dW[count][steps][M] (finite; clipped at the problem's truncation threshold, as
 * slpi_stepper_advance's); rows kept in x[count][rows][dim], xrad (the same shape),
 * diag[count][rows][ndiag], drad. The first path that fails, in path order, names the
 * error ("path k (noise path p): ..."); then the paths of the parallel wave it was in
 * (at most 256 x threads x SLPI_ENSEMBLE_BLOCK) are not in the statistics, those before it
 * are (slpi_ensemble_paths says how many).
 * NULL: x0 (the problem's initial state), dW (the problem's noise), x, xrad, diag, drad (not kept). */
int slpi_ensemble_run(slpi_ensemble *e, long count, const double *x0, const double *dW, double *x, double *xrad,
                      double *diag, double *drad);
/* The statistics of the paths run so far, at each row and quantity ([rows][dim + ndiag]:
 * the state, then the diagnostics): mean, variance M2 / (n - 1), minimum, maximum, and
 * the largest radius (0 on the fast path); NaN where there are too few paths: var for n = 1,
 * every statistic (min, max and rad included) for n = 0 (none run yet, or every path run
 * failed: a failed path is in no row's statistics). Returns the number of paths n.
 * NULL: mean, var, min, max, rad (not asked). */
long slpi_ensemble_stats(slpi_ensemble *e, double *mean, double *var, double *min, double *max, double *rad);

#ifdef __cplusplus
}
#endif
#endif
