/* slpi/problem-shape.h — a problem's derived shape: state doubles, noises, truncation,
 * coordinate names (part of slpi.h). */
#ifndef SLPI_PUBLIC_PROBLEM_SHAPE_H
#define SLPI_PUBLIC_PROBLEM_SHAPE_H

#include <stddef.h>

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* Derived shape of a problem. The state layout is owned by core: both paths, the
 * trajectory files and external ports read and write exactly these doubles.
 *   rigid-body      x (ISO form) or Pi (SVI form): 3; with rb.track_R (SVI form)
 *                   followed by R row-major: 12
 *   heavy-top       RKMK form (pi, gamma): 6; SVI form (Pi, Gamma, R row-major): 15
 *   manakov         X_ij for i < j, row-major: n(n-1)/2
 *   point-vortices  x_1..x_n (x_i in R^3: X_i = sum_k x_ik E_k (model A), hat(x_i) (B)): 3n
 *   su(N): euler-zeitlin and sine-euler
 *                   packed N x N skew-Hermitian X: Im X_aa (a = 0..N-1), then Re X_ab,
 *                   Im X_ab for a < b row-major: N^2 (the trace part included)  */
int slpi_problem_state_dim(const slpi_problem *p);   /* doubles in the state vector */
int slpi_problem_noise_count(const slpi_problem *p); /* M, the number of Wiener processes */
/* Truncation in force for this problem (resolves TRUNC_AUTO per docs/noise.md#truncation). */
int slpi_problem_truncates(const slpi_problem *p);
/* Name of state coordinate i (for TSV column headers), written into buf. */
void slpi_problem_state_name(const slpi_problem *p, int i, char *buf, size_t n);
/* State doubles, Wiener processes, steps, rows slpi_integrate writes (the output grid:
 * step 0, then every output_every-th step and the last, or the steps at the times of
 * the key save_at), the step size and output_every. SLPI_EINPUT: a save_at time off the
 * step grid (the message names the nearest grid times).
 * NULL: dim, noises, steps, rows, h, every (not asked). */
int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h, int *every);
int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
