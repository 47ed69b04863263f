/* core/system-rigid-body.h — the rigid body's parameters, the member rb of the system view
 * (core/view-system.h); its descriptor is core/system-rigid-body.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_RIGID_BODY_H
#define SLPI_CORE_SYSTEM_RIGID_BODY_H

#include "core/problem-options.h"

/* rigid body (docs/systems.md#rigid-body) */
typedef struct {
    slpi_rb_form form;
    double inertia[3];
    slpi_rb_noise noise;
    double amp;
    double h0_scale;
    int track_R;
} slpi_rb_params;

#endif
