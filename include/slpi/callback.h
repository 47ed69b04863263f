/* slpi/callback.h — a model's Hamiltonians given as code (docs/models.md#callbacks; part
 * of slpi.h). */
#ifndef SLPI_PUBLIC_CALLBACK_H
#define SLPI_PUBLIC_CALLBACK_H

#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/limits.h" /* SLPI_MODEL_MAX_NOISE */

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* A Hamiltonian H_k of a model given as code (docs/models.md#callbacks), for what an
 * expression cannot reach (a matrix function on a large su(N)). In the model's
 * coordinates mu[0..dim) (the algebra's state layout, docs/models.md#algebras), each
 * function writes its output first and returns 0, or non-zero to stop the run:
 *   grad    dH[i] = dH/dmu_i, the plain partial derivatives (slpi applies the algebra's
 *           pairing weights and, on su(n), the traceless projection, as for an expression)
 *   hvp     Hw[i] = sum_j (d^2 H / dmu_i dmu_j) w_j, the derivative of grad along w (the
 *           TMK chord, Newton and RKMK's dgen need it)
 *   energy  *H = H(mu); optional (NULL): only the diagnostic H0 (k = 0) uses it.
 * Non-finite output or a non-zero return fails the step (exit 3 with the step and the
 * Hamiltonian named). Only the double path evaluates a callback: the certified path,
 * golden files and certified verification refuse a problem that has one, and every
 * output of its runs says it is uncertified. */
typedef int (*slpi_model_grad_fn)(double *dH, const double *mu, int dim, void *user_data);
typedef int (*slpi_model_hvp_fn)(double *Hw, const double *mu, const double *w, int dim, void *user_data);
typedef int (*slpi_model_energy_fn)(double *H, const double *mu, int dim, void *user_data);
typedef struct {
    slpi_model_grad_fn grad; /* NULL: H_k is not a callback */
    slpi_model_hvp_fn hvp;
    slpi_model_energy_fn energy;
    void *user_data;
} slpi_model_callback;
/* Give Hamiltonian k of a model (0: H, k >= 1: noise_Hk) as code instead of an expression
 * (slpi_model_callback above; docs/models.md#callbacks): grad and hvp required, energy
 * may be NULL, user_data is passed back to each. The key H or noise_Hk must then be left
 * unset; a noise callback counts in M like noise_Hk. SLPI_EINPUT naming the reason if p
 * is not system=model, k is out of 0..SLPI_MODEL_MAX_NOISE or grad/hvp is NULL. Setting
 * the key system (or a preset) clears the callbacks.
 * NULL: energy, user_data. */
int slpi_problem_set_callback(slpi_problem *p, int k, slpi_model_grad_fn grad, slpi_model_hvp_fn hvp,
                              slpi_model_energy_fn energy, void *user_data, slpi_error *err);
/* The Hamiltonians of p given as code, as "H,noise_H2" into buf (n bytes; "" if none);
 * returns their number. A problem with any is uncertified in every output. */
int slpi_problem_callbacks(const slpi_problem *p, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
