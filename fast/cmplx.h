/* cmplx.h — <complex.h> with C11's CMPLX on every compiler: glibc defines CMPLX only
 * for GCC >= 4.7, so clang (which reports GCC 4.2) gets it from __builtin_complex
 * here, which keeps signed zeros and infinities exactly as CMPLX must. */
#ifndef SLPI_FAST_CMPLX_H
#define SLPI_FAST_CMPLX_H

#include <complex.h>

#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

#endif
