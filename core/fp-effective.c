/* fp-effective.c — what the compiler did with the library's floating point, for the
 * provenance's fp= line (core/provenance.c): one function alone in its file, so that
 * tests/toolchain/t-fp-effective.sh can compile this file with other flags and see the line
 * change, without the rest of the library. */
#include <stddef.h>
#include <stdio.h>

#include "core/fp-effective.h"

/* What the compiler did with this library's floating point, not what the flags say (a
 * later -ffp-contract=fast in CFLAGS overrides the build's -ffp-contract=off, and the
 * cflags= line cannot tell): contraction probed at run time, a * b + c with a b = 1 - 2^-60,
 * which rounds to 1 unfused (the sum is then 0) and gives -2^-60 when it was fused into an
 * fma; the fast-math family from the compiler's own macros. No '=' in the text. */
void slpi_fp_effective(char *buf, size_t n)
{
    volatile double va = 1 + 0x1p-30, vb = 1 - 0x1p-30, vc = -1;
    const double a = va, b = vb, c = vc;
    const int fused = a * b + c != 0;
#if defined(__FAST_MATH__)
    const char *fast = "on";
#else
    const char *fast = "off";
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
    const char *finite = "on";
#else
    const char *finite = "off";
#endif
#if defined(__FP_FAST_FMA)
    const char *fma = "the compiler may emit fma instructions";
#else
    const char *fma = "no fma instructions for the compiler";
#endif
    snprintf(buf, n, "contraction %s (probed), fast-math %s, finite-math-only %s; %s", fused ? "ON" : "off", fast,
             finite, fma);
}
