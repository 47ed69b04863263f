/* core/system-euler-zeitlin.h — the Euler–Zeitlin system's parameters, the member ez of the system view
 * (core/view-system.h); its descriptor is core/system-euler-zeitlin.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_EULER_ZEITLIN_H
#define SLPI_CORE_SYSTEM_EULER_ZEITLIN_H

#include <stdint.h>
#include "core/problem-options.h"
#include "slpi/limits.h"

/* Euler–Zeitlin su(N) (docs/systems.md#euler-zeitlin) */
typedef struct {
    int N;
    slpi_ez_noise noise;
    double amp;
    int ic_lmax;
    double scale;
    /* the Zeitlin family (docs/systems.md#zeitlin-family): psi = (Delta_N -
     * kappa^2)^{-1}(X - F), F = rotation's Coriolis term plus background_modes;
     * noise=modes: H_k = <X, amp_k Y_(l_k, m_k)>; lists "l:m:amp,...";
     * noise=fields: H_k = <X, xi_k>, the xi_k read from the file noise_fields by
     * slpi_problem_finish, which sets n_fields (M) and the file's digest */
    double kappa;
    double rotation;
    char noise_modes[SLPI_EZ_MODES_TEXT];
    char background_modes[SLPI_EZ_MODES_TEXT];
    char noise_fields[SLPI_PATH_MAX];
    uint64_t noise_fields_digest;
    int n_fields;
    /* multiplier: L as its spectral multiplier lambda(l), an expression in l
     * (core/expr.h), in place of Delta_N - kappa^2; "" none */
    char multiplier[SLPI_EXPR_MAX_TEXT];
} slpi_ez_params;

#endif
