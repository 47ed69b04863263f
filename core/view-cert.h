/* core/view-cert.h — the certified path's options: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_cert(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_CERT_H
#define SLPI_CORE_VIEW_CERT_H

#include "core/problem-options.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The certified path's precision and propagation (docs/design.md#views). */
typedef struct slpi_cert_view {
    long prec;                /* working precision in bits (default 128) */
    long prec_max;            /* cap for automatic precision doubling */
    int ref_lohner;           /* key propagation: SLPI_PROPAGATION_AUTO (default), _BALL or
                                 _LOHNER (the ref path's mean-value form; slpi_ref_set_lohner) */
    slpi_matmul_route matmul; /* key matmul: who encloses the O(N^3) products */
} slpi_cert_view;

/* p's cert view: owned by p, valid while p lives and unchanged. */
const slpi_cert_view *slpi_view_cert(const slpi_problem *p);
/* p's cert view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_cert_view *slpi_view_cert_edit(slpi_problem *p);

#endif
