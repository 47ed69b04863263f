/* blas.c — the BLAS kernel the process runs (docs/install.md#blas-kernel). OpenBLAS built
 * with DYNAMIC_ARCH picks its kernel in its own constructor, before any of slpi's code
 * runs, from a table of the CPUs it knows: Debian 12's OpenBLAS 0.3.21 does not know recent
 * Xeons and falls back to its Prescott (SSE3) kernels, about 5x slower in zgemm. The
 * constructor below (run after OpenBLAS's, since libslpi depends on it, and before any
 * BLAS call of slpi) compares that choice with the CPU probe (core/cpu.c): when OpenBLAS
 * runs a kernel below the CPU's tier and OPENBLAS_CORETYPE is unset, it selects the CPU's
 * own kernel through OpenBLAS's dynamic-dispatch entry points (gotoblas_dynamic_quit and
 * gotoblas_dynamic_init, which read OPENBLAS_CORETYPE, set only for that call), and
 * restores the environment. A BLAS without those entry points gets a one-line warning
 * naming the override instead: slpi does not pretend. OPENBLAS_CORETYPE set by the user
 * is always kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/blas.h"

/* OpenBLAS's symbols; weak, so that slpi links with another CBLAS/LAPACKE too (reference
 * BLAS, BLIS: docs/install.md#blas), and with an OpenBLAS built for one CPU. */
char *openblas_get_corename(void) __attribute__((weak));
void gotoblas_dynamic_quit(void) __attribute__((weak));
void gotoblas_dynamic_init(void) __attribute__((weak));

const char *slpi_blas_core(void)
{
    return openblas_get_corename ? openblas_get_corename() : NULL;
}

int slpi_blas_core_tier(const char *core)
{
    static const char *const v4[] = { "skylakex", "cooperlake", "sapphirerapids" };
    static const char *const v3[] = { "haswell", "zen" };
    static const char *const v1[] = { "prescott",  "core2",  "penryn",      "dunnington", "nehalem",
                                      "atom",      "nano",   "sandybridge", "katmai",     "coppermine",
                                      "northwood", "banias", "athlon",      "opteron",    "opteron_sse3",
                                      "barcelona", "bobcat", "bulldozer",   "piledriver", "steamroller",
                                      "excavator" };
    if (!core) return -1;
    for (size_t i = 0; i < sizeof v4 / sizeof v4[0]; i++)
        if (!strcasecmp(core, v4[i])) return SLPI_CPU_AVX512;
    for (size_t i = 0; i < sizeof v3 / sizeof v3[0]; i++)
        if (!strcasecmp(core, v3[i])) return SLPI_CPU_AVX2;
    for (size_t i = 0; i < sizeof v1 / sizeof v1[0]; i++)
        if (!strcasecmp(core, v1[i])) return SLPI_CPU_BASELINE;
    return -1;
}

static const char *best_kernel(slpi_cpu_tier tier, int bf16)
{
    return tier == SLPI_CPU_AVX512 ? (bf16 ? "Cooperlake" : "SkylakeX") : tier == SLPI_CPU_AVX2 ? "Haswell" : NULL;
}

slpi_blas_origin slpi_blas_plan(const char **target, slpi_cpu_tier tier, int bf16, const char *core, const char *env)
{
    *target = NULL;
    if (!core) return SLPI_BLAS_NONE;
    if (env && *env) return SLPI_BLAS_USER;
    const int have = slpi_blas_core_tier(core);
    if (have < 0 || have >= (int)tier) return SLPI_BLAS_DETECTED;
    *target = best_kernel(tier, bf16);
    return SLPI_BLAS_SELECTED;
}

static slpi_blas_origin origin = SLPI_BLAS_NONE;
static char why[200];

/* OpenBLAS re-reads OPENBLAS_CORETYPE: set for the call, then the caller's environment
 * (unset, or the empty string) again. 1 when OpenBLAS now runs `name`. */
static int reselect(const char *name, const char *env)
{
    gotoblas_dynamic_quit();
    setenv("OPENBLAS_CORETYPE", name, 1);
    gotoblas_dynamic_init();
    if (env)
        setenv("OPENBLAS_CORETYPE", env, 1);
    else
        unsetenv("OPENBLAS_CORETYPE");
    const char *now = slpi_blas_core();
    return now && !strcasecmp(now, name);
}

static void settle(void)
{
    const slpi_cpu *cpu = slpi_cpu_probe();
    const char *env = getenv("OPENBLAS_CORETYPE"), *target;
    int can = gotoblas_dynamic_quit && gotoblas_dynamic_init;
    /* Tests only (tests/core/t-blas-select.sh): SLPI_BLAS_TEST_FALLBACK=K makes OpenBLAS run
     * kernel K first, as if it had detected K itself; "K,fixed" also plays a BLAS whose
     * kernel cannot be changed. Ignored when OPENBLAS_CORETYPE is set. */
    const char *sim = getenv("SLPI_BLAS_TEST_FALLBACK");
    if (sim && *sim && can && !(env && *env)) {
        char k[32];
        snprintf(k, sizeof k, "%.*s", (int)strcspn(sim, ","), sim);
        reselect(k, env);
        can = !strstr(sim, ",fixed");
    }
    const char *core = slpi_blas_core();
    origin = slpi_blas_plan(&target, cpu->tier, cpu->avx512_bf16, core, env);
    const char *tn = slpi_cpu_tier_name(cpu->tier), *own = best_kernel(cpu->tier, cpu->avx512_bf16);
    if (origin == SLPI_BLAS_NONE) snprintf(why, sizeof why, "no OpenBLAS loaded");
    if (origin == SLPI_BLAS_DETECTED) snprintf(why, sizeof why, "detected by OpenBLAS; CPU tier %s", tn);
    if (origin == SLPI_BLAS_USER) {
        const int below = own && slpi_blas_core_tier(core) < (int)cpu->tier;
        snprintf(why, sizeof why, "forced by OPENBLAS_CORETYPE%s%s", below ? "; this CPU's own kernel: " : "",
                 below ? own : "");
    }
    if (origin != SLPI_BLAS_SELECTED) return;
    char was[32];
    snprintf(was, sizeof was, "%s", core);
    /* the CPU's own kernel, else the next tier down, when this OpenBLAS lacks it */
    for (const char *t = target; can && t; t = !strcmp(t, "Cooperlake") ? "SkylakeX"
             : !strcmp(t, "SkylakeX")                                   ? "Haswell"
                                                                        : NULL)
        if (reselect(t, env)) {
            snprintf(why, sizeof why, "selected by slpi: OpenBLAS detected %s, CPU tier %s", was, tn);
            return;
        }
    origin = SLPI_BLAS_GENERIC;
    snprintf(why, sizeof why, "OpenBLAS detected %s, CPU tier %s, and slpi could not select %s", was, tn, target);
    fprintf(stderr,
            "slpi: OpenBLAS runs its generic %s kernel on this CPU (tier %s); set OPENBLAS_CORETYPE=%s for its own\n",
            was, tn, target);
}

__attribute__((constructor)) static void blas_settle(void)
{
    settle();
}

slpi_blas_origin slpi_blas_origin_get(void)
{
    return origin;
}

const char *slpi_blas_why(void)
{
    return why;
}
