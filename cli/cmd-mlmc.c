/* cmd-mlmc.c — `slpi mlmc`: a multilevel Monte Carlo estimate of E phi(X_T) to a requested
 * RMSE (studies/mlmc.c; docs/noise.md#mlmc; Giles, Oper. Res. 2008), on the coupled levels
 * of `slpi converge --kind weak`, OpenMP over paths; with --test, Giles' mlmc_test
 * (studies/mlmc-test.c; docs/noise.md#mlmc-test). Every printed digit is independent of
 * the thread count; the wall time goes to standard error only. --checkpoint/--resume save
 * and reload the estimate's state; a resumed estimate prints the same bytes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "cli/cli.h"
#include "studies/mlmc.h"
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/output.h"
#include "slpi/problem-build.h"
#include "core/parse.h"
#include "core/threads.h"
#include "core/command.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi mlmc --rmse E [options] [key=value ...]\n"
            "       slpi mlmc --test [--paths N] [--eps E1,E2,...] [options] [key=value ...]\n"
            "  --preset NAME       start from a docs/experiments.md case (its T, noise and solver keys)\n"
            "  --config FILE       key=value lines ('#' comments), e.g. a model (docs/models.md)\n"
            "  --rmse E            the requested root-mean-square error of the estimate (> 0)\n"
            "  --phi F             the functional: sin2pi (default) | x1 | an expression of the state\n"
            "                      (as `slpi converge --phi`; docs/noise.md#functionals)\n"
            "  --levels A..B       the coarsest level A and the finest level allowed B, h = T 2^-l\n"
            "                      (0 <= A <= B <= 24; default 3..16)\n"
            "  --pilot N           paths a level is first sampled with, 2..2^24 (default 200)\n"
            "  --alpha A           the weak order in the bias estimate, (0, 8] (default 1)\n"
            "  --plain             plain Monte Carlo at level A alone, to the same variance rule\n"
            "  --test              Giles' mlmc_test instead of an estimate: N paths on every level\n"
            "                      A..B (B >= A + 2; default 3..8), each level's mean, variance and\n"
            "                      kurtosis of Y_l and mean and variance of P_l, the consistency\n"
            "                      check, the fitted alpha, beta, gamma, and the cost of MLMC and of\n"
            "                      plain MC at each --eps (docs/noise.md#mlmc-test); --rmse, --pilot,\n"
            "                      --alpha and --plain are refused with it\n"
            "  --paths N           --test: paths per level, 2..2^27 (default 2000)\n"
            "  --eps E1,E2,...     --test: the sweep's requested RMSEs, 1..16 of them\n"
            "                      (default 0.02,0.01,0.005)\n"
            "  --threads N         OpenMP threads, 1..256 (default: the runtime's)\n"
            "  -o, --output FILE   the report in FILE instead of standard output\n"
            "  --json FILE         also the estimate as JSON (levels, costs, seconds per level)\n"
            "  --checkpoint FILE   write the estimate's state to FILE (atomically) after every\n"
            "                      level's sampling (--test: after every 1024 paths of a level)\n"
            "  --resume FILE       go on from a checkpoint of the same estimate: the output is\n"
            "                      byte-identical to an uninterrupted run, for any thread count\n"
            "Level A estimates E P_A; level l > A estimates E[P_l - P_l-1] on one Brownian path\n"
            "(the coupling of `slpi converge`). Paths per level: N_l = ceil(2 E^-2 sqrt(V_l/C_l)\n"
            "sum_k sqrt(V_k C_k)), C_l the steps per path; levels are added until\n"
            "max(|m_L|, |m_L-1|/2^alpha)/(2^alpha - 1) <= E/sqrt 2. Exit 3 when the bias is\n"
            "not met by level B, or a level loses every path (docs/noise.md#failed-paths).\n"
            "--test exits 0 whatever its checks find (3 when a level keeps fewer than 2 paths);\n"
            "its warnings (a check above 1, a finest kurtosis above 100) are in the report.\n");
}

/* --eps E1,E2,...: the sweep's RMSEs into c. */
static int parse_eps(const char *s, slpi_mlmc_test_cfg *c, slpi_error *err)
{
    char buf[64];
    c->neps = 0;
    for (const char *p = s;; p += strcspn(p, ",") + 1) {
        size_t k = strcspn(p, ",");
        if (c->neps == SLPI_MLMC_TEST_MAXEPS || k >= sizeof buf)
            return slpi_error_set(err, SLPI_EINPUT, "--eps %s: expected 1..%d positive RMSEs separated by commas", s,
                                  SLPI_MLMC_TEST_MAXEPS);
        memcpy(buf, p, k);
        buf[k] = '\0';
        if (slpi_parse_double("--eps", buf, 1e-300, 1e300, &c->eps[c->neps++], err)) return SLPI_EINPUT;
        if (!p[k]) return SLPI_OK;
    }
}

/* Options of one mode refused in the other: the first one given, or NULL. */
static const char *wrong_mode(int test, const int *given)
{
    static const char *est[] = { "--rmse", "--pilot", "--alpha", "--plain" }, *tst[] = { "--paths", "--eps" };
    for (int i = 0; test && i < 4; i++)
        if (given[i]) return est[i];
    for (int i = 0; !test && i < 2; i++)
        if (given[4 + i]) return tst[i];
    return NULL;
}

static int parse_levels(const char *s, int *a, int *b, slpi_error *err)
{
    const char *dots = strstr(s, "..");
    char first[32];
    if (!dots || (size_t)(dots - s) >= sizeof first)
        return slpi_error_set(err, SLPI_EINPUT, "--levels %s: expected A..B", s);
    memcpy(first, s, (size_t)(dots - s));
    first[dots - s] = '\0';
    if (slpi_parse_int("--levels", first, 0, 24, a, err) || slpi_parse_int("--levels", dots + 2, 0, 24, b, err))
        return SLPI_EINPUT;
    return SLPI_OK;
}

/* The command line's options and key=value arguments. */
enum { MAXK = 64 };
typedef struct {
    slpi_mlmc_test_cfg t;             /* t.m: the estimate's configuration (both modes) */
    int test, levels_given, given[6]; /* --rmse, --pilot, --alpha, --plain, --paths, --eps */
    const char *preset, *output, *json, *config;
    char *keys[MAXK], *vals[MAXK];
    int nk;
    double wall; /* the run's seconds, said on standard error once the report is written */
} mlmc_args;

/* Parse argv into a; SLPI_OK, SLPI_EINPUT (said), or -1 after --help. */
static int parse_args(mlmc_args *a, int argc, char **argv)
{
    static const struct option opts[] = { { "preset", required_argument, 0, 'P' },
                                          { "config", required_argument, 0, 'c' },
                                          { "rmse", required_argument, 0, 'e' },
                                          { "phi", required_argument, 0, 'f' },
                                          { "levels", required_argument, 0, 'l' },
                                          { "pilot", required_argument, 0, 'n' },
                                          { "alpha", required_argument, 0, 'a' },
                                          { "plain", no_argument, 0, 'p' },
                                          { "test", no_argument, 0, 'T' },
                                          { "paths", required_argument, 0, 'N' },
                                          { "eps", required_argument, 0, 'E' },
                                          { "threads", required_argument, 0, 't' },
                                          { "output", required_argument, 0, 'o' },
                                          { "json", required_argument, 0, 'j' },
                                          { "checkpoint", required_argument, 0, 'C' },
                                          { "resume", required_argument, 0, 'r' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    slpi_mlmc_cfg *cfg = &a->t.m;
    slpi_error err = { 0, "" };
    int rc = SLPI_OK, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'P':
            a->preset = optarg;
            break;
        case 'c':
            a->config = optarg;
            break;
        case 'e':
            a->given[0] = 1;
            rc = slpi_parse_double("--rmse", optarg, 1e-300, 1e300, &cfg->rmse, &err);
            break;
        case 'f':
            slpi_conv_phi_set(&cfg->conv, optarg);
            break;
        case 'l':
            a->levels_given = 1;
            rc = parse_levels(optarg, &cfg->l0, &cfg->lmax, &err);
            break;
        case 'n':
            a->given[1] = 1;
            rc = slpi_parse_long("--pilot", optarg, 2, 1L << 24, &cfg->n0, &err);
            break;
        case 'a':
            a->given[2] = 1;
            rc = slpi_parse_double("--alpha", optarg, 1e-3, 8, &cfg->alpha, &err);
            break;
        case 'p':
            cfg->plain = a->given[3] = 1;
            break;
        case 'T':
            a->test = 1;
            break;
        case 'N':
            a->given[4] = 1;
            rc = slpi_parse_long("--paths", optarg, 2, 1L << 27, &a->t.paths, &err);
            break;
        case 'E':
            a->given[5] = 1;
            rc = parse_eps(optarg, &a->t, &err);
            break;
        case 't':
            rc = slpi_parse_int("--threads", optarg, 1, SLPI_MAX_THREADS, &cfg->conv.threads, &err);
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'j':
            a->json = optarg;
            break;
        case 'C':
            cfg->checkpoint = optarg;
            break;
        case 'r':
            cfg->resume = optarg;
            break;
        case 'h':
            help(stdout);
            return -1;
        default:
            fprintf(stderr, "slpi mlmc: see `slpi mlmc --help`\n");
            return SLPI_EINPUT;
        }
        if (rc != SLPI_OK) {
            fprintf(stderr, "slpi mlmc: %s\n", err.msg);
            return SLPI_EINPUT;
        }
    }
    const char *wrong = wrong_mode(a->test, a->given);
    if (wrong) {
        fprintf(stderr, "slpi mlmc: %s %s\n", wrong,
                a->test ? "sets an estimate to a requested RMSE: --test has no use for it (give --paths and --eps)"
                        : "is an option of --test (Giles' mlmc_test): give --test, or leave it out");
        return SLPI_EINPUT;
    }
    if (a->test && !a->levels_given) { /* --test's default levels */
        slpi_mlmc_test_cfg d;
        slpi_mlmc_test_init(&d, cfg->conv.base);
        cfg->lmax = d.m.lmax;
    }
    for (int i = optind; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || a->nk == MAXK) {
            fprintf(stderr, "slpi mlmc: '%s': expected key=value\n", argv[i]);
            return SLPI_EINPUT;
        }
        *eq = '\0';
        a->keys[a->nk] = argv[i];
        a->vals[a->nk++] = eq + 1;
    }
    return SLPI_OK;
}

/* The estimate or the test, its report and JSON (*printed = 1 once written); SLPI_OK or
 * an error in err (SLPI_ENUMERIC with the report printed: the bias not met). */
static int compute(mlmc_args *a, slpi_output *report, slpi_output *jreport, int *printed, slpi_error *err)
{
    slpi_mlmc_cfg *cfg = &a->t.m;
    slpi_mlmc_result res;
    slpi_mlmc_test_result tr;
    int rc = a->test ? slpi_mlmc_test_run(&a->t, &tr, err) : slpi_mlmc_run(cfg, &res, err);
    if (rc != SLPI_OK) return rc;
    *printed = 1;
    if (a->test)
        slpi_mlmc_test_print(&a->t, &tr, slpi_output_file(report));
    else
        slpi_mlmc_print(cfg, &res, slpi_output_file(report));
    if (jreport &&
        (a->test ? slpi_mlmc_test_write_json(&a->t, &tr, slpi_output_file(jreport))
                 : slpi_mlmc_write_json(cfg, &res, slpi_output_file(jreport))) != SLPI_OK)
        return slpi_error_set(err, SLPI_EINPUT, "%s: write error", a->json);
    a->wall = a->test ? tr.wall : res.wall;
    if (!a->test && !res.converged) {
        fprintf(stderr,
                "slpi mlmc: the bias estimate %.3e is above rmse/sqrt 2 at the finest level allowed "
                "(%d): raise --levels' B or the rmse\n",
                res.bias, cfg->lmax);
        return slpi_error_set(err, SLPI_ENUMERIC, "%s", "");
    }
    return SLPI_OK;
}

/* The command on the problem storage p (the study's base: it outlives the study). */
static int mlmc_on(slpi_problem *p, int argc, char **argv)
{
    mlmc_args a;
    memset(&a, 0, sizeof a);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_mlmc_test_init(&a.t, p); /* --test's paths and eps */
    slpi_mlmc_init(&a.t.m, p);    /* the estimate's defaults */
    int rc = parse_args(&a, argc, argv), printed = 0;
    if (rc != SLPI_OK) return rc < 0 ? SLPI_OK : rc;
    slpi_mlmc_cfg *cfg = &a.t.m;
    slpi_error err = { 0, "" };
    rc = slpi_problem_build(p, a.preset, a.config, a.nk, a.keys, a.vals, NULL, &err);
    const char *outs[3] = { a.output, a.json, cfg->checkpoint },
               *out_role[3] = { "--output", "--json", "--checkpoint" };
    const char *ins[2] = { cfg->resume, slpi_view_system(p)->x0_file }, *in_role[2] = { "--resume", "x0_file" };
    if (rc == SLPI_OK) rc = slpi_output_check_paths(3, outs, out_role, 0, NULL, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_output_check_paths(2, outs, out_role, 2, ins, in_role, &err);
    slpi_output *report = NULL, *jreport = NULL;
    if (rc == SLPI_OK) rc = slpi_output_open(&report, a.output, SLPI_OUTPUT_REPLACE, &err);
    if (rc == SLPI_OK && a.json) rc = slpi_output_open(&jreport, a.json, SLPI_OUTPUT_REPLACE, &err);
    if (rc == SLPI_OK) {
        slpi_view_grid_edit(p)->level = -1;
        cfg->conv.base = p;
        rc = compute(&a, report, jreport, &printed, &err);
    }
    if (printed && (rc == SLPI_OK || rc == SLPI_ENUMERIC)) {
        int crc = slpi_output_commit(report, &err);
        report = NULL;
        if (crc == SLPI_OK && jreport) crc = slpi_output_commit(jreport, &err);
        jreport = NULL;
        if (crc != SLPI_OK) rc = crc;
        if (crc == SLPI_OK) fprintf(stderr, "slpi mlmc: %.2f s wall\n", a.wall);
    }
    slpi_output_abort(report);
    slpi_output_abort(jreport);
    const char *msg = err.msg + (!strncmp(err.msg, "mlmc: ", 6) ? 6 : !strncmp(err.msg, "mlmc test: ", 11) ? 11 : 0);
    if (rc != SLPI_OK && msg[0]) fprintf(stderr, "slpi mlmc: %s\n", msg);
    return rc;
}

int slpi_cli_mlmc(int argc, char **argv)
{
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "slpi mlmc: out of memory\n");
        return SLPI_EINPUT;
    }
    int rc = mlmc_on(p, argc, argv);
    slpi_problem_free(p);
    return rc;
}
