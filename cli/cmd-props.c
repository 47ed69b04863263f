/* cmd-props.c — `slpi props`: the property harness (props/). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-build.h"
#include "core/problem-store.h"
#include "core/view-system.h"
#include "cli/cli.h"
#include "props/props.h"
#include "core/parse.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: slpi props [options]\n"
            "  --property P     one property (default: all)\n"
            "  --system S       one system (default: all)\n"
            "  --config FILE    a model (system=model, docs/models.md): the cases of system model\n"
            "                   use it (and --system defaults to model)\n"
            "  --scheme K       one scheme (default: all)\n"
            "  --cases N        cases per (property, system, scheme, variant) 1..10^8 (default 20;\n"
            "                   scaled by SLPI_TEST_MULTIPLIER, which also multiplies the\n"
            "                   order studies' paths; order properties use N/10 cases)\n"
            "  --seed S         run seed (default: SLPI_TEST_SEED, else 1)\n"
            "  --fast-only      do not check the certified (ref) path\n"
            "  --ref-cases N    check the ref path on the first N cases of each group (default 5)\n"
            "  --replay CASE    check one case 'property=...,system=...,...' (seed: --seed or\n"
            "                   SLPI_TEST_SEED), as printed with a counterexample\n"
            "  --regressions D  replay every D/*.case file (saved counterexamples)\n"
            "  --save D         save shrunk counterexamples as D/<property>-<system>-<scheme>-<seed>.case\n"
            "  --verbose, -v    one line per group, and the shrinking steps\n"
            "  --list           the coverage table: property x system x scheme x path\n"
            "  --corners        the first cases of each group are the corner corpus (largest,\n"
            "                   smallest and other-parity sizes, near-singular inertia, states\n"
            "                   near a separatrix and a pole, amplitude 4); on by default when\n"
            "                   SLPI_TEST_MULTIPLIER > 1 (make check-long)\n"
            "Exit 0 all passed, 1 a property failed, 2 usage error.\nProperties:\n");
    for (int i = 0; i < slpi_props_property_count(); i++)
        fprintf(f, "  %-13s %s\n", slpi_props_property_get(i)->name, slpi_props_property_get(i)->what);
}

static int replay_one(slpi_props_case *c, int use_ref, const char *label)
{
    slpi_props_outcome o;
    int v = slpi_props_verdict(c, use_ref, &o);
    char buf[512];
    slpi_props_case_format(c, buf, sizeof buf);
    if (v > 0) {
        printf("PASS %s: %s (%s)\n", label, buf, o.msg);
        return SLPI_OK;
    }
    if (v < 0) {
        printf("UNABLE %s: %s (%s)\n", label, buf, o.msg);
        return SLPI_ENUMERIC;
    }
    slpi_props_report_failure(stdout, c, &o, use_ref, NULL);
    return SLPI_ECHECK;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, int use_ref, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "slpi props: cannot open %s\n", dir);
        return SLPI_EINPUT;
    }
    char *names[1024];
    int n = 0, rc = SLPI_OK;
    for (struct dirent *e; (e = readdir(d)) && n < 1024;) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".case") == 0 && !(names[n++] = strdup(e->d_name))) {
            closedir(d);
            while (n > 0) free(names[--n]);
            fprintf(stderr, "slpi props: --regressions %s: out of memory\n", dir);
            return SLPI_EINPUT;
        }
    }
    closedir(d);
    if (n == 0) {
        fprintf(stderr, "slpi props: --regressions %s: no .case file there: nothing to replay\n", dir);
        return SLPI_EINPUT;
    }
    qsort(names, (size_t)n, sizeof *names, cmp);
    for (int i = 0; i < n; i++) {
        char path[SLPI_PATH_MAX];
        slpi_props_case c = { 0 };
        slpi_error err;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        int r = slpi_props_regression_load(path, &c, &err);
        c.depth = depth;
        if (r)
            fprintf(stderr, "slpi props: %s\n", err.msg);
        else
            r = replay_one(&c, use_ref, names[i]);
        if (r == SLPI_ECHECK || (r && rc != SLPI_ECHECK)) rc = r;
        free(names[i]);
    }
    printf("props: %d regression cases replayed from %s\n", n, dir);
    return rc == SLPI_ENUMERIC ? SLPI_OK : rc;
}

static int bad_number(const slpi_error *err)
{
    fprintf(stderr, "slpi props: %s\n", err->msg);
    return SLPI_EINPUT;
}

/* --config FILE: the model the cases of system model use (slpi_props_set_model copies
 * it); SLPI_EINPUT, said on standard error, when it is no model. */
static int set_model(const char *file)
{
    slpi_error err = { 0, "" };
    slpi_problem *m = slpi_problem_alloc();
    int rc = m ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "--config %s: out of memory", file);
    if (rc == SLPI_OK) {
        slpi_problem_init(m, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
        if (slpi_problem_load(m, file, &err)) rc = SLPI_EINPUT;
    }
    if (rc != SLPI_OK) {
        bad_number(&err);
    } else if (slpi_view_system(m)->system != SLPI_SYS_MODEL) {
        fprintf(stderr, "slpi props: --config %s: not a model (system=model; docs/models.md)\n", file);
        rc = SLPI_EINPUT;
    } else {
        slpi_props_set_model(m);
    }
    slpi_problem_free(m);
    return rc;
}

int slpi_cli_props(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "property", required_argument, 0, 'p' },
        { "system", required_argument, 0, 's' },
        { "scheme", required_argument, 0, 'k' },
        { "cases", required_argument, 0, 'n' },
        { "seed", required_argument, 0, 'S' },
        { "fast-only", no_argument, 0, 'f' },
        { "replay", required_argument, 0, 'r' },
        { "regressions", required_argument, 0, 'R' },
        { "save", required_argument, 0, 'w' },
        { "verbose", no_argument, 0, 'v' },
        { "list", no_argument, 0, 'l' },
        { "help", no_argument, 0, 'h' },
        { "ref-cases", required_argument, 0, 'c' },
        { "corners", no_argument, 0, 'C' },
        { "config", required_argument, 0, 'm' },
        { 0, 0, 0, 0 },
    };
    slpi_props_options o = { -1, -1, -1, 20, 1, 1, 5, NULL, 0, stdout, NULL, 1, 0 };
    const char *replay = NULL, *regress = NULL, *env = getenv("SLPI_TEST_SEED");
    const char *mult = getenv("SLPI_TEST_MULTIPLIER");
    double k = 1;
    slpi_error err = { 0, "" };
    if ((env && slpi_parse_u64("SLPI_TEST_SEED", env, UINT64_MAX, &o.seed, &err)) ||
        (mult && slpi_parse_double("SLPI_TEST_MULTIPLIER", mult, 0, 1e6, &k, &err))) {
        return bad_number(&err);
    }
    int c, cases_given = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if ((o.prop = slpi_props_property_find(optarg)) < 0) {
                fprintf(stderr, "slpi props: unknown property '%s' (see --list)\n", optarg);
                return SLPI_EINPUT;
            }
            break;
        case 's': {
            slpi_system_id s;
            if (slpi_system_from_name(optarg, &s)) {
                fprintf(stderr, "slpi props: unknown system '%s'\n", optarg);
                return SLPI_EINPUT;
            }
            o.system = s;
            break;
        }
        case 'k': {
            slpi_scheme_id s;
            if (slpi_scheme_from_name(optarg, &s)) {
                fprintf(stderr, "slpi props: unknown scheme '%s'\n", optarg);
                return SLPI_EINPUT;
            }
            o.scheme = s;
            break;
        }
        case 'n':
            if (slpi_parse_long("--cases", optarg, 1, 100000000, &o.cases, &err)) return bad_number(&err);
            cases_given = 1;
            break;
        case 'S':
            if (slpi_parse_u64("--seed", optarg, UINT64_MAX, &o.seed, &err)) return bad_number(&err);
            break;
        case 'c':
            if (slpi_parse_long("--ref-cases", optarg, 0, 100000000, &o.ref_cases, &err)) return bad_number(&err);
            break;
        case 'f':
            o.use_ref = 0;
            break;
        case 'C':
            o.corners = 1;
            break;
        case 'r':
            replay = optarg;
            break;
        case 'R':
            regress = optarg;
            break;
        case 'w':
            o.save_dir = optarg;
            break;
        case 'v':
            o.verbose = 1;
            break;
        case 'm':
            if (set_model(optarg) != SLPI_OK) return SLPI_EINPUT;
            if (o.system < 0) o.system = SLPI_SYS_MODEL;
            break;
        case 'l':
            return slpi_props_table(stdout) ? SLPI_ECHECK : SLPI_OK;
        case 'h':
            usage(stdout);
            return SLPI_OK;
        default:
            usage(stderr);
            return SLPI_EINPUT;
        }
    }

    if (optind < argc) {
        fprintf(stderr, "slpi props: unexpected argument '%s'\n", argv[optind]);
        return SLPI_EINPUT;
    }
    o.depth = k > 1 ? (int)k : 1;
    if (k > 1) o.corners = 1;
    if (regress) return replay_dir(regress, o.use_ref, o.depth);
    if (replay) {
        slpi_props_case pc = { 0 };
        slpi_error err;
        pc.seed = o.seed;
        if (slpi_props_case_parse(replay, &pc, &err)) {
            fprintf(stderr, "slpi props: %s\n", err.msg);
            return SLPI_EINPUT;
        }
        pc.depth = o.depth;
        int r = replay_one(&pc, o.use_ref, "replay");
        return r == SLPI_ENUMERIC ? SLPI_ENUMERIC : r;
    }
    if (!cases_given && k > 1) {
        o.cases = (long)(o.cases * k);
        o.ref_cases = (long)(o.ref_cases * k);
    }
    printf("slpi props: seed %" PRIu64 " (replay with SLPI_TEST_SEED=%" PRIu64 "), %ld cases per group%s%s\n", o.seed,
           o.seed, o.cases, o.use_ref ? "" : ", fast path only", o.corners ? ", corner corpus first" : "");
    slpi_props_summary s;
    return slpi_props_run(&o, &s);
}
