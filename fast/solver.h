/* fast/solver.h — the solver policy of the double path's implicit schemes
 * (docs/schemes.md#solver): the stopping rule every fixed-point and Newton-type iteration
 * applies, and the SVI vector forms' iteration (fast/svi.c). The certified path's solvers
 * are ref/krawczyk.h's. Not installed. */
#ifndef SLPI_FAST_SOLVER_H
#define SLPI_FAST_SOLVER_H

#include "slpi/step.h"
#include "core/problem-options.h"
#include "fast/ensemble.h" /* slpi_fast_policy, shared with the lock-step ensembles */

typedef struct {
    const slpi_fast_policy *pol;
    int it;                   /* iterations done */
    double first, prev, last; /* increments */
} slpi_fast_iter;


static inline void slpi_fast_iter_begin(slpi_fast_iter *it, const slpi_fast_policy *pol)
{
    it->pol = pol;
    it->it = 0;
    it->first = it->prev = it->last = 0;
}

/* Record one iteration with increment dmax = ||u_new - u||_max and unorm = ||u_new||_max.
 * Returns -1 to continue, or the final step status (docs/schemes.md#solver): converged when
 * dmax <= tol s, s = max(1, unorm) (or tol_h unorm, tol_scale=step); stagnated when the
 * increment stopped decreasing within 100 tol s; diverged on NaN/Inf or growth > 1e6 over the first increment;
 * capped at maxit (policy ACCEPT) or not converged (FAIL); fixed_iters > 0 runs exactly
 * that many iterations and reports CAPPED. (Inline: the ensembles call it per path.) */
static inline int slpi_fast_iter_check(slpi_fast_iter *it, double dmax, double unorm)
{
    const slpi_fast_policy *pol = it->pol;
    it->it++;
    if (it->it == 1) it->first = dmax;
    it->prev = it->last;
    it->last = dmax;
    if (!(dmax - dmax == 0) || !(unorm - unorm == 0)) return SLPI_STEP_DIVERGED; /* NaN/Inf */
    if (pol->fixed_iters > 0) return it->it >= pol->fixed_iters ? SLPI_STEP_CAPPED : -1;
    double scale = pol->tol_h > 0 ? pol->tol_h * unorm : unorm > 1 ? unorm : 1;
    if (dmax <= pol->tol * scale) return SLPI_STEP_CONVERGED;
    if (it->it > 1 && dmax >= it->prev && dmax <= 100 * pol->tol * scale) return SLPI_STEP_STAGNATED;
    if (it->it > 1 && dmax > 1e6 * it->first && it->first > 0) return SLPI_STEP_DIVERGED;
    if (it->it >= pol->maxit) return pol->on_cap == SLPI_CAP_ACCEPT ? SLPI_STEP_CAPPED : SLPI_STEP_NOT_CONVERGED;
    return -1;
}

/* SVI vector forms (docs/schemes.md#svi-so3, docs/schemes.md#svi-sd), fast/svi.c. map(ctx, A, B, x, tau, f) gives
 * x = Delta t xi, tau = cay(x) and f (0 for SO(3)) for the current unknowns A, B.
 * slpi_fast_svi3_solve sweeps as `sweeps` says from A = B = Pi_k under pol, then calls map
 * once more on the final A, B; returns the step status with the iteration count and last
 * increment. SLPI_FAST_SVI_AC: A = A_c(x)^{-1} Pi_k, B = A_c(x)^{-1}(tau^T Pi_k - f), slpi's
 * own; SLPI_FAST_SVI_PAPER: the paper's sweeps (64), the SO(3) form's, f = 0;
 * SLPI_FAST_SVI_NONE: no sweep, the step at the start's velocity (the diagnosis's stops in
 * plain sweeps, fast/ingredients.h). */
enum { SLPI_FAST_SVI_AC, SLPI_FAST_SVI_PAPER, SLPI_FAST_SVI_NONE };
typedef void (*slpi_fast_svi3_map)(void *ctx, const double *A, const double *B, double *x, double *tau, double *f);
int slpi_fast_svi3_solve(double c, int sweeps, const slpi_fast_policy *pol, slpi_fast_svi3_map map, void *ctx,
                         const double *Pk, double *A, double *B, double *x, double *tau, double *f, int *iters,
                         double *resid);

#endif
