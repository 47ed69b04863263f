/* solver.c — the common solver policy of SPEC §3.0 for every implicit scheme of the
 * double path: max-norm increments, converged / stagnated / capped / diverged. */
#include <math.h>
#include "fast.h"

void slpi_fast_iter_begin(slpi_fast_iter *it, const slpi_fast_policy *pol)
{
    it->pol = pol;
    it->it = 0;
    it->first = it->prev = it->last = 0;
}

int slpi_fast_iter_check(slpi_fast_iter *it, double dmax, double unorm)
{
    const slpi_fast_policy *pol = it->pol;
    it->it++;
    if (it->it == 1) it->first = dmax;
    it->prev = it->last;
    it->last = dmax;
    if (!isfinite(dmax) || !isfinite(unorm)) return SLPI_STEP_DIVERGED;
    if (pol->fixed_iters > 0)
        return it->it >= pol->fixed_iters ? SLPI_STEP_CAPPED : -1;
    double scale = unorm > 1 ? unorm : 1;
    if (dmax <= pol->tol * scale) return SLPI_STEP_CONVERGED;
    if (it->it > 1 && dmax >= it->prev && dmax <= 100 * pol->tol * scale)
        return SLPI_STEP_STAGNATED;
    if (it->it > 1 && dmax > 1e6 * it->first && it->first > 0) return SLPI_STEP_DIVERGED;
    if (it->it >= pol->maxit)
        return pol->on_cap == SLPI_CAP_ACCEPT ? SLPI_STEP_CAPPED : SLPI_STEP_NOT_CONVERGED;
    return -1;
}
