/* audit.c — the claims audit of docs/claims.md: reads the claims registry (reports/claims.txt:
 * a description line per claim and one line per check, format in its header), evaluates
 * every check (reports/audit-checks.c) and derives each claim's verdict from the outcomes
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

#include "reports/reports.h"

const char *slpi_claim_verdict_name(slpi_claim_verdict v)
{
    static const char *n[] = {"CONFIRMED", "CONDITIONAL", "DISCREPANCY", "UNABLE"};
    return (unsigned)v < 4 ? n[v] : "?";
}

const char *slpi_audit_role_name(slpi_audit_role r)
{
    static const char *n[] = {"claim", "cond", "ev", "fails", "passes"};
    return (unsigned)r < 5 ? n[r] : "?";
}

/* The role in words (report and log): a control's name never reads like a software failure. */
const char *slpi_audit_role_words(slpi_audit_role r)
{
    static const char *n[] = {"decides", "condition", "evidence", "control: must not be met",
                              "control: must be met"};
    return (unsigned)r < 5 ? n[r] : "?";
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

/* The expected field: one verdict, or "REDUCED/FULL" when the papers' sizes (FULL=1) are
 * expected to decide otherwise; the verdict of the audit's mode is kept. */
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
    int r = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(f[3], slpi_audit_role_name((slpi_audit_role)i))) r = i;
    if (r < 0)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%d: role '%s': claim | cond | ev | fails | "
                              "passes", path, line, f[3]);
    c->role = (slpi_audit_role)r;
    char *slash = strchr(f[2], '/');
    const char *mode[2] = {f[2], slash ? slash + 1 : f[2]};
    if (slash) *slash = 0;
    for (int m = 0; m < 2; m++) {
        int v = -1;
        for (int i = 0; i < 4; i++)
            if (!strcmp(mode[m], slpi_claim_verdict_name((slpi_claim_verdict)i))) v = i;
        if (v < 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected verdict '%s' is not one of "
                                  "CONFIRMED CONDITIONAL DISCREPANCY UNABLE (or REDUCED/FULL)",
                                  path, line, mode[m]);
    }
    int rc = copy_field(c->id, sizeof c->id, f[0], "id", path, line, err);
    if (!rc) rc = copy_field(c->source, sizeof c->source, f[1], "source", path, line, err);
    if (!rc) rc = copy_field(c->expected, sizeof c->expected, mode[full != 0], "expected", path,
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

static int is_control(const slpi_audit_check *c)
{
    return c->role == SLPI_ROLE_CTL_FAIL || c->role == SLPI_ROLE_CTL_PASS;
}

static int group_claims(slpi_audit *a, const desc *d, int nd, const char *path, slpi_error *err)
{
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
        if (!nctl)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s has no control (a \"fails\" "
                                  "or \"passes\" line showing that its check can fail)", path,
                                  a->checks[cl->first].line, cl->id);
        strcpy(cl->statement, d[k].statement);
        strcpy(cl->magnitude, d[k].magnitude);
        strcpy(cl->paper_size, d[k].paper_size);
        strcpy(cl->why, d[k].why);
    }
    return SLPI_OK;
}

int slpi_audit_load(slpi_audit *a, const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open the claims registry", path);
    char buf[4096];
    int line = 0, rc = SLPI_OK, cap = 0, nd = 0, dcap = 0;
    desc *d = NULL;
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
                if (!n) { rc = slpi_error_set(err, SLPI_ENUMERIC, "audit: out of memory"); break; }
                d = n;
            }
            rc = parse_desc(&d[nd], s, path, line, err);
            if (rc == SLPI_OK) nd++;
            continue;
        }
        if (a->nchecks == cap) {
            cap = cap ? 2 * cap : 64;
            slpi_audit_check *n = realloc(a->checks, (size_t)cap * sizeof *n);
            if (!n) { rc = slpi_error_set(err, SLPI_ENUMERIC, "audit: out of memory"); break; }
            a->checks = n;
        }
        slpi_audit_check *c = &a->checks[a->nchecks];
        rc = parse_line(c, s, a->full, path, line, err);
        if (rc != SLPI_OK) break;
        if (a->only && strcmp(c->id, a->only)) continue;
        a->nchecks++;
    }
    fclose(f);
    if (rc == SLPI_OK && !a->nchecks)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: no claim%s%s", path, a->only ? " " : "",
                            a->only ? a->only : "");
    if (rc == SLPI_OK) rc = group_claims(a, d, nd, path, err);
    free(d);
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

int slpi_audit_controls_wrong(const slpi_audit *a)
{
    int n = 0;
    for (int i = 0; i < a->nchecks; i++) n += control_wrong(&a->checks[i]);
    return n;
}

static void verdict(const slpi_audit *a, slpi_audit_claim *cl)
{
    int nclaim = 0, fail = 0, unable = 0, ncond = 0, condfail = 0, ctlwrong = 0;
    const slpi_audit_check *first_fail = NULL, *first_unable = NULL, *first_ctl = NULL;
    cl->condition[0] = 0;
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        if (c->role == SLPI_ROLE_CLAIM) {
            nclaim++;
            if (c->outcome == SLPI_CHECK_FAIL && !fail++) first_fail = c;
            if (c->outcome == SLPI_CHECK_UNABLE && !unable++) first_unable = c;
        } else if (c->role == SLPI_ROLE_COND) {
            ncond++;
            condfail += c->outcome != SLPI_CHECK_PASS;
            size_t n = strlen(cl->condition);
            snprintf(cl->condition + n, sizeof cl->condition - n, "%s%s", n ? "; " : "", c->kase);
        } else if (control_wrong(c) && !ctlwrong++) {
            first_ctl = c;
        }
    }
    if (ctlwrong) {
        cl->verdict = SLPI_CLAIM_UNABLE;
        snprintf(cl->reason, sizeof cl->reason, "the control (%s on %s) should %s but did not: the "
                 "decisive check is not shown to discriminate", first_ctl->check, first_ctl->kase,
                 first_ctl->role == SLPI_ROLE_CTL_FAIL ? "fall outside the threshold" : "meet it");
    } else if (unable || !nclaim) {
        cl->verdict = SLPI_CLAIM_UNABLE;
        snprintf(cl->reason, sizeof cl->reason, "%s", first_unable ? first_unable->evidence
                 : "no claim check");
    } else if (!fail) {
        cl->verdict = SLPI_CLAIM_CONFIRMED;
        snprintf(cl->reason, sizeof cl->reason, "all %d claim check%s met; %s", nclaim,
                 nclaim > 1 ? "s" : "", a->checks[cl->first].evidence);
    } else if (ncond && !condfail) {
        cl->verdict = SLPI_CLAIM_CONDITIONAL;
        snprintf(cl->reason, sizeof cl->reason, "%s", first_fail->evidence);
    } else {
        cl->verdict = SLPI_CLAIM_DISCREPANCY;
        snprintf(cl->reason, sizeof cl->reason, "%s", first_fail->evidence);
    }
    if (cl->verdict != SLPI_CLAIM_CONDITIONAL) cl->condition[0] = 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* FNV-1a 64 over bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* FNV-1a of a file's bytes into h (h unchanged if unreadable). */
static uint64_t file_key(uint64_t h, const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return h;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv(h, buf, n);
    fclose(f);
    return h;
}

/* The build key: the running executable's bytes and the recorded unit-test results. */
static uint64_t build_key(const slpi_audit *a)
{
    return file_key(file_key(0xcbf29ce484222325ULL, "/proc/self/exe"), a->tests);
}

static uint64_t claim_key(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t build)
{
    uint64_t h = fnv(0xcbf29ce484222325ULL, &build, sizeof build);
    h = fnv(h, &a->full, sizeof a->full);
    h = fnv(h, &a->controls, sizeof a->controls);
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        const char *f[4] = {c->kase, c->check, c->full, c->expected};
        for (int k = 0; k < 4; k++) h = fnv(h, f[k], strlen(f[k]) + 1);
        h = fnv(h, &c->role, sizeof c->role);
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
    uint64_t h = fnv(0xcbf29ce484222325ULL, &key, sizeof key);
    h = text ? fnv(h, text, strlen(text)) : 0;
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

void slpi_audit_run(slpi_audit *a, FILE *log)
{
    uint64_t build = a->cache ? build_key(a) : 0;
    slpi_progress *pg = slpi_progress_begin("audit, claims", a->nclaims);
    for (int j = 0; j < a->nclaims; j++) {
        slpi_audit_claim *cl = &a->claims[j];
        uint64_t key = a->cache ? claim_key(a, cl, build) : 0;
        int cached = a->cache && cache_load(a, cl, key);
        for (int i = cl->first; !cached && i < cl->first + cl->count; i++) {
            slpi_audit_check *c = &a->checks[i];
            if (a->controls && !is_control(c)) {
                c->outcome = SLPI_CHECK_NOT_RUN;
                snprintf(c->evidence, sizeof c->evidence, "not run (controls only)");
                continue;
            }
            double t1 = now_seconds();
            slpi_audit_eval(a, c);
            c->seconds = now_seconds() - t1;
        }
        if (!cached && a->cache) cache_store(a, cl, key);
        verdict(a, cl);
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
}

void slpi_audit_free(slpi_audit *a)
{
    free(a->checks);
    free(a->claims);
    a->checks = NULL;
    a->claims = NULL;
}
