/* cmd-converge.c — `slpi converge`: a coupled strong or weak convergence study
 * (studies/converge.c; docs/noise.md#coupling, docs/noise.md#estimators) on the canonical noise, OpenMP over batches of
 * paths and, when built with -DSLPI_MPI (make mpi), MPI across ranks:
 *   mpirun -n K build/mpi/slpi converge ...
 * Every printed digit is independent of the thread and rank count; the wall time goes
 * to standard error only. --checkpoint/--resume save and reload the completed batches'
 * sums (format in studies/converge.c); a resumed study prints the same bytes. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLPI_MPI
#include <mpi.h>
#include <stdint.h>
#include <stddef.h>
#endif

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "cli/cli.h"
#include "studies/studies.h"
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/output.h"
#include "slpi/problem-build.h"
#include "core/parse.h"
#include "core/noise.h"
#include "core/threads.h"
#include "core/command.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi converge [options] [key=value ...]\n"
            "  --preset NAME       start from a docs/experiments.md case (its T, noise and solver keys)\n"
            "  --config FILE       key=value lines ('#' comments), e.g. a model (docs/models.md)\n"
            "  --kind K            strong (rms at T) | sup (rms of the max over the grid) | weak\n"
            "  --levels A..B       coarse levels h = T 2^-k, k = A..B, 0..30 (default 3..8)\n"
            "  --ref L             reference level 1..30 (default 12); same scheme, same paths; the\n"
            "                      noise hierarchy (M x 2^(L+1) doubles per thread) must fit in 2 GiB\n"
            "  --indep SCHEME      also an independent reference: SCHEME at level L\n"
            "  --exact             weak reference exp(-amp^2 T/2) = E x_1(T) (so(3) oracle: noise=const-e3,\n"
            "                      h0_scale=0, x0=1,0,0; with --phi x1), with the quadrature value per level\n"
            "  --phi F             weak functional: sin2pi (sum sin 2 pi x_i, default) | x1 | any\n"
            "                      expression of the state in the model language, e.g. 'x1*x2+x3^2'\n"
            "                      (coordinate names as `slpi run` prints them; docs/noise.md#functionals)\n"
            "  --paths R --path0 P number of coupled paths (2..2^32) and the first path index\n"
            "  --batches B         batches of paths, 1..min(R, 65536) (work units, bootstrap units;\n"
            "                      default min(R,32))\n"
            "  --boot N            bootstrap replicates for the slope CI, 0..10^6 (default 1000; 0: none)\n"
            "  --fit W             slope fit weights: wls ((e/SE)^2, default) | ols (equal)\n"
            "  --drop-coarse N     leave the N coarsest levels out of the slope fit (default 0)\n"
            "  --threads N         OpenMP threads, 1..256 (default: the runtime's)\n"
            "  -o, --output FILE   the report in FILE instead of standard output (written to a\n"
            "                      temporary file and renamed when complete)\n"
            "  --json FILE         also the study as JSON (provenance, problem, levels, slopes)\n"
            "  --checkpoint FILE   write the sums of the completed batches to FILE (atomically:\n"
            "                      a temporary file, fsync, rename) at the start and every K completed\n"
            "                      batches; one MPI rank only (resuming works under any count)\n"
            "  --checkpoint-every K  completed batches between checkpoints, 1..65536 (default 1)\n"
            "  --resume FILE       reload the batches a checkpoint of the same study completed and\n"
            "                      compute the rest: the output is byte-identical to an\n"
            "                      uninterrupted run, for any thread or rank count; a checkpoint of\n"
            "                      another study is refused, naming the first differing parameter\n"
            "Columns: self = error against the same scheme at level L; indep = against the\n"
            "independent reference or the exact value; mlmc = E[P_l - P_l+1] (weak); phi = E P_l.\n"
            "giles = MLMC consistency ratio (even vs odd batches; < 1 passes).\n"
            "A step that fails on a path (a coarse level's solve that does not converge, ...) does not\n"
            "stop the study: the path is left out of every estimate, and the report gives the failed\n"
            "paths per level and the first failure with its step and residual; exit 3 when fewer than\n"
            "2 paths survive (docs/noise.md#failed-paths).\n");
}

#ifdef SLPI_MPI
static int mpi_combine(double *buf, size_t n, void *arg)
{
    (void)arg;
    return MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS;
}
#endif

/* Limits checked before anything is allocated (exit 2 with the option named). */
#define CONV_MAX_BATCHES 65536
#define CONV_MAX_BOOT 1000000

/* --levels A..B, each level 0..30 (strict, core/parse.c). */
static int parse_levels(const char *s, int *a, int *b, slpi_error *err)
{
    const char *dots = strstr(s, "..");
    char first[32];
    if (!dots || (size_t)(dots - s) >= sizeof first)
        return slpi_error_set(err, SLPI_EINPUT, "--levels %s: expected A..B", s);
    memcpy(first, s, (size_t)(dots - s));
    first[dots - s] = '\0';
    if (slpi_parse_int("--levels", first, 0, 30, a, err) || slpi_parse_int("--levels", dots + 2, 0, 30, b, err))
        return SLPI_EINPUT;
    return SLPI_OK;
}

enum { MAXK = 64 };

/* The command line: the problem's keys in the order given, and the study's own options
 * that are not fields of its slpi_conv_cfg. */
typedef struct {
    char *keys[MAXK], *vals[MAXK];
    int nk, help;
    const char *preset, *indep, *output, *json, *config;
} conv_args;

/* The options into *cfg and *a, the key=value words into *a: SLPI_EINPUT, said on standard
 * error, for a bad one; a->help set once the help is printed (by rank 0). */
static int parse_args(conv_args *a, slpi_conv_cfg *cfg, int argc, char **argv, int rank)
{
    static const struct option opts[] = { { "preset", required_argument, 0, 'P' },
                                          { "kind", required_argument, 0, 'k' },
                                          { "levels", required_argument, 0, 'l' },
                                          { "ref", required_argument, 0, 'L' },
                                          { "indep", required_argument, 0, 'i' },
                                          { "exact", no_argument, 0, 'e' },
                                          { "phi", required_argument, 0, 'f' },
                                          { "paths", required_argument, 0, 'R' },
                                          { "path0", required_argument, 0, 'p' },
                                          { "batches", required_argument, 0, 'b' },
                                          { "boot", required_argument, 0, 'B' },
                                          { "threads", required_argument, 0, 't' },
                                          { "help", no_argument, 0, 'h' },
                                          { "checkpoint", required_argument, 0, 'C' },
                                          { "checkpoint-every", required_argument, 0, 'E' },
                                          { "resume", required_argument, 0, 'r' },
                                          { "config", required_argument, 0, 'c' },
                                          { "fit", required_argument, 0, 'W' },
                                          { "drop-coarse", required_argument, 0, 'D' },
                                          { "output", required_argument, 0, 'o' },
                                          { "json", required_argument, 0, 'j' },
                                          { 0, 0, 0, 0 } };
    int c, rc = SLPI_OK;
    slpi_error err = { 0, "" };
    *a = (conv_args){ .nk = 0 };
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'P':
            a->preset = optarg;
            break;
        case 'k':
            if (!strcmp(optarg, "strong"))
                cfg->kind = SLPI_CONV_STRONG;
            else if (!strcmp(optarg, "sup"))
                cfg->kind = SLPI_CONV_SUP;
            else if (!strcmp(optarg, "weak"))
                cfg->kind = SLPI_CONV_WEAK;
            else {
                fprintf(stderr, "slpi converge: --kind %s: strong | sup | weak\n", optarg);
                return SLPI_EINPUT;
            }
            break;
        case 'l':
            rc = parse_levels(optarg, &cfg->kmin, &cfg->kmax, &err);
            break;
        case 'L':
            rc = slpi_parse_int("--ref", optarg, 1, 30, &cfg->L, &err);
            break;
        case 'i':
            a->indep = optarg;
            break;
        case 'e':
            cfg->exact = 1;
            break;
        case 'f':
            slpi_conv_phi_set(cfg, optarg); /* an expression is parsed when the study starts */
            break;
        case 'R':
            rc = slpi_parse_long("--paths", optarg, 2, 1L << 32, &cfg->paths, &err);
            break;
        case 'p':
            rc = slpi_parse_u64("--path0", optarg, UINT32_MAX, &cfg->path0, &err);
            break;
        case 'b':
            rc = slpi_parse_int("--batches", optarg, 1, CONV_MAX_BATCHES, &cfg->batches, &err);
            break;
        case 'B':
            rc = slpi_parse_int("--boot", optarg, 0, CONV_MAX_BOOT, &cfg->boot, &err);
            break;
        case 't':
            rc = slpi_parse_int("--threads", optarg, 1, SLPI_MAX_THREADS, &cfg->threads, &err);
            break;
        case 'C':
            cfg->checkpoint = optarg;
            break;
        case 'E':
            rc = slpi_parse_int("--checkpoint-every", optarg, 1, CONV_MAX_BATCHES, &cfg->checkpoint_every, &err);
            break;
        case 'r':
            cfg->resume = optarg;
            break;
        case 'W':
            if (strcmp(optarg, "wls") && strcmp(optarg, "ols")) {
                fprintf(stderr, "slpi converge: --fit %s: wls | ols\n", optarg);
                return SLPI_EINPUT;
            }
            cfg->ols = !strcmp(optarg, "ols");
            break;
        case 'D':
            rc = slpi_parse_int("--drop-coarse", optarg, 0, 30, &cfg->drop_coarse, &err);
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'j':
            a->json = optarg;
            break;
        case 'c':
            a->config = optarg;
            break;
        case 'h':
            if (rank == 0) help(stdout);
            a->help = 1;
            return SLPI_OK;
        default:
            fprintf(stderr, "slpi converge: see `slpi converge --help`\n");
            return SLPI_EINPUT;
        }
        if (rc != SLPI_OK) {
            if (rank == 0) fprintf(stderr, "slpi converge: %s\n", err.msg);
            return SLPI_EINPUT;
        }
    }
    for (int i = optind; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || a->nk == MAXK) {
            fprintf(stderr, "slpi converge: '%s': expected key=value\n", argv[i]);
            return SLPI_EINPUT;
        }
        *eq = '\0';
        a->keys[a->nk] = argv[i];
        a->vals[a->nk++] = eq + 1;
    }
    return SLPI_OK;
}

/* The study on the problem p, and its reports written (by rank 0) to --output and --json,
 * each renamed into place only when the whole study succeeded. */
static int run_and_write(slpi_conv_cfg *cfg, slpi_problem *p, const conv_args *a, int rank, int nranks,
                         slpi_conv_combine combine, slpi_error *err)
{
    slpi_output *report = NULL, *jreport = NULL;
    int rc = rank == 0 ? slpi_output_open(&report, a->output, SLPI_OUTPUT_REPLACE, err) : SLPI_OK;
    if (rc == SLPI_OK && rank == 0 && a->json) rc = slpi_output_open(&jreport, a->json, SLPI_OUTPUT_REPLACE, err);
    if (rc == SLPI_OK) {
        slpi_view_grid_edit(p)->level = -1;
        cfg->base = p;
        cfg->exact_value = slpi_weak_exact_sde(slpi_view_system(p)->rb.amp, slpi_view_grid(p)->T);
        cfg->rank = rank;
        cfg->nranks = nranks;
        slpi_conv_result res;
        rc = slpi_conv_run(cfg, combine, NULL, &res, err);
        if (rc == SLPI_OK && rank == 0) {
            slpi_conv_print(cfg, &res, slpi_output_file(report));
            if (jreport && slpi_conv_write_json(cfg, &res, slpi_output_file(jreport)) != SLPI_OK)
                rc = slpi_error_set(err, SLPI_EINPUT, "%s: write error", a->json);
            if (rc == SLPI_OK) rc = slpi_output_commit(report, err);
            report = NULL;
            if (rc == SLPI_OK && jreport) rc = slpi_output_commit(jreport, err);
            jreport = NULL;
            if (rc == SLPI_OK) fprintf(stderr, "slpi converge: %.2f s wall\n", res.seconds);
        }
    }
    slpi_output_abort(report);
    slpi_output_abort(jreport);
    return rc;
}

/* The command on the problem storage p (the study's base: it outlives the study). */
static int run_study_on(slpi_problem *p, int argc, char **argv, int rank, int nranks, slpi_conv_combine combine)
{
    conv_args a;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_conv_cfg cfg;
    slpi_conv_init(&cfg, p);
    slpi_error err = { 0, "" };
    cfg.checkpoint_every = 1;
    int rc = parse_args(&a, &cfg, argc, argv, rank);
    if (rc != SLPI_OK || a.help) return rc;
    rc = slpi_problem_build(p, a.preset, a.config, a.nk, a.keys, a.vals, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_many_paths(p, 0, "converge", "--path0", &err);
    if (rc == SLPI_OK && a.indep) {
        slpi_scheme_id k;
        rc = slpi_scheme_from_name(a.indep, &k);
        if (rc != SLPI_OK) rc = slpi_error_set(&err, SLPI_EINPUT, "--indep %s: unknown scheme", a.indep);
        cfg.indep = 1;
        cfg.indep_scheme = k;
    }
    /* the reports are neither the checkpoint nor an input (the checkpoint may be the
     * file resumed from: it is rewritten whole, atomically) */
    const char *outs[3] = { a.output, a.json, cfg.checkpoint }, *out_role[3] = { "--output", "--json", "--checkpoint" };
    const char *ins[2] = { cfg.resume, slpi_view_system(p)->x0_file }, *in_role[2] = { "--resume", "x0_file" };
    if (rc == SLPI_OK) rc = slpi_output_check_paths(3, outs, out_role, 0, NULL, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_output_check_paths(2, outs, out_role, 2, ins, in_role, &err);
    if (rc == SLPI_OK) rc = run_and_write(&cfg, p, &a, rank, nranks, combine, &err);
    /* the study's own messages name it ("converge: ...", as the API and Python show them) */
    if (rc != SLPI_OK && rank == 0)
        fprintf(stderr, "slpi converge: %s\n", err.msg + (strncmp(err.msg, "converge: ", 10) ? 0 : 10));
    return rc;
}

static int run_study(int argc, char **argv, int rank, int nranks, slpi_conv_combine combine)
{
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        if (rank == 0) fprintf(stderr, "slpi converge: out of memory\n");
        return SLPI_EINPUT;
    }
    int rc = run_study_on(p, argc, argv, rank, nranks, combine);
    slpi_problem_free(p);
    return rc;
}

int slpi_cli_converge(int argc, char **argv)
{
#ifdef SLPI_MPI
    int rank = 0, nranks = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int rc = run_study(argc, argv, rank, nranks, mpi_combine);
    MPI_Finalize();
    return rc;
#else
    return run_study(argc, argv, 0, 1, NULL);
#endif
}
