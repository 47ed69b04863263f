/* slpi/initial.h — a problem's initial state: the explicit one, the manifold check, the
 * defaults (part of slpi.h). */
#ifndef SLPI_PUBLIC_INITIAL_H
#define SLPI_PUBLIC_INITIAL_H

#include "slpi/errors.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* The explicit initial state (x0 values or x0_file) into x[state_dim]: returns 1 if
 * one was given, 0 if the system's default applies, -1 on error (err set). A given
 * state must lie on the system's manifold within SLPI_MANIFOLD_TOL (heavy top |gamma| =
 * 1; R^T R = I, det R = 1 where the state holds R; Euler-Zeitlin and sine-Euler states
 * traceless, relative to max(1, max |x|) per diagonal entry). */
#define SLPI_MANIFOLD_TOL 1e-10
int slpi_problem_explicit_x0(const slpi_problem *p, double *x, slpi_error *err);
/* The same manifold check of a state x[state_dim] given by other means (a binding's array). */
int slpi_problem_check_state(const slpi_problem *p, const double *x, slpi_error *err);

/* Initial states (core/initial-state.c documents every default, docs/systems.md). The initial
 * state is part of the problem: an explicit x0 / x0_file, or the system's default,
 * described here once for both paths. Most are values in the state layout; the
 * Euler–Zeitlin and sine-Euler defaults are coefficients in a basis of su(N) that each
 * path maps with its own basis (slpi_fast_initial_state: binary64 tables;
 * slpi_ref_initial_state: certified balls), so neither path needs the other. */
typedef enum {
    SLPI_INITIAL_VALUES,  /* slpi_problem_state_dim doubles: the state itself */
    SLPI_INITIAL_ZEITLIN, /* N^2 - 1 doubles omega_alpha: X0 = sum omega_alpha Y_alpha, the
                              real basis of the quantized harmonics, alpha = l^2 - 1 + j */
    SLPI_INITIAL_FOURIER  /* 2 (N^2 - 1) doubles (Re, Im) of omega_m by mode index (m1 =
                              -K..K, then m2, zero skipped): W0 = sum omega_m T_m */
} slpi_initial_kind;
slpi_initial_kind slpi_problem_initial_kind(const slpi_problem *p);
/* Doubles of the description (state_dim for values). */
int slpi_problem_initial_size(const slpi_problem *p);
/* The description into x[slpi_problem_initial_size]; SLPI_OK or an input error. */
int slpi_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err);

#ifdef __cplusplus
}
#endif
#endif
