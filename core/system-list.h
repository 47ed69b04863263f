/* core/system-list.h — the built-in systems, each named once (CONTRIBUTING.md#adding-a-system;
 * docs/architecture.md#system-descriptors). A system's line X(ID, stem, params, member)
 * gives its id's suffix in slpi/registry-ids.h (SLPI_SYS_<ID>), its files' stem (its
 * descriptor slpi_system_<stem> in core/system-<stem>.c), the type of its parameters
 * (declared in its header, included here) and their member in the system view.
 * core/view-system.h makes the view's members from the list and core/system.c the index of
 * the descriptors; the two paths keep tables of their own (fast/fast.c, ref/system.c),
 * which tests/core/t-system.c checks row by row. Not installed. */
#ifndef SLPI_CORE_SYSTEM_LIST_H
#define SLPI_CORE_SYSTEM_LIST_H

#include "core/system-rigid-body.h"
#include "core/system-heavy-top.h"
#include "core/system-manakov.h"
#include "core/system-point-vortices.h"
#include "core/system-euler-zeitlin.h"
#include "core/system-sine-euler.h"
#include "core/system-model.h"

#define SLPI_SYSTEM_LIST(X)                                                                                            \
    X(RIGID_BODY, rigid_body, slpi_rb_params, rb)                                                                      \
    X(HEAVY_TOP, heavy_top, slpi_ht_params, ht)                                                                        \
    X(MANAKOV, manakov, slpi_mk_params, mk)                                                                            \
    X(POINT_VORTICES, point_vortices, slpi_pv_params, pv)                                                              \
    X(EULER_ZEITLIN, euler_zeitlin, slpi_ez_params, ez)                                                                \
    X(SINE_EULER, sine_euler, slpi_se_params, se)                                                                      \
    X(MODEL, model, slpi_model_params, model) /* docs/models.md */                                                     \
    /* the list's end: a new system's line goes above */

#endif
