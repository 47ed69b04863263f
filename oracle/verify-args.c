/* verify-args.c — the command line of `slpi verify` (slpi-tools.h: slpi_verify_parse_args,
 * slpi_verify_help), in the tools library so that the command and the bindings
 * (slpi_api_verify_argv, Python's slpi.verify) read the same options the same way.
 * Numbers go through core's parsers (core/parse.c), the precision through the table of
 * oracle/precision.c. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/tools.h"
#include "core/parse.h"
#include "oracle/oracle.h"
#include "core/threads.h"

void slpi_verify_help(FILE *f)
{
    fprintf(f,
            "usage: slpi verify [options] FILE [FILE ...]\n"
            "  FILE               trajectory TSV 'slpi-trajectory 1' whose '#' header holds the\n"
            "                     problem (key=value, as `slpi run` writes it) and whose columns\n"
            "                     include the state coordinates (see oracle/README.md); several\n"
            "                     FILEs are paths of one problem (headers equal but for path=,\n"
            "                     seed=, noise_file=, x0_file=): each is proved, the statistics\n"
            "                     pool them\n"
            "Comparisons (both by default; the verdict is the worse of the two):\n"
            "  --global           only the global one: each row against the certified\n"
            "                     trajectory from x0 (its radius grows: long runs become UNABLE)\n"
            "  --local            only the local one: each row against the certified step(s)\n"
            "                     from the port's previous row, in units of k u |x| for k steps\n"
            "                     (never UNABLE for length; rows are independent)\n"
            "  --rows A..B        local: only the rows of steps A..B (A.. or ..B: open)\n"
            "  --sample K         local: K of those rows (of each file or path), drawn from a seed\n"
            "                     that is printed, with their power to detect 1 u per step\n"
            "  --sample-seed S    that seed (default: $SLPI_VERIFY_SEED, else the clock)\n"
            "  --threads N        local: OpenMP threads over a file's rows, or over the files from\n"
            "                     4 files a thread (default: the runtime's)\n"
            "Budget (printed in the verdict and the JSON):\n"
            "  --precision P      the port's format: %s\n"
            "                     (default binary64; oracle/README.md#precisions); tf32 presumes\n"
            "                     operands rounded to nearest, tf32-rz truncated; +ftz: a unit\n"
            "                     that flushes subnormals to zero\n"
            "  --unit-roundoff U  the same as --precision u=U\n"
            "  --budget K         a row PASSes when its certified ratio is <= K (default %g)\n"
            "Statistics (with the local comparison; oracle/README.md#statistics):\n"
            "  --alpha A          the calibrated test's false-FAIL rate (default %g)\n"
            "  --require-power    a test with less than 90 %% power for 1 u per step is UNABLE\n"
            "                     (default: reported as LOW-POWER, the verdict is the proof's)\n"
            "  --stat-reference R the step each row's deviation is measured from: certified (the\n"
            "                     proof's), double (slpi's double path: binary32 and coarser),\n"
            "                     accurate (the certified path's arithmetic without its enclosure\n"
            "                     tests), or auto, the default: double where its error is below\n"
            "                     1e-5 u, else accurate (docs/power.md#reference-rule); under double\n"
            "                     and accurate, rows beyond --max-steps still give their statistics\n"
            "                     (--max-steps 0: alone)\n"
            "Input and output:\n"
            "  --noise-file F     increments from this noise file (default: the header's\n"
            "                     noise_file, relative to FILE's folder, else the canonical\n"
            "                     noise of seed and path)\n"
            "  --max-steps K      certify at most K steps (locally: per row); beyond: UNABLE;\n"
            "                     without it, a file that needs more than %ld steps certified\n"
            "                     (globally, or between two rows locally: days of work) is exit 2\n"
            "  --golden-dir DIR   where a header's case=NAME is looked up (default: the\n"
            "                     installed golden files, else oracle/golden)\n"
            "  --table            also one line per row (global, then local)\n"
            "  --quiet, -q        only a one-line summary\n"
            "  -o, --output F     write the report to F instead of standard output\n"
            "  --json FILE        also write the result as JSON\n"
            "Global row: state ratio |port - exact| / (n u |x|) (certified bounds lo, hi), ulps\n"
            "of the exact value rounded to the format, invariant ratio, invariant drift of the\n"
            "port and of the exact scheme. PASS if every bound <= K, FAIL if a lower bound exceeds it.\n"
            "Exit 0 PASS, 1 FAIL (the proof or the statistics), 2 bad input (file:line),\n"
            "3 UNABLE (not everything certified; with --require-power also LOW-POWER).\n",
            slpi_precision_list(), SLPI_ORACLE_THRESHOLD, SLPI_VERIFY_ALPHA, SLPI_VERIFY_MAX_STEPS_DEFAULT);
}

static int bad(slpi_error *err, const char *opt, const char *val, const char *why)
{
    return slpi_error_set(err, SLPI_EINPUT, "--%s %s: %s (see `slpi verify --help`)", opt, val, why);
}

/* A..B, A.., ..B (steps, inclusive). */
static int parse_range(const char *s, long *a, long *b, slpi_error *err)
{
    const char *dots = strstr(s, "..");
    char left[32];
    size_t n = dots ? (size_t)(dots - s) : 0;
    if (!dots || n >= sizeof left) return bad(err, "rows", s, "expected A..B, A.. or ..B");
    memcpy(left, s, n);
    left[n] = '\0';
    *a = *b = -1;
    if (n > 0 && slpi_parse_long("--rows", left, 0, 0x7fffffffffffffffL, a, err)) return SLPI_EINPUT;
    if (dots[2] && slpi_parse_long("--rows", dots + 2, 0, 0x7fffffffffffffffL, b, err)) return SLPI_EINPUT;
    return *b >= 0 && *a > *b ? bad(err, "rows", s, "A after B") : SLPI_OK;
}

/* auto, certified, double or accurate (docs/power.md#reference-rule, #accurate-reference). */
static int parse_reference(const char *s, int *out, slpi_error *err)
{
    for (int i = 0; slpi_oracle_stat_reference_name(i); i++)
        if (strcmp(s, slpi_oracle_stat_reference_name(i)) == 0) {
            *out = i;
            return SLPI_OK;
        }
    return bad(err, "stat-reference", s, "expected auto, certified, double or accurate");
}

int slpi_verify_parse_args(slpi_verify_opts *o, slpi_verify_io *io, int argc, char **argv, const char **files, int max,
                           int *nfiles, slpi_error *err)
{
    static const struct option opts[] = { { "noise-file", required_argument, 0, 'n' },
                                          { "max-steps", required_argument, 0, 'm' },
                                          { "golden-dir", required_argument, 0, 'g' },
                                          { "quiet", no_argument, 0, 'q' },
                                          { "json", required_argument, 0, 'j' },
                                          { "output", required_argument, 0, 'o' },
                                          { "global", no_argument, 0, 'G' },
                                          { "local", no_argument, 0, 'L' },
                                          { "rows", required_argument, 0, 'r' },
                                          { "sample", required_argument, 0, 's' },
                                          { "sample-seed", required_argument, 0, 'S' },
                                          { "threads", required_argument, 0, 't' },
                                          { "precision", required_argument, 0, 'p' },
                                          { "unit-roundoff", required_argument, 0, 'u' },
                                          { "budget", required_argument, 0, 'k' },
                                          { "table", no_argument, 0, 'T' },
                                          { "alpha", required_argument, 0, 'a' },
                                          { "require-power", no_argument, 0, 'R' },
                                          { "stat-reference", required_argument, 0, 'e' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    slpi_verify_opts_init(o);
    memset(io, 0, sizeof *io);
    *nfiles = 0;
    const char *seed = getenv("SLPI_VERIFY_SEED");
    int only_global = 0, only_local = 0, c, rc = SLPI_OK;
    long v;
    char u[80];
    optind = 1;
    opterr = 0;
    while (rc == SLPI_OK && (c = getopt_long(argc, argv, "qho:", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            o->noise_file = optarg;
            break;
        case 'm':
            rc = slpi_parse_long("--max-steps", optarg, 0, 0x7fffffffffffffffL, &o->max_steps, err);
            break;
        case 'g':
            o->golden_dir = optarg;
            break;
        case 'j':
            io->json = optarg;
            break;
        case 'o':
            io->output = optarg;
            break;
        case 'q':
            io->quiet = 1;
            break;
        case 'G':
            only_global = 1;
            break;
        case 'L':
            only_local = 1;
            break;
        case 'T':
            o->table = 1;
            break;
        case 'R':
            o->require_power = 1;
            break;
        case 'r':
            rc = parse_range(optarg, &o->row_first, &o->row_last, err);
            break;
        case 's':
            rc = slpi_parse_long("--sample", optarg, 1, 0x7fffffffffffffffL, &o->sample, err);
            break;
        case 'S':
            seed = optarg;
            break;
        case 't':
            rc = slpi_parse_long("--threads", optarg, 1, SLPI_MAX_THREADS, &v, err);
            o->threads = (int)v;
            break;
        case 'p':
            rc = slpi_precision_parse(&o->precision, optarg, err);
            break;
        case 'u':
            snprintf(u, sizeof u, "u=%.60s", optarg);
            rc = slpi_precision_parse(&o->precision, u, err);
            break;
        case 'k':
            rc = slpi_parse_double("--budget", optarg, 0x1p-1022, 1e300, &o->budget, err);
            break;
        case 'a':
            rc = slpi_parse_double("--alpha", optarg, 1e-300, 0.5, &o->alpha, err);
            break;
        case 'e':
            rc = parse_reference(optarg, &o->stat_reference, err);
            break;
        case 'h':
            io->help = 1;
            break;
        default:
            rc = slpi_error_set(err, SLPI_EINPUT, "unknown option or missing value: %s (see `slpi verify --help`)",
                                argv[optind - 1]);
        }
    }
    if (rc != SLPI_OK || io->help) return rc;
    for (int i = optind; i < argc; i++) {
        if (*nfiles >= max) return slpi_error_set(err, SLPI_EINPUT, "more than %d trajectory files", max);
        files[(*nfiles)++] = argv[i];
    }
    if (*nfiles == 0)
        return slpi_error_set(err, SLPI_EINPUT, "expected one trajectory file or more (see `slpi verify --help`)");
    if (only_global && only_local)
        return slpi_error_set(err, SLPI_EINPUT, "--global and --local together are the default; give one or neither");
    o->global = !only_local;
    o->local = !only_global;
    if (seed) return slpi_parse_u64("--sample-seed", seed, UINT64_MAX, &o->sample_seed, err);
    o->sample_seed = (uint64_t)time(NULL);
    return SLPI_OK;
}
