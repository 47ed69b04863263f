/* lie-euler.c — claim X4's mathematics, its one home: when stochastic Lie-Euler (rkmk-le) is
 * Stratonovich-consistent. RKMK-LE takes sigma = sum_k Delta_k xi_k(mu_n),
 * mu_{n+1} = exp(ad*_sigma) mu_n; the derivation is below (slpi_problem_le_consistent), the
 * rule for the built-in systems' noise models (each in its descriptor, core/system-<name>.c,
 * le_consistent; for a model, the sufficient rule on its noise Hamiltonians,
 * slpi_model_le_consistent in core/system-model.c). The validator (core/problem-validate.c)
 * refuses rkmk-le where the rule does not hold; the audit's numerical check of the same
 * statement (the missed drift, and the gap to RKMK-Heun that shrinks with h iff it is 0)
 * is gaps/consistency.c. */
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/system.h"
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-finish.h"

#include <stddef.h>

/* Stochastic Lie-Euler (RKMK-LE) is Stratonovich-consistent for p's system and noise model
 * (docs/schemes.md#rkmk; claim X4, whose audit computes the missed drift and the gap to
 * RKMK-Heun in gaps/consistency.c). Its mean increment carries
 * 1/2 sum_k ad*_{xi_k} V_k h with V_k = ad*_{xi_k(mu)} mu; the Stratonovich SDE's Ito drift is
 * 1/2 sum_k (ad*_{xi_k} V_k + ad*_{D xi_k(mu)[V_k]} mu), so the scheme misses
 * d(mu) = 1/2 sum_k ad*_{D xi_k(mu)[V_k]} mu and is consistent iff d = 0. Linear H_k have
 * D xi_k = 0; H_k = phi(<mu, e_k>) has D xi_k[V_k] = phi'' <V_k, e_k> e_k with
 * <ad*_{e_k} mu, e_k> = <mu, [e_k, e_k]> = 0; the heavy top's k|Pi|^2 moves Gamma only
 * (V_k = (0, .)), so D xi_k[V_k] = 0. So every noise model here is consistent; a noise
 * such as H_1 = a x_1 x_2 on so(3) is not (d != 0: the audit's negative control). */
int slpi_problem_le_consistent(const slpi_problem *p, const char **why)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    const char *r = "no derivation for this noise model (docs/schemes.md#rkmk)";
    int ok = d && d->le_consistent(p, &r);
    if (why) *why = r;
    return ok;
}
