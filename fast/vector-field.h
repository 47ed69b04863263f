/* fast/vector-field.h — the shared vector field of one step (fast/vector-field.c): the
 * generator sum every scheme forms, the twin of ref/vector-field.h. Not installed. */
#ifndef SLPI_FAST_VECTOR_FIELD_H
#define SLPI_FAST_VECTOR_FIELD_H

#include "fast/system.h"

/* Sum over k = 0..M of delta_k gen(k, mu) (uses gen_sum when present); tmp: dim. */
void slpi_fast_gen_sum(const slpi_fast_system *s, double *xi, double *tmp, const double *delta, const double *mu);

#endif
