/* core/system.h — one descriptor per built-in system: everything core knows of a system
 * in one file, core/system-<name>.c, and the table that indexes them by slpi_system_id,
 * core/system.c (designated initializers, as fast/fast.c and ref/system.c index their
 * system files). The generic code (the key parser, the validator, the shape, the initial
 * state) calls through the descriptor and never switches on a system id. Adding a
 * system: CONTRIBUTING.md#adding-a-system; tests/core/t-system.c fails naming the system
 * whose descriptor lacks a slot. */
#ifndef SLPI_CORE_SYSTEM_H
#define SLPI_CORE_SYSTEM_H

#include <stddef.h>
#include "slpi/registry.h"
#include "slpi/initial.h"
#include "core/algebra-type.h"
#include "core/problem-options.h"
#include "core/problem-key-table.h"

typedef struct slpi_error slpi_error;     /* slpi/errors.h */
typedef struct slpi_problem slpi_problem; /* core/problem-struct.h */

/* One cell of the applicability matrix (docs/systems.md#applicability): P, E or N/A and
 * why (a remark where it applies). */
typedef struct {
    slpi_applicability a;
    const char *reason;
} slpi_system_cell;

struct slpi_system_desc {
    const char *name; /* the key system's value, `slpi list --system` */
    /* the system's row of the applicability matrix, one cell a scheme */
    slpi_system_cell applicability[SLPI_SCHEME_COUNT];
    /* the shape (slpi/problem-shape.h): state doubles, noises, the names of the state
     * coordinates, and whether truncation=auto truncates (for h < 1) */
    int (*state_dim)(const slpi_problem *p);
    int (*noise_count)(const slpi_problem *p);
    void (*state_name)(const slpi_problem *p, int i, char *buf, size_t n);
    int (*truncates)(const slpi_problem *p);
    /* the algebra whose coordinate names are the state layout, written as the key
     * algebra's text into buf (so3, so(n), ...): 0 when the layout is no algebra's;
     * slpi_problem_state_algebra (core/expr.h) parses it and checks the names */
    int (*layout_algebra)(const slpi_problem *p, char *buf, size_t n);
    /* stochastic Lie-Euler's consistency (core/lie-euler.c): 1 and why, or 0 and why not */
    int (*le_consistent)(const slpi_problem *p, const char **why);
    /* the initial state: the kind of the default's description and its doubles
     * (SLPI_INITIAL_VALUES: the state itself, state_dim), the default itself (rounding to
     * nearest: its caller sets it) or the reason there is none, and the manifold check of
     * an explicit state x[state_dim] (src names it in the message) */
    slpi_initial_kind initial_kind;
    int (*initial_size)(const slpi_problem *p);
    int (*default_state)(const slpi_problem *p, double *x, slpi_error *err);
    int (*check_state)(const slpi_problem *p, const double *x, const char *src, slpi_error *err);
    /* the system's rules across its keys and the scheme (after the ranges, the
     * applicability pair and the generic rules of core/problem-validate.c) */
    int (*validate)(const slpi_problem *p, slpi_error *err);
    /* the system's defaults (the papers' parameters; they may follow p->sch.scheme: svi
     * brings the SVI forms), set by the key system; form_defaults (NULL: the system has no
     * key form) those of a form, set by the key form */
    void (*defaults)(slpi_problem *p);
    void (*form_defaults)(slpi_problem *p, int form);
    /* the system's own keys (core/problem-key-table.h), after the keys of every system */
    const slpi_key_def *keys;
    int nkeys;
    /* scheme svi (docs/schemes.md#svi): the form svi_form=auto takes (never
     * SLPI_SVI_FORM_AUTO: lp but for the SO(3) vector forms; a model on so3 takes so3 by
     * its algebra), the forms svi_form may name (a bit 1 << form each, svi_form's among
     * them), and whether switching to or from svi resets the system's defaults (an SVI
     * form with a state of its own, the heavy top's (Pi, Gamma, R)) */
    slpi_svi_form svi_form;
    unsigned svi_forms;
    int svi_resets_defaults;
    /* the certified path's BLAS route (docs/design.md#blas-route): 1 where the products of
     * an ISOMP step may take it (matmul=blas), 0 where matmul=blas is refused */
    int blas_route;
    /* solver defaults of its own (core/problem.c): ISOMP's warm start (1: on), TMK's
     * tolerance (0: the scheme's) */
    int isomp_warm_start;
    double tmk_tol;
};
typedef struct slpi_system_desc slpi_system_desc;

/* The descriptor of system s; NULL for an id outside the enum. */
const slpi_system_desc *slpi_system_get(slpi_system_id s);

/* Helpers the descriptors share (core/system-shared.c): the names of an su(N) state (Im
 * X_aa, then Re/Im X_ab); whether R (3 x 3, row-major) is a rotation within
 * SLPI_MANIFOLD_TOL (*defect: max(|R^T R - I|, |det R - 1|)); that an su(n) state x is
 * traceless (SLPI_EINPUT naming src otherwise). */
void slpi_system_sun_name(int N, int i, char *buf, size_t n);
int slpi_system_orthogonal(const double *R, double *defect);
int slpi_system_check_traceless(const double *x, int n, const char *src, slpi_error *err);

#endif
