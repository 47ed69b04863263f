/* ref/vec.h — the small ball-vector kernels (ref/vec.c) the system and scheme files share;
 * Arb's headers come with slpi.h (core/slpi-flint.h). */
#ifndef SLPI_REF_VEC_H
#define SLPI_REF_VEC_H

#include "core/slpi-flint.h"

/* out = a × b in R^3 (out may alias a or b). */
void slpi_ref_cross(arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec);
/* max radius of a ball vector, as a double (rounded up) */
double slpi_ref_vec_radius(arb_srcptr x, int n);
/* out = max_i |a_i - b_i| over n >= 1 balls (eig_dev and the like). */
void slpi_ref_max_abs_diff(arb_t out, arb_srcptr a, arb_srcptr b, int n, slong prec);
/* 1 if every point v of the ball x has lo <= |v| <= hi (lo, hi >= 0, doubles), else 0. */
int slpi_ref_within(const arb_t x, double lo, double hi);

#endif
