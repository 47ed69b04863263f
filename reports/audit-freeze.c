/* audit-freeze.c — the freeze of the rules, checked by the run (docs/claims.md#decision-digest).
 *
 * The command carries the digest of its decision path: the sources under reports/ that
 * the audit's objects reach (evaluators, statistics, fits, converge-stats, the verdict
 * rules), derived at build time by mk/rules-digest.sh from what is compiled. The run
 * adds the registry it reads: the decision digest is FNV-1a of "SOURCE-DIGEST\n" and the
 * registry's bytes. docs/claims.md freezes both in its "Decision digest" and "Decision
 * sources" lines, which only a changelog entry's author writes. A run whose sources are
 * not the frozen ones, or that reads reports/claims.txt and whose decision digest is not
 * the frozen one, is a rule change: refused (exit 2), unless SLPI_AUDIT_RULES_CHANGED=1,
 * when it runs and every report it writes flags it (rules_changed). */
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

/* The frozen digests of docs/claims.md (decision, sources): 0 when it has both lines. */
static int frozen(char dec[17], char src[17])
{
    FILE *f = fopen(FROZEN_DOC, "r");
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

/* The registry read is the frozen one's file, reports/claims.txt of this checkout. */
static int frozen_registry(const slpi_audit *a)
{
    char *x = realpath(a->registry, NULL), *y = realpath("reports/claims.txt", NULL);
    int same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

int slpi_audit_freeze_check(slpi_audit *a, char *msg, size_t n)
{
    char dec[17], fdec[17], fsrc[17];
    if (frozen(fdec, fsrc)) return 0; /* not in a checkout with the frozen lines */
    slpi_audit_decision_digest(a, dec);
    const char *src = a->source_digest ? a->source_digest : "none";
    const char *what = strcmp(src, fsrc)          ? "its sources (evaluators, statistics, fits, verdict rules)"
        : frozen_registry(a) && strcmp(dec, fdec) ? "its registry lines"
                                                  : NULL;
    if (!what) return 0;
    const char *env = getenv("SLPI_AUDIT_RULES_CHANGED");
    if (env && !strcmp(env, "1")) {
        a->rules_changed = 1;
        return 0;
    }
    snprintf(msg, n,
             "the decision path changed (%s): decision digest %s over sources %s, but %s "
             "freezes %s over %s. That is a rule change: enter it in the changelog of %s (dated, "
             "the reason, the verdicts under the old and the new rule) and set its Decision lines "
             "to what `slpi audit --digest` prints (or run with SLPI_AUDIT_RULES_CHANGED=1: the "
             "report is flagged)",
             what, dec, src, FROZEN_DOC, fdec, fsrc, FROZEN_DOC);
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
    char dec[17], fdec[17], fsrc[17];
    slpi_audit_decision_digest(a, dec);
    int none = frozen(fdec, fsrc);
    json_object_set_new(root, "rules_digest", json_string(dec));
    json_object_set_new(root, "source_digest", json_string(a->source_digest ? a->source_digest : "none"));
    json_object_set_new(root, "frozen_digest", json_string(none ? "none (no docs/claims.md here)" : fdec));
    json_object_set_new(root, "rules_changed", json_boolean(a->rules_changed));
}
