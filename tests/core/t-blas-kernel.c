/* t-blas-kernel.c — the BLAS kernel decision of core/blas.c and the CPU probe of
 * core/cpu.c: slpi_blas_plan on a table of (CPU tier, OpenBLAS's kernel, OPENBLAS_CORETYPE)
 * rows, the kernel tiers, and the probe against the compiler's own cpuid reading. The
 * whole path in a process (the constructor re-selecting, the provenance, `slpi list
 * --system`, the one-line warning) is tests/core/t-blas-select.sh. */
#include <string.h>
#include "slpi.h"
#include "testutil.h"
#include "core/blas.h"
#include "core/cpu.h"
#include "core/noise.h"

static void row(slpi_cpu_tier tier, int bf16, const char *core, const char *env, slpi_blas_origin want,
                const char *want_target)
{
    const char *target = "unset";
    slpi_blas_origin got = slpi_blas_plan(&target, tier, bf16, core, env);
    TEST_CHECKF(got == want, "tier %d bf16 %d core %s env %s: origin %d, want %d", (int)tier, bf16,
                core ? core : "(none)", env ? env : "(unset)", (int)got, (int)want);
    TEST_CHECKF(want_target ? target && !strcmp(target, want_target) : target == NULL,
                "tier %d core %s: target %s, want %s", (int)tier, core ? core : "(none)", target ? target : "(none)",
                want_target ? want_target : "(none)");
}

int main(void)
{
    test_start("t-blas-kernel", 1);
    /* Debian 12's OpenBLAS 0.3.21 on a Xeon it does not know: Prescott, selected up */
    row(SLPI_CPU_AVX512, 0, "Prescott", NULL, SLPI_BLAS_SELECTED, "SkylakeX");
    row(SLPI_CPU_AVX512, 1, "Prescott", NULL, SLPI_BLAS_SELECTED, "Cooperlake");
    row(SLPI_CPU_AVX512, 1, "PRESCOTT", "", SLPI_BLAS_SELECTED, "Cooperlake"); /* "" is unset */
    row(SLPI_CPU_AVX512, 0, "Haswell", NULL, SLPI_BLAS_SELECTED, "SkylakeX");
    row(SLPI_CPU_AVX2, 0, "Sandybridge", NULL, SLPI_BLAS_SELECTED, "Haswell");
    row(SLPI_CPU_AVX2, 0, "Nehalem", NULL, SLPI_BLAS_SELECTED, "Haswell");
    /* OpenBLAS's choice at or above the CPU's tier, or a name slpi does not rank: kept */
    row(SLPI_CPU_AVX512, 1, "Cooperlake", NULL, SLPI_BLAS_DETECTED, NULL);
    row(SLPI_CPU_AVX512, 0, "SkylakeX", NULL, SLPI_BLAS_DETECTED, NULL);
    row(SLPI_CPU_AVX2, 0, "Zen", NULL, SLPI_BLAS_DETECTED, NULL);
    row(SLPI_CPU_AVX2, 0, "Haswell", NULL, SLPI_BLAS_DETECTED, NULL);
    row(SLPI_CPU_BASELINE, 0, "Prescott", NULL, SLPI_BLAS_DETECTED, NULL);
    row(SLPI_CPU_AVX512, 0, "NEOVERSEN1", NULL, SLPI_BLAS_DETECTED, NULL);
    /* the user's OPENBLAS_CORETYPE always wins, even a generic kernel */
    row(SLPI_CPU_AVX512, 0, "Prescott", "Prescott", SLPI_BLAS_USER, NULL);
    row(SLPI_CPU_AVX512, 1, "Haswell", "Haswell", SLPI_BLAS_USER, NULL);
    /* no OpenBLAS */
    row(SLPI_CPU_AVX512, 0, NULL, NULL, SLPI_BLAS_NONE, NULL);

    TEST_CHECK(slpi_blas_core_tier("cooperlake") == SLPI_CPU_AVX512);
    TEST_CHECK(slpi_blas_core_tier("SapphireRapids") == SLPI_CPU_AVX512);
    TEST_CHECK(slpi_blas_core_tier("Zen") == SLPI_CPU_AVX2);
    TEST_CHECK(slpi_blas_core_tier("Excavator") == SLPI_CPU_BASELINE);
    TEST_CHECK(slpi_blas_core_tier("ARMV8") == -1 && slpi_blas_core_tier(NULL) == -1);

    /* the probe: one meaning of each tier; the compiler's cpuid reading must agree on
     * every feature the tier names (it does not read the OS's XCR0 for AVX-512, so the
     * probe may only be lower, never higher) */
    const slpi_cpu *cpu = slpi_cpu_probe();
    printf("t-blas-kernel: cpu %s family %d model %d tier %s bf16 %d amx %d; openblas %s (%s)\n", cpu->vendor,
           cpu->family, cpu->model, slpi_cpu_tier_name(cpu->tier), cpu->avx512_bf16, cpu->amx,
           slpi_blas_core() ? slpi_blas_core() : "not loaded", slpi_blas_why());
    TEST_CHECK(slpi_cpu_probe() == cpu);
#if defined(__x86_64__) && defined(__GNUC__)
    const int v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const int v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    TEST_CHECKF(slpi_cpu_supports(SLPI_CPU_AVX2) <= v3, "probe says avx2, cpuid does not");
    TEST_CHECKF(slpi_cpu_supports(SLPI_CPU_AVX512) <= v4, "probe says avx512, cpuid does not");
    TEST_CHECKF(!v3 || slpi_cpu_supports(SLPI_CPU_AVX2), "cpuid says avx2+fma, the probe does not");
    TEST_CHECK(!strcmp(cpu->vendor, "GenuineIntel") || !strcmp(cpu->vendor, "AuthenticAMD") || cpu->vendor[0]);
#endif
    TEST_CHECK(slpi_cpu_supports(SLPI_CPU_BASELINE));
    /* the noise kernels and the lanes read the same probe */
    TEST_CHECK(slpi_noise_isa_available(SLPI_NOISE_AVX512) == slpi_cpu_supports(SLPI_CPU_AVX512));
    TEST_END();
}
