/* cmd-verify.c — `slpi verify FILE`: check a trajectory of another implementation
 * against the certified path (oracle/verify.c, oracle/local.c; the port author's guide
 * is oracle/README.md): globally (each row against the certified trajectory from x0)
 * and locally (each row against the certified step from the port's previous row), with
 * the port's stated budget. The local rows run on OpenMP threads and, when built with
 * -DSLPI_MPI (make mpi), on MPI ranks:  mpirun -n K build/mpi/slpi verify --local F */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SLPI_MPI
#include <mpi.h>
#endif

#include "cli/cli.h"
#include "slpi-tools.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi verify [options] FILE\n"
            "  FILE               trajectory TSV 'slpi-trajectory 1' whose '#' header holds the\n"
            "                     problem (key=value, as `slpi run` writes it) and whose columns\n"
            "                     include the state coordinates (see oracle/README.md)\n"
            "Comparisons (both by default; the verdict is the worse of the two):\n"
            "  --global           only the global one: each row against the certified\n"
            "                     trajectory from x0 (its radius grows: long runs become UNABLE)\n"
            "  --local            only the local one: each row against the certified step(s)\n"
            "                     from the port's previous row, in units of k u |x| for k steps\n"
            "                     (never UNABLE for length; rows are independent)\n"
            "  --rows A..B        local: only the rows of steps A..B (A.. or ..B: open)\n"
            "  --sample K         local: K of those rows, drawn from a seed that is printed\n"
            "  --sample-seed S    that seed (default: $SLPI_VERIFY_SEED, else the clock)\n"
            "  --threads N        local: OpenMP threads (default: the runtime's)\n"
            "Budget (printed in the verdict and the JSON):\n"
            "  --precision P      binary64 (u = 2^-53, the default) | binary32 (u = 2^-24)\n"
            "  --unit-roundoff U  the port's unit roundoff u (instead of --precision)\n"
            "  --budget K         a row PASSes when its certified ratio is <= K (default %g)\n"
            "Input and output:\n"
            "  --noise-file F     increments from this noise file (default: the header's\n"
            "                     noise_file, relative to FILE's folder, else the canonical\n"
            "                     noise of seed and path)\n"
            "  --max-steps K      certify at most K steps (locally: per row); beyond: UNABLE\n"
            "  --golden-dir DIR   where a header's case=NAME is looked up (default: the\n"
            "                     installed golden files, else oracle/golden)\n"
            "  --table            also one line per row (global, then local)\n"
            "  --quiet, -q        only a one-line summary\n"
            "  -o, --output F     write the report to F instead of standard output\n"
            "  --json FILE        also write the result as JSON\n"
            "Global row: state ratio |port - exact| / (n u |x|) (certified bounds lo, hi), ulps\n"
            "of the correctly rounded exact value, invariant ratio, invariant drift of the port\n"
            "and of the exact scheme. PASS if every bound <= K, FAIL if a lower bound exceeds it.\n"
            "Exit 0 PASS, 1 FAIL, 2 bad input (file:line), 3 UNABLE (not everything certified).\n",
            SLPI_ORACLE_THRESHOLD);
}

static int bad(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "slpi verify: --%s %s: %s (see `slpi verify --help`)\n", opt, val, why);
    return SLPI_EINPUT;
}

/* A whole non-negative integer (no sign, no trailing text, no overflow). */
static int parse_count(const char *s, long *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return -1;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < 0) return -1;
    *out = v;
    return 0;
}

/* A..B, A.., ..B (steps, inclusive). */
static int parse_range(const char *s, long *a, long *b)
{
    const char *dots = strstr(s, "..");
    if (!dots) return -1;
    char left[32];
    size_t n = (size_t)(dots - s);
    if (n >= sizeof left) return -1;
    memcpy(left, s, n);
    left[n] = '\0';
    *a = *b = -1;
    if (n > 0 && parse_count(left, a)) return -1;
    if (dots[2] && parse_count(dots + 2, b)) return -1;
    return *b >= 0 && *a > *b ? -1 : 0;
}

static int parse_positive(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && *out > 0 && isfinite(*out) ? 0 : -1;
}

#ifdef SLPI_MPI
static int mpi_combine(double *buf, size_t n, void *arg)
{
    (void)arg;
    return MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS;
}
#endif

static int verify_main(int argc, char **argv, int rank, int nranks)
{
    static const struct option opts[] = {
        { "noise-file", required_argument, 0, 'n' }, { "max-steps", required_argument, 0, 'm' },
        { "golden-dir", required_argument, 0, 'g' }, { "quiet", no_argument, 0, 'q' },
        { "json", required_argument, 0, 'j' },       { "output", required_argument, 0, 'o' },
        { "global", no_argument, 0, 'G' },           { "local", no_argument, 0, 'L' },
        { "rows", required_argument, 0, 'r' },       { "sample", required_argument, 0, 's' },
        { "sample-seed", required_argument, 0, 'S' }, { "threads", required_argument, 0, 't' },
        { "precision", required_argument, 0, 'p' },  { "unit-roundoff", required_argument, 0, 'u' },
        { "budget", required_argument, 0, 'k' },     { "table", no_argument, 0, 'T' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 }
    };
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    const char *json = NULL, *output = NULL, *seed = getenv("SLPI_VERIFY_SEED");
    int quiet = 0, only_global = 0, only_local = 0, c;
    long v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qho:", opts, NULL)) != -1) {
        switch (c) {
        case 'n': o.noise_file = optarg; break;
        case 'm':
            if (parse_count(optarg, &o.max_steps)) return bad("max-steps", optarg, "expected a non-negative integer");
            break;
        case 'g': o.golden_dir = optarg; break;
        case 'j': json = optarg; break;
        case 'o': output = optarg; break;
        case 'q': quiet = 1; break;
        case 'G': only_global = 1; break;
        case 'L': only_local = 1; break;
        case 'T': o.table = 1; break;
        case 'r':
            if (parse_range(optarg, &o.row_first, &o.row_last)) return bad("rows", optarg, "expected A..B, A.. or ..B");
            break;
        case 's':
            if (parse_count(optarg, &o.sample) || o.sample == 0) return bad("sample", optarg, "expected a positive integer");
            break;
        case 'S': seed = optarg; break;
        case 't':
            if (parse_count(optarg, &v) || v < 1 || v > SLPI_MAX_THREADS) return bad("threads", optarg, "expected an integer 1..256");
            o.threads = (int)v;
            break;
        case 'p':
            if (!strcmp(optarg, "binary64")) o.u = SLPI_U_BINARY64;
            else if (!strcmp(optarg, "binary32")) o.u = SLPI_U_BINARY32;
            else return bad("precision", optarg, "expected binary64 or binary32");
            break;
        case 'u':
            if (parse_positive(optarg, &o.u) || !(o.u < 1)) return bad("unit-roundoff", optarg, "expected a number in (0, 1)");
            break;
        case 'k':
            if (parse_positive(optarg, &o.budget)) return bad("budget", optarg, "expected a positive number");
            break;
        case 'h': help(stdout); return SLPI_OK;
        default: fprintf(stderr, "slpi verify: see `slpi verify --help`\n"); return SLPI_EINPUT;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "slpi verify: expected one trajectory file (see `slpi verify --help`)\n");
        return SLPI_EINPUT;
    }
    if (only_global && only_local) {
        fprintf(stderr, "slpi verify: --global and --local together are the default; give one or neither\n");
        return SLPI_EINPUT;
    }
    o.global = !only_local;
    o.local = !only_global;
    if (seed) {
        char *end;
        errno = 0;
        o.sample_seed = strtoull(seed, &end, 0);
        if (*seed == '-' || *end || errno) return bad("sample-seed", seed, "expected an unsigned 64-bit integer");
    } else {
        o.sample_seed = (uint64_t)time(NULL);
    }
    o.rank = rank;
    o.nranks = nranks;
#ifdef SLPI_MPI
    if (nranks > 1) {
        o.combine = mpi_combine;
        MPI_Bcast(&o.sample_seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    }
#endif
    const char *outs[2] = { output, json }, *out_role[2] = { "--output", "--json" };
    const char *in[1] = { argv[optind] }, *in_role[1] = { "trajectory" };
    slpi_error perr = { 0, "" };
    if (slpi_output_check_paths(2, outs, out_role, 1, in, in_role, &perr) != SLPI_OK) {
        if (rank == 0) fprintf(stderr, "slpi verify: %s\n", perr.msg);
        return SLPI_EINPUT;
    }
    slpi_output *report = rank == 0 ? slpi_cli_output_open("verify", output) : NULL;
    if (rank == 0 && !report) return SLPI_EINPUT;
    FILE *out = report ? slpi_output_file(report) : NULL;
    slpi_error err = { 0, "" };
    slpi_verify_result res;
    int rc = slpi_verify_run(argv[optind], &o, quiet ? NULL : out, &res, &err);
    if (rc != SLPI_OK && rank == 0) fprintf(stderr, "slpi verify: %s\n", err.msg);
    if (rc == SLPI_OK && rank == 0 && json && slpi_verify_write_json(argv[optind], &res, json, &err) != SLPI_OK) {
        fprintf(stderr, "slpi verify: %s\n", err.msg);
        rc = SLPI_EINPUT;
    }
    if (rc == SLPI_OK && quiet && rank == 0) {
        fprintf(out, "%s: %s (%s, u = %.3g, K = %g;", argv[optind], slpi_verdict_name(res.verdict),
                slpi_verify_precision_name(res.u), res.u, res.budget);
        if (o.global)
            fprintf(out, " global %s, %ld rows: %ld PASS, %ld FAIL, %ld UNABLE, worst state ratio %.3g, invariant ratio %.3g;",
                    slpi_verdict_name(res.global_verdict), res.rows, res.rows_pass, res.rows_fail, res.rows_unable,
                    res.state.hi, res.inv.hi);
        if (o.local)
            fprintf(out, " local %s, %ld rows: %ld PASS, %ld FAIL, %ld UNABLE, worst step ratio %.3g;",
                    slpi_verdict_name(res.local.verdict), res.local.rows, res.local.rows_pass, res.local.rows_fail,
                    res.local.rows_unable, res.local.state.hi);
        fprintf(out, ")\n");
    }
    if (report && slpi_cli_output_close("verify", report) != SLPI_OK && rc == SLPI_OK) rc = SLPI_EINPUT;
    return rc != SLPI_OK ? rc : (int)res.verdict;
}

int slpi_cli_verify(int argc, char **argv)
{
#ifdef SLPI_MPI
    int rank = 0, nranks = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int rc = verify_main(argc, argv, rank, nranks);
    MPI_Finalize();
    return rc;
#else
    return verify_main(argc, argv, 0, 1);
#endif
}
