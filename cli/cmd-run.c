/* cmd-run.c — `slpi run`: build a problem from a preset, a key=value file and the
 * command line (in that order of precedence, later wins), validate it, and integrate
 * it on the fast path or, with --ref, the certified path. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/output.h"
#include "slpi/run.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "core/parse.h"
#include "core/command.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi run [options] [key=value ...]\n"
            "  --preset NAME       start from a docs/experiments.md case (see `slpi list`)\n"
            "  --system S          a built-in system that `slpi list` names, or model (a system of\n"
            "                      your own as data: algebra=, H=, noise_Hk=,\n"
            "                      param.NAME=; docs/models.md, e.g. --config models/so4-rigid-body.slpi)\n"
            "  --scheme K          tmk | rkmk-le | rkmk-heun | im-direct | trap-direct | isomp | svi\n"
            "  --config FILE       key=value lines ('#' comments)\n"
            "  --h H --steps N --T T --level L --seed S --path P --noise-file F --prec BITS\n"
            "                      shorthands for the keys h, steps, T, level, seed, path, noise_file, prec\n"
            "  --ref               certified path (Arb balls 'mid +/- rad'); default: fast doubles\n"
            "  --output FILE, -o   trajectory TSV (default: standard output)\n"
            "  --hex               write doubles as %%a hex floats\n"
            "  --json FILE         also write the summary as JSON (written on failure too)\n"
            "  --quiet, -q         no summary, no progress\n"
            "  --progress          progress on standard error even when it is not a terminal\n"
            "  --force             write a trajectory estimated above 1 GB (else refused: use\n"
            "                      output_every=K to write every K-th step)\n"
            "  --checkpoint FILE   write a checkpoint every --checkpoint-every N steps (default\n"
            "                      1000), atomically (temporary file, fsync, rename); needs --output\n"
            "  --checkpoint-every N\n"
            "  --resume FILE       continue the run of checkpoint FILE: give the same problem and\n"
            "                      --output; the output is checked against the checkpoint,\n"
            "                      truncated to it and completed, byte-identical to an\n"
            "                      uninterrupted run (--checkpoint may name the same FILE)\n"
            "Output: the trajectory TSV (format 'slpi-trajectory 1': '#' provenance and problem\n"
            "header, a column line, one row per step) and a summary (to standard output when\n"
            "--output is given, else to standard error). Exit 0 ok, 2 bad input, 3 numerical failure.\n"
            "Files: --output is written to a temporary file in its folder and renamed over FILE at the end,\n"
            "so FILE is never half-written and concurrent runs cannot interleave; on bad input or a write\n"
            "error (exit 2) FILE is left as it was; after a numerical failure (exit 3) it holds the header\n"
            "and the rows of the steps before the failure. With --checkpoint the output is renamed into\n"
            "place at the first checkpoint and streamed (a killed run leaves a valid prefix to --resume).\n"
            "Devices and FIFOs (/dev/null) are written in place and never removed. No output may name an\n"
            "input (--config, noise_file, x0_file, noise_fields, --resume) or another output.\n"
            "Keys:\n");
    slpi_problem_print_keys(f);
}

enum { MAXK = 128 };

/* The command line: the problem's keys in the order given, and the run's own options. */
typedef struct {
    char *keys[MAXK], *vals[MAXK];
    int nk, use_ref, quiet, hex, force, help;
    const char *output, *config, *json;
    slpi_run_ckpt ck;
} run_args;

/* The options and key=value words into *a: SLPI_EINPUT, said on standard error, for a bad
 * one; a->help set once the help is printed. */
static int parse_args(run_args *a, int argc, char **argv)
{
    static const struct option opts[] = { { "preset", required_argument, 0, 'P' },
                                          { "system", required_argument, 0, 'S' },
                                          { "scheme", required_argument, 0, 'K' },
                                          { "config", required_argument, 0, 'c' },
                                          { "h", required_argument, 0, 1 },
                                          { "steps", required_argument, 0, 2 },
                                          { "T", required_argument, 0, 3 },
                                          { "level", required_argument, 0, 4 },
                                          { "seed", required_argument, 0, 5 },
                                          { "path", required_argument, 0, 6 },
                                          { "noise-file", required_argument, 0, 7 },
                                          { "prec", required_argument, 0, 8 },
                                          { "ref", no_argument, 0, 'r' },
                                          { "output", required_argument, 0, 'o' },
                                          { "hex", no_argument, 0, 'x' },
                                          { "quiet", no_argument, 0, 'q' },
                                          { "json", required_argument, 0, 'j' },
                                          { "checkpoint", required_argument, 0, 'C' },
                                          { "checkpoint-every", required_argument, 0, 'E' },
                                          { "resume", required_argument, 0, 'R' },
                                          { "force", no_argument, 0, 'F' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    static const char *const shorthand[] = { "", "h", "steps", "T", "level", "seed", "path", "noise_file", "prec" };
    int c;
    *a = (run_args){ .ck = { NULL, 1000, NULL, NULL, NULL } };
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        const char *key = NULL;
        switch (c) {
        case 'P':
            key = "preset";
            break;
        case 'S':
            key = "system";
            break;
        case 'K':
            key = "scheme";
            break;
        case 'c':
            a->config = optarg;
            break;
        case 'r':
            a->use_ref = 1;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'x':
            a->hex = 1;
            break;
        case 'j':
            a->json = optarg;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case 'F':
            a->force = 1;
            break;
        case 'C':
            a->ck.checkpoint = optarg;
            break;
        case 'R':
            a->ck.resume = optarg;
            break;
        case 'E': {
            slpi_error perr = { 0, "" };
            if (slpi_parse_long("--checkpoint-every", optarg, 1, 1000000000000L, &a->ck.every, &perr) != SLPI_OK) {
                fprintf(stderr, "slpi run: %s (steps between checkpoints)\n", perr.msg);
                return SLPI_EINPUT;
            }
            break;
        }
        case 'h':
            help(stdout);
            a->help = 1;
            return SLPI_OK;
        default:
            if (c >= 1 && c <= 8) {
                key = shorthand[c];
                break;
            }
            fprintf(stderr, "slpi run: see `slpi run --help`\n");
            return SLPI_EINPUT;
        }
        if (key) {
            if (a->nk == MAXK) {
                fprintf(stderr, "slpi run: too many keys\n");
                return SLPI_EINPUT;
            }
            a->keys[a->nk] = (char *)key;
            a->vals[a->nk] = optarg;
            a->nk++;
        }
    }
    for (int i = optind; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i]) {
            fprintf(stderr, "slpi run: '%s': expected key=value (see `slpi run --help`)\n", argv[i]);
            return SLPI_EINPUT;
        }
        if (a->nk == MAXK) {
            fprintf(stderr, "slpi run: too many keys\n");
            return SLPI_EINPUT;
        }
        *eq = '\0';
        a->keys[a->nk] = argv[i];
        a->vals[a->nk] = eq + 1;
        a->nk++;
    }
    return SLPI_OK;
}

/* The checks before the run: the trajectory's size, the checkpoint's output, no output
 * over an input or another output; SLPI_EINPUT, said on standard error, at the first that
 * fails. */
static int check_run(const run_args *a, const slpi_problem *p)
{
    slpi_error err = { 0, "" };
    double bytes = slpi_run_output_bytes(p, a->use_ref);
    if (bytes > 1e9 && !a->force) {
        fprintf(stderr,
                "slpi run: the trajectory would be about %.1f GB (%ld rows of %d state columns); "
                "set output_every=K to write every K-th step, or give --force\n",
                bytes / 1e9, slpi_view_grid(p)->steps / slpi_view_grid(p)->output_every + 1, slpi_problem_state_dim(p));
        return SLPI_EINPUT;
    }
    if ((a->ck.checkpoint || a->ck.resume) && !a->output) {
        fprintf(stderr, "slpi run: --checkpoint and --resume need --output FILE\n");
        return SLPI_EINPUT;
    }
    /* no output may replace an input or another output (--checkpoint may be --resume) */
    const char *outs[] = { a->output, a->json, a->ck.checkpoint },
               *out_role[] = { "--output", "--json", "--checkpoint" };
    const char *ins[] = { a->config, slpi_view_noise(p)->noise_file, slpi_view_system(p)->x0_file,
                          slpi_view_system(p)->ez.noise_fields, a->ck.resume },
               *in_role[] = { "--config", "noise_file", "x0_file", "noise_fields", "--resume" };
    if (slpi_output_check_paths(3, outs, out_role, 4, ins, in_role, &err) != SLPI_OK ||
        slpi_output_check_paths(2, outs, out_role, 5, ins, in_role, &err) != SLPI_OK) {
        fprintf(stderr, "slpi run: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    return SLPI_OK;
}

/* After the run: its output kept or dropped, the JSON summary written, a failure said on
 * standard error; the exit code. */
static int finish_run(const run_args *a, const slpi_problem *p, slpi_output *o, const slpi_run_result *res, int rc,
                      slpi_error *err)
{
    /* kept: a finished run, and the valid prefix of a numerical failure (exit 3) or of an
     * interrupted run (Ctrl-C, exit 130); an input error leaves the old file as it was
     * (only our temporary file is removed) */
    if (rc == SLPI_OK || rc == SLPI_ENUMERIC || rc == SLPI_EINTR) {
        slpi_error werr = { 0, "" };
        if (slpi_output_commit(o, &werr) != SLPI_OK) {
            if (rc == SLPI_OK)
                rc = SLPI_EINPUT, *err = werr;
            else
                fprintf(stderr, "slpi run: %s\n", werr.msg);
        }
    } else {
        slpi_output_abort(o);
    }
    if (a->json) {
        slpi_error jerr = { 0, "" };
        if (slpi_run_write_json(p, a->use_ref ? "ref" : "fast", res, rc, rc ? err->msg : "ok", a->json, &jerr)) {
            fprintf(stderr, "slpi run: %s\n", jerr.msg);
            if (rc == SLPI_OK) return SLPI_EINPUT;
        }
    }
    if (rc != SLPI_OK) {
        fprintf(stderr, "slpi run: %s\n", err->msg);
        if (a->output && rc == SLPI_ENUMERIC)
            fprintf(stderr, "slpi run: %s holds the steps before the failure\n", a->output);
        if (a->output && rc == SLPI_EINTR)
            fprintf(stderr, "slpi run: %s holds the rows written before it%s%s\n", a->output,
                    a->ck.checkpoint ? "; continue with --resume " : "", a->ck.checkpoint ? a->ck.checkpoint : "");
        return rc;
    }
    return SLPI_OK;
}

/* The run of a's problem, built into the storage p; the exit code. */
static int run_on(run_args *a, slpi_problem *p)
{
    slpi_error err = { 0, "" };
    /* the plan finishes p and parses a model once: the run's objects share it */
    slpi_plan *plan = NULL;
    int rc = slpi_problem_build(p, NULL, a->config, a->nk, a->keys, a->vals, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_plan(&plan, p, &err);
    if (rc != SLPI_OK) fprintf(stderr, "slpi run: %s\n", err.msg);
    if (rc != SLPI_OK || check_run(a, p) != SLPI_OK) {
        slpi_plan_unref(plan);
        return SLPI_EINPUT;
    }
    a->ck.output = a->output;
    slpi_output *o = NULL;
    if (a->output &&
        slpi_output_open(&o, a->output, a->ck.resume ? SLPI_OUTPUT_UPDATE : SLPI_OUTPUT_REPLACE, &err) != SLPI_OK) {
        fprintf(stderr, "slpi run: %s\n", err.msg);
        slpi_plan_unref(plan);
        return SLPI_EINPUT;
    }
    a->ck.handle = o;
    slpi_run_result res;
    FILE *summary = a->quiet ? NULL : (a->output ? stdout : stderr);
    rc = slpi_run_plan(plan, a->use_ref ? slpi_ref_path() : slpi_fast_path(), o ? slpi_output_file(o) : stdout, a->hex,
                       summary, &a->ck, &res, &err);
    slpi_plan_unref(plan);
    return finish_run(a, p, o, &res, rc, &err);
}

int slpi_cli_run(int argc, char **argv)
{
    run_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc != SLPI_OK || a.help) return rc;
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "slpi run: out of memory\n");
        return SLPI_EINPUT;
    }
    rc = run_on(&a, p);
    slpi_problem_free(p);
    return rc;
}
