/* audit-freeze.c — the freeze of the rules, checked by the run (docs/claims.md#decision-digest).
 *
 * The command carries the digest of its decision path: the sources under reports/ that
 * the audit's objects reach (evaluators, statistics, fits, converge-stats, the verdict
 * rules), derived at build time by mk/rules-digest.sh from what is compiled. The run
 * adds the registry it reads: the decision digest is FNV-1a of "SOURCE-DIGEST\n" and the
 * registry's bytes. docs/claims.md freezes both in its "Decision digest" and "Decision
 * sources" lines, which only a changelog entry's author writes. The freeze that governs a
 * run is the docs/claims.md of the registry's checkout (CHECKOUT/reports/claims.txt), else
 * the working folder's, so a run from another folder is judged as one from the checkout.
 * A run whose sources are not the frozen ones, or that reads its checkout's
 * reports/claims.txt and whose decision digest is not the frozen one, is a rule change:
 * refused (exit 2), unless SLPI_AUDIT_RULES_CHANGED=1, when it runs and every report it
 * writes flags it (rules_changed). A run outside the freeze, with another registry (a copy
 * given to --claims that differs from the frozen one) or where no frozen lines are found,
 * runs and every report it writes says so (outside_freeze); neither is ever archived. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/digest.h"
#include "reports/audit-checks.h"

#define FROZEN_DOC "docs/claims.md"

void slpi_audit_decision_digest(const slpi_audit *a, char out[17])
{
    const char *src = a->source_digest ? a->source_digest : "none";
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, src, strlen(src));
    h = slpi_fnv1a(h, "\n", 1);
    h = slpi_fnv1a_file(h, a->registry);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* The frozen digests (decision, sources) of the freeze file doc: 0 when it has both lines. */
static int frozen_in(const char *doc, char dec[17], char src[17])
{
    FILE *f = fopen(doc, "r");
    char line[256];
    dec[0] = src[0] = 0;
    if (!f) return 1;
    while (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "): ");
        if (!strncmp(line, "Decision digest (", 17) && p) snprintf(dec, 17, "%.16s", p + 3);
        if (!strncmp(line, "Decision sources (", 18)) snprintf(src, 17, "%.16s", line + 18);
    }
    fclose(f);
    return !(strlen(dec) == 16 && strlen(src) == 16);
}

/* 1 when the paths x and y name one existing file. */
static int same_file(const char *x, const char *y)
{
    char *rx = realpath(x, NULL), *ry = realpath(y, NULL);
    int same = rx && ry && !strcmp(rx, ry);
    free(rx);
    free(ry);
    return same;
}

/* The registry's checkout into root, when the registry lies in a folder named reports
 * (CHECKOUT/reports/FILE): 1 then, else 0. */
static int checkout_of(const slpi_audit *a, char *root, size_t n)
{
    char *x = realpath(a->registry, NULL);
    char *s = x ? strrchr(x, '/') : NULL;
    if (s) *s = 0;
    char *dir = s ? strrchr(x, '/') : NULL;
    int in_reports = dir && !strcmp(dir + 1, "reports");
    if (in_reports) {
        *dir = 0;
        snprintf(root, n, "%s", x);
    }
    free(x);
    return in_reports;
}

/* The frozen digests of the freeze that governs this run: the freeze beside the registry
 * (CHECKOUT/docs/claims.md), else the working folder's docs/claims.md (its path in doc);
 * own: the registry is that checkout's reports/claims.txt. 0 when one is found. */
static int frozen(const slpi_audit *a, char dec[17], char src[17], int *own, char *doc, size_t n)
{
    char root[SLPI_PATH_MAX], reg[SLPI_PATH_MAX + 32];
    *own = 0;
    if (!checkout_of(a, root, sizeof root) || (snprintf(doc, n, "%s/%s", root, FROZEN_DOC), frozen_in(doc, dec, src))) {
        snprintf(root, sizeof root, ".");
        snprintf(doc, n, "%s", FROZEN_DOC);
        if (frozen_in(doc, dec, src)) return 1;
    }
    snprintf(reg, sizeof reg, "%s/reports/claims.txt", root);
    *own = same_file(a->registry, reg);
    return 0;
}

int slpi_audit_freeze_check(slpi_audit *a, char *msg, size_t n)
{
    char dec[17], fdec[17], fsrc[17], doc[SLPI_PATH_MAX + 32];
    int own;
    a->outside[0] = 0;
    slpi_audit_decision_digest(a, dec);
    if (frozen(a, fdec, fsrc, &own, doc, sizeof doc)) { /* no freeze found: run, flagged */
        snprintf(a->outside, sizeof a->outside,
                 "no frozen Decision lines: neither %s beside the registry (CHECKOUT/reports/claims.txt) "
                 "nor in the working folder",
                 FROZEN_DOC);
        return 0;
    }
    const char *src = a->source_digest ? a->source_digest : "none";
    const char *what = strcmp(src, fsrc) ? "its sources (evaluators, statistics, fits, verdict rules)"
        : own && strcmp(dec, fdec)       ? "its registry lines"
                                         : NULL;
    if (!own && strcmp(dec, fdec)) /* another registry than the frozen one's: run, flagged */
        snprintf(a->outside, sizeof a->outside,
                 "the registry %.200s is not the frozen one: decision digest %s, %.200s freezes %s", a->registry, dec,
                 doc, fdec);
    if (!what) return 0;
    const char *env = getenv("SLPI_AUDIT_RULES_CHANGED");
    if (env && !strcmp(env, "1")) {
        a->rules_changed = 1;
        return 0;
    }
    snprintf(msg, n,
             "the decision path changed (%s): decision digest %s over sources %s, but %.200s "
             "freezes %s over %s. That is a rule change: enter it in the changelog of %s (dated, "
             "the reason, the verdicts under the old and the new rule) and set its Decision lines "
             "to what `slpi audit --digest` prints (or run with SLPI_AUDIT_RULES_CHANGED=1: the "
             "report is flagged)",
             what, dec, src, doc, fdec, fsrc, FROZEN_DOC);
    return 1;
}

void slpi_audit_digest_lines(const slpi_audit *a, FILE *f)
{
    char dec[17];
    slpi_audit_decision_digest(a, dec);
    fprintf(f, "Decision digest (its sources with the registry, %s; see docs/claims.md#decision-digest): %s\n",
            a->registry, dec);
    fprintf(f, "Decision sources (%s):", a->source_digest ? a->source_digest : "none");
    for (const char *p = a->source_files ? a->source_files : ""; *p;) {
        size_t k = strcspn(p, "\n");
        fprintf(f, " %.*s", (int)k, p);
        p += k + (p[k] == '\n');
    }
    fprintf(f, "\n");
}

void slpi_audit_freeze_record(const slpi_audit *a, json_t *root)
{
    char dec[17], fdec[17], fsrc[17], doc[SLPI_PATH_MAX + 32];
    int own;
    slpi_audit_decision_digest(a, dec);
    int none = frozen(a, fdec, fsrc, &own, doc, sizeof doc);
    json_object_set_new(root, "rules_digest", json_string(dec));
    json_object_set_new(root, "source_digest", json_string(a->source_digest ? a->source_digest : "none"));
    json_object_set_new(root, "frozen_digest", json_string(none ? "none (no docs/claims.md here)" : fdec));
    json_object_set_new(root, "rules_changed", json_boolean(a->rules_changed));
    json_object_set_new(root, "outside_freeze", a->outside[0] ? json_string(a->outside) : json_null());
}
