/* cmd-golden.c — `slpi golden`: list, regenerate (`make golden`) or check the golden
 * certified cases of oracle/ (golden cases and fast-vs-certified scoring; format in oracle/golden.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/output.h"
#include "slpi/tools.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "core/command.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi golden [--dir DIR] [--check [FILE...] | --write [--case NAME] | --list | --problem NAME]\n"
            "       slpi golden --write --config MODEL [--case NAME] [--dir DIR] [key=value ...]\n"
            "  --dir DIR     folder of the golden files (default: the installed ones beside\n"
            "                the program, $PREFIX/share/slpi/golden, else oracle/golden;\n"
            "                --write: oracle/golden)\n"
            "  -o, --output FILE  write the report there instead of standard output\n"
            "  --check       check every .golden file of --dir DIR (your own folder; without\n"
            "                --dir: every built-in case, a missing file an error), or the FILEs,\n"
            "                on the ref and fast paths\n"
            "                (the default): the fresh certified balls must overlap the stored\n"
            "                ones, the fast path must stay within |fast - exact| / (n u scale)\n"
            "                <= %g; prints the worst scores per scheme x system pair\n"
            "  --write       regenerate the files with the certified path (a deliberate act:\n"
            "                review the diff before committing)\n"
            "  --case NAME   with --write: only this case\n"
            "  --config MODEL  with --write: a case of your own, the problem of the key file\n"
            "                (a model, or any problem) with the keys after it (steps=, h=, scheme=:\n"
            "                keep it short, every step is certified), written as DIR/NAME.golden\n"
            "                (DIR default ., NAME default MODEL's base name); check it with\n"
            "                `slpi golden --check DIR/NAME.golden` (docs/models.md#golden)\n"
            "  --list        the case names\n"
            "  --problem NAME  print the case's problem as key=value lines (for `slpi run --config`)\n"
            "Exit 0 all PASS, 1 a FAIL, 2 bad input (file:line), 3 UNABLE and no FAIL.\n",
            SLPI_ORACLE_THRESHOLD);
}

/* --write --config: the key file's problem (and the keys after it) as a golden case of
 * the user's, DIR/NAME.golden with NAME the file's base name unless --case gives one. */
static int golden_write_config(const char *config, const char *name, const char *dir, int nk, char **kv)
{
    slpi_error err = { 0, "" };
    char base[128], path[SLPI_PATH_MAX], file[200];
    char **vals = malloc((size_t)(nk + 1) * sizeof *vals);
    int rc = vals ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    for (int i = 0; rc == SLPI_OK && i < nk; i++) {
        char *eq = strchr(kv[i], '=');
        if (!eq || eq == kv[i])
            rc = slpi_error_set(&err, SLPI_EINPUT, "'%s': expected key=value", kv[i]);
        else {
            *eq = '\0';
            vals[i] = eq + 1;
        }
    }
    slpi_problem *p = rc == SLPI_OK ? slpi_problem_alloc() : NULL;
    if (rc == SLPI_OK && !p) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_problem_build(p, NULL, config, nk, kv, vals, NULL, &err);
    free(vals);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    if (!name) { /* the file's base name without its extension */
        const char *b = strrchr(config, '/');
        snprintf(base, sizeof base, "%s", b ? b + 1 : config);
        char *dot = strrchr(base, '.');
        if (dot && dot != base) *dot = '\0';
        name = base;
    }
    slpi_golden g;
    if (rc == SLPI_OK) rc = slpi_golden_make_problem(name, config, p, &g, &err); /* g holds a copy */
    slpi_problem_free(p);
    if (rc == SLPI_OK) {
        slpi_golden_file_name(name, file, sizeof file);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        rc = slpi_golden_save(path, &g, &err);
        if (rc == SLPI_OK) printf("wrote %s (%ld steps)\n", path, slpi_view_grid(g.problem)->steps);
        slpi_golden_clear(&g);
    }
    if (rc != SLPI_OK) fprintf(stderr, "slpi golden: %s\n", err.msg);
    return rc;
}

int slpi_cli_golden(int argc, char **argv)
{
    static const struct option opts[] = {
        { "dir", required_argument, 0, 'd' },    { "check", no_argument, 0, 'c' },
        { "write", no_argument, 0, 'w' },        { "case", required_argument, 0, 'k' },
        { "list", no_argument, 0, 'l' },         { "problem", required_argument, 0, 'p' },
        { "output", required_argument, 0, 'o' }, { "help", no_argument, 0, 'h' },
        { "config", required_argument, 0, 'C' }, { 0, 0, 0, 0 }
    };
    const char *dir = NULL, *only = NULL, *output = NULL, *config = NULL;
    int mode = 'c', c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            dir = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'c':
        case 'w':
        case 'l':
            mode = c;
            break;
        case 'k':
            if (!*optarg) {
                fprintf(stderr, "slpi golden: --case '': an empty case name (see `slpi golden --list`)\n");
                return SLPI_EINPUT;
            }
            only = optarg;
            break;
        case 'C':
            config = optarg;
            break;
        case 'p':
            mode = c;
            only = optarg;
            break;
        case 'h':
            help(stdout);
            return SLPI_OK;
        default:
            fprintf(stderr, "slpi golden: see `slpi golden --help`\n");
            return SLPI_EINPUT;
        }
    }
    if (config && mode != 'w') {
        fprintf(stderr, "slpi golden: --config goes with --write (see `slpi golden --help`)\n");
        return SLPI_EINPUT;
    }
    if (config) return golden_write_config(config, only, dir ? dir : ".", argc - optind, argv + optind);
    if ((optind < argc && mode != 'c') || (only && mode != 'w' && mode != 'p')) {
        fprintf(stderr, "slpi golden: unexpected argument (see `slpi golden --help`)\n");
        return SLPI_EINPUT;
    }
    const char *given = dir; /* --check --dir DIR: the files of DIR; without: the built-in cases */
    if (!dir) dir = mode == 'w' ? "oracle/golden" : slpi_golden_dir();
    const char *outs[1] = { output }, *out_role[1] = { "--output" }, *in_role[1] = { "golden file" };
    for (int i = optind; i < argc; i++) { /* the golden files checked are inputs */
        slpi_error perr = { 0, "" };
        if (slpi_output_check_paths(1, outs, out_role, 1, (const char *const *)argv + i, in_role, &perr) != SLPI_OK) {
            fprintf(stderr, "slpi golden: %s\n", perr.msg);
            return SLPI_EINPUT;
        }
    }
    slpi_output *report = slpi_cli_output_open("golden", output);
    if (!report) return SLPI_EINPUT;
    FILE *out = slpi_output_file(report);
    slpi_error err = { 0, "" };
    int rc = SLPI_OK;
    slpi_verdict v = SLPI_VERDICT_PASS;
    if (mode == 'l') {
        for (const char *const *k = slpi_golden_cases(); *k; k++) fprintf(out, "%s\n", *k);
    } else if (mode == 'p') {
        char file[200], path[4400];
        slpi_golden g;
        slpi_golden_file_name(only, file, sizeof file);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        rc = slpi_golden_read(path, &g, &err);
        if (rc == SLPI_OK) {
            fprintf(out, "# golden case %s: %s\n", g.name, g.what);
            slpi_problem_write(g.problem, out, "");
            slpi_golden_clear(&g);
        }
    } else if (mode == 'w') {
        rc = slpi_golden_regenerate(dir, only, out, &err);
    } else {
        rc = optind < argc
            ? slpi_golden_check_files(argc - optind, (const char *const *)argv + optind, NULL, out, &v, &err)
            : slpi_golden_check_dir(given, out, &v, &err);
        if (rc == SLPI_OK) fprintf(out, "golden: %s\n", slpi_verdict_name(v));
    }
    if (rc != SLPI_OK) fprintf(stderr, "slpi golden: %s\n", err.msg);
    int wrc = slpi_cli_output_close("golden", report);
    if (rc != SLPI_OK) return rc;
    return wrc != SLPI_OK ? wrc : (int)v;
}
