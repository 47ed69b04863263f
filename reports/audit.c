/* audit.c — the claims audit of docs/claims.md: reads the claims registry
 * (reports/claims.txt: one line per check, format in its header), evaluates every check
 * (reports/audit-checks.c) and derives each claim's verdict from the outcomes alone:
 *   - role "qual" (docs: QUALITATIVE): QUALITATIVE, the checks are evidence;
 *   - any claim check UNABLE: UNABLE;
 *   - every claim check passes: CONFIRMED;
 *   - a claim check fails and every "cond" check passes (there is one): CONDITIONAL, with
 *     the condition = the cond checks' cases;
 *   - otherwise: DISCREPANCY.
 * The expected verdict of the registry is never consulted here; the report compares
 * the two afterwards and lists every difference first. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reports/reports.h"

const char *slpi_claim_verdict_name(slpi_claim_verdict v)
{
    static const char *n[] = {"CONFIRMED", "CONDITIONAL", "DISCREPANCY", "QUALITATIVE", "UNABLE"};
    return (unsigned)v < 5 ? n[v] : "?";
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
    return s;
}

static int copy_field(char *dst, size_t n, const char *src, const char *what, const char *path,
                      int line, slpi_error *err)
{
    if (strlen(src) >= n)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s longer than %zu characters", path, line,
                              what, n - 1);
    strcpy(dst, src);
    return SLPI_OK;
}

static int parse_line(slpi_audit_check *c, char *buf, const char *path, int line, slpi_error *err)
{
    char *f[7];
    int nf = 0;
    char *s = buf;
    while (nf < 7) {
        char *bar = strstr(s, " | ");
        f[nf++] = s;
        if (!bar) break;
        *bar = 0;
        s = bar + 3;
    }
    if (nf != 7)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %d fields, expected 7 (id | source | "
                              "expected | role | case | check | full)", path, line, nf);
    for (int i = 0; i < 7; i++) f[i] = trim(f[i]);
    memset(c, 0, sizeof *c);
    c->line = line;
    static const char *roles[] = {"claim", "cond", "ev", "qual"};
    int r = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(f[3], roles[i])) r = i;
    if (r < 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: role '%s': claim | cond | ev | qual", path,
                              line, f[3]);
    c->role = (slpi_audit_role)r;
    static const char *verdicts[] = {"CONFIRMED", "CONDITIONAL", "DISCREPANCY", "QUALITATIVE"};
    int v = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(f[2], verdicts[i])) v = i;
    if (v < 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected verdict '%s' is not one of "
                              "CONFIRMED CONDITIONAL DISCREPANCY QUALITATIVE", path, line, f[2]);
    int rc = copy_field(c->id, sizeof c->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(c->source, sizeof c->source, f[1], "source", path, line, err);
    if (!rc) rc = copy_field(c->expected, sizeof c->expected, f[2], "expected", path, line, err);
    if (!rc) rc = copy_field(c->kase, sizeof c->kase, f[4], "case", path, line, err);
    if (!rc) rc = copy_field(c->check, sizeof c->check, f[5], "check", path, line, err);
    if (!rc) rc = copy_field(c->full, sizeof c->full, f[6], "full", path, line, err);
    return rc;
}

int slpi_audit_load(slpi_audit *a, const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open the claims registry", path);
    char buf[2048];
    int line = 0, rc = SLPI_OK, cap = 0;
    a->nchecks = a->nclaims = 0;
    a->checks = NULL;
    a->claims = NULL;
    while (rc == SLPI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        char *s = trim(buf);
        if (!*s || *s == '#') continue;
        if (a->nchecks == cap) {
            cap = cap ? 2 * cap : 64;
            slpi_audit_check *n = realloc(a->checks, (size_t)cap * sizeof *n);
            if (!n) { rc = slpi_error_set(err, SLPI_ENUMERIC, "audit: out of memory"); break; }
            a->checks = n;
        }
        slpi_audit_check *c = &a->checks[a->nchecks];
        rc = parse_line(c, s, path, line, err);
        if (rc != SLPI_OK) break;
        if (a->only && strcmp(c->id, a->only)) continue;
        a->nchecks++;
    }
    fclose(f);
    if (rc != SLPI_OK) return rc;
    if (!a->nchecks)
        return slpi_error_set(err, SLPI_EINPUT, "%s: no claim%s%s", path, a->only ? " " : "",
                              a->only ? a->only : "");
    a->claims = calloc((size_t)a->nchecks, sizeof *a->claims);
    if (!a->claims) return slpi_error_set(err, SLPI_ENUMERIC, "audit: out of memory");
    for (int i = 0; i < a->nchecks; i++) {
        slpi_audit_claim *cl = a->nclaims ? &a->claims[a->nclaims - 1] : NULL;
        if (cl && !strcmp(cl->id, a->checks[i].id)) {
            if (strcmp(cl->expected, a->checks[i].expected))
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: expected verdict differs "
                                      "from its first line", path, a->checks[i].line, cl->id);
            cl->count++;
            continue;
        }
        for (int j = 0; j < a->nclaims; j++)
            if (!strcmp(a->claims[j].id, a->checks[i].id))
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: its lines must be "
                                      "consecutive", path, a->checks[i].line, a->checks[i].id);
        cl = &a->claims[a->nclaims++];
        strcpy(cl->id, a->checks[i].id);
        strcpy(cl->source, a->checks[i].source);
        strcpy(cl->expected, a->checks[i].expected);
        cl->first = i;
        cl->count = 1;
    }
    return SLPI_OK;
}

static void verdict(const slpi_audit *a, slpi_audit_claim *cl)
{
    int nclaim = 0, fail = 0, unable = 0, ncond = 0, condfail = 0, qual = 0;
    cl->condition[0] = 0;
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        if (c->role == SLPI_ROLE_QUAL) qual = 1;
        if (c->role == SLPI_ROLE_CLAIM) {
            nclaim++;
            fail += c->outcome == SLPI_CHECK_FAIL;
            unable += c->outcome == SLPI_CHECK_UNABLE;
        } else if (c->role == SLPI_ROLE_COND) {
            ncond++;
            condfail += c->outcome != SLPI_CHECK_PASS;
            size_t n = strlen(cl->condition);
            snprintf(cl->condition + n, sizeof cl->condition - n, "%s%s: %s", n ? "; " : "",
                     c->kase, c->check);
        }
    }
    if (qual) cl->verdict = SLPI_CLAIM_QUALITATIVE;
    else if (unable || !nclaim) cl->verdict = SLPI_CLAIM_UNABLE;
    else if (!fail) cl->verdict = SLPI_CLAIM_CONFIRMED;
    else if (ncond && !condfail) cl->verdict = SLPI_CLAIM_CONDITIONAL;
    else cl->verdict = SLPI_CLAIM_DISCREPANCY;
    if (cl->verdict != SLPI_CLAIM_CONDITIONAL) cl->condition[0] = 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void slpi_audit_run(slpi_audit *a, FILE *log)
{
    static const char *oc[] = {"pass", "fail", "unable"};
    for (int i = 0; i < a->nchecks; i++) {
        slpi_audit_check *c = &a->checks[i];
        double t0 = now_seconds();
        slpi_audit_eval(a, c);
        c->seconds = now_seconds() - t0;
        if (log) {
            fprintf(log, "%-4s %-6s %-5s %7.1fs  %s\n      %s\n", c->id, oc[c->outcome],
                    c->role == SLPI_ROLE_CLAIM ? "claim" : c->role == SLPI_ROLE_COND ? "cond"
                    : c->role == SLPI_ROLE_EV ? "ev" : "qual", c->seconds, c->check, c->evidence);
            fflush(log);
        }
    }
    for (int j = 0; j < a->nclaims; j++) verdict(a, &a->claims[j]);
}

void slpi_audit_free(slpi_audit *a)
{
    free(a->checks);
    free(a->claims);
    a->checks = NULL;
    a->claims = NULL;
}
