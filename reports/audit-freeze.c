/* audit-freeze.c — the freeze of the rules, checked by the run (docs/claims.md#decision-digest).
 *
 * The decision digest is FNV-1a of "SOURCES\nCASES\n" and the registry's bytes:
 * - SOURCES, the digest of the decision sources' listing ("SHA256  PATH" lines, sorted by
 *   path): what each object on the audit's decision path (mk/rules-digest.sh: the objects of
 *   reports/ and studies/ the audit reaches) was compiled from, its source and every header
 *   wherever it lives, as the object itself carries it (mk/src-digest.sh), read from what the
 *   command linked; and make audit's scripts as built, each compared with the file the run
 *   finds beside its registry (a script edited since the build is listed with a digest of
 *   zeros). An object left stale after its source was restored names the bytes it was
 *   compiled from, so it is not the frozen path;
 * - CASES, the digest of the registry's cases as the problems they build (each check's case,
 *   and its FULL=1 case, as slpi_problem_text writes it: the presets and the defaults as data).
 * docs/claims.md freezes them in its "Decision digest", "Decision sources" and "Decision
 * cases" lines, which only a changelog entry's author writes. The freeze that governs a
 * run is the docs/claims.md of the registry's checkout (CHECKOUT/reports/claims.txt), else
 * the working folder's, so a run from another folder is judged as one from the checkout.
 * A run whose sources or cases are not the frozen ones, or that reads its checkout's
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
#include "core/problem-store.h"
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "reports/audit-checks.h"

#define FROZEN_DOC "docs/claims.md"

#define ZERO64 "0000000000000000000000000000000000000000000000000000000000000000"

/* 1 when the k bytes at s are a line of list. */
static int listed(const char *list, const char *s, size_t k)
{
    for (const char *p = list ? list : ""; *p;) {
        size_t m = strcspn(p, "\n");
        if (m == k && !strncmp(p, s, k)) return 1;
        p += m + (p[m] == '\n');
    }
    return 0;
}

static int by_path(const void *x, const void *y)
{
    const char *a = *(char *const *)x, *b = *(char *const *)y;
    int c = strcmp(a + 66, b + 66);
    return c ? c : strcmp(a, b);
}

/* The decision sources' listing, "SHA256  PATH" lines sorted by path with no line twice
 * (malloc'd; NULL when out of memory): the lines of the linked objects on the decision
 * path (all: of every linked object), then make audit's scripts as built, one found under
 * root with other bytes (FNV-1a) listed with a digest of zeros. */
static char *sources_listing(const slpi_audit *a, const char *root, int all)
{
    size_t n = 0, cap = 64, len = 1;
    char **line = malloc(cap * sizeof *line), *out = NULL;
    int on = 0, ok = line != NULL;
    const char *p = a->records ? a->records[0] : NULL, *end = a->records ? a->records[1] : NULL;
    for (; ok && p && p < end;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t k = e ? (size_t)(e - p) : (size_t)(end - p);
        if (k > 2 && p[0] == '=' && p[1] == ' ')
            on = all || listed(a->decision_objects, p + 2, k - 2);
        else if (on && k > 66 && (n < cap || (line = realloc(line, (cap *= 2) * sizeof *line)))) {
            ok = (line[n] = malloc(k + 1)) != NULL;
            if (ok) snprintf(line[n++], k + 1, "%.*s", (int)k, p), len += k + 1;
        } else
            ok = line != NULL;
        p += k + 1;
    }
    for (p = a->drivers ? a->drivers : ""; ok && *p;) {
        size_t k = strcspn(p, "\n"), at = k;
        while (at > 0 && p[at - 1] != ' ') at--;
        char path[SLPI_PATH_MAX + 8], fnv[17];
        snprintf(path, sizeof path, "%s/%.*s", root, (int)(at > 67 ? at - 67 : 0), p + 66);
        snprintf(fnv, sizeof fnv, "%016llx", (unsigned long long)slpi_fnv1a_file(SLPI_FNV_INIT, path));
        FILE *f = fopen(path, "r");
        int edited = f && strncmp(fnv, p + at, 16);
        if (f) fclose(f);
        if (at > 67 && (n < cap || (line = realloc(line, (cap *= 2) * sizeof *line)))) {
            ok = (line[n] = malloc(at)) != NULL;
            if (ok) snprintf(line[n++], at, "%.64s%.*s", edited ? ZERO64 : p, (int)(at - 65), p + 64), len += at;
        } else
            ok = line != NULL;
        p += k + (p[k] == '\n');
    }
    if (ok) qsort(line, n, sizeof *line, by_path);
    if (ok && (out = malloc(len))) {
        out[0] = 0;
        for (size_t i = 0, l = 0; i < n; i++)
            if (!i || strcmp(line[i], line[i - 1])) l += (size_t)sprintf(out + l, "%s\n", line[i]);
    }
    for (size_t i = 0; line && i < n; i++) free(line[i]);
    free(line);
    return out;
}

/* The digest of the registry's cases as problems: each check's case (and its FULL=1 case)
 * built as the evaluators build it, its slpi_problem_text (or the error that refused it). */
static void cases_digest(const slpi_audit *a, char out[17])
{
    uint64_t h = SLPI_FNV_INIT;
    for (int i = 0; i < a->nchecks; i++)
        for (int full = 0; full < 2; full++) {
            const slpi_audit_check *c = &a->checks[i];
            if (!strcmp(c->kase, "-") || (full && !c->full_case[0])) continue;
            slpi_audit probe;
            memset(&probe, 0, sizeof probe);
            probe.full = full;
            slpi_problem *p = slpi_problem_alloc();
            slpi_error e = { 0, "" };
            char args[512], *text = NULL;
            long k = !p || slpi_audit_case(&probe, c, p, args, sizeof args, &e) ? -1 : slpi_problem_text(p, NULL, 0);
            if (k >= 0 && (text = malloc((size_t)k + 1))) slpi_problem_text(p, text, (size_t)k + 1);
            h = text ? slpi_fnv1a(h, text, strlen(text)) : slpi_fnv1a(h, e.msg, strlen(e.msg));
            h = slpi_fnv1a(h, "\n", 1);
            free(text);
            slpi_problem_free(p);
        }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* The sources', the closure's and the cases' digests into a (once), the scripts looked for
 * under root;
 * the cases are every claim's in the registry (the registry read again: --only keeps some). */
static void digests(slpi_audit *a, const char *root)
{
    if (a->source_digest[0]) return;
    for (int all = 0; all < 2; all++) {
        char *l = a->records ? sources_listing(a, root, all) : NULL, *out = all ? a->closure_digest : a->source_digest;
        if (l)
            snprintf(out, 17, "%016llx", (unsigned long long)slpi_fnv1a(SLPI_FNV_INIT, l, strlen(l)));
        else
            snprintf(out, 17, "none");
        free(l);
    }
    slpi_audit all; /* every claim's cases, whatever --only selects */
    slpi_error e = { 0, "" };
    memset(&all, 0, sizeof all);
    if (slpi_audit_load(&all, a->registry, &e) == SLPI_OK)
        cases_digest(&all, a->cases_digest);
    else
        snprintf(a->cases_digest, 17, "none");
    slpi_audit_free(&all);
}

void slpi_audit_decision_digest(const slpi_audit *a, char out[17])
{
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, a->source_digest, strlen(a->source_digest));
    h = slpi_fnv1a(h, "\n", 1);
    h = slpi_fnv1a(h, a->cases_digest, strlen(a->cases_digest));
    h = slpi_fnv1a(h, "\n", 1);
    h = slpi_fnv1a_file(h, a->registry);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* A freeze: the frozen digests (decision, sources, cases), the file that holds them, its
 * checkout's root (where make audit's scripts are looked for) and whether the run reads
 * that checkout's registry (own). */
typedef struct {
    char dec[17], src[17], cases[17], doc[SLPI_PATH_MAX + 32], root[SLPI_PATH_MAX];
    int own;
} freeze;

/* The frozen digests of the freeze file z->doc: 0 when it has the three lines. */
static int frozen_in(freeze *z)
{
    FILE *f = fopen(z->doc, "r");
    char line[256];
    z->dec[0] = z->src[0] = z->cases[0] = 0;
    if (!f) return 1;
    while (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "): ");
        if (!strncmp(line, "Decision digest (", 17) && p) snprintf(z->dec, 17, "%.16s", p + 3);
        if (!strncmp(line, "Decision sources (", 18)) snprintf(z->src, 17, "%.16s", line + 18);
        if (!strncmp(line, "Decision cases (", 16)) snprintf(z->cases, 17, "%.16s", line + 16);
    }
    fclose(f);
    return !(strlen(z->dec) == 16 && strlen(z->src) == 16 && strlen(z->cases) == 16);
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
 * (CHECKOUT/reports/FILE): 1 then, else 0 (root ".": the working folder). */
static int checkout_of(const slpi_audit *a, char *root, size_t n)
{
    char *x = realpath(a->registry, NULL);
    char *s = x ? strrchr(x, '/') : NULL;
    if (s) *s = 0;
    char *dir = s ? strrchr(x, '/') : NULL;
    int in_reports = dir && !strcmp(dir + 1, "reports");
    if (in_reports) *dir = 0;
    snprintf(root, n, "%s", in_reports ? x : ".");
    free(x);
    return in_reports;
}

/* The freeze that governs this run into z: the freeze beside the registry
 * (CHECKOUT/docs/claims.md), else the working folder's docs/claims.md; z->root: the
 * checkout where make audit's scripts are looked for, else the working folder. 0 when a
 * freeze is found. */
static int frozen(const slpi_audit *a, freeze *z)
{
    char reg[SLPI_PATH_MAX + 32];
    int found = 1, in = checkout_of(a, z->root, sizeof z->root);
    z->own = 0;
    snprintf(z->doc, sizeof z->doc, "%s/%s", z->root, FROZEN_DOC);
    if (!in || frozen_in(z)) {
        snprintf(z->doc, sizeof z->doc, "%s", FROZEN_DOC);
        found = !frozen_in(z);
        if (found) snprintf(z->root, sizeof z->root, ".");
    }
    if (!found) return 1;
    snprintf(reg, sizeof reg, "%s/reports/claims.txt", z->root);
    z->own = same_file(a->registry, reg);
    return 0;
}

int slpi_audit_freeze_check(slpi_audit *a, char *msg, size_t n)
{
    char dec[17];
    freeze z;
    a->outside[0] = 0;
    int none = frozen(a, &z);
    digests(a, z.root);
    slpi_audit_decision_digest(a, dec);
    if (none) { /* no freeze found: run, flagged */
        snprintf(a->outside, sizeof a->outside,
                 "no frozen Decision lines: neither %s beside the registry (CHECKOUT/reports/claims.txt) "
                 "nor in the working folder",
                 FROZEN_DOC);
        return 0;
    }
    const char *what = strcmp(a->source_digest, z.src)
        ? "its sources (the decision path's code and headers as compiled, make audit's scripts)"
        : z.own && strcmp(a->cases_digest, z.cases) ? "its cases' problems (the presets and defaults they apply)"
        : z.own && strcmp(dec, z.dec)               ? "its registry lines"
                                                    : NULL;
    if (!z.own && strcmp(dec, z.dec)) /* another registry than the frozen one's: run, flagged */
        snprintf(a->outside, sizeof a->outside,
                 "the registry %.200s is not the frozen one: decision digest %s, %.200s freezes %s", a->registry, dec,
                 z.doc, z.dec);
    if (!what) return 0;
    const char *env = getenv("SLPI_AUDIT_RULES_CHANGED");
    if (env && !strcmp(env, "1")) {
        a->rules_changed = 1;
        return 0;
    }
    snprintf(msg, n,
             "the decision path changed (%s): decision digest %s over sources %s and cases %s, but "
             "%.200s freezes %s over %s and %s. That is a rule change: enter it in the changelog of "
             "%s (dated, the reason, the verdicts under the old and the new rule) and set its "
             "Decision lines to what `slpi audit --digest` prints (or run with "
             "SLPI_AUDIT_RULES_CHANGED=1: the report is flagged)",
             what, dec, a->source_digest, a->cases_digest, z.doc, z.dec, z.src, z.cases, FROZEN_DOC);
    return 1;
}

int slpi_audit_digest_lines(slpi_audit *a, FILE *f)
{
    char dec[17];
    freeze z;
    frozen(a, &z);
    digests(a, z.root);
    slpi_audit_decision_digest(a, dec);
    char *l = a->records ? sources_listing(a, z.root, 0) : NULL;
    if (a->records && !l) return SLPI_EINPUT;
    fprintf(f,
            "Decision digest (its sources and cases with the registry, %s; see docs/claims.md#decision-digest): %s\n",
            a->registry, dec);
    fprintf(f, "Decision sources (%s):", a->source_digest);
    for (const char *p = l ? l : ""; *p;) {
        size_t k = strcspn(p, "\n");
        fprintf(f, " %.*s", (int)(k > 66 ? k - 66 : 0), p + (k > 66 ? 66 : k));
        p += k + (p[k] == '\n');
    }
    fprintf(f,
            "\nDecision cases (%s): the registry's cases as the problems they build (presets and defaults as data)\n",
            a->cases_digest);
    free(l);
    return SLPI_OK;
}

void slpi_audit_freeze_record(const slpi_audit *a, json_t *root)
{
    char dec[17];
    freeze z;
    int none = frozen(a, &z);
    slpi_audit_decision_digest(a, dec);
    json_object_set_new(root, "rules_digest", json_string(dec));
    json_object_set_new(root, "source_digest", json_string(a->source_digest));
    json_object_set_new(root, "cases_digest", json_string(a->cases_digest));
    json_object_set_new(root, "closure_digest", json_string(a->closure_digest));
    json_object_set_new(root, "frozen_digest", json_string(none ? "none (no docs/claims.md here)" : z.dec));
    json_object_set_new(root, "rules_changed", json_boolean(a->rules_changed));
    json_object_set_new(root, "outside_freeze", a->outside[0] ? json_string(a->outside) : json_null());
}
