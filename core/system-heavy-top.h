/* core/system-heavy-top.h — the heavy top's parameters, the member ht of the system view
 * (core/view-system.h); its descriptor is core/system-heavy-top.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_HEAVY_TOP_H
#define SLPI_CORE_SYSTEM_HEAVY_TOP_H

#include "core/problem-options.h"

/* heavy top (docs/systems.md#heavy-top). SVI form: default state Pi0 = pi0, R0 = rotation
 * by theta0 about e_1, Gamma0 = R0^T e_3; RKMK form: pi0 = gamma0 = sqrt2/2 (-1, 1, 0). */
typedef struct {
    slpi_ht_form form;
    double inertia[3];
    double mga[3];
    double mg;
    slpi_ht_noise noise;
    double alpha[3];
    double k[2];
    int potential_printed;
    double theta0;
    double pi0[3];
    int exp_form; /* fast RKMK orbit map: 0 cancellation-free coefficients (default),
                     1 textbook Rodrigues (1 - cos t)/t^2, 2 expm (scaling and squaring),
                     3 textbook Rodrigues with cos t one ulp up (audit R2) */
} slpi_ht_params;

#endif
