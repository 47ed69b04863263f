/* cmd-verify.c — `slpi verify FILE`: check a trajectory of another implementation
 * against the certified path (the port verifier; oracle/verify.c, and the port
 * workflow in oracle/README.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "slpi.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi verify [options] FILE\n"
            "  FILE               trajectory TSV 'slpi-trajectory 1' whose '#' header holds the\n"
            "                     problem (key=value, as `slpi run` writes it) and whose columns\n"
            "                     include the state coordinates (see oracle/README.md)\n"
            "  --noise-file F     increments from this noise file (default: the header's\n"
            "                     noise_file, else the canonical noise of seed and path)\n"
            "  --max-steps K      certify at most K steps; later rows are UNABLE (not checked)\n"
            "  --golden-dir DIR   where a header's case=NAME is looked up (default oracle/golden)\n"
            "  --quiet, -q        only the summary, not one line per row\n"
            "  --json FILE        also write the result as JSON\n"
            "Each row: state ratio |port - exact| / (n u |x|) (certified bounds lo, hi), ulps of\n"
            "the correctly rounded exact value, invariant ratio, invariant drift of the port and of\n"
            "the exact scheme. PASS if every bound <= %g, FAIL if a lower bound exceeds it.\n"
            "Exit 0 PASS, 1 FAIL, 2 bad input (file:line), 3 UNABLE (not everything certified).\n",
            SLPI_ORACLE_THRESHOLD);
}

int slpi_cli_verify(int argc, char **argv)
{
    static const struct option opts[] = {
        { "noise-file", required_argument, 0, 'n' }, { "max-steps", required_argument, 0, 'm' },
        { "golden-dir", required_argument, 0, 'g' }, { "quiet", no_argument, 0, 'q' },
        { "json", required_argument, 0, 'j' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 }
    };
    const char *noise = NULL, *golden = NULL, *json = NULL;
    long max_steps = -1;
    int quiet = 0, c;
    char *end;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'n': noise = optarg; break;
        case 'm':
            errno = 0;
            max_steps = strtol(optarg, &end, 10);
            if (*end || errno || max_steps < 0) {
                fprintf(stderr, "slpi verify: --max-steps %s: expected a non-negative integer\n", optarg);
                return SLPI_EINPUT;
            }
            break;
        case 'g': golden = optarg; break;
        case 'j': json = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': help(stdout); return SLPI_OK;
        default: fprintf(stderr, "slpi verify: see `slpi verify --help`\n"); return SLPI_EINPUT;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "slpi verify: expected one trajectory file (see `slpi verify --help`)\n");
        return SLPI_EINPUT;
    }
    slpi_error err = { 0, "" };
    slpi_verify_result res;
    FILE *rows = NULL;
    if (quiet) rows = fopen("/dev/null", "w");
    int rc = slpi_verify_file(argv[optind], noise, golden, max_steps, quiet ? rows : stdout, &res, &err);
    if (rows) fclose(rows);
    if (rc != SLPI_OK) {
        fprintf(stderr, "slpi verify: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    if (json && slpi_verify_write_json(argv[optind], &res, json, &err) != SLPI_OK) {
        fprintf(stderr, "slpi verify: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    if (quiet)
        printf("%s: %s (%ld rows: %ld PASS, %ld FAIL, %ld UNABLE; worst state ratio %.3g, invariant ratio %.3g)\n",
               argv[optind], slpi_verdict_name(res.verdict), res.rows, res.rows_pass, res.rows_fail, res.rows_unable,
               res.state.hi, res.inv.hi);
    return (int)res.verdict;
}
