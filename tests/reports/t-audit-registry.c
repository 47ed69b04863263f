/* t-audit-registry.c — the claims registry and its check language (reports/claims.txt,
 * reports/audit-registry.c, reports/audit-claims.c, reports/audit-lang.c,
 * reports/audit-decidable.c; docs/claims.md#rules):
 *  - the registry holds every claim of docs/claims.md and parses;
 *  - malformed registry lines (fields, roles, missing description or control, unknown
 *    check words, bad arity or numbers, bad cases, undeclared variants) are refused with
 *    file:line and the nearest valid word;
 *  - a check that cannot come out both ways is refused at load: a diagnostic the case's
 *    run does not have, a reversed, empty or unbounded window, an empty sweep, a threshold
 *    a magnitude always or never meets, a control that repeats a decisive line, two
 *    variants with the same lines; every row of the language is reachable by name;
 *  - the result words of each check word come from its row of the table. */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auditutil.h"

/* the registry covers docs/claims.md */
static void check_registry_covers_docs(const char *dir)
{
    (void)dir;
    slpi_error err = { 0, "" };
    slpi_audit a;
    memset(&a, 0, sizeof a);
    int rc = slpi_audit_load(&a, "reports/claims.txt", &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    static const struct {
        char k;
        int n;
    } fam[] = { { 'R', 20 }, { 'I', 26 }, { 'V', 26 }, { 'X', 8 } };
    for (int f = 0; rc == SLPI_OK && f < 4; f++)
        for (int i = 1; i <= fam[f].n; i++) {
            char id[16];
            snprintf(id, sizeof id, "%c%d", fam[f].k, i);
            TEST_CHECKF(check_of(&a, id, 0) != NULL, "claim %s missing from the registry", id);
        }
    TEST_CHECKF(a.nclaims == 80, "%d claims", a.nclaims);
    slpi_audit_free(&a);
}

/* one refused line per row: loaded after a description of claim M1, it is refused with
 * the text of want (file:line, why, the nearest valid word) */
struct refusal {
    const char *line, *want;
};

static void refused_each(const struct refusal *bad, size_t n)
{
    char reg[512];
    slpi_audit a;
    for (size_t i = 0; i < n; i++) {
        snprintf(reg, sizeof reg, "# bad line %zu\n= M1 | s | m | p | -\n%s\n", i, bad[i].line);
        loads(reg, 0, bad[i].want, &a);
        slpi_audit_free(&a);
    }
}

/* malformed lines are refused with file:line: fields, roles, verdicts, unknown or
 * misspelt words, arity, numbers, cases, undeclared variants, missing claims */
static void check_malformed_refused(void)
{
    static const struct refusal bad[] = {
        { "M1 | t | CONFIRMED | claim | - | thresholds 2", ":3: 6 fields, expected 7" },
        { "M1 | t | CONFIRMED | decides | - | thresholds 2 | -", ":3: role 'decides'" },
        { "M1 | t | MAYBE | claim | - | thresholds 2 | -", ":3: expected verdict 'MAYBE'" },
        { "M1 | t | UNABLE/MAYBE | claim | - | thresholds 2 | -", ":3: expected verdict 'MAYBE'" },
        { "M1 | t | UNABLE/ | claim | - | thresholds 2 | -", ":3: expected verdict ''" },
        { "M1 | t | CONFIRMED | claim | - | thresholds 2 | -", "has no control" },
        /* a typo is a load error naming file:line, never an UNABLE after the run */
        { "M1 | t | CONFIRMED | claim | - | treshold 2 | -",
          ":3: check 'treshold 2': unknown check word 'treshold' (nearest: thresholds)" },
        { "M1 | t | CONFIRMED | claim | - | max H0 =< 1e-3 | -", ":3: check 'max H0 =< 1e-3': word 3" },
        { "M1 | t | CONFIRMED | claim | - | max H0 <= 1e-3x | -", "is not a number" },
        { "M1 | t | CONFIRMED | claim | - | slope strong 4 7 10 | -",
          "word 6: too few words; usage: slope strong|weak|sup A B L R LO HI [indep=SCHEME] [phi=x1]" },
        { "M1 | t | CONFIRMED | claim | - | slope strong 4 7 10 2 0.4 0.6 1 | -", "word 9: '1' is one word too many" },
        /* every argument is typed by the check language's table; a misspelt one names the nearest word */
        { "M1 | t | CONFIRMED | claim | - | drift kase <= 1 | -",
          ":3: check 'drift kase <= 1': word 2: 'kase' is not one of case x1x2 x1sq (nearest: case)" },
        { "M1 | t | CONFIRMED | claim | - | versus H0 none >= 0 | -",
          "word 3: 'none' is not KEY=VALUE with a problem key" },
        { "M1 | t | CONFIRMED | claim | - | versus H0 nose=none >= 0 | -", "(nearest: noise)" },
        { "M1 | t | CONFIRMED | claim | - | gap isomq 10 32 <= 1 | -", "'isomq' is not a scheme (nearest: isomp)" },
        { "M1 | t | CONFIRMED | claim | - | dexpinv rigidbody sigma <= 1 | -",
          "'rigidbody' is not a system (nearest: rigid-body)" },
        { "M1 | t | CONFIRMED | claim | - | slope weak 4 7 10 2 0.4 0.6 indp=svi | -",
          "word 9: 'indp=svi' is one word too many (nearest: indep=)" },
        { "M1 | t | CONFIRMED | claim | - | refpoisson dw=0.3 <= 1 | -",
          "'dw=0.3' is not an optional key=VALUE here (nearest: dW=)" },
        { "M1 | t | CONFIRMED | claim | - | ensemble 20 awy 0.5 1.5 | -",
          "'awy' is not one of away spread (nearest: away)" },
        { "M1 | t | CONFIRMED | claim | - | sphere -1 | -", "'-1' is not an integer in 0..1000000000 (A)" },
        { "M1 | t | CONFIRMED | claim | - | max H0 <= 1e999 | -", "'1e999' is not a number" },
        { "M1 | t | CONFIRMED | claim | - | cayleypi tau | -", "'tau' is not a number or pi" },
        { "M1 | t | CONFIRMED | claim | - | thresholds 2 | T=1 :: thresholds two", ":3: FULL check 'thresholds two'" },
        { "M1 | t | CONFIRMED | claim | - | thresholds 2 | slope weak 1 2", ":3: FULL check" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/lng T=1 | max H0 <= 1 | -",
          ":3: case 'iso/rigid-body/lng T=1'" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T1 | max H0 <= 1 | -", ":3: case" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long tol=abc | max H0 <= 1 | -", ":3: case" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long | max H0 <= 1 | T=1 nosuchkey=2", ":3: FULL case" },
        { "M1 | t | CONFIRMED | claim@v1 | - | thresholds 2 | -", ":3: claim M1: variant 'v1' is not declared" },
        { "M1 | t | CONFIRMED | ev@v1 | - | thresholds 2 | -", ":3: role 'ev@v1'" },
        { "M1 | t | CRITERION-DEPENDENT | claim | - | thresholds 2 | -", "has no control" },
        { "@ M1 | v", ":3: 2 fields, expected 3" },
        { "\" M1 | where |  ", ":3: 2 fields, expected 3" },
    };
    refused_each(bad, sizeof bad / sizeof bad[0]);
    slpi_audit a;
    loads("M2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, "has no description", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n~ M3 | a rule\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":2: '~ M3': no such claim", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n@ M2 | v | a reading\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, "variant 'v' has no claim@v line", &a);
    slpi_audit_free(&a);
}

/* a check that cannot come out both ways is refused at load: a diagnostic the case's run
 * does not have, a reversed, empty or unbounded window, an empty sweep, a threshold a
 * magnitude always or never meets, a control that repeats a decisive line, two variants
 * with the same lines; a point window of a sweep's grid step is a window */
static void check_undecidable_refused(void)
{
    static const struct refusal bad[] = {
        { "M1 | t | CONFIRMED | claim | rkmk/heavy-top/casimirs-tmk-421 T=1 | max C1_dve <= 1e-12 | -",
          ":3: check 'max C1_dve <= 1e-12': 'C1_dve' is not a diagnostic of this case's run (nearest: C1_dev)" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | max H0 <= 1 | T=2 :: growth H0_rel_dv 0.8 1.2",
          ":3: FULL check 'growth H0_rel_dv 0.8 1.2': 'H0_rel_dv' is not a diagnostic of this case's run (nearest: "
          "H0_rel_dev)" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | versus H0_rl_dev noise=none <= 1 | -",
          "(nearest: H0_rel_dev)" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | ref casimir_norm2_dv 2 | -",
          "(nearest: casimir_norm2_dev)" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | growth H0_rel_dev 1.3 0.7 | -",
          ":3: check 'growth H0_rel_dev 1.3 0.7': the window [1.3, 0.7] is reversed (nearest valid: 0.7 1.3)" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/strong | slope strong 4 7 10 2 0.5 0.5 | -",
          "the window [0.5, 0.5] is empty" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/strong | slope strong 4 7 10 2 -inf inf | -",
          "holds every number" },
        { "M1 | t | CONFIRMED | claim | iso/so3/weak-exact | weakexact isomp 1.2 0.8 | -", "is reversed" },
        { "M1 | t | CONFIRMED | claim | - | legap x1x2 2 5 10 1 0.5 | -", "is reversed" },
        { "M1 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step | critical 0.1 1.6 0.1 3 0.9 0.7 | -",
          "is reversed" },
        { "M1 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step | critical 1.6 0.1 0.1 3 0.7 0.9 | -",
          "the sweep 1.6..0.1 by 0.1 is empty or reversed" },
        { "M1 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step | critical 0.1 1.6 0 3 0.7 0.9 | -",
          "is empty or reversed" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | max H0_rel_dev >= 0 | -",
          "'>= 0' is always met by a magnitude (>= 0): the outcome cannot differ between runs" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long T=1 | max H0_rel_dev <= -1e-9 | -",
          "is never met by a magnitude" },
        { "M1 | t | CONFIRMED | claim | iso/rigid-body/long h=0.125 | poisson >= -1 | -", "is always met" },
        { "M1 | t | CONFIRMED | claim | iso/so3/weak-exact | resolvable 3 4 6 16 1e6 >= 0 | -", "is always met" },
    };
    refused_each(bad, sizeof bad / sizeof bad[0]);
    slpi_audit a;
    loads("= M2 | s | m | p | -\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 2 | -\n",
          0, ":3: claim M2: this control repeats the case and check of line 2: the outcome cannot differ", &a);
    slpi_audit_free(&a);
    /* a line said twice word for word: a check, a description */
    loads("= M2 | s | m | p | -\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | claim | - | thresholds 2 | -\n",
          0, ":3: repeats line 2 word for word", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n= M2 | s | m | p | -\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n", 0,
          ":2: repeats line 1 word for word", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n~ M2 | r\n  ~ M2 | r\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n", 0,
          ":3: repeats line 2 word for word", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n@ M2 | v | a\n@ M2 | w | b\nM2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | claim@w | - | thresholds 2 | -\nM2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, "claim M2: variants v and w have the same cases and checks: the outcome cannot differ", &a);
    slpi_audit_free(&a);
    loads("= M2 | s | m | p | -\n@ M2 | v | a\n@ M2 | w | b\nM2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
          "M2 | t | CONFIRMED | claim@w | - | thresholds 2 | thresholds 3\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, NULL, &a); /* their FULL checks differ */
    slpi_audit_free(&a);
    /* a point window is a window for a sweep's grid step (critical h = 0.7 exactly) */
    loads("= M2 | s | m | p | -\nM2 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step | critical 0.5 0.5 0.1 1 "
          "0.5 0.5 | -\n"
          "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, NULL, &a);
    slpi_audit_free(&a);
}

/* a multiverse (docs/claims.md#multiverse): its dimensions and values checked at load,
 * at least 8 seed sets, one line per dimension, and shown in the claim's docs entry */
/* a threshold or window outside the range its quantity can take (docs/claims.md#reach),
 * or a change's threshold under the round-off floor of its run (#roundoff), is refused at
 * load, naming the line and the range: the referee's near-empty thresholds and windows
 * among them; the ranges' and the floors' own ends load */
static void check_unreachable_refused(void)
{
    static const char *const pre = "M1 | t | CONFIRMED | claim | ";
    static const struct {
        const char *rest, *want;
    } bad[] = {
        { "iso/rigid-body/long T=1 | max H0_rel_dev >= 1e-300 | -",
          ":3: check 'max H0_rel_dev >= 1e-300': the threshold 1e-300 lies outside [1e-18, 1e+06], the range a "
          "change of a real quantity can take" },
        { "iso/rigid-body/long T=1 | max H0_rel_dev >= 1e300 | -", "lies outside [1e-18, 1e+06]" },
        { "iso/rigid-body/long T=1 | max H0_rel_dev <= 1e7 | -", "lies outside [1e-18, 1e+06]" },
        { "iso/rigid-body/long T=1 | max H0_rel_dev <= 0 | -", "the threshold 0 lies outside [1e-18, 1e+06]" },
        { "iso/rigid-body/long T=1 | max H0 <= 1 | T=2 :: max H0 >= 1e-19", ":3: FULL check 'max H0 >= 1e-19'" },
        { "iso/rigid-body/long h=0.125 | poisson <= 1e-20 | -", "lies outside [1e-18, 1e+06]" },
        { "iso/rigid-body/long T=1 | max capped <= 2e9 | -", "outside [0, 1e+09], the range a count" },
        { "iso/rigid-body/long T=1 | versus H0_rel_dev noise=none >= 1e30 | -", "[1e-24, 1e+24], the range a ratio" },
        { "iso/so3/weak-exact | resolvable 3 4 6 16 1e6 >= 3 | -", "outside [0, 2], the range a number of resolved" },
        { "iso/so3/weak-exact | resolvable 3 4 6 16 1e6 <= 2 | -", "outside [0, 1]" },
        { "iso/rigid-body/long T=1 | growth H0_rel_dev -1e9 1e9 | -",
          ":3: check 'growth H0_rel_dev -1e9 1e9': the window [-1e9, 1e9] holds all of [0, 10], the range an "
          "exponent" },
        { "iso/rigid-body/long T=1 | growth H0_rel_dev 11 inf | -", "misses [0, 10]" },
        { "iso/rigid-body/strong | slope strong 4 7 10 2 -inf 10 | -", "holds all of [-10, 10]" },
        { "rkmk/heavy-top/critical-step | critical 0.1 1.6 0.1 3 1.7 2 | -", "misses [0.1, 1.6], the range a step" },
        { "svi/rigid-body/ensemble T=5 | ensemble 4 away 0 1.5 | -",
          "the window [0, 1.5] lies outside [1e-18, 1e+06]" },
        { "svi/rigid-body/ensemble T=5 | ensemble 4 spread 1e-30 | -", "the range a ratio of two changes" },
        /* under the round-off floor of its run (docs/claims.md#roundoff): R3's threshold
         * as the referee loaded it, its 2000 steps' floor; the same at the FULL size's
         * 10000 steps only; one rounding where the number is not a run's largest change */
        { "rkmk/heavy-top/casimirs-421 scheme=im-direct T=20 | max C2_dev >= 1e-16 | -",
          ":3: check 'max C2_dev >= 1e-16': the threshold 1e-16 is under the round-off floor 1.4e-15 of a "
          "change over 2000 roundings (its run's steps)" },
        { "rkmk/heavy-top/casimirs-421 scheme=im-direct T=20 | max C2_dev >= 2e-15 | T=100",
          ":3: FULL check 'max C2_dev >= 2e-15': the threshold 2e-15 is under the round-off floor 3.2e-15 of a "
          "change over 10000 roundings" },
        { "iso/rigid-body/long h=0.125 | poisson <= 1e-17 | -",
          "under the round-off floor 3.2e-17 of a change over 1 rounding " },
        /* a window wider than its quantity's range: a finite bound beyond it (a running
         * max never decreases: a growth slope is at least 0) */
        { "iso/rigid-body/long T=1 | growth H0_rel_dev -5 1.2 | -",
          ":3: check 'growth H0_rel_dev -5 1.2': the window [-5, 1.2] has a finite bound (inf for one side) beyond "
          "[0, 10], the range an exponent" },
        { "iso/rigid-body/strong | slope strong 4 7 10 2 0.35 12 | -",
          "has a finite bound (inf for one side) beyond [-10, 10]" },
    };
    char line[256], reg[512];
    slpi_audit a;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line, "%s%s", pre, bad[i].rest);
        snprintf(reg, sizeof reg, "# unreachable %zu\n= M1 | s | m | p | -\n%s\n", i, line);
        loads(reg, 0, bad[i].want, &a);
        slpi_audit_free(&a);
    }
    static const char *const good[] = {
        "rkmk/heavy-top/casimirs-421 scheme=im-direct T=20 | max C2_dev >= 2e-15 | -",
        "iso/rigid-body/long h=0.125 | poisson <= 4e-17 | -",
        "iso/rigid-body/long T=1 | max H0_rel_dev <= 1e6 | -",
        "iso/rigid-body/long T=1 | max capped <= 0 | -",
        "iso/so3/weak-exact | resolvable 3 4 6 16 1e6 >= 2 | -",
        "iso/so3/weak-exact | resolvable 3 4 6 16 1e6 <= 1 | -",
        "iso/rigid-body/strong | slope strong 4 7 10 2 0.7 inf | -",
        "iso/rigid-body/long T=1 | growth H0_rel_dev 0 9.9 | -",
        "iso/rigid-body/long T=1 | growth H0_rel_dev -inf 1.2 | -",
        "rkmk/heavy-top/critical-step | critical 0.1 1.6 0.1 3 0.1 1.6 | -",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(reg, sizeof reg,
                 "# reachable %zu\n= M1 | s | m | p | -\n%s%s\nM1 | t | CONFIRMED | fails | - | thresholds 1 | -\n", i,
                 pre, good[i]);
        TEST_CHECKF(loads(reg, 0, NULL, &a), "'%s' refused", good[i]);
        slpi_audit_free(&a);
    }
}

static void check_multiverse_lines(void)
{
    slpi_audit a;
    static const struct {
        const char *line, *want;
    } mv[] = {
        { "% X9 | seeds | 0 1000 2000 3000 4000 5000 6000 7000 | noise\n% X9 | blas | Haswell Prescott | kernels\n"
          "% X9 | libm | glibc mpfr | exp\n% X9 | fit | wls ols | fit\n% X9 | levels | all drop-coarsest | levels\n",
          NULL },
        { "% X9 | seed | 0 1 2 3 4 5 6 7 | noise\n",
          ":2: multiverse dimension 'seed' is not one of seeds blas libm fit levels (nearest: seeds)" },
        { "% X9 | seeds | 0 1000 2000 | noise\n", ":2: seeds: 3 values, at least 8" },
        { "% X9 | seeds | 0 1 2 3 4 5 6 6 | noise\n", ":2: seeds value '6' twice" },
        { "% X9 | seeds | 0 1 2 3 4 5 6 -7 | noise\n", ":2: seed offset '-7' is not an unsigned integer" },
        { "% X9 | blas | Haswell Zen | kernels\n",
          ":2: blas value 'Zen' is not one of Prescott Nehalem Sandybridge Haswell SkylakeX Cooperlake" },
        { "% X9 | libm | glibc | exp\n", ":2: libm: 1 value, at least 2" },
        { "% X9 | fit | wls | why\n", ":2: fit: 1 value, at least 2" },
        { "% X9 | levels | all | why\n", ":2: levels: 1 value, at least 2" },
        { "% X9 | fit | wls ols\n", ":2: 3 fields, expected 4 non-empty" },
    };
    for (size_t i = 0; i < sizeof mv / sizeof mv[0]; i++) {
        char reg[1024];
        snprintf(reg, sizeof reg,
                 "= X9 | s | m | p | -\n%sX9 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
                 "X9 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
                 mv[i].line);
        if (loads(reg, 0, mv[i].want, &a)) {
            TEST_CHECKF(!strcmp(a.claims[0].multiverse,
                                "seeds 0 1000 2000 3000 4000 5000 6000 7000; blas Haswell "
                                "Prescott; libm glibc mpfr; fit wls ols; levels all drop-coarsest"),
                        "multiverse '%s'", a.claims[0].multiverse);
            char *text = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&text, &len);
            slpi_audit_docs(&a, f);
            fclose(f);
            TEST_CHECKF(text && strstr(text, "- multiverse ([rule](#multiverse)): seeds 0 1000"), "docs entry");
            free(text);
        }
        slpi_audit_free(&a);
    }
    /* one line per dimension: a second would cross the dimension with itself */
    loads("= X9 | s | m | p | -\n% X9 | fit | wls ols | fit\n% X9 | fit | ols wls | again\n"
          "X9 | t | CONFIRMED | claim | - | thresholds 2 | -\nX9 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":3: claim X9: a second 'fit' line (the first: line 2); one line per dimension", &a);
    slpi_audit_free(&a);
}

/* descriptions and variants: a label or description that would not fit is refused, never
 * cut; a description of another number of fields, or without the paper's size or its
 * statement, is refused; REDUCED/FULL expectations (UNABLE/CONFIRMED) */
static void check_descriptions(void)
{
    slpi_audit a;
    {
        char lng[1200], d[400];
        memset(d, 'w', sizeof d - 1);
        d[sizeof d - 1] = 0;
        snprintf(lng, sizeof lng,
                 "= M2 | s | m | p | -\n@ M2 | v | %s\n"
                 "M2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
                 "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
                 d);
        loads(lng, 0, ":2: variant v: its description is longer than 383 characters", &a);
        slpi_audit_free(&a);
        d[383] = 0; /* 383 characters fit */
        snprintf(lng, sizeof lng,
                 "= M2 | s | m | p | -\n@ M2 | v | %s\n"
                 "M2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
                 "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
                 d);
        loads(lng, 0, NULL, &a);
        TEST_CHECKF(a.nclaims == 1 && strlen(a.claims[0].var[0].what) == 383,
                    "a 383-character description "
                    "is kept whole");
        slpi_audit_free(&a);
        loads("= M2 | s | m | p | -\n@ M2 | a-label-of-24-characters | r\n"
              "M2 | t | CONFIRMED | claim@a-label-of-24-characters | - | thresholds 2 | -\n"
              "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
              0, "variant label 'a-label-of-24-characters' too long", &a);
        slpi_audit_free(&a);
    }
    /* a description of another number of fields is refused, naming file:line and the count */
    loads("= M3 | s | m | p\nM3 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M3 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":1: 4 fields, expected 5 (= id | statement", &a);
    slpi_audit_free(&a);
    /* a description without the paper's size (or statement) is refused */
    loads("= M3 | s | m | - | -\nM3 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M3 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":1: the paper's size is empty", &a);
    slpi_audit_free(&a);
    loads("= M4 |  | m | p | -\nM4 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
          "M4 | t | CONFIRMED | fails | - | thresholds 1 | -\n",
          0, ":1: statement is empty", &a);
    slpi_audit_free(&a);
    const char *two = "= M3 | s | m | p | -\n"
                      "M3 | t | UNABLE/CONFIRMED | claim | - | thresholds 2 | -\n"
                      "M3 | t | UNABLE/CONFIRMED | fails | - | thresholds 1 | -\n";
    for (int full = 0; full < 2; full++) {
        if (loads(two, full, NULL, &a))
            TEST_CHECKF(a.nclaims == 1 && !strcmp(a.claims[0].expected, full ? "CONFIRMED" : "UNABLE"),
                        "full=%d: expected '%s'", full, a.nclaims ? a.claims[0].expected : "");
        slpi_audit_free(&a);
    }
}

/* The result words of a check come from its row of the language's table: each word with
 * words names what it measured (its first argument where that is a diagnostic), the
 * others say word and number; an unparsable check (an old archive's) says the same. */
static void check_measured_words(void)
{
    static const struct {
        const char *check;
        double v, lo, hi;
        const char *want;
    } w[] = {
        { "slope weak 4 10 13 100 0.7 1.3", 1.3401, 1.246, 1.433, "slope 1.34, CI [1.25, 1.43]" },
        { "growth C2_dev 0.8 1.2", 0.611, 0, 0, "C2_dev grows with log-log slope 0.61" },
        { "critical 0.1 1.6 0.1 3 0.7 0.9", INFINITY, 0, 0, "critical h = inf" },
        { "critical 0.1 1.6 0.1 3 0.7 0.9", 0.7, 0, 0, "critical h = 0.7" },
        { "max H0_rel_dev <= 1e-12", 2.5e-13, 0, 0, "largest change of H0_rel_dev: 2.5e-13" },
        { "refpoisson dW=0.3 <= 1e-12", 3e-14, 0, 0, "Poisson defect 3e-14" },
        { "poisson <= 1e-9", 1.5e-10, 0, 0, "Poisson defect 1.5e-10" },
        { "snapshots 2500 >= 0.5", 1.494, 0, 0, "field change 1.49" },
        { "versus H0_rel_dev noise=none >= 10", 6.35, 0, 0, "H0_rel_dev departure 6.35 times the other run's" },
        { "sphere 3", 1e-15, 0, 0, "off its sphere by 1e-15" },
        { "thresholds 2", 1e-16, 0, 0, "thresholds: 1e-16" },
        { "sviorbit 16 ratio <= 2", NAN, 0, 0, "no value" },
        { "nosuchword 1 2", 0.5, 0, 0, "nosuchword: 0.5" },
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        char out[160];
        slpi_audit_measured_words(w[i].check, w[i].v, w[i].lo, w[i].hi, out, sizeof out);
        TEST_CHECKF(!strcmp(out, w[i].want), "'%s': '%s', want '%s'", w[i].check, out, w[i].want);
    }
    char small[12]; /* cut to its buffer, never past it */
    slpi_audit_measured_words("growth C2_dev 0.8 1.2", 0.611, 0, 0, small, sizeof small);
    TEST_CHECKF(!strcmp(small, "C2_dev grow"), "'%s'", small);
}

/* The bound of each form, read from its typed arguments, against the number written in
 * the check string: a magnitude's threshold (X, or resolvable's N, never adstar's algebra
 * size N), a window's edges (an unbounded one too), none for a form whose outcome is not
 * one number against a bound. */
static void check_bounds(void)
{
    static const struct {
        const char *check;
        int kind;
        double lo, hi;
    } w[] = {
        { "max H0_rel_dev <= 1e-12", 1, 1e-12, 1e-12 },
        { "versus H0_rel_dev noise=none >= 10", 1, 10, 10 },
        { "resolvable 4 10 13 100 4 >= 3", 1, 3, 3 },
        { "adstar son 5 + <= 1e-14", 1, 1e-14, 1e-14 },
        { "ensemble 20 spread 2", 1, 2, 2 },
        { "slope strong 3 7 10 100 0.7 inf", 2, 0.7, INFINITY },
        { "critical 0.1 1.6 0.1 3 0.7 0.9", 2, 0.7, 0.9 },
        { "growth C2_dev 0.8 1.2", 2, 0.8, 1.2 },
        { "ensemble 20 away 0.1 0.5", 0, 0, 0 },
        { "sphere 3", 0, 0, 0 },
        { "test t-fast-schemes", 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        slpi_audit_args x;
        char why[256];
        double lo = 0, hi = 0;
        int parsed = !slpi_audit_parse(w[i].check, &x, why, sizeof why);
        TEST_CHECKF(parsed, "'%s': %s", w[i].check, why);
        if (!parsed) continue;
        int kind = slpi_audit_bound(&x, &lo, &hi);
        TEST_CHECKF(kind == w[i].kind && lo == w[i].lo && hi == w[i].hi, "'%s': bound %d [%g, %g], want %d [%g, %g]",
                    w[i].check, kind, lo, hi, w[i].kind, w[i].lo, w[i].hi);
    }
}

int main(void)
{
    test_start("t-audit-registry", 11);
    char dir[] = "/tmp/slpi-t-audit-registry-XXXXXX";
    audit_test_dir(dir);
    check_registry_covers_docs(dir);
    check_malformed_refused();
    check_undecidable_refused();
    check_unreachable_refused();
    check_multiverse_lines();
    check_descriptions();
    check_measured_words();
    check_bounds();
    audit_test_rmdir(dir);
    TEST_END();
}
