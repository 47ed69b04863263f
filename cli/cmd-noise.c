/* cmd-noise.c — `slpi noise`: write canonical Wiener increments (docs/noise.md, docs/noise.md#contract) of
 * one (seed, path), components 0..M-1, at one level (step size h, `refine` fine levels
 * summed per step), optionally truncated (docs/noise.md#truncation), as a noise file (format in
 * core/noise-file.c) or as raw bit patterns (`--format bits`: per step one line of M
 * 16-digit hex binary64 patterns, tab-separated; the known-answer digests in tests/kat/
 * are SHA-256 sums of this output). With --preset/--config, the increments the problem's
 * noise source gives a run (core/noise-source.c): Ornstein-Uhlenbeck ones with noise_tau
 * (docs/noise.md#ou), a noise_file's values, truncated per the problem. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/noise.h"
#include "slpi/output.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "cli/cli.h"
#include "core/noise.h"
#include "core/parse.h"
#include "core/command.h"

/* Increments are generated in blocks of up to this many steps per component, and of at
 * most NOISE_CLI_BLOCK_VALUES increments in all (8 MiB, whatever M is); the output does
 * not depend on the block size. */
#define NOISE_CLI_BLOCK 4096
#define NOISE_CLI_BLOCK_VALUES (1L << 20)

static void noise_usage(FILE *f)
{
    fputs("usage: slpi noise --seed S --path P --components M --h H --steps N [options]\n"
          "       slpi noise --preset NAME | --config FILE [key=value ...] [--output FILE]\n"
          "Write canonical Wiener increments dW^1..dW^M of steps FIRST..FIRST+N-1.\n"
          "  --preset NAME, --config FILE  the increments a problem consumes: its seed, path,\n"
          "                   noise count, level h, steps, refine and truncation (a port reads\n"
          "                   this file to integrate exactly what `slpi run` and `slpi verify` do;\n"
          "                   with noise_tau, the Ornstein-Uhlenbeck increments, docs/noise.md#ou)\n"
          "  --seed S         64-bit seed (decimal or 0x hex)\n"
          "  --path P         path index, 0..2^32-1\n"
          "  --components M   number of Wiener processes, 1..100000\n"
          "  --h H            step size of the level (hex or decimal), 2^-60..1e6 (as the key h)\n"
          "  --steps N        number of steps, 1..2^40; a noise file holds at most 2^30 steps and\n"
          "                   2^28 increments (steps x M), what the reader accepts\n"
          "  --refine R       sum 2^R fine increments of size H/2^R per step (0..40, default 0)\n"
          "  --truncate on|off  clip at D(H, ELL) = sqrt(2 ELL H |ln H|) (default off)\n"
          "  --ell ELL        truncation parameter, 2^-20..100 (default 2, the papers' value)\n"
          "  --first J        index of the first step (default 0)\n"
          "  -o, --output FILE  write there instead of standard output (a temporary file renamed\n"
          "                   over FILE when complete; FILE is left as it was on error)\n"
          "  --format noise|bits  noise file (default), or binary64 bit patterns in hex\n"
          "  --check FILE     instead: validate a noise file; with --components, --h or\n"
          "                   --steps also require that shape (M, level, at least N steps)\n"
          "  --help           this text\n"
          "Exit: 0 ok, 2 usage error or invalid noise file (reported as file:line), 130\n"
          "interrupted (Ctrl-C, SIGTERM, SIGHUP: nothing written, FILE as it was).\n",
          f);
}

/* A strict number (core/parse.c); the message names the option and its value. */
static int noise_bad(const slpi_error *err)
{
    fprintf(stderr, "slpi noise: %s (see slpi noise --help)\n", err->msg);
    return SLPI_EINPUT;
}

/* --check FILE: validate it, and compare with the shape given on the command line. */
static int noise_check(const char *file, const slpi_noise_header *want)
{
    slpi_noise_header hd;
    slpi_error err;
    double *dw;
    if (slpi_noise_file_read(file, &hd, &dw, &err) != SLPI_OK) {
        fprintf(stderr, "slpi noise: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    free(dw);
    if (want->components && hd.components != want->components) {
        fprintf(stderr, "slpi noise: %s: %d components, expected %d\n", file, hd.components, want->components);
        return SLPI_EINPUT;
    }
    if (want->h > 0 && hd.h != want->h) {
        fprintf(stderr, "slpi noise: %s: wrong level: h = %.17g, expected %.17g\n", file, hd.h, want->h);
        return SLPI_EINPUT;
    }
    if (want->steps && hd.steps < want->steps) {
        fprintf(stderr, "slpi noise: %s: %ld steps, expected at least %ld\n", file, hd.steps, want->steps);
        return SLPI_EINPUT;
    }
    printf("%s: ok: %ld steps of %d increments, h = %.17g, truncation %s\n", file, hd.steps, hd.components, hd.h,
           hd.truncated ? "on" : "off");
    return SLPI_OK;
}

/* --preset/--config: the increments the problem consumes, into hd: its seed, path, M,
 * level h, steps, refine and truncation, the nk key=value arguments kv on top (split in
 * place); *out gets the problem, whose noise source (slpi_noise_source) writes them. */
static int noise_of_problem(slpi_noise_header *hd, slpi_problem **out, const char *preset, const char *config, int nkv,
                            char **kv, slpi_error *err)
{
    int nk = 0, rc = SLPI_OK;
    char **vals = malloc((size_t)(nkv + 1) * sizeof *vals); /* keys: kv, in place */
    if (!vals) rc = slpi_error_set(err, SLPI_EINPUT, "keys: out of memory");
    for (int i = 0; rc == SLPI_OK && i < nkv; i++) {
        char *eq = strchr(kv[i], '=');
        if (!eq || eq == kv[i]) {
            rc = slpi_error_set(err, SLPI_EINPUT, "'%s': expected key=value", kv[i]);
            break;
        }
        *eq = '\0';
        vals[nk++] = eq + 1;
    }
    slpi_problem *p = rc == SLPI_OK ? slpi_problem_alloc() : NULL;
    if (rc == SLPI_OK && !p) rc = slpi_error_set(err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_problem_build(p, preset, config, nk, kv, vals, NULL, err);
    free(vals);
    if (rc == SLPI_OK) rc = slpi_problem_finish_unstepped(p, err); /* no scheme needed */
    if (rc == SLPI_OK && slpi_problem_noise_count(p) == 0)
        rc = slpi_error_set(err, SLPI_EINPUT, "the problem has no noise (noise=none): no increments to write");
    if (rc == SLPI_OK) {
        const slpi_noise_view *noise = slpi_view_noise(p);
        hd->seed = noise->seed;
        hd->path = noise->path;
        hd->components = slpi_problem_noise_count(p);
        hd->h = slpi_view_grid(p)->h;
        hd->steps = slpi_view_grid(p)->steps;
        hd->refine = noise->refine;
        hd->truncated = slpi_problem_truncates(p);
        hd->ell = noise->trunc_ell;
    }
    if (rc != SLPI_OK) {
        slpi_problem_free(p);
        p = NULL;
    }
    *out = p;
    return rc;
}

/* The increments of steps s0 .. s0 + nb - 1 as rows into blk: from src, the problem's
 * noise source (what a run consumes: Ornstein-Uhlenbeck components, a noise file,
 * truncation), or with src NULL the canonical white increments hd describes. Returns
 * SLPI_OK, SLPI_EINTR (a stop requested) or SLPI_EINPUT (err set); *clipped counts. */
static int noise_block(double *blk, const slpi_noise_header *hd, slpi_noise_source *src, long s0, size_t nb,
                       long *clipped, slpi_error *err)
{
    if (slpi_interrupt_pending()) return slpi_error_set(err, SLPI_EINTR, "interrupted");
    const int M = hd->components;
    for (size_t i = 0; src && i < nb; i++) {
        int rc = slpi_noise_source_step(src, s0 + (long)i, blk + i * (size_t)M, err);
        if (rc != SLPI_OK) return rc;
    }
    if (src) {
        *clipped = slpi_noise_source_clipped(src);
        return SLPI_OK;
    }
    long got = slpi_noise_rows(blk, hd->seed, hd->path, M, hd->h, hd->refine, hd->first + (uint64_t)s0, nb,
                               hd->truncated ? hd->threshold : INFINITY);
    if (got < 0) /* the generation polls (core/noise-levels.c), or memory ran out */
        return slpi_interrupt_pending() ? slpi_error_set(err, SLPI_EINTR, "interrupted")
                                        : slpi_error_set(err, SLPI_EINPUT, "out of memory");
    *clipped += got;
    return SLPI_OK;
}

/* Write the increments hd describes (from the problem p's noise source, or canonical
 * white ones when p is NULL) to output (NULL: standard output), as a noise file or as
 * bit patterns; 0, SLPI_EINPUT or SLPI_EINTR (a stop: SIGINT, SIGTERM, SIGHUP, polled
 * between blocks and before the commit), output left as it was unless 0. */
static int noise_write(const slpi_noise_header *hdp, const slpi_problem *p, const char *output, int bits)
{
    slpi_noise_header hd = *hdp;
    slpi_error err = { 0, "" };
    slpi_output *o;
    slpi_noise_source *src = NULL;
    if (p && slpi_noise_source_open(&src, p, &err) != SLPI_OK) return noise_bad(&err);
    if (slpi_output_open(&o, output, SLPI_OUTPUT_REPLACE, &err) != SLPI_OK) {
        slpi_noise_source_close(src);
        fprintf(stderr, "slpi noise: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    FILE *f = slpi_output_file(o);
    if (!bits) {
        slpi_noise_file_write_header(f, &hd);
        if (p && slpi_view_noise(p)->noise_tau[0]) /* a comment line: the values are not the white ones */
            fprintf(f, "# noise_tau=%s: Ornstein-Uhlenbeck increments (docs/noise.md#ou)\n",
                    slpi_view_noise(p)->noise_tau);
    }
    int M = hd.components, rc = SLPI_OK;
    long block = NOISE_CLI_BLOCK_VALUES / M < NOISE_CLI_BLOCK ? NOISE_CLI_BLOCK_VALUES / M : NOISE_CLI_BLOCK;
    double *blk = malloc((size_t)M * (size_t)block * sizeof *blk);
    long clipped = 0;
    if (!blk) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory"); /* exit 2 (docs/conventions.md#errors) */
    for (long s0 = 0; rc == SLPI_OK && s0 < hd.steps; s0 += block) {
        size_t nb = (size_t)(hd.steps - s0 < block ? hd.steps - s0 : block);
        rc = noise_block(blk, &hd, src, s0, nb, &clipped, &err);
        for (size_t i = 0; rc == SLPI_OK && i < nb; i++) {
            const double *row = blk + i * (size_t)M;
            if (bits) {
                for (int k = 0; k < M; k++) {
                    uint64_t b;
                    memcpy(&b, &row[k], sizeof b);
                    fprintf(f, "%016" PRIx64 "%c", b, k + 1 < M ? '\t' : '\n');
                }
            } else {
                slpi_noise_file_write_row(f, M, row);
            }
        }
    }
    free(blk);
    slpi_noise_source_close(src);
    if (rc == SLPI_OK && slpi_interrupt_pending()) /* a stop during the last rows: nothing replaced */
        rc = slpi_error_set(&err, SLPI_EINTR, "interrupted");
    if (rc != SLPI_OK) {
        slpi_output_abort(o);
        fprintf(stderr, "slpi noise: %s%s\n", err.msg,
                rc == SLPI_EINTR && output ? ": nothing written, the output is as it was" : "");
        return rc;
    }
    if (slpi_output_commit(o, &err) != SLPI_OK) {
        fprintf(stderr, "slpi noise: %s\n", err.msg);
        return SLPI_EINPUT;
    }
    if (hd.truncated) {
        fprintf(stderr, "slpi noise: %ld of %ld increments clipped at D = %.17g\n", clipped, hd.steps * (long)M,
                hd.threshold);
    }
    return SLPI_OK;
}

/* After the options: the shape's checks, then the write (p: the problem of --preset or
 * --config, else NULL). */
static int noise_generate(slpi_noise_header *hd, const slpi_problem *p, const char *output, int bits)
{
    slpi_error err = { 0, "" };
    if (((hd->first + (uint64_t)hd->steps) >> (62 - hd->refine)) != 0) {
        fprintf(stderr, "slpi noise: (first + steps) * 2^refine must be below 2^62\n");
        return SLPI_EINPUT;
    }
    if (slpi_noise_check_work((uint64_t)hd->steps * (uint64_t)hd->components, hd->refine, &err) != SLPI_OK)
        return noise_bad(&err);
    if (hd->truncated) {
        if (!(hd->h < 1)) {
            fprintf(stderr, "slpi noise: --truncate on needs 0 < h < 1 (docs/noise.md#truncation), got h = %g\n",
                    hd->h);
            return SLPI_EINPUT;
        }
        hd->threshold = slpi_noise_threshold(hd->h, hd->ell);
    }
    if (!bits && (hd->steps > SLPI_NOISE_FILE_MAX_STEPS || hd->steps > SLPI_NOISE_FILE_MAX_VALUES / hd->components)) {
        fprintf(stderr,
                "slpi noise: --steps %ld x --components %d: more than the 2^30 steps or 2^28 increments a "
                "noise file may hold (the reader keeps them in memory); write several files with --first\n",
                hd->steps, hd->components);
        return SLPI_EINPUT;
    }
    return noise_write(hd, p, output, bits);
}

int slpi_cli_noise(int argc, char **argv)
{
    static const struct option opts[] = {
        { "seed", required_argument, NULL, 's' },       { "path", required_argument, NULL, 'p' },
        { "components", required_argument, NULL, 'm' }, { "h", required_argument, NULL, 'h' },
        { "steps", required_argument, NULL, 'n' },      { "refine", required_argument, NULL, 'r' },
        { "truncate", required_argument, NULL, 't' },   { "ell", required_argument, NULL, 'l' },
        { "first", required_argument, NULL, 'j' },      { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },     { "check", required_argument, NULL, 'c' },
        { "help", no_argument, NULL, '?' + 256 },       { "preset", required_argument, NULL, 'P' },
        { "config", required_argument, NULL, 'C' },     { NULL, 0, NULL, 0 }
    };
    slpi_noise_header hd = { 0, 0, 0, 0, 0, 0, 2.0, 0, 0, 0, 0 };
    int have_seed = 0, have_path = 0, bits = 0;
    const char *output = NULL, *check = NULL, *preset = NULL, *config = NULL;
    int shape_given = 0; /* --seed .. --first: not with --preset/--config */
    slpi_error err = { 0, "" };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            shape_given = 1;
            if (slpi_parse_u64("--seed", optarg, UINT64_MAX, &hd.seed, &err)) return noise_bad(&err);
            have_seed = 1;
            break;
        case 'p':
            shape_given = 1;
            if (slpi_parse_u64("--path", optarg, UINT32_MAX, &hd.path, &err)) return noise_bad(&err);
            have_path = 1;
            break;
        case 'm':
            shape_given = 1;
            if (slpi_parse_int("--components", optarg, 1, SLPI_NOISE_FILE_MAX_COMPONENTS, &hd.components, &err))
                return noise_bad(&err);
            break;
        case 'h':
            shape_given = 1;
            if (slpi_parse_double("--h", optarg, 0x1p-60, 1e6, &hd.h, &err)) return noise_bad(&err);
            break;
        case 'n':
            shape_given = 1;
            if (slpi_parse_long("--steps", optarg, 1, 1L << 40, &hd.steps, &err)) return noise_bad(&err);
            break;
        case 'r':
            shape_given = 1;
            if (slpi_parse_int("--refine", optarg, 0, SLPI_NOISE_MAX_REFINE, &hd.refine, &err)) return noise_bad(&err);
            break;
        case 't':
            shape_given = 1;
            if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
                fprintf(stderr, "slpi noise: --truncate %s: expected on or off\n", optarg);
                return SLPI_EINPUT;
            }
            hd.truncated = !strcmp(optarg, "on");
            break;
        case 'l':
            shape_given = 1;
            if (slpi_parse_double("--ell", optarg, 0x1p-20, 100, &hd.ell, &err)) return noise_bad(&err);
            break;
        case 'j':
            shape_given = 1;
            if (slpi_parse_u64("--first", optarg, (uint64_t)1 << 50, &hd.first, &err)) return noise_bad(&err);
            break;
        case 'o':
            output = optarg;
            if (slpi_output_check_paths(1, &output, (const char *const[]){ "--output" }, 0, NULL, NULL, &err))
                return noise_bad(&err);
            break;
        case 'f':
            if (strcmp(optarg, "noise") && strcmp(optarg, "bits")) {
                fprintf(stderr, "slpi noise: --format %s: expected noise or bits\n", optarg);
                return SLPI_EINPUT;
            }
            bits = !strcmp(optarg, "bits");
            break;
        case 'c':
            check = optarg;
            break;
        case 'P':
            preset = optarg;
            break;
        case 'C':
            config = optarg;
            break;
        case '?' + 256:
            noise_usage(stdout);
            return SLPI_OK;
        default:
            fprintf(stderr, "slpi noise: unknown or incomplete option '%s' (see slpi noise --help)\n",
                    argv[optind - 1]);
            return SLPI_EINPUT;
        }
    }
    slpi_problem *prob = NULL; /* --preset/--config: its noise source writes */
    if (preset || config) {
        if (shape_given || check) { /* the problem's noise (noise_of_problem) */
            fprintf(stderr,
                    "slpi noise: --preset/--config take the noise from the problem: no --seed, --path, "
                    "--components, --h, --steps, --refine, --truncate, --ell, --first or --check with them\n");
            return SLPI_EINPUT;
        }
        if (noise_of_problem(&hd, &prob, preset, config, argc - optind, argv + optind, &err) != SLPI_OK)
            return noise_bad(&err);
        have_seed = have_path = 1;
        optind = argc;
    }
    if (optind < argc) {
        fprintf(stderr, "slpi noise: unexpected argument '%s' (see slpi noise --help)\n", argv[optind]);
        return SLPI_EINPUT;
    }
    if (check) {
        return noise_check(check, &hd);
    }
    if (!have_seed || !have_path || !hd.components || !(hd.h > 0) || !hd.steps) {
        fprintf(stderr,
                "slpi noise: --seed, --path, --components, --h and --steps are required "
                "(see slpi noise --help)\n");
        return SLPI_EINPUT;
    }
    int rc = noise_generate(&hd, prob, output, bits);
    slpi_problem_free(prob);
    return rc;
}
