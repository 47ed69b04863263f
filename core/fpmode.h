/* fpmode.h — the double path's floating-point mode (docs/conventions.md#subnormals):
 * while it steps, subnormal results and operands are flushed to zero (x86: MXCSR's FTZ
 * and DAZ; aarch64: FPCR.FZ), and the caller's mode is restored after. A subnormal is
 * below 2^-1022 |x| for a state of size 1, far inside every budget, but each one costs
 * the processor a microcode assist: an Euler–Zeitlin state whose high modes decay into
 * them ran its N = 512 step 6x slower (docs/experiments.md#subnormals). Elsewhere a no-op.
 * slpi_fpmode_set(flush) sets this thread's mode and returns the one it replaced, for
 * slpi_fpmode_restore (which puts the control bits back and keeps the exception flags
 * raised meanwhile); slpi_fpmode_flushing says whether this thread flushes at all. */
#ifndef SLPI_CORE_FPMODE_H
#define SLPI_CORE_FPMODE_H

#if defined(__SSE2__)
#include <xmmintrin.h>
#define SLPI_FPMODE_FLUSH 0x8040u /* FTZ (bit 15) | DAZ (bit 6) */
typedef unsigned slpi_fpmode;
static inline slpi_fpmode slpi_fpmode_get(void)
{
    return _mm_getcsr();
}
#define SLPI_FPMODE_FLAGS 0x3Fu /* the exception flags: not part of the mode */
static inline void slpi_fpmode_restore(slpi_fpmode m)
{
    _mm_setcsr((_mm_getcsr() & SLPI_FPMODE_FLAGS) | (m & ~SLPI_FPMODE_FLAGS));
}
#elif defined(__aarch64__)
#include <stdint.h>
#define SLPI_FPMODE_FLUSH ((uint64_t)1 << 24) /* FPCR.FZ */
#define SLPI_FPMODE_FLAGS 0u                  /* FPCR holds none (they are FPSR's) */
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
#else
#define SLPI_FPMODE_FLUSH 0u
#define SLPI_FPMODE_FLAGS 0u
typedef unsigned slpi_fpmode;
static inline slpi_fpmode slpi_fpmode_get(void)
{
    return 0;
}
static inline void slpi_fpmode_restore(slpi_fpmode m)
{
    (void)m;
}
#endif

static inline slpi_fpmode slpi_fpmode_set(int flush)
{
    slpi_fpmode m = slpi_fpmode_get();
    slpi_fpmode_restore(flush ? m | SLPI_FPMODE_FLUSH : m & ~(slpi_fpmode)SLPI_FPMODE_FLUSH);
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

#endif
