/* cmd-mlmc.c — `slpi mlmc`: a multilevel Monte Carlo estimate of E phi(X_T) to a requested
 * RMSE (studies/mlmc.c; docs/noise.md#mlmc; Giles, Oper. Res. 2008), on the coupled levels
 * of `slpi converge --kind weak`, OpenMP over paths. Every printed digit is independent of
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
            "  --threads N         OpenMP threads, 1..256 (default: the runtime's)\n"
            "  -o, --output FILE   the report in FILE instead of standard output\n"
            "  --json FILE         also the estimate as JSON (levels, costs, seconds per level)\n"
            "  --checkpoint FILE   write the estimate's state to FILE (atomically) after every\n"
            "                      level's sampling\n"
            "  --resume FILE       go on from a checkpoint of the same estimate: the output is\n"
            "                      byte-identical to an uninterrupted run, for any thread count\n"
            "Level A estimates E P_A; level l > A estimates E[P_l - P_l-1] on one Brownian path\n"
            "(the coupling of `slpi converge`). Paths per level: N_l = ceil(2 E^-2 sqrt(V_l/C_l)\n"
            "sum_k sqrt(V_k C_k)), C_l the steps per path; levels are added until\n"
            "max(|m_L|, |m_L-1|/2^alpha)/(2^alpha - 1) <= E/sqrt 2. Exit 3 when the bias is\n"
            "not met by level B, or a level loses every path (docs/noise.md#failed-paths).\n");
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

/* The command on the problem storage p (the study's base: it outlives the study). */
static int mlmc_on(slpi_problem *p, int argc, char **argv)
{
    static const struct option opts[] = { { "preset", required_argument, 0, 'P' },
                                          { "config", required_argument, 0, 'c' },
                                          { "rmse", required_argument, 0, 'e' },
                                          { "phi", required_argument, 0, 'f' },
                                          { "levels", required_argument, 0, 'l' },
                                          { "pilot", required_argument, 0, 'n' },
                                          { "alpha", required_argument, 0, 'a' },
                                          { "plain", no_argument, 0, 'p' },
                                          { "threads", required_argument, 0, 't' },
                                          { "output", required_argument, 0, 'o' },
                                          { "json", required_argument, 0, 'j' },
                                          { "checkpoint", required_argument, 0, 'C' },
                                          { "resume", required_argument, 0, 'r' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    enum { MAXK = 64 };
    char *keys[MAXK], *vals[MAXK];
    int nk = 0, c;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_mlmc_cfg cfg;
    slpi_mlmc_init(&cfg, p);
    const char *preset = NULL, *output = NULL, *json = NULL, *config = NULL;
    slpi_error err = { 0, "" };
    int rc = SLPI_OK;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'P':
            preset = optarg;
            break;
        case 'c':
            config = optarg;
            break;
        case 'e':
            rc = slpi_parse_double("--rmse", optarg, 1e-300, 1e300, &cfg.rmse, &err);
            break;
        case 'f':
            slpi_conv_phi_set(&cfg.conv, optarg);
            break;
        case 'l':
            rc = parse_levels(optarg, &cfg.l0, &cfg.lmax, &err);
            break;
        case 'n':
            rc = slpi_parse_long("--pilot", optarg, 2, 1L << 24, &cfg.n0, &err);
            break;
        case 'a':
            rc = slpi_parse_double("--alpha", optarg, 1e-3, 8, &cfg.alpha, &err);
            break;
        case 'p':
            cfg.plain = 1;
            break;
        case 't':
            rc = slpi_parse_int("--threads", optarg, 1, SLPI_MAX_THREADS, &cfg.conv.threads, &err);
            break;
        case 'o':
            output = optarg;
            break;
        case 'j':
            json = optarg;
            break;
        case 'C':
            cfg.checkpoint = optarg;
            break;
        case 'r':
            cfg.resume = optarg;
            break;
        case 'h':
            help(stdout);
            return SLPI_OK;
        default:
            fprintf(stderr, "slpi mlmc: see `slpi mlmc --help`\n");
            return SLPI_EINPUT;
        }
        if (rc != SLPI_OK) {
            fprintf(stderr, "slpi mlmc: %s\n", err.msg);
            return SLPI_EINPUT;
        }
    }
    for (int i = optind; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || nk == MAXK) {
            fprintf(stderr, "slpi mlmc: '%s': expected key=value\n", argv[i]);
            return SLPI_EINPUT;
        }
        *eq = '\0';
        keys[nk] = argv[i];
        vals[nk++] = eq + 1;
    }
    rc = slpi_problem_build(p, preset, config, nk, keys, vals, NULL, &err);
    const char *outs[3] = { output, json, cfg.checkpoint }, *out_role[3] = { "--output", "--json", "--checkpoint" };
    const char *ins[2] = { cfg.resume, slpi_view_system(p)->x0_file }, *in_role[2] = { "--resume", "x0_file" };
    if (rc == SLPI_OK) rc = slpi_output_check_paths(3, outs, out_role, 0, NULL, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_output_check_paths(2, outs, out_role, 2, ins, in_role, &err);
    slpi_output *report = NULL, *jreport = NULL;
    if (rc == SLPI_OK) rc = slpi_output_open(&report, output, SLPI_OUTPUT_REPLACE, &err);
    if (rc == SLPI_OK && json) rc = slpi_output_open(&jreport, json, SLPI_OUTPUT_REPLACE, &err);
    slpi_mlmc_result res;
    if (rc == SLPI_OK) {
        slpi_view_grid_edit(p)->level = -1;
        cfg.conv.base = p;
        rc = slpi_mlmc_run(&cfg, &res, &err);
    }
    if (rc == SLPI_OK) {
        slpi_mlmc_print(&cfg, &res, slpi_output_file(report));
        if (jreport && slpi_mlmc_write_json(&cfg, &res, slpi_output_file(jreport)) != SLPI_OK)
            rc = slpi_error_set(&err, SLPI_EINPUT, "%s: write error", json);
        if (rc == SLPI_OK) rc = slpi_output_commit(report, &err);
        report = NULL;
        if (rc == SLPI_OK && jreport) rc = slpi_output_commit(jreport, &err);
        jreport = NULL;
        if (rc == SLPI_OK) fprintf(stderr, "slpi mlmc: %.2f s wall\n", res.wall);
        if (rc == SLPI_OK && !res.converged) {
            fprintf(stderr,
                    "slpi mlmc: the bias estimate %.3e is above rmse/sqrt 2 at the finest level allowed "
                    "(%d): raise --levels' B or the rmse\n",
                    res.bias, cfg.lmax);
            rc = SLPI_ENUMERIC;
        }
    }
    slpi_output_abort(report);
    slpi_output_abort(jreport);
    if (rc != SLPI_OK && rc != SLPI_ENUMERIC)
        fprintf(stderr, "slpi mlmc: %s\n", err.msg + (strncmp(err.msg, "mlmc: ", 6) ? 0 : 6));
    else if (rc == SLPI_ENUMERIC && err.msg[0])
        fprintf(stderr, "slpi mlmc: %s\n", err.msg);
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
