/* core/blas.h — which BLAS kernel the process runs and why (core/blas.c). A declared
 * interface of core, not installed. */
#ifndef SLPI_CORE_BLAS_H
#define SLPI_CORE_BLAS_H

#include <stddef.h>

#include "core/cpu.h"

/* OpenBLAS's kernel name ("Haswell", "Cooperlake", ...), or NULL: another CBLAS, or a
 * program that calls no BLAS, linked --as-needed as Debian 13 links by default. */
const char *slpi_blas_core(void);

/* Where the kernel came from (docs/install.md#blas-kernel). */
typedef enum {
    SLPI_BLAS_NONE,     /* no OpenBLAS in the process */
    SLPI_BLAS_DETECTED, /* OpenBLAS's own choice, a kernel of the CPU's tier (or a CPU slpi does not rank) */
    SLPI_BLAS_USER,     /* OPENBLAS_CORETYPE was set in the environment: kept as it is */
    SLPI_BLAS_SELECTED, /* OpenBLAS fell back to a generic kernel; slpi selected the CPU's own */
    SLPI_BLAS_GENERIC   /* OpenBLAS fell back and slpi could not select another (warned once) */
} slpi_blas_origin;

/* The tier a kernel name is written for: SLPI_CPU_AVX512 (SkylakeX, Cooperlake,
 * SapphireRapids), SLPI_CPU_AVX2 (Haswell, Zen), SLPI_CPU_BASELINE (any other x86-64
 * kernel: Prescott, Nehalem, Sandybridge, ...), or -1 for a name slpi does not know. */
int slpi_blas_core_tier(const char *core);
/* The decision, a pure function (tested alone): with OpenBLAS's kernel core (NULL: none)
 * and the environment's OPENBLAS_CORETYPE env (NULL or "": unset) on a CPU of tier `tier`,
 * the origin, and for SLPI_BLAS_SELECTED the kernel to select in *target. */
slpi_blas_origin slpi_blas_plan(const char **target, slpi_cpu_tier tier, int bf16, const char *core, const char *env);
/* The origin settled when the library loaded, and a one-line reason for the provenance
 * and `slpi list --system` (a static string or buffer; no '=' in it). */
slpi_blas_origin slpi_blas_origin_get(void);
const char *slpi_blas_why(void);

/* The complex product of the su(N) kernels (core/blas-product.c, docs/install.md#products):
 * 1 for zgemm3m, 0 for zgemm, whichever this machine runs faster (timed once per CPU, BLAS
 * library and kernel, and cached), or as SLPI_ZPRODUCT says; -1 when SLPI_ZPRODUCT holds
 * another value, or when timing found no memory. Settled on first call, the same for the
 * whole process. _name: "zgemm", "zgemm3m" or "invalid"; _why: how it was decided, or what
 * is wrong (no '=' in it). */
#define SLPI_ZPRODUCT_N 128 /* the order of the timed products */
int slpi_blas_zproduct(void);
const char *slpi_blas_zproduct_name(void);
const char *slpi_blas_zproduct_why(void);
/* _use: slpi_blas_zproduct for a kernel that forms the products (fast/sun.c), which marks
 * the process as one that formed them. _used: the choice's name once a kernel of this
 * process used it (what a checkpoint records), else "", without settling anything. _pin: settle it as m3 (a checkpoint's record, so that a resume
 * forms its products as the run it continues did) unless SLPI_ZPRODUCT decides or the
 * process settled it already; 0 when the process's choice is then m3, else -1 (_why says
 * how it was decided). */
int slpi_blas_zproduct_use(void);
const char *slpi_blas_zproduct_used(void);
int slpi_blas_zproduct_pin(int m3);
/* The pure parts, tested alone. _env: SLPI_ZPRODUCT's value (NULL, "": -1, unset; "zgemm"
 * 0; "zgemm3m" 1; anything else -2). _decide: zgemm3m (1) only when strictly faster in whole
 * nanoseconds (the cache file's resolution).
 * _format writes a cache file's text; _parse reads one back for `key`: the choice, with the
 * two times in seconds, or -1 when the text is not one that _format wrote for this key
 * (another machine's, a torn or an edited file). */
int slpi_blas_zproduct_env(const char *env);
int slpi_blas_zproduct_decide(double t_zgemm, double t_zgemm3m);
void slpi_blas_zproduct_format(char *buf, size_t n, const char *key, double t_zgemm, double t_zgemm3m);
int slpi_blas_zproduct_parse(const char *text, const char *key, double *t_zgemm, double *t_zgemm3m);

#endif
