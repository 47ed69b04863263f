/* core/system-sine-euler.h — the sine-Euler system's parameters, the member se of the system view
 * (core/view-system.h); its descriptor is core/system-sine-euler.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_SINE_EULER_H
#define SLPI_CORE_SYSTEM_SINE_EULER_H

#include <stdint.h>
#include "core/problem-options.h"

/* sine-Euler su(N), N odd (docs/systems.md#sine-euler) */
typedef struct {
    int N;
    double amp;
    int noise;
    slpi_se_ic ic;
    uint64_t ic_seed;
} slpi_se_params;

#endif
