/* provenance.c — what produced a result: slpi version and git revision, the library
 * versions seen at compile time (headers) and at run time (shared objects), the BLAS
 * kernel and why (core/blas.c), the CPU's tier (core/cpu.c), libc, compiler and flags.
 * Written into every output header, and cross-checked (header vs library) by
 * slpi_provenance_check, à la MPFR's tversion. */
#include <gmp.h>
#include <mpfr.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <gnu/libc-version.h>
#include <jansson.h>

#include "slpi/errors.h"
#include "slpi/version.h"
#include "core/slpi-flint.h"
#include "core/blas.h"

/* What the compiler did with this library's floating point, not what the flags say (a
 * later -ffp-contract=fast in CFLAGS overrides the build's -ffp-contract=off, and the
 * cflags= line cannot tell): contraction probed at run time, a * b + c with a b = 1 - 2^-60,
 * which rounds to 1 unfused (the sum is then 0) and gives -2^-60 when it was fused into an
 * fma; the fast-math family from the compiler's own macros. No '=' in the text. */
static void fp_effective(char *buf, size_t n)
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

void slpi_provenance_write(FILE *f, const char *prefix)
{
    fprintf(f, "%sslpi_version=%s\n", prefix, SLPI_VERSION);
    fprintf(f, "%sgit_rev=%s\n", prefix, SLPI_GIT_REV);
    fprintf(f, "%sarb=%s%s\n", prefix, SLPI_ARB_VERSION_PREFIX, slpi_flint_arb_version());
    fprintf(f, "%sflint=%s\n", prefix, flint_version);
    fprintf(f, "%smpfr=%s\n", prefix, mpfr_get_version());
    fprintf(f, "%sgmp=%s\n", prefix, gmp_version);
    fprintf(f, "%sopenblas=%s\n", prefix, slpi_blas_core() ? slpi_blas_core() : "not loaded");
    fprintf(f, "%sopenblas_why=%s\n", prefix, slpi_blas_why());
    fprintf(f, "%szproduct=%s\n", prefix, slpi_blas_zproduct_name());
    fprintf(f, "%szproduct_why=%s\n", prefix, slpi_blas_zproduct_why());
    const slpi_cpu *cpu = slpi_cpu_probe();
    fprintf(f, "%scpu=%s family %d model %d, %s%s\n", prefix, cpu->vendor[0] ? cpu->vendor : "unknown", cpu->family,
            cpu->model, slpi_cpu_tier_name(cpu->tier), cpu->avx512_bf16 ? "+bf16" : "");
    fprintf(f, "%slibc=glibc %s\n", prefix, gnu_get_libc_version());
    fprintf(f, "%scompiler=%s %s\n", prefix, SLPI_CC, __VERSION__);
    fprintf(f, "%scflags=%s -std=c11 -ffp-contract=off\n", prefix, SLPI_CFLAGS);
    char fp[160];
    fp_effective(fp, sizeof fp);
    fprintf(f, "%sfp=%s\n", prefix, fp);
}

/* Returns SLPI_OK, or SLPI_ECHECK with a message when a header and its library
 * disagree (a mixed installation gives results nobody can reproduce). */
int slpi_provenance_check(slpi_error *err)
{
    char hdr[64];
    if (strcmp(MPFR_VERSION_STRING, mpfr_get_version()) != 0)
        return slpi_error_set(err, SLPI_ECHECK, "MPFR header %s but library %s", MPFR_VERSION_STRING,
                              mpfr_get_version());
    snprintf(hdr, sizeof hdr, "%d.%d.%d", __GNU_MP_VERSION, __GNU_MP_VERSION_MINOR, __GNU_MP_VERSION_PATCHLEVEL);
    if (strcmp(hdr, gmp_version) != 0)
        return slpi_error_set(err, SLPI_ECHECK, "GMP header %s but library %s", hdr, gmp_version);
    if (strcmp(FLINT_VERSION, flint_version) != 0)
        return slpi_error_set(err, SLPI_ECHECK, "FLINT header %s but library %s", FLINT_VERSION, flint_version);
    int major = 0, minor = 0;
#if SLPI_FLINT_GENERATION == 3
    if (sscanf(flint_version, "%d.%d", &major, &minor) != 2 || major < 3)
        return slpi_error_set(err, SLPI_ECHECK, "FLINT library %s: slpi built for FLINT 3 needs FLINT 3.0 or later",
                              flint_version);
#else
    if (sscanf(arb_version, "%d.%d", &major, &minor) != 2 || major != 2 || minor < 23)
        return slpi_error_set(err, SLPI_ECHECK, "Arb library %s: slpi needs Arb 2.23 or a later 2.x", arb_version);
#endif
    if (strcmp(JANSSON_VERSION, jansson_version_str()) != 0)
        return slpi_error_set(err, SLPI_ECHECK, "Jansson header %s but library %s", JANSSON_VERSION,
                              jansson_version_str());
    return SLPI_OK;
}
