/* audit.c — the claims audit of docs/claims.md: reads the claims registry (reports/claims.txt:
 * a description line per claim and one line per check, format in its header), evaluates
 * every check (reports/audit-lang.c) and derives each claim's verdict from the outcomes
 * alone (never from the registry's roles or expectations):
 *   - a control ("fails"/"passes") with another outcome than it demands, or any claim
 *     check UNABLE: UNABLE (the decisive check did not show it can fail, or could not run);
 *   - every claim check passes: CONFIRMED;
 *   - a claim check fails and every "cond" check passes (there is one): CONDITIONAL, with
 *     the condition = the cond checks' cases;
 *   - otherwise: DISCREPANCY.
 * The expected verdict of the registry is never consulted here; the report compares the
 * two afterwards. Results can be cached per claim (keyed by the claim's registry lines,
 * the size, the bytes of the running executable and the recorded unit-test results),
 * so an interrupted FULL=1 audit
 * resumes and an unchanged claim is not recomputed. An entry carries a digest of its
 * key and checks; an entry whose digest does not match, or whose outcome is outside the
 * enumeration, is not used (named on standard error, recomputed). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/digest.h"
#include "reports/audit-checks.h"

const char *slpi_claim_verdict_name(slpi_claim_verdict v)
{
    static const char *n[] = {"CONFIRMED", "CONDITIONAL", "DISCREPANCY", "UNABLE",
                              "CRITERION-DEPENDENT"};
    return (unsigned)v < SLPI_CLAIM_NVERDICTS ? n[v] : "?";
}

const char *slpi_audit_role_name(slpi_audit_role r)
{
    static const char *n[] = {"claim", "cond", "ev", "fails", "passes"};
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

static int copy_field(char *dst, size_t n, const char *src, const char *what, const char *path,
                      int line, slpi_error *err)
{
    if (strlen(src) >= n)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s longer than %zu characters", path, line,
                              what, n - 1);
    strcpy(dst, src);
    return SLPI_OK;
}

/* The expected field: one verdict, or "REDUCED/FULL" when the papers' sizes (FULL=1) are
 * expected to decide otherwise; expected is the verdict of the audit's mode, expected_full
 * the papers' sizes' (the docs and the archive column show both). */
static int parse_line(slpi_audit_check *c, char *buf, int full, const char *path, int line,
                      slpi_error *err)
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
    c->variant = -1;
    int r = -1;
    char *at = strchr(f[3], '@');
    if (at) {
        *at = 0;
        if (!at[1] || strlen(at + 1) >= sizeof c->vlabel)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: variant label after '@' empty or longer "
                                  "than %zu characters", path, line, sizeof c->vlabel - 1);
        strcpy(c->vlabel, at + 1);
    }
    for (int i = 0; i < 5; i++)
        if (!strcmp(f[3], slpi_audit_role_name((slpi_audit_role)i))) r = i;
    if (r < 0 || (at && r != SLPI_ROLE_CLAIM && r != SLPI_ROLE_COND))
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: role '%s%s%s': claim | cond | ev | fails | "
                              "passes (claim@LABEL, cond@LABEL: a variant)", path, line, f[3],
                              at ? "@" : "", at ? at + 1 : "");
    c->role = (slpi_audit_role)r;
    char *slash = strchr(f[2], '/');
    const char *mode[2] = {f[2], slash ? slash + 1 : f[2]};
    if (slash) *slash = 0;
    for (int m = 0; m < 2; m++) {
        int v = -1;
        for (int i = 0; i < SLPI_CLAIM_NVERDICTS; i++)
            if (!strcmp(mode[m], slpi_claim_verdict_name((slpi_claim_verdict)i))) v = i;
        if (v < 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected verdict '%s' is not one of "
                                  "CONFIRMED CONDITIONAL DISCREPANCY UNABLE CRITERION-DEPENDENT (or "
                                  "REDUCED/FULL)", path, line, mode[m]);
    }
    int rc = copy_field(c->id, sizeof c->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(c->source, sizeof c->source, f[1], "source", path, line, err);
    if (!rc) rc = copy_field(c->expected, sizeof c->expected, mode[full != 0], "expected", path,
                             line, err);
    if (!rc) rc = copy_field(c->expected_full, sizeof c->expected_full, mode[1], "expected", path,
                             line, err);
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
        if (memchr(c->full, '=', w)) snprintf(c->full_case, sizeof c->full_case, "%s", c->full);
        else snprintf(c->full_check, sizeof c->full_check, "%s", c->full);
    }
    /* the check language's table reads both checks once, here: a typo is an input error,
     * not an UNABLE after hours of running */
    char why[400];
    if (!rc && slpi_audit_parse(c->check, &c->args, why, sizeof why))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: check '%s': %s", path, line, c->check, why);
    if (!rc && c->full_check[0] && slpi_audit_parse(c->full_check, &c->full_args, why, sizeof why))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: FULL check '%s': %s", path, line,
                            c->full_check, why);
    for (int m = 0; !rc && m < 2 && strcmp(c->kase, "-"); m++) {
        slpi_audit probe;
        slpi_problem p;
        char args[512];
        slpi_error e2 = {0, ""};
        memset(&probe, 0, sizeof probe);
        probe.full = m;
        if ((m && !c->full_case[0]) || !slpi_audit_case(&probe, c, &p, args, sizeof args, &e2))
            continue;
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %scase '%s%s%s': %s", path, line,
                            m ? "FULL " : "", c->kase, m ? " " : "", m ? c->full_case : "", e2.msg);
    }
    if (!rc && !strcmp(c->kase, "-") && c->full_case[0])
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: FULL overrides '%s' without a case", path,
                            line, c->full_case);
    return rc;
}

/* "= ID | statement | magnitude | paper size | why": a claim's description. */
typedef struct { char id[8]; char statement[512], magnitude[256], paper_size[256], why[768]; int line; } desc;

static int parse_desc(desc *d, char *buf, const char *path, int line, slpi_error *err)
{
    char *f[5];
    int nf = 0;
    char *s = buf + 1;
    while (nf < 5) {
        char *bar = strstr(s, " | ");
        f[nf++] = s;
        if (!bar) break;
        *bar = 0;
        s = bar + 3;
    }
    if (nf != 5)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %d fields, expected 5 (= id | statement | "
                              "magnitude | paper size | why)", path, line, nf);
    for (int i = 0; i < 5; i++) f[i] = trim(f[i]);
    static const char *what[] = {"id", "statement", "what the paper reports", "the paper's size"};
    for (int i = 0; i < 4; i++)
        if (!f[i][0] || !strcmp(f[i], "-"))
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s is empty (a claim without an "
                                  "experiment says so in words)", path, line, what[i]);
    memset(d, 0, sizeof *d);
    d->line = line;
    int rc = copy_field(d->id, sizeof d->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(d->statement, sizeof d->statement, f[1], "statement", path, line, err);
    if (!rc) rc = copy_field(d->magnitude, sizeof d->magnitude, f[2], "magnitude", path, line, err);
    if (!rc) rc = copy_field(d->paper_size, sizeof d->paper_size, f[3], "paper size", path, line, err);
    if (!rc) rc = copy_field(d->why, sizeof d->why, f[4], "why", path, line, err);
    return rc;
}

/* The claim's other description lines, by their first character:
 *   " ID | where | the paper's words      (quoted exactly; at least one for a paper's claim)
 *   ~ ID | the rule that decides it
 *   ! ID | values | why: a threshold, window or size the paper does not give (our choice)
 *   @ ID | LABEL | a variant: one reading of a choice the paper leaves open */
typedef struct { char kind, id[8], a[96], b[768]; int line; } extra;

static int parse_extra(extra *x, char *buf, const char *path, int line, slpi_error *err)
{
    static const char *what[] = {"\" ID | where | words", "~ ID | rule", "! ID | values | reason",
                                 "@ ID | LABEL | what the variant reads"};
    const char *kinds = "\"~!@";
    int k = (int)(strchr(kinds, buf[0]) - kinds), want = k == 1 ? 2 : 3;
    char *f[3];
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
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: %d fields, expected %d non-empty (%s)", path,
                              line, nf, want, what[k]);
    memset(x, 0, sizeof *x);
    x->kind = buf[0];
    x->line = line;
    int rc = copy_field(x->id, sizeof x->id, f[0], "id", path, line, err);
    if (!rc && want == 3) rc = copy_field(x->a, sizeof x->a, f[1], "field", path, line, err);
    if (!rc) rc = copy_field(x->b, sizeof x->b, f[want - 1], "text", path, line, err);
    if (!rc && x->kind == '@' && strlen(x->a) >= sizeof ((slpi_audit_variant *)0)->label)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: variant label '%s' too long", path, line, x->a);
    if (!rc && x->kind == '@' && strlen(x->b) >= sizeof ((slpi_audit_variant *)0)->what)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: variant %s: its description is longer than %zu "
                            "characters", path, line, x->a, sizeof ((slpi_audit_variant *)0)->what - 1);
    return rc;
}

/* Append "sep text" to a claim field, bounded. */
static void append(char *dst, size_t n, const char *sep, const char *text)
{
    size_t l = strlen(dst);
    snprintf(dst + l, n - l, "%s%s", l ? sep : "", text);
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

static int is_control(const slpi_audit_check *c)
{
    return c->role == SLPI_ROLE_CTL_FAIL || c->role == SLPI_ROLE_CTL_PASS;
}

static int group_claims(slpi_audit *a, const desc *d, int nd, const extra *x, int nx,
                        const char *path, slpi_error *err)
{
    a->claims = calloc((size_t)a->nchecks, sizeof *a->claims);
    if (!a->claims) return slpi_error_set(err, SLPI_EINPUT, "audit: out of memory");
    for (int i = 0; i < a->nchecks; i++) {
        slpi_audit_claim *cl = a->nclaims ? &a->claims[a->nclaims - 1] : NULL;
        if (cl && !strcmp(cl->id, a->checks[i].id)) {
            if (strcmp(cl->expected, a->checks[i].expected) ||
                strcmp(cl->expected_full, a->checks[i].expected_full))
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
        strcpy(cl->expected_full, a->checks[i].expected_full);
        cl->first = i;
        cl->count = 1;
    }
    for (int j = 0; j < a->nclaims; j++) {
        slpi_audit_claim *cl = &a->claims[j];
        int k = -1, nctl = 0;
        for (int i = 0; i < nd; i++)
            if (!strcmp(d[i].id, cl->id)) k = i;
        for (int i = cl->first; i < cl->first + cl->count; i++) nctl += is_control(&a->checks[i]);
        if (k < 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s has no description line "
                                  "(= %s | statement | magnitude | paper size | why)", path,
                                  a->checks[cl->first].line, cl->id, cl->id);
        strcpy(cl->statement, d[k].statement);
        strcpy(cl->magnitude, d[k].magnitude);
        strcpy(cl->paper_size, d[k].paper_size);
        strcpy(cl->why, d[k].why);
        for (const char *s = strchr(cl->why, '{'); s; s = strchr(s + 1, '{')) {   /* {K.NAME} */
            int kk, used = 0;
            char name[16];
            if (sscanf(s, "{%d.%15[a-zA-Z_0-9]}%n", &kk, name, &used) == 2 && used > 0 &&
                (kk < 1 || kk > cl->count))
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: its text names {%d.%s}, "
                                      "but the claim has %d check lines", path, d[k].line, cl->id,
                                      kk, name, cl->count);
        }
        for (int i = 0; i < nx; i++) {
            if (strcmp(x[i].id, cl->id)) continue;
            char q[1024];
            if (x[i].kind == '"') {
                snprintf(q, sizeof q, "\"%s\" (%s)", x[i].b, x[i].a);
                append(cl->quote, sizeof cl->quote, "; ", q);
            } else if (x[i].kind == '~') {
                append(cl->rule, sizeof cl->rule, " ", x[i].b);
                cl->rule_line = x[i].line;
            } else if (x[i].kind == '!') {
                snprintf(q, sizeof q, "%s: %s", x[i].a, x[i].b);
                append(cl->choices, sizeof cl->choices, "; ", q);
            } else {
                if (cl->nvar == SLPI_AUDIT_MAXVAR)
                    return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: more than %d variants",
                                          path, x[i].line, cl->id, SLPI_AUDIT_MAXVAR);
                slpi_audit_variant *v = &cl->var[cl->nvar++];
                memcpy(v->label, x[i].a, strlen(x[i].a) + 1); /* lengths checked by parse_extra */
                memcpy(v->what, x[i].b, strlen(x[i].b) + 1);
            }
        }
        /* every variant label used is declared, every declared one used */
        for (int i = cl->first; i < cl->first + cl->count; i++) {
            slpi_audit_check *c = &a->checks[i];
            for (int v = 0; c->vlabel[0] && v < cl->nvar; v++)
                if (!strcmp(cl->var[v].label, c->vlabel)) c->variant = v;
            if (c->vlabel[0] && c->variant < 0)
                return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: variant '%s' is not declared "
                                      "(@ %s | %s | what it reads)", path, c->line, cl->id, c->vlabel,
                                      cl->id, c->vlabel);
        }
        for (int v = 0; v < cl->nvar; v++) {
            int used = 0;
            for (int i = cl->first; i < cl->first + cl->count; i++)
                used += a->checks[i].variant == v && a->checks[i].role == SLPI_ROLE_CLAIM;
            if (!used)
                return slpi_error_set(err, SLPI_EINPUT, "%s: claim %s: variant '%s' has no claim@%s "
                                      "line", path, cl->id, cl->var[v].label, cl->var[v].label);
        }
        if (!nctl)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s has no control (a \"fails\" "
                                  "or \"passes\" line showing that its check can fail)", path,
                                  a->checks[cl->first].line, cl->id);

    }
    for (int i = 0; i < nx; i++) {
        int found = 0;
        for (int j = 0; j < a->nclaims && !found; j++) found = !strcmp(a->claims[j].id, x[i].id);
        if (!found && !a->only)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: '%c %s': no such claim", path, x[i].line,
                                  x[i].kind, x[i].id);
    }
    return SLPI_OK;
}

int slpi_audit_load(slpi_audit *a, const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open the claims registry", path);
    char buf[4096];
    int line = 0, rc = SLPI_OK, cap = 0, nd = 0, dcap = 0, nx = 0, xcap = 0;
    desc *d = NULL;
    extra *xs = NULL;
    a->nchecks = a->nclaims = 0;
    a->checks = NULL;
    a->claims = NULL;
    while (rc == SLPI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: line longer than %zu characters", path,
                                line, sizeof buf - 2);
            break;
        }
        char *s = trim(buf);
        if (!*s || *s == '#') continue;
        if (*s == '=') {
            if (nd == dcap) {
                dcap = dcap ? 2 * dcap : 64;
                desc *n = realloc(d, (size_t)dcap * sizeof *n);
                if (!n) { rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory"); break; }
                d = n;
            }
            rc = parse_desc(&d[nd], s, path, line, err);
            if (rc == SLPI_OK) nd++;
            continue;
        }
        if (strchr("\"~!@", *s)) {
            if (nx == xcap) {
                xcap = xcap ? 2 * xcap : 256;
                extra *n = realloc(xs, (size_t)xcap * sizeof *n);
                if (!n) { rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory"); break; }
                xs = n;
            }
            rc = parse_extra(&xs[nx], s, path, line, err);
            if (rc == SLPI_OK) nx++;
            continue;
        }
        if (a->nchecks == cap) {
            cap = cap ? 2 * cap : 64;
            slpi_audit_check *n = realloc(a->checks, (size_t)cap * sizeof *n);
            if (!n) { rc = slpi_error_set(err, SLPI_EINPUT, "audit: out of memory"); break; }
            a->checks = n;
        }
        slpi_audit_check *c = &a->checks[a->nchecks];
        rc = parse_line(c, s, a->full, path, line, err);
        if (rc != SLPI_OK) break;
        if (a->only && !slpi_audit_selected(a, c->id)) continue;
        a->nchecks++;
    }
    fclose(f);
    if (rc == SLPI_OK && !a->nchecks)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: no claim%s%s", path, a->only ? " " : "",
                            a->only ? a->only : "");
    if (rc == SLPI_OK) rc = group_claims(a, d, nd, xs, nx, path, err);
    free(d);
    free(xs);
    return rc;
}

/* The outcome a control demands. */
static slpi_check_outcome demanded(const slpi_audit_check *c)
{
    return c->role == SLPI_ROLE_CTL_FAIL ? SLPI_CHECK_FAIL : SLPI_CHECK_PASS;
}

static int control_wrong(const slpi_audit_check *c)
{
    return is_control(c) && c->outcome != SLPI_CHECK_NOT_RUN && c->outcome != demanded(c);
}

int slpi_audit_unfilled(const slpi_audit *a)
{
    int n = 0;
    for (int j = 0; j < a->nclaims; j++) n += a->claims[j].unfilled;
    return n;
}

int slpi_audit_controls_wrong(const slpi_audit *a)
{
    int n = 0;
    for (int i = 0; i < a->nchecks; i++) n += control_wrong(&a->checks[i]);
    return n;
}

/* The verdict of claim cl from its checks common to every variant and those of variant
 * var (-1: no variants): the rules of the header. */
static slpi_claim_verdict decide(const slpi_audit *a, const slpi_audit_claim *cl, int var,
                                 char *reason, size_t nreason, char *condition, size_t ncond_max)
{
    int nclaim = 0, fail = 0, unable = 0, ncond = 0, condfail = 0, ctlwrong = 0;
    const slpi_audit_check *first_fail = NULL, *first_unable = NULL, *first_ctl = NULL,
                           *first_claim = NULL;
    condition[0] = 0;
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        if (c->variant >= 0 && c->variant != var) continue;
        if (c->role == SLPI_ROLE_CLAIM) {
            if (!nclaim++) first_claim = c;
            if (c->outcome == SLPI_CHECK_FAIL && !fail++) first_fail = c;
            if ((c->outcome == SLPI_CHECK_UNABLE || c->outcome == SLPI_CHECK_NOT_RUN) && !unable++)
                first_unable = c;
        } else if (c->role == SLPI_ROLE_COND) {
            ncond++;
            condfail += c->outcome != SLPI_CHECK_PASS;
            append(condition, ncond_max, "; ", c->kase);
        } else if (control_wrong(c) && !ctlwrong++) {
            first_ctl = c;
        }
    }
    slpi_claim_verdict v;
    if (ctlwrong) {
        v = SLPI_CLAIM_UNABLE;
        snprintf(reason, nreason, "the control (%s on %s) should %s but did not: the decisive "
                 "check is not shown to discriminate", first_ctl->check, first_ctl->kase,
                 first_ctl->role == SLPI_ROLE_CTL_FAIL ? "fall outside the threshold" : "meet it");
    } else if (unable || !nclaim) {
        v = SLPI_CLAIM_UNABLE;
        snprintf(reason, nreason, "%s", first_unable ? first_unable->evidence : "no claim check");
    } else if (!fail) {
        v = SLPI_CLAIM_CONFIRMED;
        snprintf(reason, nreason, "all %d claim check%s met; %s", nclaim, nclaim > 1 ? "s" : "",
                 first_claim->evidence);
    } else if (ncond && !condfail) {
        v = SLPI_CLAIM_CONDITIONAL;
        snprintf(reason, nreason, "%s", first_fail->evidence);
    } else {
        v = SLPI_CLAIM_DISCREPANCY;
        snprintf(reason, nreason, "%s", first_fail->evidence);
    }
    if (v != SLPI_CLAIM_CONDITIONAL) condition[0] = 0;
    return v;
}

/* A claim with variants: each decided alone. All alike: that verdict. Decided variants
 * that disagree: CRITERION-DEPENDENT. Otherwise (some UNABLE, the decided ones alike):
 * UNABLE -- a DISCREPANCY must hold on every variant of the paper's own setting. */
static void verdict(const slpi_audit *a, slpi_audit_claim *cl)
{
    if (!cl->nvar) {
        cl->verdict = decide(a, cl, -1, cl->reason, sizeof cl->reason, cl->condition,
                             sizeof cl->condition);
        return;
    }
    int nunable = 0, differ = 0;
    slpi_claim_verdict first = SLPI_CLAIM_UNABLE;
    int have = 0;
    char cond[256];
    for (int v = 0; v < cl->nvar; v++) {
        slpi_audit_variant *w = &cl->var[v];
        w->verdict = decide(a, cl, v, w->reason, sizeof w->reason, cond, sizeof cond);
        if (w->verdict == SLPI_CLAIM_UNABLE) {
            nunable++;
        } else if (!have++) {
            first = w->verdict;
            snprintf(cl->condition, sizeof cl->condition, "%s", cond);
        } else if (w->verdict != first) {
            differ = 1;
        }
    }
    char list[512] = "";
    for (int v = 0; v < cl->nvar; v++) {
        char item[96];
        snprintf(item, sizeof item, "%s: %s", cl->var[v].label,
                 slpi_claim_verdict_name(cl->var[v].verdict));
        append(list, sizeof list, "; ", item);
    }
    if (differ) {
        cl->verdict = SLPI_CLAIM_CRITERION;
        snprintf(cl->reason, sizeof cl->reason, "the variants disagree (%s): the verdict depends on "
                 "a choice the paper leaves open", list);
    } else if (nunable) {
        cl->verdict = SLPI_CLAIM_UNABLE;
        snprintf(cl->reason, sizeof cl->reason, "not decided on every variant (%s)", list);
    } else {
        cl->verdict = first;
        snprintf(cl->reason, sizeof cl->reason, "the same on all %d variants (%s); %s", cl->nvar,
                 list, cl->var[0].reason);
    }
    if (cl->verdict != SLPI_CLAIM_CONDITIONAL) cl->condition[0] = 0;
}

/* FNV-1a of a file's bytes into h (h unchanged if unreadable). */
static uint64_t file_key(uint64_t h, const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return h;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = slpi_fnv1a(h, buf, n);
    fclose(f);
    return h;
}

/* The build key: the running executable's bytes and the recorded unit-test results. */
static uint64_t build_key(const slpi_audit *a)
{
    return file_key(file_key(SLPI_FNV_INIT, "/proc/self/exe"), a->tests);
}

static uint64_t claim_key(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t build)
{
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, &build, sizeof build);
    h = slpi_fnv1a(h, &a->full, sizeof a->full);
    h = slpi_fnv1a(h, &a->controls, sizeof a->controls);
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        /* what the measurement depends on in this mode: the case, the FULL overrides in
         * force, the check in force, role and variant (not the expectation, not the
         * other mode's check: a reduced size can change without redoing a FULL run) */
        const char *f[4] = {c->kase, a->full ? c->full_case : "", slpi_audit_check_string(a, c),
                            c->vlabel};
        for (int k = 0; k < 4; k++) h = slpi_fnv1a(h, f[k], strlen(f[k]) + 1);
        h = slpi_fnv1a(h, &c->role, sizeof c->role);
    }
    return h;
}

static void cache_path(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key, char *out,
                       size_t n)
{
    snprintf(out, n, "%s/%s-%016llx.json", a->cache, cl->id, (unsigned long long)key);
}

/* The digest of a cache entry: FNV-1a of its key and of its checks array as compact JSON
 * with sorted keys and 17-digit reals (the same text for the same values), as 16 hex
 * digits. It detects an edited or torn entry (not a forgery: FNV is no MAC). */
static void cache_digest(uint64_t key, const json_t *checks, char out[17])
{
    char *text = json_dumps(checks, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, &key, sizeof key);
    h = text ? slpi_fnv1a(h, text, strlen(text)) : 0;
    free(text);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* A cache entry is used only if its digest matches and every field is of its kind, the
 * outcome one of the enumeration; else it is reported on standard error and recomputed. */
static int cache_load(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key)
{
    char path[SLPI_PATH_MAX + 64], want[17];
    cache_path(a, cl, key, path, sizeof path);
    if (access(path, F_OK) != 0) return 0;
    json_t *root = json_load_file(path, 0, NULL), *arr = json_object_get(root, "checks");
    const char *digest = json_string_value(json_object_get(root, "digest"));
    if (arr) cache_digest(key, arr, want);
    if (!root || !arr || !digest || strcmp(digest, want) != 0) {
        fprintf(stderr, "audit: cache entry %s: %s: recomputed\n", path,
                !root ? "not JSON" : !digest ? "no digest" : "digest mismatch (edited or torn)");
        json_decref(root);
        return 0;
    }
    int ok = json_array_size(arr) == (size_t)cl->count;
    for (int i = 0; ok && i < cl->count; i++) {
        slpi_audit_check *c = &a->checks[cl->first + i];
        json_t *k = json_array_get(arr, (size_t)i), *v = json_object_get(k, "value");
        const char *ev = json_string_value(json_object_get(k, "evidence"));
        const char *cmd = json_string_value(json_object_get(k, "command"));
        const char *fig = json_string_value(json_object_get(k, "figure"));
        json_t *o = json_object_get(k, "outcome");
        ok = ev && cmd && fig && json_is_integer(o) && json_integer_value(o) >= SLPI_CHECK_PASS &&
             json_integer_value(o) <= SLPI_CHECK_NOT_RUN && (json_is_number(v) || json_is_null(v));
        if (!ok) {
            fprintf(stderr, "audit: cache entry %s: check %d: a field missing or out of its range: recomputed\n",
                    path, i + 1);
            break;
        }
        c->outcome = (slpi_check_outcome)json_integer_value(o);
        c->value = json_is_number(v) ? json_number_value(v) : NAN;
        c->seconds = json_number_value(json_object_get(k, "seconds"));
        snprintf(c->evidence, sizeof c->evidence, "%s", ev);
        snprintf(c->command, sizeof c->command, "%s", cmd);
        snprintf(c->figure, sizeof c->figure, "%s", fig);
        json_t *nums = json_object_get(k, "numbers");
        const char *key;
        json_t *val;
        c->nnum = 0;
        json_object_foreach(nums, key, val)   /* a non-finite number is stored as its word */
            slpi_audit_num(c, key, json_is_string(val) ? strtod(json_string_value(val), NULL)
                                                       : json_number_value(val));
        if (a->full && strcmp(c->full, "-")) {
            char buf[sizeof c->check];
            snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(k, "check")));
            snprintf(c->check, sizeof c->check, "%s", buf);
        }
    }
    json_decref(root);
    return ok;
}

static void cache_store(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key)
{
    char path[SLPI_PATH_MAX + 64], tmp[SLPI_PATH_MAX + 80];
    cache_path(a, cl, key, path, sizeof path);
    json_t *root = json_object(), *arr = json_array();
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        json_t *k = json_object();
        json_object_set_new(k, "outcome", json_integer(c->outcome));
        json_object_set_new(k, "value", isfinite(c->value) ? json_real(c->value) : json_null());
        json_object_set_new(k, "seconds", json_real(c->seconds));
        json_object_set_new(k, "check", json_string(c->check));
        json_object_set_new(k, "evidence", json_string(c->evidence));
        json_object_set_new(k, "command", json_string(c->command));
        json_object_set_new(k, "figure", json_string(c->figure));
        json_t *nums = json_object();
        for (int j = 0; j < c->nnum; j++)   /* inf (no critical step, a failed fixed point) kept as a word */
            json_object_set_new(nums, c->num_name[j], isfinite(c->num[j]) ? json_real(c->num[j]) :
                                json_string(isnan(c->num[j]) ? "nan" : c->num[j] > 0 ? "inf" : "-inf"));
        json_object_set_new(k, "numbers", nums);
        json_array_append_new(arr, k);
    }
    char digest[17];
    cache_digest(key, arr, digest);
    json_object_set_new(root, "checks", arr);
    json_object_set_new(root, "digest", json_string(digest));
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (json_dump_file(root, tmp, JSON_REAL_PRECISION(17)) == 0) rename(tmp, path);
    else fprintf(stderr, "audit: cannot write the cache entry %s\n", tmp);
    json_decref(root);
}

static const char *outcome_word(const slpi_audit_check *c)
{
    if (c->outcome == SLPI_CHECK_NOT_RUN) return "not run";
    if (c->outcome == SLPI_CHECK_UNABLE) return "unable";
    return c->outcome == SLPI_CHECK_PASS ? "met" : "not met";
}

int slpi_audit_run(slpi_audit *a, FILE *log, slpi_error *err)
{
    uint64_t build = a->cache ? build_key(a) : 0;
    slpi_progress *pg = slpi_progress_begin("audit, claims", a->nclaims);
    int rc = SLPI_OK;
    for (int j = 0; j < a->nclaims && rc == SLPI_OK; j++) {
        slpi_audit_claim *cl = &a->claims[j];
        uint64_t key = a->cache ? claim_key(a, cl, build) : 0;
        int cached = a->cache && cache_load(a, cl, key);
        if (!cached && a->cached_only) {   /* archive what a long run finished, no more */
            for (int i = cl->first; i < cl->first + cl->count; i++) {
                slpi_audit_check *c = &a->checks[i];
                c->outcome = SLPI_CHECK_NOT_RUN;
                c->value = NAN;
                snprintf(c->evidence, sizeof c->evidence, "not run: no finished result of this "
                         "claim in the cache (--cached-only)");
            }
        }
        for (int i = cl->first; !cached && !a->cached_only && i < cl->first + cl->count; i++) {
            slpi_audit_check *c = &a->checks[i];
            if (a->controls && !is_control(c)) {
                c->outcome = SLPI_CHECK_NOT_RUN;
                snprintf(c->evidence, sizeof c->evidence, "not run (controls only)");
                continue;
            }
            double t1 = slpi_clock_seconds(CLOCK_MONOTONIC);
            slpi_audit_eval(a, c);
            c->seconds = slpi_clock_seconds(CLOCK_MONOTONIC) - t1;
        }
        /* interrupted: this claim's outcomes are not its own (never cached); the claims
         * before it are (a run with the same cache resumes here) */
        if (slpi_interrupt_pending()) {
            rc = slpi_error_set(err, SLPI_EINTR, "interrupted in claim %s (%d of %d claims finished%s)", cl->id, j,
                                a->nclaims, a->cache ? ", cached: run again to resume" : "");
            break;
        }
        if (!cached && a->cache && !a->cached_only) cache_store(a, cl, key);
        cl->cached = cached;
        verdict(a, cl);
        cl->unfilled = 0;
        if (slpi_audit_fill(a, cl, cl->why, cl->why_text, sizeof cl->why_text) && !a->controls) {
            cl->unfilled = !(a->cached_only && !cached);   /* a claim not run measured nothing */
            char bad[64];
            snprintf(bad, sizeof bad, "%.60s", cl->why_text);
            snprintf(cl->why_text, sizeof cl->why_text, "[the registry's text of %s names %s, a "
                     "number this run did not measure]", cl->id, bad);
        }
        slpi_progress_add(pg, 1);
        if (log) {
            fprintf(log, "%-4s %-12s %s\n", cl->id, a->controls ? "" :
                    slpi_claim_verdict_name(cl->verdict), cached ? "(cached)" : "");
            for (int i = cl->first; i < cl->first + cl->count; i++) {
                const slpi_audit_check *c = &a->checks[i];
                if (a->controls && !is_control(c)) continue;
                fprintf(log, "     %-25s %-8s%s %6.1fs  %s\n", slpi_audit_role_words(c->role),
                        outcome_word(c), control_wrong(c) ? " (CONTROL WRONG)" : "", c->seconds,
                        c->check);
            }
            fflush(log);
        }
    }
    slpi_progress_end(pg);
    return rc;
}

void slpi_audit_free(slpi_audit *a)
{
    free(a->checks);
    free(a->claims);
    a->checks = NULL;
    a->claims = NULL;
}
