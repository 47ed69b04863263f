/* accurate.h — the certified path's step without its enclosure tests: the statistics'
 * accurate reference at binary64 (docs/power.md#accurate-reference; oracle/local.c). */
#ifndef SLPI_REF_ACCURATE_H
#define SLPI_REF_ACCURATE_H

#include "slpi/ref.h"

/* From now on s steps in accurate mode for a port of unit roundoff u: plain ball steps
 * (no Lohner set), an implicit step's root the limit of the scheme's iteration from its
 * start, stopped at what u needs, with that limit's a-posteriori error as its radius
 * (ref/solve.c), the rest ball arithmetic as before. Its balls are not certified: their
 * radius is an error estimate. */
void slpi_ref_set_accurate(slpi_ref *s, double u);

#endif
