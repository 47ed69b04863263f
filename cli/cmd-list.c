/* cmd-list.c — `slpi list`: systems, schemes, the applicability matrix with reasons,
 * presets, and (with --keys) every problem key. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "core/blas.h"
#include "core/command.h"
#include "core/cpu.h"
#include "core/noise.h"
#include "fast/ensemble.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi list [--keys] [--system] [--help]\n"
            "  Prints the systems and schemes, which pairs apply (P: used in a paper, E: supported\n"
            "  extension, N/A with the reason; docs/systems.md#applicability) and the presets (docs/experiments.md).\n"
            "  --keys   also print every problem key with its help text\n"
            "  --system print only the machine: the CPU's tier, the noise and ensemble kernels it\n"
            "           selects, and the BLAS kernel with why (docs/install.md#blas-kernel)\n");
}

/* The machine (`slpi list --system`): one probe (core/cpu.c) for every choice below. */
static int list_system(void)
{
    const slpi_cpu *cpu = slpi_cpu_probe();
    const slpi_fast_isa lanes = slpi_fast_ensemble_isa_best();
    const char *core = slpi_blas_core();
    printf("cpu:            %s family %d model %d\n", cpu->vendor[0] ? cpu->vendor : "unknown", cpu->family,
           cpu->model);
    printf("tier:           %s%s%s\n", slpi_cpu_tier_name(cpu->tier), cpu->avx512_bf16 ? " +bf16" : "",
           cpu->amx ? " +amx" : "");
    printf("noise kernel:   %s\n",
           slpi_noise_isa_available(SLPI_NOISE_AVX512)     ? "avx512"
               : slpi_noise_isa_available(SLPI_NOISE_AVX2) ? "avx2"
                                                           : "portable");
    printf("ensemble lanes: %s\n",
           lanes == SLPI_FAST_ISA_AVX512     ? "avx512"
               : lanes == SLPI_FAST_ISA_AVX2 ? "avx2"
                                             : "portable");
    printf("openblas:       %s (%s)\n", core ? core : "not loaded", slpi_blas_why());
    printf("products:       %s (%s)\n", slpi_blas_zproduct_name(), slpi_blas_zproduct_why());
    return SLPI_OK;
}

int slpi_cli_list(int argc, char **argv)
{
    static const struct option opts[] = { { "keys", no_argument, 0, 'k' },
                                          { "system", no_argument, 0, 's' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    int keys = 0, sys = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ksh", opts, NULL)) != -1) {
        if (c == 'k')
            keys = 1;
        else if (c == 's')
            sys = 1;
        else if (c == 'h') {
            help(stdout);
            return SLPI_OK;
        } else {
            help(stderr);
            return SLPI_EINPUT;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "slpi list: unexpected argument '%s'\n", argv[optind]);
        return SLPI_EINPUT;
    }
    if (sys) return list_system();
    printf("systems:");
    for (int s = 0; s < SLPI_SYS_COUNT; s++) printf(" %s", slpi_system_name((slpi_system_id)s));
    printf("\nschemes:");
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) printf(" %s", slpi_scheme_name((slpi_scheme_id)k));
    printf("\n\napplicability (P paper, E extension, N/A not applicable):\n%-15s", "");
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) printf(" %-11s", slpi_scheme_name((slpi_scheme_id)k));
    printf("\n");
    static const char *const mark[] = { "N/A", "P", "E" };
    _Static_assert(sizeof mark / sizeof *mark == SLPI_EXTENSION + 1, "a mark per slpi_applicability");
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        printf("%-15s", slpi_system_name((slpi_system_id)s));
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
            printf(" %-11s", mark[slpi_registry_pair((slpi_system_id)s, (slpi_scheme_id)k, NULL)]);
        printf("\n");
    }
    printf("\nremarks and reasons:\n");
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            const char *why = "";
            slpi_applicability a = slpi_registry_pair((slpi_system_id)s, (slpi_scheme_id)k, &why);
            if (why[0])
                printf("  %-15s %-11s %-3s %s\n", slpi_system_name((slpi_system_id)s),
                       slpi_scheme_name((slpi_scheme_id)k), mark[a], why);
        }
    printf("\npresets (slpi run --preset NAME):\n");
    for (const slpi_preset *p = slpi_presets(); p->name; p++) printf("  %-40s %s\n", p->name, p->what);
    if (keys) {
        printf("\nkeys (key=value on the command line or in a --config file):\n");
        slpi_problem_print_keys(stdout);
    }
    return SLPI_OK;
}
