/* fast/lie-ops.h — the declared interface of the double path for computations outside fast/
 * that need a system's Lie-algebra operations or the fast path's fixed-point policy
 * (the audit's extra mathematics, gaps/). Everything here works on an slpi_fast handle
 * (slpi.h) and keeps fast/fast.h private: nothing outside fast/ sees the system table.
 * The 3-vector kernels of fast/vec3.h (inline, no state) come with it. */
#ifndef SLPI_FAST_LIE_OPS_H
#define SLPI_FAST_LIE_OPS_H

#include "slpi/step.h"
typedef struct slpi_fast slpi_fast;
#include "fast/vec3.h"

/* Doubles of an algebra element / of mu (dim) and of one matrix in the system's private
 * matrix representation (mdim; 0 when the system has no matrix form). */
int slpi_fast_algebra_dim(const slpi_fast *f);
int slpi_fast_matrix_dim(const slpi_fast *f);
/* 1 when the system provides the orbit map, the bracket and ad* on the fast path. */
int slpi_fast_has_algebra(const slpi_fast *f);
/* out = O_exp(sigma; mu) = exp(ad*_sigma) mu (docs/conventions.md#orbit-maps); 0 or an error code. */
int slpi_fast_orbit(const slpi_fast *f, double *out, const double *sigma, const double *mu);
/* out = [a, b] (algebra coefficients). */
void slpi_fast_lie(const slpi_fast *f, double *out, const double *a, const double *b);
/* out = ad*_xi mu. */
void slpi_fast_coad(const slpi_fast *f, double *out, const double *xi, const double *mu);
/* xi = sum_{k=0..M} delta_k grad H_k(mu) (delta = (h, dW_1..dW_M)); 0 or SLPI_ENUMERIC. */
int slpi_fast_gradient_sum(const slpi_fast *f, double *xi, const double *delta, const double *mu);
/* Psi = sum_k delta_k B_k(Y) in the matrix representation (mdim doubles; docs/conventions.md#sde). */
void slpi_fast_generator_sum(const slpi_fast *f, double *Psi, const double *delta, const double *Y);

/* Fixed-point iteration u <- map(u) on n doubles under the solver policy of docs/schemes.md#solver
 * (tolerance tol max(1, |u|), at most maxit iterations, failure at the cap), the same
 * stopping rule as the fast path's schemes. map returns 0, or nonzero when it cannot be
 * evaluated (then the status is DIVERGED). Returns the step status; *iters the count. */
typedef int (*slpi_fast_fixed_map)(void *ctx, const double *u, double *unew);
slpi_step_status slpi_fast_fixed_point(slpi_fast_fixed_map map, void *ctx, int n, double tol, int maxit, double *u,
                                       int *iters);

#endif
