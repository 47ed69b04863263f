/* ref/vec.h — the Arb headers of the certified path and the small ball-vector kernels
 * (ref/vec.c) the system and scheme files share. */
#ifndef SLPI_REF_VEC_H
#define SLPI_REF_VEC_H

#include "slpi.h"
#ifdef SLPI_FLINT3             /* the switch of config.mk, as in slpi.h */
#include <flint/arb_mat.h>
#include <flint/acb_mat.h>
#else
#include <arb_mat.h>
#include <acb_mat.h>
#endif

/* out = a × b in R^3 (out may alias a or b). */
void slpi_ref_cross(arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec);
/* max radius of a ball vector, as a double (rounded up) */
double slpi_ref_vec_radius(arb_srcptr x, int n);

#endif
