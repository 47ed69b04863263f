/* fpmode.h — the double path's floating-point mode (docs/conventions.md#subnormals,
 * #rounding): while it steps, it rounds to nearest whatever the caller's direction, and
 * subnormal results and operands are flushed to zero (x86: MXCSR's rounding bits, FTZ and
 * DAZ, and the x87 unit's rounding bits, which OpenBLAS's x87 kernels and C's fegetround
 * read; aarch64: FPCR.RMode and FZ), and the caller's mode is restored after. A subnormal
 * is below 2^-1022 |x| for a state of size 1, far inside every budget, but each one costs
 * the processor a microcode assist: an Euler–Zeitlin state whose high modes decay into
 * them ran its N = 512 step 6x slower (docs/experiments.md#subnormals). Elsewhere C's
 * fesetround, and no flushing.
 * slpi_fpmode_set(flush) sets this thread's mode and returns the one it replaced, for
 * slpi_fpmode_restore (which puts the control bits back and keeps the exception flags
 * raised meanwhile); slpi_fpmode_flushing says whether this thread flushes at all.
 * slpi_round_nearest / slpi_round_restore do the same for the rounding direction alone,
 * for what must not depend on the caller's direction outside the step: a decimal's
 * reading, a default initial state, the noise, the diagnostics and statistics. Each is
 * two reads of the control bits where the caller already rounds to nearest. */
#ifndef SLPI_CORE_FPMODE_H
#define SLPI_CORE_FPMODE_H

#include <fenv.h>

#if defined(__SSE2__)
#include <xmmintrin.h>
#define SLPI_FPMODE_FLUSH 0x8040u  /* FTZ (bit 15) | DAZ (bit 6) */
#define SLPI_FPMODE_FLAGS 0x3Fu    /* the exception flags: not part of the mode */
#define SLPI_FPMODE_X87 0x30000u   /* the x87 control word's RC (bits 10-11), kept at bits 16-17 */
#define SLPI_FPMODE_ROUND 0x36000u /* MXCSR's RC (bits 13-14) and the x87's: 0 rounds to nearest */
typedef unsigned slpi_fpmode;
static inline slpi_fpmode slpi_fpmode_get(void)
{
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    return _mm_getcsr() | (((slpi_fpmode)cw & 0xC00u) << 6);
}
static inline void slpi_fpmode_restore(slpi_fpmode m)
{
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    if ((((slpi_fpmode)cw & 0xC00u) << 6) != (m & SLPI_FPMODE_X87)) {
        cw = (unsigned short)((cw & ~0xC00u) | ((m & SLPI_FPMODE_X87) >> 6));
        __asm__ __volatile__("fldcw %0" : : "m"(cw));
    }
    _mm_setcsr((_mm_getcsr() & SLPI_FPMODE_FLAGS) | (m & ~(SLPI_FPMODE_FLAGS | SLPI_FPMODE_X87)));
}
static inline slpi_fpmode slpi_fpmode_nearest(slpi_fpmode m)
{
    return m & ~(slpi_fpmode)SLPI_FPMODE_ROUND;
}
#elif defined(__aarch64__)
#include <stdint.h>
#define SLPI_FPMODE_FLUSH ((uint64_t)1 << 24) /* FPCR.FZ */
#define SLPI_FPMODE_FLAGS 0u                  /* FPCR holds none (they are FPSR's) */
#define SLPI_FPMODE_ROUND ((uint64_t)3 << 22) /* FPCR.RMode: 0 rounds to nearest */
typedef uint64_t slpi_fpmode;
static inline slpi_fpmode slpi_fpmode_get(void)
{
    slpi_fpmode m;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(m));
    return m;
}
static inline void slpi_fpmode_restore(slpi_fpmode m)
{
    __asm__ __volatile__("msr fpcr, %0" : : "r"(m));
}
static inline slpi_fpmode slpi_fpmode_nearest(slpi_fpmode m)
{
    return m & ~(slpi_fpmode)SLPI_FPMODE_ROUND;
}
#else
#define SLPI_FPMODE_FLUSH 0u
#define SLPI_FPMODE_FLAGS 0u
typedef int slpi_fpmode; /* C's rounding direction alone */
static inline slpi_fpmode slpi_fpmode_get(void)
{
    return fegetround();
}
static inline void slpi_fpmode_restore(slpi_fpmode m)
{
    fesetround(m);
}
static inline slpi_fpmode slpi_fpmode_nearest(slpi_fpmode m)
{
    (void)m;
    return FE_TONEAREST;
}
#endif

static inline slpi_fpmode slpi_fpmode_set(int flush)
{
    slpi_fpmode m = slpi_fpmode_get(), r = slpi_fpmode_nearest(m);
    slpi_fpmode_restore(flush ? r | SLPI_FPMODE_FLUSH : r & ~(slpi_fpmode)SLPI_FPMODE_FLUSH);
    return m;
}

/* A mode without its exception flags: what two modes compare by. */
static inline slpi_fpmode slpi_fpmode_control(slpi_fpmode m)
{
    return m & ~(slpi_fpmode)SLPI_FPMODE_FLAGS;
}

/* Any of the flush bits (x86: FTZ or DAZ alone counts). */
static inline int slpi_fpmode_flushing(void)
{
    return (slpi_fpmode_get() & SLPI_FPMODE_FLUSH) != 0;
}

/* Round to nearest, the rest of the caller's mode kept; returns the caller's mode. */
static inline slpi_fpmode slpi_round_nearest(void)
{
    slpi_fpmode m = slpi_fpmode_get();
    if (slpi_fpmode_nearest(m) != m) slpi_fpmode_restore(slpi_fpmode_nearest(m));
    return m;
}
static inline void slpi_round_restore(slpi_fpmode m)
{
    if (slpi_fpmode_nearest(m) != m) slpi_fpmode_restore(m);
}

#endif
