/* core/cpu.h — the one CPU-feature probe of the library (core/cpu.c), read by the noise
 * kernels (core/noise.c), the ensemble lanes (fast/ensemble.c), the BLAS kernel choice
 * (core/blas.c), the provenance and `slpi list --system`. A declared interface of core,
 * not installed. */
#ifndef SLPI_CORE_CPU_H
#define SLPI_CORE_CPU_H

/* The instruction-set tiers the library's kernels are built for. AVX-512 means one
 * thing everywhere: F, CD, DQ, BW and VL (the x86-64-v4 set) with the ZMM state enabled by
 * the operating system; AVX2 means AVX, AVX2 and FMA with the YMM state enabled. */
typedef enum { SLPI_CPU_BASELINE = 0, SLPI_CPU_AVX2 = 1, SLPI_CPU_AVX512 = 2 } slpi_cpu_tier;

typedef struct {
    char vendor[13];    /* "GenuineIntel", "AuthenticAMD", "" off x86-64 */
    int family, model;  /* display family and model (cpuid leaf 1) */
    slpi_cpu_tier tier; /* the best tier the CPU and the OS both support */
    int avx512_bf16;    /* AVX512_BF16 (Cooper Lake, Sapphire Rapids, Zen 4 and later) */
    int amx;            /* AMX tiles (Sapphire Rapids and later) */
} slpi_cpu;

/* The probe, run once per process (thread-safe) and cached. */
const slpi_cpu *slpi_cpu_probe(void);
/* 1 when the CPU supports tier t, else 0. */
int slpi_cpu_supports(slpi_cpu_tier t);
/* "avx512", "avx2" or "baseline". */
const char *slpi_cpu_tier_name(slpi_cpu_tier t);

#endif
