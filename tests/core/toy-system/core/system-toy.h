/* core/system-toy.h — the toy's parameters, the member toy of the system view
 * (core/view-system.h, from the toy's line of core/system-list.h); its descriptor is
 * core/system-toy.c. The template of a new built-in system
 * (CONTRIBUTING.md#adding-a-system; tests/core/t-toy-system.sh inserts it). Not installed. */
#ifndef SLPI_CORE_SYSTEM_TOY_H
#define SLPI_CORE_SYSTEM_TOY_H

/* the toy on so(3): H0 = x.x, one noise H1 = amp x3 */
typedef struct {
    double amp;
} slpi_toy_params;

#endif
