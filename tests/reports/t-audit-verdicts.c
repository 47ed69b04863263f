/* t-audit-verdicts.c — the claims audit's verdicts and texts (reports/audit.c,
 * reports/audit-report.c; docs/claims.md#verdicts):
 *  - verdict rules from outcomes only (a registry with deliberately wrong expectations
 *    gets CONFIRMED / CONDITIONAL / DISCREPANCY / UNABLE from its checks; a control that
 *    does not come out as it demands makes the claim UNABLE, one that did not run leaves
 *    it CONDITIONAL), the per-claim cache (a
 *    second run loads every claim; an edited entry or an outcome outside the enumeration
 *    is recomputed);
 *  - variants: each decided alone, CRITERION-DEPENDENT when the decided ones differ,
 *    DISCREPANCY only on all of them; the texts' {K.NAME} numbers come from the run and a
 *    placeholder never survives into a report;
 *  - a confirmatory run (seed_offset) draws the noise the registry never used;
 *  - sizes in words, reproducing commands and each check's bound in claims.json and
 *    index.html. */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "auditutil.h"

/* sizes in words, from the case's problem and the check: the system's size and the
 * steps of a run, a sweep's step sizes, seeds and horizon, one step for a Poisson
 * defect; the summary shows every decisive check's size, as the claim's section does;
 * each check (a run, a sweep, a Poisson defect, a closed one) names its command */
static void check_sizes_in_words(const char *dir)
{
    slpi_error err = { 0, "" };
    const char *reg =
        "# test registry\n"
        "= X1 | s | m | p | -\n"
        "X1 | t | CONFIRMED | claim | iso/zeitlin/long N=8 steps=3 | max H0_rel_dev <= 1 | -\n"
        "X1 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.2 maxit=10 | critical 0.1 0.2 0.1 1 0.1 0.2 | -\n"
        "X1 | t | CONFIRMED | claim | iso/rigid-body/long h=0.125 noise=none | poisson <= 1 | -\n"
        "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK) {
        /* every check names the slpi command that reproduces it (with the claim or its files) */
        for (int i = 0; i < a.nchecks; i++)
            TEST_CHECKF(!strncmp(a.checks[i].command, "slpi ", 5) && strstr(a.checks[i].command, "X1"),
                        "check %d (%s): command '%s'", i, a.checks[i].check, a.checks[i].command);
        TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
        char path[128];
        snprintf(path, sizeof path, "%s/claims.json", dir);
        json_t *root = json_load_file(path, 0, NULL);
        const char *sz =
            json_string_value(json_object_get(json_array_get(json_object_get(root, "claims"), 0), "audit_size"));
        printf("  sizes in words: %s\n", sz ? sz : "(none)");
        static const char *want[] = { "N = 8, 3 steps of h = ", "h = 0.1..0.2 by 0.1, seeds 1..1, T = 0.4 each",
                                      "one step of h = 0.125" };
        for (int k = 0; k < 3; k++) TEST_CHECKF(sz && strstr(sz, want[k]), "size lacks '%s'", want[k]);
        /* each check's bound as its check string writes it (the screen's margin reads it):
         * a threshold, a window, none */
        json_t *ck = json_object_get(json_array_get(json_object_get(root, "claims"), 0), "checks");
        static const char *bound[] = { "{\"x\":1.0}", "{\"lo\":0.10000000000000001,\"hi\":0.20000000000000001}",
                                       "{\"x\":1.0}", "null" };
        for (size_t k = 0; k < 4; k++) {
            json_t *b = json_object_get(json_array_get(ck, k), "bound");
            char *txt = b ? json_dumps(b, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
            TEST_CHECKF(txt ? !strcmp(txt, bound[k]) : !strcmp(bound[k], "null"), "check %zu's bound %s, want %s", k,
                        txt ? txt : "null", bound[k]);
            free(txt);
        }
        json_decref(root);
        snprintf(path, sizeof path, "%s/index.html", dir);
        char *html = read_text(path);
        size_t n = strlen(html);
        int seen = 0;
        for (const char *q = html; n && (q = strstr(q, "one step of h = 0.125")); q++) seen++;
        TEST_CHECKF(seen == 2, "the third check's size appears %d times (summary and section: 2)", seen);
        free(html);
    }
    slpi_audit_free(&a);
}

/* six claims whose expectations are all deliberately wrong: the verdicts come from the
 * outcomes alone */
static const char *outcomes_reg = "# test registry\n"
                                  "= X1 | s | m | p | -\n"
                                  "X1 | t | DISCREPANCY | claim | - | thresholds 2 | -\n"
                                  "X1 | t | DISCREPANCY | fails | - | thresholds 1 | -\n"
                                  "= X2 | s | m | p | why\n"
                                  "X2 | t | CONFIRMED | claim | - | cayleypi pi | -\n"
                                  "X2 | t | CONFIRMED | cond | - | thresholds 2 | -\n"
                                  "X2 | t | CONFIRMED | passes | - | cayleypi 3 | -\n"
                                  "= X3 | s | m | p | -\n"
                                  "X3 | t | CONFIRMED | claim | - | cayleypi pi | -\n"
                                  "X3 | t | CONFIRMED | ev | - | thresholds 2 | -\n"
                                  "X3 | t | CONFIRMED | passes | - | cayleypi 3 | -\n"
                                  "= X4 | s | m | p | -\n"
                                  "X4 | t | CONFIRMED | claim | - | unable not built | -\n"
                                  "X4 | t | CONFIRMED | fails | - | thresholds 3 | -\n"
                                  "= X5 | s | m | p | -\n"
                                  "X5 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
                                  "X5 | t | CONFIRMED | fails | - | thresholds 2.0 | -\n"
                                  "= X6 | s | m | p | -\n"
                                  "X6 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
                                  "X6 | t | CONFIRMED | cond | - | cayleypi pi | -\n"
                                  "X6 | t | CONFIRMED | fails | - | mutant some-bug | -\n";

/* verdicts from outcomes only (outcomes_reg), and the report: JSON and HTML with every
 * claim, differences from the expectations flagged */
static void check_verdicts_from_outcomes(const char *dir)
{
    slpi_error err = { 0, "" };
    slpi_audit a;
    if (load_run(outcomes_reg, dir, &a) == SLPI_OK) {
        TEST_CHECK(verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED);
        TEST_CHECK(verdict_of(&a, "X2") == SLPI_CLAIM_CONDITIONAL);
        TEST_CHECK(verdict_of(&a, "X3") == SLPI_CLAIM_DISCREPANCY);
        TEST_CHECK(verdict_of(&a, "X4") == SLPI_CLAIM_UNABLE);
        TEST_CHECK(verdict_of(&a, "X5") == SLPI_CLAIM_UNABLE);
        /* X6's claim check is met, but its control (a mutant) is not run by the audit: at
         * most CONDITIONAL, on that control (docs/claims.md#verdicts) */
        TEST_CHECK(verdict_of(&a, "X6") == SLPI_CLAIM_CONDITIONAL);
        TEST_CHECKF(strstr(a.claims[5].condition, "mutant some-bug") && strstr(a.claims[5].reason, "did not run"),
                    "X6: condition '%s', reason '%s'", a.claims[5].condition, a.claims[5].reason);
        TEST_CHECK(slpi_audit_controls_wrong(&a) == 1);
        TEST_CHECK(strstr(a.claims[4].reason, "control") != NULL);
        TEST_CHECK(!strcmp(a.claims[1].condition, "-") && !strcmp(a.claims[1].why, "why"));
        /* the report: JSON and HTML with every claim, differences flagged */
        TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
        char path[128];
        snprintf(path, sizeof path, "%s/claims.json", dir);
        json_error_t je;
        json_t *root = json_load_file(path, 0, &je);
        TEST_CHECKF(root != NULL, "claims.json: %s", je.text);
        json_t *cl = root ? json_object_get(root, "claims") : NULL;
        TEST_CHECK(cl && json_array_size(cl) == 6);
        for (size_t i = 0; cl && i < json_array_size(cl); i++) {
            json_t *o = json_array_get(cl, i);
            const char *v = json_string_value(json_object_get(o, "verdict"));
            TEST_CHECK(v && !strcmp(v, slpi_claim_verdict_name(a.claims[i].verdict)));
            TEST_CHECK(json_is_true(json_object_get(o, "differs_from_expected")) ==
                       (strcmp(a.claims[i].expected, v ? v : "") != 0));
            /* every field a referee needs, present and not empty */
            static const char *fields[] = { "id",        "paper",           "paper_reference", "source",
                                            "statement", "paper_magnitude", "paper_size",      "audit_size",
                                            "verdict",   "reason",          "expected" };
            for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
                const char *fv = json_string_value(json_object_get(o, fields[k]));
                TEST_CHECKF(fv && fv[0], "claim %zu: field %s missing or empty", i, fields[k]);
            }
            json_t *demo = json_object_get(o, "failure_demonstration");
            TEST_CHECK(json_array_size(demo) == 1);
            for (size_t d = 0; d < json_array_size(demo); d++) {
                static const char *dfields[] = { "role", "check", "outcome", "evidence" };
                for (size_t k = 0; k < 4; k++) {
                    const char *fv = json_string_value(json_object_get(json_array_get(demo, d), dfields[k]));
                    TEST_CHECKF(fv && fv[0], "claim %zu: failure demonstration lacks %s", i, dfields[k]);
                }
            }
        }
        json_decref(root);
        snprintf(path, sizeof path, "%s/index.html", dir);
        char *html = read_text(path);
        size_t n = strlen(html);
        TEST_CHECK(n > 0 && strstr(html, "<section id='X6'>") && strstr(html, "Summary") &&
                   strstr(html, "arXiv:2408.16701") && !strstr(html, ".txt"));
        free(html);
    }
    slpi_audit_free(&a);
}

/* one claim selected (slpi audit --only X1): its two checks alone, its control as
 * demanded; the lines of the other claims are parsed (the last one, X6's control,
 * into the slot past the selected checks) but neither run nor counted */
static void check_only_selected(const char *dir)
{
    slpi_error err = { 0, "" };
    slpi_audit a;
    memset(&a, 0, sizeof a);
    a.only = "X1";
    snprintf(a.outdir, sizeof a.outdir, "%s", dir);
    if (slpi_audit_load(&a, test_temp_file(outcomes_reg), &err) == SLPI_OK) {
        slpi_audit_run(&a, NULL, NULL);
        TEST_CHECKF(a.nchecks == 2 && a.nclaims == 1 && verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED &&
                        slpi_audit_controls_wrong(&a) == 0,
                    "--only X1: %d checks, %d claims, %d controls not as demanded", a.nchecks, a.nclaims,
                    slpi_audit_controls_wrong(&a));
        slpi_audit_free(&a);
    } else {
        TEST_CHECKF(0, "--only X1: %s", err.msg);
    }
}

/* the cache: a second run loads every claim, the outcomes are the same; an edited entry
 * (an outcome flipped, the digest left) and an entry whose outcome is outside the
 * enumeration (digest recomputed the documented way) are not used: the checks are
 * recomputed, with the first run's outcomes */
static void check_cache(const char *dir)
{
    slpi_error err = { 0, "" };
    char cache[96];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    mkdir(cache, 0755);
    slpi_audit b, c2;
    memset(&b, 0, sizeof b);
    memset(&c2, 0, sizeof c2);
    b.cache = c2.cache = cache;
    snprintf(b.outdir, sizeof b.outdir, "%s", dir);
    snprintf(c2.outdir, sizeof c2.outdir, "%s", dir);
    const char *path = test_temp_file(outcomes_reg);
    if (slpi_audit_load(&b, path, &err) == SLPI_OK && slpi_audit_load(&c2, path, &err) == SLPI_OK) {
        slpi_audit_run(&b, NULL, NULL);
        for (int i = 0; i < c2.nchecks; i++) c2.checks[i].seconds = -1;
        slpi_audit_run(&c2, NULL, NULL);
        for (int i = 0; i < b.nchecks; i++)
            TEST_CHECKF(b.checks[i].outcome == c2.checks[i].outcome &&
                            !strcmp(b.checks[i].evidence, c2.checks[i].evidence) &&
                            c2.checks[i].seconds == b.checks[i].seconds,
                        "check %d", i);
    }
    for (int edit = 0; edit < 2; edit++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "ls %s/*.json", cache);
        FILE *ls = popen(cmd, "r");
        char file[256];
        int nfiles = 0;
        while (ls && fgets(file, sizeof file, ls)) {
            file[strcspn(file, "\n")] = 0;
            json_t *root = json_load_file(file, 0, NULL), *arr = json_object_get(root, "checks");
            for (size_t i = 0; i < json_array_size(arr); i++) {
                json_t *k = json_array_get(arr, i);
                json_int_t o = json_integer_value(json_object_get(k, "outcome"));
                json_object_set_new(k, "outcome", json_integer(edit ? 7 : o == SLPI_CHECK_PASS));
            }
            if (edit) { /* FNV-1a of the key (the file name's hex) and the compact sorted JSON */
                uint64_t key = strtoull(strrchr(file, '-') + 1, NULL, 16), h = 0xcbf29ce484222325ULL;
                char *text = json_dumps(arr, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
                for (size_t i = 0; i < sizeof key; i++) h = (h ^ ((unsigned char *)&key)[i]) * 0x100000001b3ULL;
                for (const char *t = text; *t; t++) h = (h ^ (unsigned char)*t) * 0x100000001b3ULL;
                free(text);
                char hex[17];
                snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
                json_object_set_new(root, "digest", json_string(hex));
            }
            TEST_CHECK(json_dump_file(root, file, JSON_REAL_PRECISION(17)) == 0);
            json_decref(root);
            nfiles++;
        }
        if (ls) pclose(ls);
        TEST_CHECKF(nfiles == b.nclaims, "%d cache entries for %d claims", nfiles, b.nclaims);
        slpi_audit d;
        memset(&d, 0, sizeof d);
        d.cache = cache;
        snprintf(d.outdir, sizeof d.outdir, "%s", dir);
        if (slpi_audit_load(&d, path, &err) == SLPI_OK) {
            slpi_audit_run(&d, NULL, NULL);
            for (int i = 0; i < d.nchecks; i++)
                TEST_CHECKF(d.checks[i].outcome == b.checks[i].outcome, "edit %d: check %d: outcome %d, not %d", edit,
                            i, (int)d.checks[i].outcome, (int)b.checks[i].outcome);
        }
        slpi_audit_free(&d);
    }
    slpi_audit_free(&b);
    slpi_audit_free(&c2);
}

/* a generated text never keeps a placeholder: one naming a check the claim lacks is
 * refused at load; one naming a number the run did not measure is counted (slpi audit
 * fails); an infinite number (no critical step up to the sweep's end) is filled, also
 * from the cache (the cache keeps it as a word: R7's archived text had lost it) */
static void check_placeholders(const char *dir)
{
    slpi_audit a;
    loads("= P1 | s | m | p | {3.value}\nP1 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "P1 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":1: claim P1: its text names {3.value}, but the claim has 2 check lines", &a);
    slpi_audit_free(&a);
    const char *reg =
        "= P2 | s | m | p | worst {1.value}, and {1.nosuch}\n"
        "P2 | t | CONFIRMED | claim | - | thresholds 2 | -\nP2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "= P3 | s | m | p | critical step {1.value}\n"
        "P3 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 1 0.4 0.4 | -\n"
        "P3 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    char cache[128], path[512];
    snprintf(cache, sizeof cache, "%s/cache-p", dir);
    TEST_CHECK(mkdir(cache, 0755) == 0);
    snprintf(path, sizeof path, "%s", test_temp_file(reg));
    for (int pass = 0; pass < 2; pass++) { /* computed, then from the cache */
        slpi_error err = { 0, "" };
        memset(&a, 0, sizeof a);
        a.cache = cache;
        snprintf(a.outdir, sizeof a.outdir, "%s", dir);
        TEST_CHECKF(slpi_audit_load(&a, path, &err) == SLPI_OK, "%s", err.msg);
        slpi_audit_run(&a, NULL, NULL);
        TEST_CHECKF(a.nclaims == 2 && a.claims[1].cached == pass, "pass %d: cached %d", pass,
                    a.nclaims == 2 ? a.claims[1].cached : -1);
        TEST_CHECKF(slpi_audit_unfilled(&a) == 1 && a.claims[0].unfilled &&
                        strstr(a.claims[0].why_text, "names {1.nosuch}, a number this run did not measure"),
                    "pass %d: %d unfilled: '%s'", pass, slpi_audit_unfilled(&a), a.claims[0].why_text);
        TEST_CHECKF(a.nclaims == 2 && !a.claims[1].unfilled && !strcmp(a.claims[1].why_text, "critical step inf"),
                    "pass %d: '%s'", pass, a.nclaims == 2 ? a.claims[1].why_text : "");
        slpi_audit_free(&a);
    }
}

/* a confirmatory run (seed_offset) draws the noise the registry never used: the same
 * number as the case with seed = default + offset written out, another than the
 * registry's own; a critical sweep's seeds move with it (its evidence names them) */
static void check_confirmatory_offset(const char *dir)
{
    const char *reg =
        "= S1 | s | m | p | -\nS1 | t | CONFIRMED | claim | iso/rigid-body/long T=0.25 | max H0_rel_dev <= 1 | -\n"
        "S1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "= S2 | s | m | p | -\nS2 | t | CONFIRMED | claim | iso/rigid-body/long T=0.25 seed=1001 | max H0_rel_dev <= 1 | -\n"
        "S2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "= S3 | s | m | p | -\nS3 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 2 0.4 0.4 | -\n"
        "S3 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_problem q;
    slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECKF(q.noise.seed == 1, "the default seed is %llu, the test assumes 1", (unsigned long long)q.noise.seed);
    double v[2][2] = { { 0 } };
    for (int off = 0; off < 2; off++) {
        slpi_audit a;
        slpi_error err = { 0, "" };
        memset(&a, 0, sizeof a);
        a.seed_offset = off ? 1000 : 0;
        snprintf(a.outdir, sizeof a.outdir, "%s", dir);
        TEST_CHECKF(slpi_audit_load(&a, test_temp_file(reg), &err) == SLPI_OK, "%s", err.msg);
        slpi_audit_run(&a, NULL, NULL);
        v[off][0] = check_of(&a, "S1", 0)->value;
        v[off][1] = check_of(&a, "S2", 0)->value;
        const char *ev = check_of(&a, "S3", 0)->evidence;
        TEST_CHECKF(strstr(ev, off ? "seeds 1001..1002, T = 0.4)" : "seeds 1..2, T = 0.4)") != NULL, "offset %d: %s",
                    off, ev);
        slpi_audit_free(&a);
    }
    TEST_CHECKF(v[1][0] == v[0][1] && v[1][0] != v[0][0] && v[0][0] > 0,
                "offset 1000: %.17g, seed=1001: %.17g, the registry's seed: %.17g", v[1][0], v[0][1], v[0][0]);
}

/* variants: each decided alone; DISCREPANCY only on all, CRITERION-DEPENDENT when the
 * decided ones differ, UNABLE when one is undecided and the rest agree */
static void check_variants(const char *dir)
{
    slpi_error err = { 0, "" };
    const char *reg = "= X1 | s | m | p | {2.value} and {3.value}; {1.value}\n"
                      "@ X1 | a | first reading\n@ X1 | b | second reading\n"
                      "X1 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
                      "X1 | t | CONFIRMED | claim@a | - | thresholds 2 | -\n"
                      "X1 | t | CONFIRMED | claim@b | - | thresholds 2.0 | -\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
                      "= X2 | s | m | p | -\n"
                      "@ X2 | a | first reading\n@ X2 | b | second reading\n"
                      "X2 | t | CONFIRMED | claim@a | - | thresholds 2 | -\n"
                      "X2 | t | CONFIRMED | claim@b | - | thresholds 1 | -\n"
                      "X2 | t | CONFIRMED | fails | - | thresholds 0.5 | -\n"
                      "= X3 | s | m | p | -\n"
                      "@ X3 | a | first reading\n@ X3 | b | second reading\n"
                      "X3 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
                      "X3 | t | CONFIRMED | claim@b | - | thresholds 0.5 | -\n"
                      "X3 | t | CONFIRMED | fails | - | thresholds 3 | -\n"
                      "= X4 | s | m | p | -\n"
                      "@ X4 | a | first reading\n@ X4 | b | second reading\n"
                      "X4 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
                      "X4 | t | CONFIRMED | claim@b | - | unable not built | -\n"
                      "X4 | t | CONFIRMED | fails | - | thresholds 3 | -\n"
                      "= X5 | s | m | p | {1.nosuch}\n"
                      "@ X5 | a | first reading\n@ X5 | b | second reading\n"
                      "X5 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
                      "X5 | t | CONFIRMED | cond@a | - | thresholds 2 | -\n"
                      "X5 | t | CONFIRMED | claim@b | - | thresholds 2 | -\n"
                      "X5 | t | CONFIRMED | fails | - | thresholds 3 | -\n";
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK) {
        TEST_CHECK(verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED);
        TEST_CHECKF(verdict_of(&a, "X2") == SLPI_CLAIM_CRITERION, "%s", a.claims[1].reason);
        TEST_CHECK(a.claims[1].var[0].verdict == SLPI_CLAIM_CONFIRMED &&
                   a.claims[1].var[1].verdict == SLPI_CLAIM_DISCREPANCY);
        TEST_CHECK(strstr(a.claims[1].reason, "a: CONFIRMED; b: DISCREPANCY") != NULL);
        TEST_CHECK(verdict_of(&a, "X3") == SLPI_CLAIM_DISCREPANCY);
        TEST_CHECK(verdict_of(&a, "X4") == SLPI_CLAIM_UNABLE);
        /* a condition inside one variant: CONDITIONAL there, CONFIRMED in the other */
        TEST_CHECKF(verdict_of(&a, "X5") == SLPI_CLAIM_CRITERION &&
                        a.claims[4].var[0].verdict == SLPI_CLAIM_CONDITIONAL,
                    "%s", a.claims[4].reason);
        /* the texts take their numbers from the run: X1's line 2 and 3 are thresholds 2 */
        char want[96];
        snprintf(want, sizeof want, "%.3g and %.3g; %.3g", a.checks[1].value, a.checks[2].value, a.checks[0].value);
        TEST_CHECKF(!strcmp(a.claims[0].why_text, want), "'%s' vs '%s'", a.claims[0].why_text, want);
        TEST_CHECKF(strstr(a.claims[4].why_text, "{1.nosuch}") != NULL && a.claims[4].unfilled, "%s",
                    a.claims[4].why_text);
        /* a brace that does not close a {K.NAME} is text, copied as it is */
        char filled[96];
        TEST_CHECKF(slpi_audit_fill(&a, &a.claims[0], "{1.value) and {2.value", filled, sizeof filled) == 0 &&
                        !strcmp(filled, "{1.value) and {2.value"),
                    "unclosed braces filled as '%s'", filled);
        /* the variant table reaches claims.json */
        TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
        char path[128];
        snprintf(path, sizeof path, "%s/claims.json", dir);
        json_t *root = json_load_file(path, 0, NULL);
        json_t *x2 = json_array_get(json_object_get(root, "claims"), 1);
        json_t *vars = json_object_get(x2, "variants");
        TEST_CHECK(json_array_size(vars) == 2 &&
                   !strcmp(json_string_value(json_object_get(x2, "verdict")), "CRITERION-DEPENDENT") &&
                   !strcmp(json_string_value(json_object_get(json_array_get(vars, 1), "verdict")), "DISCREPANCY"));
        json_decref(root);
    }
    slpi_audit_free(&a);
}

/* at the papers' sizes (FULL=1) a check's bound is its replacement check's: a claim
 * whose full field moves the threshold reports the moved one */
static void check_full_bound(const char *dir)
{
    const char *reg = "# test registry\n"
                      "= X1 | s | m | p | -\n"
                      "X1 | t | CONFIRMED | claim | - | adstar so3 <= 1e-14 | adstar so3 <= 1e-13\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_error err = { 0, "" };
    slpi_audit a;
    memset(&a, 0, sizeof a);
    snprintf(a.outdir, sizeof a.outdir, "%s", dir);
    a.full = 1;
    int rc = slpi_audit_load(&a, test_temp_file(reg), &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    if (rc == SLPI_OK) {
        slpi_audit_run(&a, NULL, NULL);
        TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
        char path[128];
        snprintf(path, sizeof path, "%s/claims.json", dir);
        json_t *root = json_load_file(path, 0, NULL);
        json_t *ck = json_array_get(json_object_get(json_array_get(json_object_get(root, "claims"), 0), "checks"), 0);
        double x = json_real_value(json_object_get(json_object_get(ck, "bound"), "x"));
        TEST_CHECKF(x == 1e-13, "the FULL check's bound %g, want its replacement's 1e-13", x);
        json_decref(root);
    }
    slpi_audit_free(&a);
}

int main(void)
{
    test_start("t-audit-verdicts", 11);
    char dir[] = "/tmp/slpi-t-audit-verdicts-XXXXXX";
    audit_test_dir(dir);
    check_sizes_in_words(dir);
    check_verdicts_from_outcomes(dir);
    check_only_selected(dir);
    check_cache(dir);
    check_placeholders(dir);
    check_confirmatory_offset(dir);
    check_variants(dir);
    check_full_bound(dir);
    audit_test_rmdir(dir);
    TEST_END();
}
