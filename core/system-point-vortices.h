/* core/system-point-vortices.h — the point vortices's parameters, the member pv of the system view
 * (core/view-system.h); its descriptor is core/system-point-vortices.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_POINT_VORTICES_H
#define SLPI_CORE_SYSTEM_POINT_VORTICES_H

#include "core/problem-options.h"

/* point vortices su(2)^n (docs/systems.md#point-vortices) */
typedef struct {
    int n;
    slpi_vortex_model model;
    double amp;
    int noise;
} slpi_pv_params;

#endif
