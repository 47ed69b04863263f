/* core/system-model.h — the model's parameters, the member model of the system view
 * (core/view-system.h); its descriptor is core/system-model.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_MODEL_H
#define SLPI_CORE_SYSTEM_MODEL_H

#include "core/problem-options.h"
#include "slpi/limits.h"
#include "core/algebra-type.h"

/* a model (docs/models.md): algebra, Hamiltonian, noise Hamiltonians noise_H1..noise_HM
 * (M = the highest index given; gaps are an error) and parameters param.NAME, all as
 * the text given, parsed by core/expr.h */
typedef struct {
    char algebra[SLPI_MODEL_NAME_MAX];
    slpi_algebra alg; /* algebra parsed once, by the key's setter (dim 0: not given;
                         slpi_problem_algebra) */
    char H[SLPI_EXPR_MAX_TEXT];
    char noise_H[SLPI_MODEL_MAX_NOISE][SLPI_EXPR_MAX_TEXT];
    int nparam;
    char param_name[SLPI_MODEL_MAX_PARAMS][SLPI_MODEL_NAME_MAX];
    char param_text[SLPI_MODEL_MAX_PARAMS][SLPI_MODEL_PARAM_TEXT];
    double param[SLPI_MODEL_MAX_PARAMS];
    /* key t0: the time of step 0 as given ("": not given, t0 = 0) and its binary64
     * rounding; step n's Hamiltonians read t = t0 + (n + c) h (docs/models.md#time) */
    char t0_text[SLPI_MODEL_PARAM_TEXT];
    double t0;
    /* cb[0] for H, cb[k] for noise_Hk: set by slpi_problem_set_callback */
    slpi_model_code cb[1 + SLPI_MODEL_MAX_NOISE];
} slpi_model_params;

#endif
