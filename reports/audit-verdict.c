/* audit-verdict.c — the verdict over a claim's multiverse (docs/claims.md#multiverse) and
 * the kernel and libm screen's decision (docs/claims.md#screen), from the members' rows:
 * the rules fixed before the runs, on the audit's decision path (so under its digest,
 * docs/claims.md#decision-digest). `slpi audit --multiverse-verdict ID MEMBERS N` and
 * `slpi audit --screen-verdict ID FILE` print them (reports/multiverse-verdict.sh and
 * reports/screen-verdict.sh call them); they reproduce the archived rows of the jq and awk
 * programs they replace character for character (tests/reports/t-archive.sh).
 *
 * The multiverse's rule, its labels in their order (docs/claims.md#labels): some members
 * not run: INCOMPLETE ("over K of N members", the shares over the K, the CPU time the
 * others need); the decided members (not UNABLE) all alike: that verdict on the declared
 * share (every one of N >= 4 members, or the one member of a claim that declares no choice;
 * else, or when some member is UNABLE: UNABLE); decided
 * members that differ: SEED-DEPENDENT when only the seeds move the verdict (two decided
 * members that differ in that dimension alone give different verdicts), CRITERION-DEPENDENT
 * when only declared choices do (or no single dimension does), SEED-AND-CRITERION-DEPENDENT
 * when both do, the row ending "moved by: ..." with the dimensions that move; each
 * verdict's share of the members and its 95% Wilson interval. A declared dimension whose
 * values give one outcome (verdict and decisive numbers) in every group of members equal in
 * the other dimensions (all N run, every member with a
 * number or a verdict) does not apply: the members it tells apart count once. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/errors.h"
#include "reports/audit.h"

#define MV_MAXDIM 16
#define MV_SHARE_MIN 4 /* the least N whose share N/N has a 95% Wilson lower bound >= 0.5 */

typedef struct {
    char *verdict, *outcome; /* $3; "$3\t$4", the member's outcome */
    int nk;                  /* its declared coordinates (blas(K) dropped) */
    char *dn[MV_MAXDIM], *dv[MV_MAXDIM];
} mv_member;

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n), d[n] = 0;
    return d;
}

/* d += a b, within n bytes (cut, never overrun). */
static void append(char *d, size_t n, const char *a, const char *b)
{
    size_t l = strlen(d);
    for (const char *p = a; *p && l + 1 < n; p++) d[l++] = *p;
    for (const char *p = b; *p && l + 1 < n; p++) d[l++] = *p;
    d[l] = 0;
}

/* Remove every match of " ?blas([^)]*)", in place. */
static void drop_blas(char *s)
{
    char *w = s;
    for (char *r = s; *r;) {
        char *b = r + (*r == ' ');
        if (!strncmp(b, "blas(", 5) && strchr(b + 5, ')')) {
            r = strchr(b + 5, ')') + 1;
            continue;
        }
        *w++ = *r++;
    }
    *w = 0;
}

/* awk's split(s, a, " "): the words between runs of blanks. Returns the count. */
static int words(char *s, char **w, int max)
{
    int n = 0;
    for (char *p = strtok(s, " \t\n"); p; p = strtok(NULL, " \t\n"))
        if (n < max)
            w[n++] = p;
        else
            n++;
    return n;
}

/* The member's group key over the dimensions not named in skip (" name " words). */
static void key(const mv_member *m, const char *skip, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; i < m->nk && i < MV_MAXDIM; i++) {
        char w[256];
        snprintf(w, sizeof w, " %s ", m->dn[i]);
        if (strstr(skip, w)) continue;
        size_t l = strlen(out);
        snprintf(out + l, n - l, " %s=%s", m->dn[i], m->dv[i]);
    }
}

static void wilson(double x, double m, char *out, size_t n)
{
    double z = 1.96, p = x / m, c = (p + z * z / (2 * m)) / (1 + z * z / m);
    double h = z * sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m);
    snprintf(out, n, "%.2f [%.2f, %.2f]", p, c - h < 0 ? 0 : c - h, c + h > 1 ? 1 : c + h);
}

static const char *const ORDER[5] = { "CONFIRMED", "CONDITIONAL", "DISCREPANCY", "CRITERION-DEPENDENT", "UNABLE" };

/* One row (a line of members.tsv but its header) into m; the member's numbers and CPU. */
static int parse_member(char *line, mv_member *m, int *has, double *cpu)
{
    char *f[6] = { 0 };
    int nf = 0;
    for (char *p = line; nf < 6;) {
        f[nf++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    for (int i = nf; i < 6; i++) f[i] = "";
    char *o = malloc(strlen(f[2]) + strlen(f[3]) + 2);
    if (!o) return -1;
    sprintf(o, "%s\t%s", f[2], f[3]);
    m->outcome = o;
    m->verdict = strdup(f[2]);
    char *c = strdup(f[1]), *nums = strdup(f[3]);
    if (!m->verdict || !c || !nums) return free(c), free(nums), -1;
    *cpu += strtod(f[4], NULL);
    *has = strcmp(m->verdict, "UNABLE") != 0;
    char *tk[256];
    int nt = words(nums, tk, 256);
    for (int i = 0; i < nt && i < 256; i++)
        if (strcmp(tk[i], "none")) *has = 1;
    free(nums);
    drop_blas(c);
    char *kv[MV_MAXDIM];
    m->nk = words(c, kv, MV_MAXDIM);
    if (m->nk > MV_MAXDIM) m->nk = MV_MAXDIM;
    for (int i = 0; i < m->nk; i++) {
        char *eq = strchr(kv[i], '=');
        m->dn[i] = eq ? dup_n(kv[i], (size_t)(eq - kv[i])) : strdup(kv[i]);
        char *v2 = eq ? eq + 1 : "";
        m->dv[i] = dup_n(v2, strcspn(v2, "="));
    }
    free(c);
    return 0;
}

/* The dimensions that do not change the outcome, in their declared order: skip gets
 * " name " for each, same their names joined by ", ". */
static void same_dims(const mv_member *m, int n, char dname[][64], int ndims, char *skip, size_t ns, char *same,
                      size_t nsame)
{
    char(*keys)[512] = malloc((size_t)(n ? n : 1) * sizeof *keys);
    if (!keys) return;
    for (int j = 0; j < ndims; j++) {
        char sk[1024] = "", vals[4096] = " ";
        append(sk, sizeof sk, skip, dname[j]);
        append(sk, sizeof sk, " ", "");
        int nv = 0, ok = 1;
        for (int a = 0; a < n; a++) {
            for (int i = 0; i < m[a].nk; i++) {
                char w[300];
                snprintf(w, sizeof w, " %s ", m[a].dv[i]);
                if (!strcmp(m[a].dn[i], dname[j]) && !strstr(vals, w)) {
                    append(vals, sizeof vals, m[a].dv[i], " ");
                    nv++;
                }
            }
            key(&m[a], sk, keys[a], sizeof keys[a]);
            for (int b = a - 1; b >= 0; b--) /* the latest member of the same key */
                if (!strcmp(keys[b], keys[a])) {
                    if (strcmp(m[b].outcome, m[a].outcome)) ok = 0;
                    break;
                }
        }
        if (ok && nv > 1) {
            append(skip, ns, dname[j], " ");
            append(same, nsame, *same ? ", " : "", dname[j]);
        }
    }
    free(keys);
}

static void free_members(mv_member *m, int n)
{
    for (int a = 0; a < n; a++) {
        free(m[a].verdict), free(m[a].outcome);
        for (int i = 0; i < m[a].nk; i++) free(m[a].dn[i]), free(m[a].dv[i]);
    }
    free(m);
}

/* The members' rows of members.tsv (after its header), each line one member. */
static int read_members(const char *path, mv_member **out, int *n, int *numbered, double *cpu, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "multiverse-verdict: %s missing", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int cap_m = 0, first = 1;
    *out = NULL;
    *n = *numbered = 0;
    *cpu = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        if (first) {
            first = 0;
            continue;
        }
        if (len && line[len - 1] == '\n') line[len - 1] = 0;
        if (*n == cap_m) {
            cap_m = cap_m ? 2 * cap_m : 64;
            mv_member *g = realloc(*out, (size_t)cap_m * sizeof *g);
            if (!g) break;
            *out = g;
        }
        int has = 0;
        memset(&(*out)[*n], 0, sizeof **out);
        if (parse_member(line, &(*out)[*n], &has, cpu)) break;
        *numbered += has;
        (*n)++;
    }
    int bad = ferror(f) || !feof(f);
    free(line);
    fclose(f);
    if (bad) return slpi_error_set(err, SLPI_EINPUT, "multiverse-verdict: %s: cannot read", path);
    return SLPI_OK;
}

/* The dimensions that move the verdict (docs/claims.md#labels): dimension j moves it when
 * two decided members equal in every other coordinate give different verdicts; their
 * names, in declared order, into out ("" when none); *seeds and *other say which kinds. */
static void moved_by(const mv_member *m, int n, char dname[][64], int ndims, int *seeds, int *other, char *out,
                     size_t no)
{
    char(*keys)[512] = malloc((size_t)(n ? n : 1) * sizeof *keys);
    out[0] = 0;
    *seeds = *other = 0;
    if (!keys) return;
    for (int j = 0; j < ndims; j++) {
        char sk[128] = " ";
        append(sk, sizeof sk, dname[j], " ");
        int moves = 0;
        for (int a = 0; a < n; a++) key(&m[a], sk, keys[a], sizeof keys[a]);
        for (int a = 0; a < n && !moves; a++)
            for (int b = 0; b < a && !moves; b++)
                moves = strcmp(m[a].verdict, "UNABLE") && strcmp(m[b].verdict, "UNABLE") && !strcmp(keys[a], keys[b]) &&
                    strcmp(m[a].verdict, m[b].verdict);
        if (!moves) continue;
        append(out, no, *out ? ", " : "", dname[j]);
        if (!strcmp(dname[j], "seeds"))
            *seeds = 1;
        else
            *other = 1;
    }
    free(keys);
}

int slpi_audit_multiverse_verdict(const char *id, const char *path, int all, FILE *out, slpi_error *err)
{
    mv_member *m = NULL;
    int n = 0, numbered = 0;
    double cpu = 0;
    int rc = read_members(path, &m, &n, &numbered, &cpu, err);
    if (rc) return rc;
    int nd = 0, unable = 0, differ = 0, ndims = 0;
    const char *first = NULL;
    char dname[MV_MAXDIM][64];
    for (int a = 0; a < n; a++) {
        if (strcmp(m[a].verdict, "UNABLE")) {
            if (++nd == 1)
                first = m[a].verdict;
            else if (strcmp(m[a].verdict, first))
                differ = 1;
        } else
            unable++;
        for (int i = 0; i < m[a].nk; i++) {
            int k = 0;
            while (k < ndims && strcmp(dname[k], m[a].dn[i])) k++;
            if (k == ndims && ndims < MV_MAXDIM) snprintf(dname[ndims++], sizeof dname[0], "%s", m[a].dn[i]);
        }
    }
    /* the labels in their order (docs/claims.md#labels): INCOMPLETE; the declared share
     * (all N members alike, N >= 4); the kinds of dimension that move */
    char moved[512];
    int by_seeds = 0, by_other = 0;
    moved_by(m, n, dname, ndims, &by_seeds, &by_other, moved, sizeof moved);
    const char *verdict = !differ ? (unable || !nd || (all > 1 && n < MV_SHARE_MIN) ? "UNABLE" : first)
        : by_seeds && by_other    ? "SEED-AND-CRITERION-DEPENDENT"
        : by_seeds                ? "SEED-DEPENDENT"
                                  : "CRITERION-DEPENDENT";
    if (n < all) verdict = "INCOMPLETE";
    char skip[1024] = " ", same[1024] = "";
    if (n == all && numbered == n) same_dims(m, n, dname, ndims, skip, sizeof skip, same, sizeof same);
    int count[5] = { 0 }, shown = n;
    if (*same) { /* the members counted: one per group of the dimensions kept */
        char(*keys)[512] = malloc((size_t)(n ? n : 1) * sizeof *keys);
        shown = 0;
        for (int a = 0; keys && a < n; a++) {
            key(&m[a], skip, keys[a], sizeof keys[a]);
            int seen = 0;
            for (int b = 0; b < a && !seen; b++) seen = !strcmp(keys[b], keys[a]);
            if (seen) continue;
            shown++;
            for (int w = 0; w < 5; w++) count[w] += !strcmp(m[a].verdict, ORDER[w]);
        }
        free(keys);
        fprintf(out, "%s %s over %d distinct member%s of %d (%s: every value gives the same outcome, so %s):", id,
                verdict, shown, shown == 1 ? "" : "s", n, same,
                strchr(same, ',') ? "these dimensions do not apply" : "the dimension does not apply");
    } else {
        for (int a = 0; a < n; a++)
            for (int w = 0; w < 5; w++) count[w] += !strcmp(m[a].verdict, ORDER[w]);
        if (n < all)
            fprintf(out, "%s %s over %d of %d members:", id, verdict, n, all);
        else
            fprintf(out, "%s %s over %d member%s:", id, verdict, n, n == 1 ? "" : "s");
    }
    for (int w = 0; w < 5; w++)
        if (count[w]) {
            char s[64];
            wilson(count[w], shown, s, sizeof s);
            fprintf(out, " %s %d (share %s)", ORDER[w], count[w], s);
        }
    if (differ)
        fprintf(out, "; moved %sby: %s", n < all ? "so far " : "", *moved ? moved : "several dimensions jointly");
    if (n < all)
        fprintf(out, "; %d not run (about %.2f CPU-hours at the %.0f CPU-s of a member run)", all - n,
                (all - n) * (n ? cpu / n : 0) / 3600, n ? cpu / n : 0);
    fprintf(out, "\n");
    free_members(m, n);
    return SLPI_OK;
}

/* jq 1.6's tostring of a number: the shortest digits that read back, in %g's manner with
 * a two-digit exponent beyond 1e-5 and 1e17 (its dtoa). */
static void jq_num(double x, char *out, size_t n)
{
    char buf[64], dig[32];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, x);
        if (strtod(buf, NULL) == x) break;
    }
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    const char *s = buf + (buf[0] == '-');
    int nd = 0;
    for (const char *q = s; *q && *q != 'e'; q++)
        if (*q != '.') dig[nd++] = *q;
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    dig[nd] = 0;
    int decpt = atoi(strchr(buf, 'e') + 1) + 1;
    char *o = buf; /* reuse: the digits are in dig */
    size_t k = 0;
    if (x < 0) o[k++] = '-';
    if (decpt <= -4 || decpt > nd + 15) {
        int e = decpt - 1;
        o[k++] = dig[0];
        if (nd > 1) o[k++] = '.', memcpy(o + k, dig + 1, (size_t)nd - 1), k += (size_t)nd - 1;
        snprintf(o + k, sizeof buf - k, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        o[k++] = '0', o[k++] = '.';
        for (int z = 0; z < -decpt; z++) o[k++] = '0';
        memcpy(o + k, dig, (size_t)nd), o[k + (size_t)nd] = 0;
    } else if (decpt >= nd) {
        memcpy(o + k, dig, (size_t)nd), k += (size_t)nd;
        for (int z = nd; z < decpt; z++) o[k++] = '0';
        o[k] = 0;
    } else {
        memcpy(o + k, dig, (size_t)decpt), k += (size_t)decpt, o[k++] = '.';
        memcpy(o + k, dig + decpt, (size_t)(nd - decpt)), o[k + (size_t)(nd - decpt)] = 0;
    }
    snprintf(out, n, "%s", o);
}

/* The screen's rule (docs/claims.md#screen): a choice of kernel or libm CAN DECIDE the
 * claim when the members' verdicts differ, or a check's outcome differs between members,
 * or for a decisive check judged against a bound, over its numbers (value, CI ends): the
 * spread (the largest range of one number over the members) reaches a tenth of the margin
 * (the smallest distance of any member's number to any of its bound's edges), or the
 * margin is under ten units of the reports' six digits (10 * 1e-5 * the largest |number|);
 * else it CANNOT DECIDE, the largest spread/margin its evidence. Fewer members than the
 * screen runs: INCOMPLETE (4 kernels x 4 libms = 16 when a member has a directed libm,
 * mpfr-up or mpfr-down, the screen since 2026-11-27; else 4 x 2 = 8, the screens before). One tab-separated row: ID, members, the verdicts seen, the decision, the
 * largest ratio (- if none), the reason. */
typedef struct {
    char at[640], why[640];
    int has_ratio;
    double ratio;
} sc_row;

static int numbers_of(json_t *o, const char *const *keys, double *v)
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        json_t *x = json_object_get(o, keys[k]);
        if (json_is_number(x)) v[n++] = json_number_value(x);
    }
    return n;
}

static const char *const NUMS[3] = { "value", "lo", "hi" }, *const EDGES[3] = { "x", "lo", "hi" };

static void tsv_put(FILE *f, const char *s, int last)
{
    for (; *s; s++) {
        const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
        if (e)
            fputs(e, f);
        else
            fputc(*s, f);
    }
    fputc(last ? '\n' : '\t', f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted distinct strings (null as "") of key over the members' objects o[k]. */
static int distinct(json_t **o, int n, const char *key, const char **out)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        const char *s = json_string_value(json_object_get(o[k], key));
        out[m++] = s ? s : "";
    }
    qsort(out, (size_t)m, sizeof *out, cmp_str);
    int d = 0;
    for (int k = 0; k < m; k++)
        if (!d || strcmp(out[d - 1], out[k])) out[d++] = out[k];
    return d;
}

/* The row of check c[0..n) (the same check of every member); 0: none (not decisive). */
static int screen_check(json_t **c, int n, int i, sc_row *r)
{
    const char *outs[n ? n : 1];
    const char *cs = json_string_value(json_object_get(c[0], "case")),
               *ck = json_string_value(json_object_get(c[0], "check"));
    snprintf(r->at, sizeof r->at, "check %d (%s | %s)", i + 1, cs ? cs : "-", ck ? ck : "-");
    r->why[0] = 0;
    r->has_ratio = 0;
    int d = distinct(c, n, "outcome", outs);
    if (d > 1) {
        size_t l = (size_t)snprintf(r->why, sizeof r->why, "outcomes differ (");
        for (int k = 0; k < d && l < sizeof r->why; k++)
            l += (size_t)snprintf(r->why + l, sizeof r->why - l, "%s%s", k ? ", " : "", outs[k]);
        if (l < sizeof r->why) snprintf(r->why + l, sizeof r->why - l, ")");
        return 1;
    }
    const char *role = json_string_value(json_object_get(c[0], "role"));
    double v[3], e[3];
    if (!role || strcmp(role, "claim") || !numbers_of(json_object_get(c[0], "bound"), EDGES, e)) return 0;
    int nn = numbers_of(c[0], NUMS, v);
    for (int k = 1; k < n; k++)
        if (numbers_of(c[k], NUMS, v) != nn) {
            snprintf(r->why, sizeof r->why, "a number is present in some members only");
            return 1;
        }
    if (!nn) return 0;
    double margin = INFINITY, spread = 0, big = 0, lo[3], hi[3];
    int has_margin = 0;
    for (int k = 0; k < n; k++) {
        int np = numbers_of(c[k], NUMS, v), ne = numbers_of(json_object_get(c[k], "bound"), EDGES, e);
        for (int a = 0; a < np; a++) {
            for (int b = 0; b < ne; b++) {
                if (!has_margin || fabs(v[a] - e[b]) < margin) margin = fabs(v[a] - e[b]);
                has_margin = 1;
            }
            if (!k || v[a] < lo[a]) lo[a] = v[a];
            if (!k || v[a] > hi[a]) hi[a] = v[a];
            if (fabs(v[a]) > big || (!k && !a)) big = fabs(v[a]);
        }
    }
    for (int a = 0; a < nn; a++)
        if (hi[a] - lo[a] > spread || !a) spread = hi[a] - lo[a];
    r->has_ratio = 1;
    r->ratio = has_margin && margin > 0 ? spread / margin : spread > 0 ? 1e9 : 0;
    char ms[64], ss[64];
    if (has_margin)
        jq_num(margin, ms, sizeof ms);
    else
        snprintf(ms, sizeof ms, "null");
    jq_num(spread, ss, sizeof ss);
    if (!has_margin || margin < 10 * 1e-5 * big) /* jq: null is below every number */
        snprintf(r->why, sizeof r->why, "margin %s under ten units of the six digits reported", ms);
    else if (r->ratio >= 0.1)
        snprintf(r->why, sizeof r->why, "spread %s reaches a tenth of the margin %s", ss, ms);
    return 1;
}

static void ratio_fmt(const sc_row *top, char *out, size_t n)
{
    if (!top) {
        snprintf(out, n, "-");
        return;
    }
    if (top->ratio == 0) {
        snprintf(out, n, "0");
        return;
    }
    double e = floor(log10(top->ratio));
    char m[64], es[32];
    jq_num(round(top->ratio / pow(10, e) * 100) / 100, m, sizeof m);
    jq_num(e, es, sizeof es);
    snprintf(out, n, "%se%s", m, es);
}

int slpi_audit_screen_verdict(const char *id, const char *path, FILE *out, slpi_error *err)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root || !json_is_array(root)) {
        json_decref(root);
        return slpi_error_set(err, SLPI_EINPUT, "screen-verdict: %s: %s", path,
                              root ? "not an array of members" : je.text);
    }
    int n = (int)json_array_size(root);
    if (!n) {
        fprintf(out, "%s\t0\t-\tINCOMPLETE\t-\tno member has run\n", id);
        json_decref(root);
        return SLPI_OK;
    }
    json_t *mem[n];
    for (int k = 0; k < n; k++) mem[k] = json_array_get(root, (size_t)k);
    const char *vs[n];
    int nv = distinct(mem, n, "verdict", vs);
    int nchk = (int)json_array_size(json_object_get(mem[0], "checks"));
    sc_row *rows = calloc((size_t)(nchk ? nchk : 1), sizeof *rows);
    if (!rows) {
        json_decref(root);
        return slpi_error_set(err, SLPI_EINPUT, "screen-verdict: out of memory");
    }
    int nr = 0;
    const sc_row *top = NULL, *why = NULL;
    for (int i = 0; i < nchk; i++) {
        json_t *c[n];
        for (int k = 0; k < n; k++) c[k] = json_array_get(json_object_get(mem[k], "checks"), (size_t)i);
        if (!screen_check(c, n, i, &rows[nr])) continue;
        if (rows[nr].has_ratio && (!top || !(rows[nr].ratio < top->ratio))) top = &rows[nr]; /* ties: the last */
        if (rows[nr].why[0] && !why) why = &rows[nr];
        nr++;
    }
    char buf[1400], rs[160];
    snprintf(buf, sizeof buf, "%d", n);
    tsv_put(out, id, 0);
    tsv_put(out, buf, 0);
    size_t l = 0;
    for (int k = 0; k < nv; k++) l += (size_t)snprintf(buf + l, sizeof buf - l, "%s%s", k ? " " : "", vs[k]);
    tsv_put(out, buf, 0);
    int directed = 0; /* the screen of four libms (to nearest and directed): 16 members */
    for (int k = 0; k < n; k++) {
        const char *c = json_string_value(json_object_get(mem[k], "coordinates"));
        if (c && (strstr(c, "libm=mpfr-up") || strstr(c, "libm=mpfr-down"))) directed = 1;
    }
    tsv_put(out, n < (directed ? 16 : 8) ? "INCOMPLETE" : nv > 1 || why ? "CAN DECIDE" : "CANNOT DECIDE", 0);
    ratio_fmt(top, rs, sizeof rs);
    tsv_put(out, rs, 0);
    if (nv > 1)
        snprintf(buf, sizeof buf, "verdicts differ");
    else if (why)
        snprintf(buf, sizeof buf, "%s: %s", why->at, why->why);
    else if (top)
        snprintf(buf, sizeof buf, "largest spread/margin at %s", top->at);
    else
        snprintf(buf, sizeof buf, "no decisive number with a bound; every outcome alike");
    tsv_put(out, buf, 1);
    free(rows);
    json_decref(root);
    return SLPI_OK;
}
