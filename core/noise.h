/* noise.h — internal interface of the canonical noise (core/noise*.c), beyond slpi.h:
 * the word -> normal map on its own (for the accuracy tests and ports), and the noise
 * file format (core/noise-file.c). */
#ifndef SLPI_NOISE_H
#define SLPI_NOISE_H

#include "slpi.h"

/* Steps 2-4 of core/noise.c's header: the standard normal of one 64-bit Philox word. */
double slpi_noise_word_normal(uint64_t w);

#endif
