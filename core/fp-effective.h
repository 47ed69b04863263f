/* core/fp-effective.h — the floating point this library was compiled to
 * (core/fp-effective.c): "contraction off (probed), fast-math off, ..." into buf, for the
 * provenance's fp= line. Not installed. */
#ifndef SLPI_CORE_FP_EFFECTIVE_H
#define SLPI_CORE_FP_EFFECTIVE_H

#include <stddef.h>

void slpi_fp_effective(char *buf, size_t n);

#endif
