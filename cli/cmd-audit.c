/* cmd-audit.c — `slpi audit`: evaluate every claim of the registry reports/claims.txt
 * (docs/claims.md) and write the report (index.html, claims.json, figures/ as SVG and PNG,
 * data/) into a folder. Exit 0 when every claim has a verdict (whatever it is), 2 on
 * bad input. Each claim's verdict is printed as it is decided, the verdicts that differ
 * from the registry's expectation last. --controls runs only the failure demonstrations
 * and exits 1 if a check did not fail (or pass) where its control demands it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>
#include <stdint.h>

#include "slpi/errors.h"
#include "slpi/limits.h"
#include "cli/cli.h"
#include "core/clock.h"
#include "reports/audit.h"
#include "core/parse.h"

/* The decision path's digest and files, derived at build time (mk/rules-digest.sh). */
extern const char slpi_audit_source_digest_built[];
extern const char slpi_audit_source_files_built[];

static void help(FILE *f)
{
    fprintf(f,
            "usage: slpi audit [options]\n"
            "  --claims FILE   the claims registry (default reports/claims.txt)\n"
            "  --out DIR       report folder (default build/audit; a path of at most 4000 bytes)\n"
            "  --full          the papers' sizes (long: hours); default reduced sizes\n"
            "  --controls      only the failure demonstrations (controls); exit 1 if one\n"
            "                  did not come out as it demands\n"
            "  --cache DIR     reuse per-claim results keyed by the claim's registry lines,\n"
            "                  the size and this executable (resumes an interrupted run);\n"
            "                  a claim whose entry's path would pass 4096 bytes is not cached;\n"
            "                  also keeps each convergence study's batch sums, so a run that\n"
            "                  differs only in --fit or --levels reloads the study\n"
            "  --only ID,...   evaluate these claims only (e.g. V4 or I4,I25)\n"
            "  --cached-only   with --cache: report only the claims the cache holds (the others\n"
            "                  \"not run\"), computing nothing: archives an unfinished FULL run\n"
            "  --tests FILE    unit-test results for the \"test\" checks (make audit records\n"
            "                  them with reports/unit-tests.sh; without it those are UNABLE)\n"
            "  --archive DIR   an archived FULL=1 report folder (reports/full) whose verdicts\n"
            "                  and numbers the report shows beside this run's; each claim is\n"
            "                  decided by its archived multiverse (DIR/multiverse/ID, with\n"
            "                  --full DIR/multiverse-full/ID) where there is one\n"
            "  --seed-offset N add N to every case's noise seed and to the critical sweeps'\n"
            "                  seeds: a confirmatory run on noise the registry never used\n"
            "                  (docs/claims.md#confirmatory); cached apart from the others\n"
            "  --fit W         slope fits with weights wls ((e/SE)^2, default) or ols (equal)\n"
            "  --levels L      slope fits over all the check's levels (default) or drop-coarsest\n"
            "                  (a multiverse member, docs/claims.md#multiverse; cached apart)\n"
            "  --docs FILE     write docs/claims.md's per-claim entries generated from the\n"
            "                  registry to FILE (- for stdout) and stop (no run)\n"
            "  --digest        print the decision digest (this command's decision-path sources,\n"
            "                  derived at build time, and the registry) and its sources, as\n"
            "                  docs/claims.md freezes them, and stop. A run whose digest is not\n"
            "                  the frozen one is a rule change: refused (exit 2) unless\n"
            "                  SLPI_AUDIT_RULES_CHANGED=1, when its report is flagged\n"
            "  --multiverse-verdict ID MEMBERS N   the verdict over claim ID's multiverse from\n"
            "                  its members' rows (members.tsv; N members declared), and stop\n"
            "  --screen-verdict ID FILE   the kernel and libm screen's decision for claim ID\n"
            "                  from its members' checks (screen.json), and stop\n"
            "  --quiet, -q     no per-check log\n"
            "Exit status: 2 for a bad registry or option (file:line, the nearest valid word);\n"
            "1 when a claim's generated text names a number the run did not measure (an\n"
            "unfilled {K.NAME} placeholder; each is printed); 0 otherwise.\n");
}

static int mkdirs(const char *dir)
{
    char p[SLPI_PATH_MAX + 16];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    return mkdir(p, 0755) && access(p, W_OK) ? -1 : 0;
}

/* The closing summary: the verdicts counted, and those that differ from the registry's
 * expectation. */
static void print_summary(const slpi_audit *a, double secs, const char *out)
{
    int count[SLPI_CLAIM_NVERDICTS] = { 0 };
    for (int j = 0; j < a->nclaims; j++) count[a->claims[j].verdict]++;
    printf("\n%d claims in %.0f s: %d CONFIRMED, %d CONDITIONAL, %d DISCREPANCY, %d UNABLE, "
           "%d CRITERION-DEPENDENT\nreport %s/index.html, %s/claims.json\n",
           a->nclaims, secs, count[0], count[1], count[2], count[3], count[4], out, out);
    char decided[256];
    slpi_audit_decided_counts(a, decided, sizeof decided);
    printf("decided over their multiverses (docs/claims.md#multiverse: the runs in the archive; where none "
           "is, this run): %s\n",
           decided);
    printf("verdicts that differ from the registry's expectation:\n");
    int nd = 0;
    for (int j = 0; j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        if (strcmp(cl->expected, slpi_claim_verdict_name(cl->verdict))) {
            printf("  %-4s computed %-12s expected %s\n", cl->id, slpi_claim_verdict_name(cl->verdict), cl->expected);
            nd++;
        }
    }
    if (!nd) printf("  (none)\n");
}

/* --multiverse-verdict ID MEMBERS N, --screen-verdict ID FILE: the verdict rules alone. */
static int verdict_rule(int rule, int n, char **arg)
{
    slpi_error e = { 0, "" };
    int all = 0;
    if (rule == 'M' && (n != 3 || slpi_parse_int("--multiverse-verdict N", arg[2], 0, 1000000, &all, &e))) {
        fprintf(stderr, "slpi audit: usage: --multiverse-verdict ID MEMBERS N (N: the members' count%s%s)\n",
                n == 3 ? "; " : "", n == 3 ? e.msg : "");
        return SLPI_EINPUT;
    }
    if (rule == 'V' && n != 2) {
        fprintf(stderr, "slpi audit: usage: --screen-verdict ID FILE\n");
        return SLPI_EINPUT;
    }
    int r = rule == 'M' ? slpi_audit_multiverse_verdict(arg[0], arg[1], all, stdout, &e)
                        : slpi_audit_screen_verdict(arg[0], arg[1], stdout, &e);
    if (r) fprintf(stderr, "slpi audit: %s\n", e.msg);
    return r;
}

/* --digest, --docs FILE: the registry loaded, nothing evaluated. */
static int load_only(slpi_audit *a, const char *claims, int digest, const char *docs)
{
    slpi_error e = { 0, "" };
    int r = slpi_audit_load(a, claims, &e);
    if (digest) { /* the decision path's lines as docs/claims.md freezes them */
        if (r)
            fprintf(stderr, "slpi audit: %s\n", e.msg);
        else
            slpi_audit_digest_lines(a, stdout);
        slpi_audit_free(a);
        return r;
    }
    FILE *f = r ? NULL : strcmp(docs, "-") ? fopen(docs, "w") : stdout;
    if (!r && !f) snprintf(e.msg, sizeof e.msg, "%s: cannot write", docs), r = SLPI_EINPUT;
    if (!r) r = slpi_audit_docs(a, f);
    if (f && f != stdout && fclose(f)) r = SLPI_EINPUT;
    if (r) fprintf(stderr, "slpi audit: %s\n", e.msg[0] ? e.msg : "cannot write the docs");
    slpi_audit_free(a);
    return r;
}

/* The registry loaded and its freeze checked: evaluate, write the report, summarise. */
static int run_loaded(slpi_audit *a, const char *out, int quiet)
{
    slpi_error err = { 0, "" };
    int rc;
    if (a->rules_changed && !quiet)
        printf("slpi audit: RULES CHANGED (SLPI_AUDIT_RULES_CHANGED=1): the decision digest is not the frozen "
               "one; the report is flagged\n");
    snprintf(a->outdir, sizeof a->outdir, "%s", out);
    char sub[SLPI_PATH_MAX + 16];
    snprintf(sub, sizeof sub, "%s/figures", out);
    int bad = mkdirs(sub);
    snprintf(sub, sizeof sub, "%s/data", out);
    bad |= mkdirs(sub);
    if (a->cache) bad |= mkdirs(a->cache);
    if (bad) {
        fprintf(stderr, "slpi audit: cannot create %s/figures, %s/data%s%s\n", out, out, a->cache ? " or " : "",
                a->cache ? a->cache : "");
        return SLPI_EINPUT;
    }
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    if ((rc = slpi_audit_run(a, quiet ? NULL : stdout, &err)) != SLPI_OK) { /* Ctrl-C: no report */
        fprintf(stderr, "slpi audit: %s\n", err.msg);
        return rc;
    }
    double secs = slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    if (a->controls) {
        int wrong = slpi_audit_controls_wrong(a);
        if (slpi_audit_write(a, secs, &err) != SLPI_OK) fprintf(stderr, "slpi audit: %s\n", err.msg);
        printf("\n%d claims, controls in %.0f s: %d control%s not as demanded\n", a->nclaims, secs, wrong,
               wrong == 1 ? "" : "s");
        return wrong ? 1 : SLPI_OK;
    }
    rc = slpi_audit_write(a, secs, &err);
    if (rc != SLPI_OK) fprintf(stderr, "slpi audit: %s\n", err.msg);
    print_summary(a, secs, out);
    if (slpi_audit_unfilled(a)) { /* a text that names a number the run did not measure */
        for (int j = 0; j < a->nclaims; j++)
            if (a->claims[j].unfilled) fprintf(stderr, "slpi audit: %s\n", a->claims[j].why_text);
        if (rc == SLPI_OK) rc = 1;
    }
    if (a->archive && !a->full) {
        printf("archived FULL=1 verdicts (%s) that differ from the registry's expectation at the "
               "papers' sizes:\n",
               a->archive);
        if (!slpi_audit_archive_differences(a, stdout)) printf("  (none)\n");
    }
    return rc;
}

int slpi_cli_audit(int argc, char **argv)
{
    static const struct option opts[] = { { "claims", required_argument, 0, 'c' },
                                          { "out", required_argument, 0, 'o' },
                                          { "full", no_argument, 0, 'F' },
                                          { "only", required_argument, 0, 'i' },
                                          { "quiet", no_argument, 0, 'q' },
                                          { "help", no_argument, 0, 'h' },
                                          { "tests", required_argument, 0, 't' },
                                          { "controls", no_argument, 0, 'C' },
                                          { "cache", required_argument, 0, 'k' },
                                          { "cached-only", no_argument, 0, 'K' },
                                          { "docs", required_argument, 0, 'D' },
                                          { "archive", required_argument, 0, 'A' },
                                          { "seed-offset", required_argument, 0, 'S' },
                                          { "fit", required_argument, 0, 'W' },
                                          { "levels", required_argument, 0, 'L' },
                                          { "digest", no_argument, 0, 'G' },
                                          { "multiverse-verdict", no_argument, 0, 'M' },
                                          { "screen-verdict", no_argument, 0, 'V' },
                                          { 0, 0, 0, 0 } };
    const char *claims = "reports/claims.txt", *out = "build/audit", *docs = NULL;
    slpi_audit a;
    memset(&a, 0, sizeof a);
    a.source_digest = slpi_audit_source_digest_built;
    a.source_files = slpi_audit_source_files_built;
    int quiet = 0, digest = 0, rule = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            claims = optarg;
            break;
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "slpi audit: --out '': an empty folder name\n");
                return SLPI_EINPUT;
            }
            out = optarg;
            break;
        case 'F':
            a.full = 1;
            break;
        case 'i':
            a.only = optarg;
            break;
        case 't':
            a.tests = optarg;
            break;
        case 'C':
            a.controls = 1;
            break;
        case 'k':
            a.cache = optarg;
            break;
        case 'K':
            a.cached_only = 1;
            break;
        case 'D':
            docs = optarg;
            break;
        case 'A':
            a.archive = optarg;
            break;
        case 'S': {
            slpi_error e = { 0, "" };
            if (slpi_parse_u64("--seed-offset", optarg, UINT32_MAX, &a.seed_offset, &e)) {
                fprintf(stderr, "slpi audit: %s\n", e.msg);
                return SLPI_EINPUT;
            }
            break;
        }
        case 'W':
        case 'L': {
            const char *w[2][2] = { { "wls", "ols" }, { "all", "drop-coarsest" } };
            int k = c == 'L', v = !strcmp(optarg, w[k][1]) ? 1 : !strcmp(optarg, w[k][0]) ? 0 : -1;
            if (v < 0) {
                fprintf(stderr, "slpi audit: --%s %s: %s | %s\n", k ? "levels" : "fit", optarg, w[k][0], w[k][1]);
                return SLPI_EINPUT;
            }
            *(k ? &a.drop_coarse : &a.fit_ols) = v;
            break;
        }
        case 'G':
            digest = 1;
            break;
        case 'M':
        case 'V':
            rule = c;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            help(stdout);
            return SLPI_OK;
        default:
            fprintf(stderr, "slpi audit: see `slpi audit --help`\n");
            return SLPI_EINPUT;
        }
    }
    if (rule) return verdict_rule(rule, argc - optind, argv + optind);
    if (optind < argc) {
        fprintf(stderr, "slpi audit: unexpected argument '%s'\n", argv[optind]);
        return SLPI_EINPUT;
    }
    if (digest || docs) return load_only(&a, claims, digest, docs);
    if (a.cached_only && !a.cache) {
        fprintf(stderr, "slpi audit: --cached-only needs --cache DIR\n");
        return SLPI_EINPUT;
    }
    if (strlen(out) > SLPI_AUDIT_OUTDIR_MAX) {
        fprintf(stderr,
                "slpi audit: --out: the report folder's path is %zu bytes, more than %d (the "
                "paths of the files inside it must fit in %d bytes)\n",
                strlen(out), SLPI_AUDIT_OUTDIR_MAX, SLPI_PATH_MAX);
        return SLPI_EINPUT;
    }
    /* the registry first: one it refuses leaves nothing behind */
    slpi_error err = { 0, "" };
    int rc = slpi_audit_load(&a, claims, &err);
    if (rc != SLPI_OK) {
        fprintf(stderr, "slpi audit: %s\n", err.msg);
        return rc;
    }
    char frozen[1024];
    if (slpi_audit_freeze_check(&a, frozen, sizeof frozen)) { /* a rule change: nothing written */
        fprintf(stderr, "slpi audit: %s\n", frozen);
        slpi_audit_free(&a);
        return SLPI_EINPUT;
    }
    rc = run_loaded(&a, out, quiet);
    slpi_audit_free(&a);
    return rc;
}
