/* cmd-list.c — `slpi list`: systems, schemes, the applicability matrix with reasons,
 * presets, and (with --keys) every problem key. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "core/command.h"

static void help(FILE *f)
{
    fprintf(f, "usage: slpi list [--keys] [--help]\n"
               "  Prints the systems and schemes, which pairs apply (P: used in a paper, E: supported\n"
               "  extension, N/A with the reason; docs/systems.md#applicability) and the presets (docs/experiments.md).\n"
               "  --keys   also print every problem key with its help text\n");
}

int slpi_cli_list(int argc, char **argv)
{
    static const struct option opts[] = { { "keys", no_argument, 0, 'k' }, { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    int keys = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "kh", opts, NULL)) != -1) {
        if (c == 'k') keys = 1;
        else if (c == 'h') { help(stdout); return SLPI_OK; }
        else { help(stderr); return SLPI_EINPUT; }
    }
    if (optind < argc) {
        fprintf(stderr, "slpi list: unexpected argument '%s'\n", argv[optind]);
        return SLPI_EINPUT;
    }
    printf("systems:");
    for (int s = 0; s < SLPI_SYS_COUNT; s++) printf(" %s", slpi_system_name((slpi_system_id)s));
    printf("\nschemes:");
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) printf(" %s", slpi_scheme_name((slpi_scheme_id)k));
    printf("\n\napplicability (P paper, E extension, N/A not applicable):\n%-15s", "");
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) printf(" %-11s", slpi_scheme_name((slpi_scheme_id)k));
    printf("\n");
    static const char *const mark[] = { "N/A", "P", "E" };
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
