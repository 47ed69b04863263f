/* slpi/noise.h — the canonical noise: normals, Wiener increments, truncation, a run's
 * source of increments (part of slpi.h). */
#ifndef SLPI_PUBLIC_NOISE_H
#define SLPI_PUBLIC_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "slpi/errors.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- canonical noise
 * docs/noise.md#contract, docs/noise.md. Every increment is a pure function of (seed, path, component,
 * level, index): Philox4x32-10 counters, a uniform → normal map that gives the same
 * bits on every IEEE binary64 platform, and bottom-up dyadic sums for coarse levels.
 * The construction is documented in core/noise.c. */

/* Standard normal number j of stream (seed, path, component). */
double slpi_noise_normal(uint64_t seed, uint64_t path, uint32_t component, uint64_t j);
/* out[i] = slpi_noise_normal(seed, path, component, first + i), i < count. */
void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component, uint64_t first, size_t count, double *out);
/* Wiener increments of steps first..first+count-1 at step size h, in a hierarchy
 * whose finest level is `refine` levels below: each increment is the dyadic pairwise
 * binary64 sum of its 2^refine fine increments sqrt(h/2^refine) * Z. refine = 0 gives
 * sqrt(h) * Z. Untruncated. Arguments (the same rules as `slpi noise`): h finite and
 * 0 < h <= 1e6 (NaN, infinity, zero and negative step sizes are refused), 0 <= refine
 * <= SLPI_NOISE_MAX_REFINE, (first + count) 2^refine < 2^62 (the fine index), out not
 * NULL when count > 0. SLPI_OK, or SLPI_EINPUT with out untouched and err naming the
 * argument. A generation of more than 2^20 fine draws polls the interrupt flag after
 * every 2^20 (about 3 ms) and returns SLPI_EINTR once it is raised, out partly written.
 * NULL: out (when count is 0), err. */
#define SLPI_NOISE_MAX_REFINE 40
int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h, int refine, uint64_t first,
                          size_t count, double *out, slpi_error *err);
/* The work bound of a generation: count increments at refine cost count 2^refine fine
 * draws, at most SLPI_NOISE_MAX_DRAWS = 2^38 per call of slpi_noise_increments, per run's
 * noise (steps M 2^refine) and per `slpi noise` (about 15 minutes at the ~3 ns a fine
 * draw takes: docs/noise.md#refine). Beyond it SLPI_EINPUT naming refine and the time
 * (generate such noise in pieces with first/--first). NULL: err. */
#define SLPI_NOISE_MAX_DRAWS (UINT64_C(1) << 38)
int slpi_noise_check_work(uint64_t count, int refine, slpi_error *err);
/* docs/noise.md#truncation threshold D(h, ell) = sqrt(2 ell h |ln h|) (0 < h < 1), computed in high
 * precision and rounded to nearest binary64. */
double slpi_noise_threshold(double h, double ell);
/* Clip x[0..n) to [-D, D] by exact comparison; returns how many were clipped. */
long slpi_noise_clip(double *x, size_t n, double D);

/* A run's source of increments: the canonical generator or a noise file
 * (p->noise_file), with the problem's truncation rule applied. */
typedef struct slpi_noise_source slpi_noise_source;
int slpi_noise_source_open(slpi_noise_source **out, const slpi_problem *p, slpi_error *err);
/* The M increments of step n (0-based), truncated per the problem; with noise_tau, a
 * coloured component's are the Ornstein-Uhlenbeck increments of docs/noise.md#ou. */
int slpi_noise_source_step(slpi_noise_source *src, long n, double *dW, slpi_error *err);
long slpi_noise_source_clipped(const slpi_noise_source *src);
void slpi_noise_source_close(slpi_noise_source *src);
/* The truncation rule in one place (docs/noise.md#truncation): the problem's threshold D(h, trunc_ell)
 * when slpi_problem_truncates(p), +INFINITY when it does not truncate (clipping at it is
 * the identity), NAN outside the rule's domain (the noise source reports that). */
double slpi_problem_noise_threshold(const slpi_problem *p);
/* Canonical increments as rows: out[i M + k] = increment of step first + i, component
 * k (slpi_noise_increments with h and refine, so coarse levels are the canonical dyadic
 * sums), i < count, clipped to [-D, D] (D = INFINITY: untruncated). Returns the number
 * clipped, -1 if out of memory or an argument breaks slpi_noise_increments's rules (M
 * must be >= 0). */
long slpi_noise_rows(double *out, uint64_t seed, uint64_t path, int M, double h, int refine, uint64_t first,
                     size_t count, double D);

#ifdef __cplusplus
}
#endif
#endif
