/* audit-registry.c — the claims registry of docs/claims.md read (reports/claims.txt: a
 * description line per claim, its quotes, rule, choices and variants, and one line per
 * check, format in its header): every field checked and every check string read through
 * the check language's table (reports/audit-lang.c) once, here, so that a typo is an
 * input error naming file:line before anything runs; the lines grouped into claims. The
 * runner (reports/audit.c) evaluates them. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/diag.h"
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/problem-finish.h"
#include "slpi/stepper.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/digest.h"
#include "reports/audit-checks.h"

const char *slpi_claim_verdict_name(slpi_claim_verdict v)
{
    static const char *n[] = { "CONFIRMED", "CONDITIONAL", "DISCREPANCY", "UNABLE", "CRITERION-DEPENDENT" };
    return (unsigned)v < SLPI_CLAIM_NVERDICTS ? n[v] : "?";
}

const char *slpi_audit_role_name(slpi_audit_role r)
{
    static const char *n[] = { "claim", "cond", "ev", "fails", "passes" };
    return (unsigned)r < 5 ? n[r] : "?";
}

/* The role in words (report and log): a control's name never reads like a software failure. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
    return s;
}

static int copy_field(char *dst, size_t n, const char *src, const char *what, const char *path, int line,
                      slpi_error *err)
{
    if (strlen(src) >= n)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s longer than %zu characters", path, line, what, n - 1);
    strcpy(dst, src);
    return SLPI_OK;
}

/* Split a registry line s at " | " into at most max fields f, each trimmed (the last one
 * cut at its own " | " when there are more); their number. */
static int split_fields(char *s, char **f, int max)
{
    int nf = 0;
    while (nf < max) {
        char *bar = strstr(s, " | ");
        f[nf++] = s;
        if (!bar) break;
        *bar = 0;
        s = bar + 3;
    }
    for (int i = 0; i < nf; i++) f[i] = trim(f[i]);
    return nf;
}

/* The diagnostics of c's case (full: with its FULL overrides) as the fast path names them,
 * into names[SLPI_MAX_DIAG] (static storage, valid until the next call); their number, or
 * -1 when the case has no run or its stepper cannot be made (then the run says why). The
 * last case's names are kept: a claim's lines share their cases. */
static int case_diags(const slpi_audit_check *c, int full, const char **names, long *steps)
{
    static char last[sizeof c->kase + sizeof c->full_case + 2], buf[SLPI_MAX_DIAG][48];
    static int nlast = -1;
    static long slast;
    char key[sizeof last];
    snprintf(key, sizeof key, "%s%s%s", c->kase, full ? " " : "", full ? c->full_case : "");
    if (!strcmp(c->kase, "-")) return -1;
    if (strcmp(key, last)) {
        slpi_audit probe;
        slpi_problem *p = slpi_problem_alloc();
        slpi_stepper *st = NULL;
        char args[512];
        slpi_error e = { 0, "" };
        memset(&probe, 0, sizeof probe);
        probe.full = full;
        nlast = -1, slast = 0;
        if (p && !slpi_audit_case(&probe, c, p, args, sizeof args, &e) && !slpi_problem_finish(p, &e) &&
            !slpi_stepper_new(&st, p, 0, NULL, 0)) {
            const char *nm;
            slast = slpi_view_grid(p)->steps;
            for (nlast = 0; nlast < SLPI_MAX_DIAG && (nm = slpi_stepper_diag_name(st, nlast)); nlast++)
                snprintf(buf[nlast], sizeof buf[nlast], "%s", nm);
        }
        slpi_stepper_free(st);
        slpi_problem_free(p);
        snprintf(last, sizeof last, "%s", key);
    }
    for (int i = 0; i < nlast; i++) names[i] = buf[i];
    *steps = slast;
    return nlast;
}

/* The expected field: one verdict, or "REDUCED/FULL" when the papers' sizes (FULL=1) are
 * expected to decide otherwise; expected is the verdict of the audit's mode, expected_full
 * the papers' sizes' (the docs and the archive column show both). */
static int parse_line(slpi_audit_check *c, char *buf, int full, const char *path, int line, slpi_error *err)
{
    char *f[7];
    int nf = split_fields(buf, f, 7);
    if (nf != 7)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%d: %d fields, expected 7 (id | source | "
                              "expected | role | case | check | full)",
                              path, line, nf);
    memset(c, 0, sizeof *c);
    c->line = line;
    c->variant = -1;
    int r = -1;
    char *at = strchr(f[3], '@');
    if (at) {
        *at = 0;
        if (!at[1] || strlen(at + 1) >= sizeof c->vlabel)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s:%d: variant label after '@' empty or longer "
                                  "than %zu characters",
                                  path, line, sizeof c->vlabel - 1);
        strcpy(c->vlabel, at + 1);
    }
    for (int i = 0; i < 5; i++)
        if (!strcmp(f[3], slpi_audit_role_name((slpi_audit_role)i))) r = i;
    if (r < 0 || (at && r != SLPI_ROLE_CLAIM && r != SLPI_ROLE_COND))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%d: role '%s%s%s': claim | cond | ev | fails | "
                              "passes (claim@LABEL, cond@LABEL: a variant)",
                              path, line, f[3], at ? "@" : "", at ? at + 1 : "");
    c->role = (slpi_audit_role)r;
    char *slash = strchr(f[2], '/');
    const char *mode[2] = { f[2], slash ? slash + 1 : f[2] };
    if (slash) *slash = 0;
    for (int m = 0; m < 2; m++) {
        int v = -1;
        for (int i = 0; i < SLPI_CLAIM_NVERDICTS; i++)
            if (!strcmp(mode[m], slpi_claim_verdict_name((slpi_claim_verdict)i))) v = i;
        if (v < 0)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s:%d: expected verdict '%s' is not one of "
                                  "CONFIRMED CONDITIONAL DISCREPANCY UNABLE CRITERION-DEPENDENT (or "
                                  "REDUCED/FULL)",
                                  path, line, mode[m]);
    }
    int rc = copy_field(c->id, sizeof c->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(c->source, sizeof c->source, f[1], "source", path, line, err);
    if (!rc) rc = copy_field(c->expected, sizeof c->expected, mode[full != 0], "expected", path, line, err);
    if (!rc) rc = copy_field(c->expected_full, sizeof c->expected_full, mode[1], "expected", path, line, err);
    if (!rc) rc = copy_field(c->kase, sizeof c->kase, f[4], "case", path, line, err);
    if (!rc) rc = copy_field(c->check, sizeof c->check, f[5], "check", path, line, err);
    if (!rc) rc = copy_field(c->full, sizeof c->full, f[6], "full", path, line, err);
    /* "k=v ... :: CHECK": overrides and a replacement check; a first word with '=': only
     * overrides; otherwise a replacement check */
    char *sep = strstr(c->full, " :: ");
    size_t w = strcspn(c->full, " ");
    if (!rc && sep) {
        snprintf(c->full_case, sizeof c->full_case, "%.*s", (int)(sep - c->full), c->full);
        snprintf(c->full_check, sizeof c->full_check, "%s", sep + 4);
    } else if (!rc && strcmp(c->full, "-")) {
        if (memchr(c->full, '=', w))
            snprintf(c->full_case, sizeof c->full_case, "%s", c->full);
        else
            snprintf(c->full_check, sizeof c->full_check, "%s", c->full);
    }
    /* the check language's table reads both checks once, here: a typo is an input error,
     * not an UNABLE after hours of running */
    char why[400];
    if (!rc && slpi_audit_parse(c->check, &c->args, why, sizeof why))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: check '%s': %s", path, line, c->check, why);
    if (!rc && c->full_check[0] && slpi_audit_parse(c->full_check, &c->full_args, why, sizeof why))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: FULL check '%s': %s", path, line, c->full_check, why);
    for (int m = 0; !rc && m < 2 && strcmp(c->kase, "-"); m++) {
        slpi_audit probe;
        slpi_problem *p = slpi_problem_alloc();
        char args[512];
        slpi_error e2 = { 0, "out of memory" }; /* the case's error where it has one */
        memset(&probe, 0, sizeof probe);
        probe.full = m;
        int ok = (m && !c->full_case[0]) || (p && !slpi_audit_case(&probe, c, p, args, sizeof args, &e2));
        slpi_problem_free(p);
        if (ok) continue;
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %scase '%s%s%s': %s", path, line, m ? "FULL " : "", c->kase,
                            m ? " " : "", m ? c->full_case : "", e2.msg);
    }
    if (!rc && !strcmp(c->kase, "-") && c->full_case[0])
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: FULL overrides '%s' without a case", path, line, c->full_case);
    /* a check whose outcome cannot differ between runs (a diagnostic the case's run does
     * not have, a reversed or empty window, a threshold a magnitude always meets or one
     * under the round-off of the run, reduced and FULL) */
    for (int m = 0; !rc && m < 2; m++) {
        const slpi_audit_args *x = m && c->full_check[0] ? &c->full_args : &c->args;
        const char *names[SLPI_MAX_DIAG];
        long steps = 0;
        if (m && !c->full_check[0] && !c->full_case[0]) continue;
        int nd = case_diags(c, m && c->full_case[0], names, &steps);
        if (slpi_audit_decidable(x, nd >= 0 ? names : NULL, nd, steps, why, sizeof why))
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %scheck '%s': %s", path, line, m ? "FULL " : "",
                                m && c->full_check[0] ? c->full_check : c->check, why);
    }
    return rc;
}

static int parse_desc(slpi_audit_desc *d, char *buf, const char *path, int line, slpi_error *err)
{
    char *f[5];
    int nf = split_fields(buf + 1, f, 5);
    if (nf != 5)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%d: %d fields, expected 5 (= id | statement | "
                              "magnitude | paper size | why)",
                              path, line, nf);
    static const char *what[] = { "id", "statement", "what the paper reports", "the paper's size" };
    for (int i = 0; i < 4; i++)
        if (!f[i][0] || !strcmp(f[i], "-"))
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s:%d: %s is empty (a claim without an "
                                  "experiment says so in words)",
                                  path, line, what[i]);
    memset(d, 0, sizeof *d);
    d->line = line;
    int rc = copy_field(d->id, sizeof d->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(d->statement, sizeof d->statement, f[1], "statement", path, line, err);
    if (!rc) rc = copy_field(d->magnitude, sizeof d->magnitude, f[2], "magnitude", path, line, err);
    if (!rc) rc = copy_field(d->paper_size, sizeof d->paper_size, f[3], "paper size", path, line, err);
    if (!rc) rc = copy_field(d->why, sizeof d->why, f[4], "why", path, line, err);
    return rc;
}

/* A multiverse line's dimension and values (docs/claims.md#multiverse): the dimension one
 * of the five, each value one of its words (seeds: unsigned offsets, at least 8, distinct),
 * no value twice; an error names the line and the nearest valid word. */
static int check_dimension(const slpi_audit_extra *x, const char *path, slpi_error *err)
{
    static const char *dims[] = { "seeds", "blas", "libm", "fit", "levels" };
    static const char *vals[] = { NULL, "Prescott Nehalem Sandybridge Haswell SkylakeX Cooperlake",
                                  "glibc mpfr mpfr-up mpfr-down", "wls ols", "all drop-coarsest" };
    int d = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(x->a, dims[i])) d = i;
    if (d < 0) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%d: multiverse dimension '%s' is not one of seeds blas "
                              "libm fit levels (nearest: %s)",
                              path, x->line, x->a, slpi_audit_nearest(dims, 5, x->a));
    }
    char buf[sizeof x->v], *tok[64];
    int n = slpi_audit_tokens(x->v, buf, sizeof buf, tok, 64);
    for (int i = 0; i < n; i++) {
        char *end;
        if (d == 0) {
            strtoull(tok[i], &end, 10);
            if (*end || tok[i][0] == '-')
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: seed offset '%s' is not an unsigned integer", path,
                                      x->line, tok[i]);
        } else {
            char w[96];
            snprintf(w, sizeof w, " %s ", tok[i]);
            char all[96];
            snprintf(all, sizeof all, " %s ", vals[d]);
            if (!strstr(all, w))
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s value '%s' is not one of %s", path, x->line, x->a,
                                      tok[i], vals[d]);
        }
        for (int j = 0; j < i; j++)
            if (!strcmp(tok[i], tok[j]))
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s value '%s' twice", path, x->line, x->a, tok[i]);
    }
    if (n < (d == 0 ? 8 : 2))
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s: %d value%s, at least %d", path, x->line, x->a, n,
                              n == 1 ? "" : "s", d == 0 ? 8 : 2);
    return SLPI_OK;
}

static int parse_extra(slpi_audit_extra *x, char *buf, const char *path, int line, slpi_error *err)
{
    static const char *what[] = { "\" ID | where | words", "~ ID | rule", "! ID | values | reason",
                                  "@ ID | LABEL | what the variant reads", "% ID | DIMENSION | VALUES | why" };
    const char *kinds = "\"~!@%";
    int k = (int)(strchr(kinds, buf[0]) - kinds), want = k == 1 ? 2 : k == 4 ? 4 : 3;
    char *f[4];
    int nf = 0;
    char *s = buf + 1;
    while (nf < want) {
        char *bar = strstr(s, " | ");
        f[nf++] = s;
        if (!bar || nf == want) break;
        *bar = 0;
        s = bar + 3;
    }
    for (int i = 0; i < nf; i++) f[i] = trim(f[i]);
    int empty = nf != want;
    for (int i = 0; !empty && i < nf; i++) empty = !f[i][0] || !strcmp(f[i], "-");
    if (empty)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %d fields, expected %d non-empty (%s)", path, line, nf, want,
                              what[k]);
    memset(x, 0, sizeof *x);
    x->kind = buf[0];
    x->line = line;
    int rc = copy_field(x->id, sizeof x->id, f[0], "id", path, line, err);
    if (!rc && want >= 3) rc = copy_field(x->a, sizeof x->a, f[1], "field", path, line, err);
    if (!rc && want == 4) rc = copy_field(x->v, sizeof x->v, f[2], "values", path, line, err);
    if (!rc && x->kind == '%') rc = check_dimension(x, path, err);
    if (!rc) rc = copy_field(x->b, sizeof x->b, f[want - 1], "text", path, line, err);
    if (!rc && x->kind == '@' && strlen(x->a) >= sizeof((slpi_audit_variant *)0)->label)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: variant label '%s' too long", path, line, x->a);
    if (!rc && x->kind == '@' && strlen(x->b) >= sizeof((slpi_audit_variant *)0)->what)
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "%s:%d: variant %s: its description is longer than %zu "
                            "characters",
                            path, line, x->a, sizeof((slpi_audit_variant *)0)->what - 1);
    return rc;
}

/* Is claim id selected by --only (a comma-separated list of ids; NULL: all)? */
int slpi_audit_selected(const slpi_audit *a, const char *id)
{
    if (!a->only) return 1;
    size_t n = strlen(id);
    for (const char *s = a->only; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
        if (strncmp(s, id, n) == 0 && (s[n] == ',' || !s[n])) return 1;
    }
    return 0;
}

/* A line said twice word for word (a check, a description, a quote, a rule...) is refused:
 * a repeated check counts its evidence twice and a repeated description hides which one
 * is meant. Lines as trimmed, their FNV-1a digests kept in seen (grown here); 0 or the
 * line number of the first. */
static int repeated(const char *s, int line, uint64_t **seen, int **at, int *n, int *cap)
{
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, s, strlen(s));
    for (int i = 0; i < *n; i++)
        if ((*seen)[i] == h) return (*at)[i];
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 256;
        uint64_t *g = realloc(*seen, (size_t)c * sizeof *g);
        if (g) *seen = g;
        int *t = realloc(*at, (size_t)c * sizeof *t);
        if (t) *at = t;
        if (!g || !t) return 0;
        *cap = c;
    }
    (*seen)[*n] = h;
    (*at)[(*n)++] = line;
    return 0;
}

int slpi_audit_load(slpi_audit *a, const char *path, slpi_error *err)
{
    uint64_t *seen = NULL;
    int *seen_at = NULL, nseen = 0, seen_cap = 0, first;
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open the claims registry", path);
    char buf[4096];
    int line = 0, rc = SLPI_OK, cap = 0, nd = 0, dcap = 0, nx = 0, xcap = 0;
    snprintf(a->registry, sizeof a->registry, "%s", path);
    slpi_audit_desc *d = NULL;
    slpi_audit_extra *xs = NULL;
    a->nchecks = a->nclaims = 0;
    a->checks = NULL;
    a->claims = NULL;
    while (rc == SLPI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: line longer than %zu characters", path, line, sizeof buf - 2);
            break;
        }
        char *s = trim(buf);
        if (!*s || *s == '#') continue;
        if ((first = repeated(s, line, &seen, &seen_at, &nseen, &seen_cap))) {
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "%s:%d: repeats line %d word for word (a registry line is "
                                "said once: remove one)",
                                path, line, first);
            break;
        }
        if (*s == '=') {
            if (nd == dcap) {
                dcap = dcap ? 2 * dcap : 64;
                slpi_audit_desc *n = realloc(d, (size_t)dcap * sizeof *n);
                if (!n) {
                    rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory");
                    break;
                }
                d = n;
            }
            rc = parse_desc(&d[nd], s, path, line, err);
            if (rc == SLPI_OK) nd++;
            continue;
        }
        if (strchr("\"~!@%", *s)) {
            if (nx == xcap) {
                xcap = xcap ? 2 * xcap : 256;
                slpi_audit_extra *n = realloc(xs, (size_t)xcap * sizeof *n);
                if (!n) {
                    rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory");
                    break;
                }
                xs = n;
            }
            rc = parse_extra(&xs[nx], s, path, line, err);
            if (rc == SLPI_OK) nx++;
            continue;
        }
        if (a->nchecks == cap) {
            cap = cap ? 2 * cap : 64;
            slpi_audit_check *n = realloc(a->checks, (size_t)cap * sizeof *n);
            if (!n) {
                rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory");
                break;
            }
            a->checks = n;
        }
        slpi_audit_check *c = &a->checks[a->nchecks];
        rc = parse_line(c, s, a->full, path, line, err);
        if (rc != SLPI_OK) break;
        if (a->only && !slpi_audit_selected(a, c->id)) continue;
        a->nchecks++;
    }
    fclose(f);
    free(seen);
    free(seen_at);
    if (rc == SLPI_OK && !a->nchecks)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: no claim%s%s", path, a->only ? " " : "", a->only ? a->only : "");
    if (rc == SLPI_OK) rc = slpi_audit_group(a, d, nd, xs, nx, path, err);
    free(d);
    free(xs);
    return rc;
}
