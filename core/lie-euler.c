/* lie-euler.c — claim X4's mathematics, its one home: when stochastic Lie-Euler (rkmk-le) is
 * Stratonovich-consistent. RKMK-LE takes sigma = sum_k Delta_k xi_k(mu_n),
 * mu_{n+1} = exp(ad*_sigma) mu_n; the derivation is below (slpi_problem_le_consistent), the
 * rule for the built-in systems' noise models and, for a model, the sufficient rule on its
 * noise Hamiltonians (slpi_model_le_consistent). The validator (core/problem-validate.c)
 * refuses rkmk-le where the rule does not hold; the audit's numerical check of the same
 * statement (the missed drift, and the gap to RKMK-Heun that shrinks with h iff it is 0)
 * is gaps/consistency.c. */
#include "core/problem-struct.h"
#include "core/expr.h"
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
    const char *r = NULL;
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        switch (p->sys.rb.noise) {
        case SLPI_RB_NOISE_NONE:
            r = "no noise";
            break;
        case SLPI_RB_NOISE_ISO_QUAD:
        case SLPI_RB_NOISE_ISO_QUAD1:
            r = "H_i = amp x_i^2 is a function of one coordinate";
            break;
        case SLPI_RB_NOISE_SVI_LIN:
        case SLPI_RB_NOISE_SVI_LIN1:
        case SLPI_RB_NOISE_CONST_E3:
            r = "linear H_k";
            break;
        }
        break;
    case SLPI_SYS_HEAVY_TOP:
        r = p->sys.ht.noise == SLPI_HT_NOISE_NONE        ? "no noise"
            : p->sys.ht.noise == SLPI_HT_NOISE_CASE2_PI2 ? "H_1 = k|Pi|^2 moves Gamma only: D xi[V] = 0"
                                                         : "linear H_k";
        break;
    case SLPI_SYS_MANAKOV:
        r = p->sys.mk.noise ? "H_ij = amp X_ij^2 is a function of one coordinate" : "no noise";
        break;
    case SLPI_SYS_POINT_VORTICES:
        r = p->sys.pv.noise ? "each shared H_k is a sum of functions of one coordinate per vortex" : "no noise";
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        r = p->sys.ez.noise == SLPI_EZ_NOISE_Q        ? "reading (Q): H = a_l omega^2/2 is a function of one "
                                                        "coordinate"
            : p->sys.ez.noise == SLPI_EZ_NOISE_L      ? "reading (L): linear H_k"
            : p->sys.ez.noise == SLPI_EZ_NOISE_MODES  ? "noise=modes: linear H_k"
            : p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS ? "noise=fields: linear H_k"
                                                      : "no noise";
        break;
    case SLPI_SYS_SINE_EULER:
        r = p->sys.se.noise ? "SALT noise: linear H_k" : "no noise";
        break;
    case SLPI_SYS_MODEL: {
        slpi_error e;
        slpi_model m;
        if (slpi_model_parse(&m, p, &e) != SLPI_OK) {
            if (why) *why = "the model does not parse";
            return 0;
        }
        const char *w;
        int ok = slpi_model_le_consistent(&m, &w);
        slpi_model_free(&m);
        if (why) *why = w;
        return ok;
    }
    default:
        break;
    }
    if (why) *why = r ? r : "no derivation for this noise model (docs/schemes.md#rkmk)";
    return r != NULL;
}

/* The rule on a model (core/expr.h): every noise Hamiltonian affine, or a function of
 * coordinates whose basis elements commute pairwise (then D xi_k[V_k] = 0 as above). */
int slpi_model_le_consistent(const slpi_model *m, const char **why)
{
    int affine = 1;
    for (int k = 1; k <= m->M; k++) {
        const slpi_expr *e = &m->H[k];
        if (m->callback[k]) {
            *why = "a noise Hamiltonian is given by a callback, whose form the rule cannot read "
                   "(docs/models.md#callbacks)";
            return 0;
        }
        int deg = slpi_expr_degree(e);
        if (deg >= 0 && deg <= 1) continue;
        affine = 0;
        for (int i = 0; i < e->n; i++) {
            if (e->node[i].op != SLPI_EXPR_COORD) continue;
            for (int j = 0; j < i; j++)
                if (e->node[j].op == SLPI_EXPR_COORD &&
                    !slpi_algebra_commute(&m->alg, e->node[i].arg, e->node[j].arg)) {
                    *why = "a noise Hamiltonian is neither affine nor a function of coordinates whose "
                           "basis elements commute, so Lie-Euler's missed drift need not vanish "
                           "(docs/models.md#schemes)";
                    return 0;
                }
        }
    }
    *why = m->M == 0 ? "no noise"
        : affine     ? "affine noise Hamiltonians"
                     : "every noise Hamiltonian is affine or a function of commuting coordinates";
    return 1;
}
