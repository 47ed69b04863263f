/* fast/algebra.h — the algebra families of the double path, each in its own file
 * fast/algebra-<family>.c, shared by the built-in systems on it and fast/model.c
 * (docs/models.md), as ref/algebra.h on the certified path (docs/conventions.md#algebras).
 * So far se(3) (fast/algebra-se3.c); so(3), so(n) and so(3)^k are still the rigid body's,
 * Manakov's and the point vortices' operations, which fast/model.c borrows from a built-in
 * system without noise, and su(n) is fast/sun.c's context (docs/architecture.md#twins). */
#ifndef SLPI_FAST_ALGEBRA_H
#define SLPI_FAST_ALGEBRA_H

#include "slpi/step.h"
#include "fast/system.h"

/*   se(3) in (pi, gamma), dot pairing (fast/algebra-se3.c): the slots coad, lie and orbit
 *   (the cancellation-free closed form; slpi_fast_se3_orbit_form with the key exp_form's
 *   variant: 0 that form, 1 textbook Rodrigues, 2 expm by scaling and squaring, 3 textbook
 *   Rodrigues with cos rounded one ulp up), and the Casimirs' diagnostics C1 = |gamma|^2,
 *   C2 = pi.gamma (slpi_fast_se3_casimir_devs: C1_dev, C2_dev against x0). */
void slpi_fast_se3_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
void slpi_fast_se3_lie(const slpi_fast_system *s, double *out, const double *u, const double *v);
int slpi_fast_se3_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
void slpi_fast_se3_orbit_form(double *out, const double *sigma, const double *mu, int exp_form);
void slpi_fast_se3_casimirs(slpi_diag *d, const double *x);
void slpi_fast_se3_casimir_devs(slpi_diag *d, const double *x, const double *x0);

#endif
