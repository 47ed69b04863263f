/* audit-checks.c — what the claims audit's evaluators share (docs/claims.md): the case of a
 * check (a docs/experiments.md preset plus key=value overrides, FULL=1 overrides
 * appended), outcomes and the words of a role. The bottom layer of the audit: the
 * evaluators (reports/audit-runs.c ...) use it, it calls none of them; the check language
 * that names them is reports/audit-lang.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-finish.h"
#include "slpi/problem-build.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/problem-store.h"
#include "reports/audit-checks.h"

/* Split s (copied into buf) into whitespace-separated tokens. */
int slpi_audit_tokens(const char *s, char *buf, size_t n, char **tok, int max)
{
    snprintf(buf, n, "%s", s);
    int k = 0;
    for (char *t = strtok(buf, " \t"); t && k < max; t = strtok(NULL, " \t")) tok[k++] = t;
    return k;
}

/* The FULL=1 case overrides of c in force, or NULL. */
const char *slpi_audit_full_overrides(const slpi_audit *a, const slpi_audit_check *c)
{
    return a->full && c->full_case[0] ? c->full_case : NULL;
}

/* The check string in force (FULL=1 may replace it). */
const char *slpi_audit_check_string(const slpi_audit *a, const slpi_audit_check *c)
{
    return a->full && c->full_check[0] ? c->full_check : c->check;
}

const slpi_audit_args *slpi_audit_args_in_force(const slpi_audit *a, const slpi_audit_check *c)
{
    return slpi_audit_check_string(a, c) == c->check ? &c->args : &c->full_args;
}

/* The case as a problem; args receives " k=v ..." for the reproducing command. */
int slpi_audit_case(const slpi_audit *a, const slpi_audit_check *c, slpi_problem *p, char *args, size_t nargs,
                    slpi_error *err)
{
    char buf[512], *tok[40];
    int n = slpi_audit_tokens(c->kase, buf, sizeof buf, tok, 32), ncase = n;
    char fbuf[256];
    if (slpi_audit_full_overrides(a, c)) n += slpi_audit_tokens(c->full_case, fbuf, sizeof fbuf, tok + n, 8);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (n < 1 || !strcmp(tok[0], "-"))
        return slpi_error_set(err, SLPI_EINPUT, "line %d: the check needs a case", c->line);
    char *keys[40], *vals[40], kv[40][64];
    int nk = 0;
    args[0] = 0;
    for (int i = 1; i < n; i++) {
        /* a FULL=1 override replaces the case's key of that name (one key, one value) */
        int replaced = 0;
        for (int j = ncase; i < ncase && j < n; j++) {
            size_t kl = strcspn(tok[j], "=");
            replaced |= !strncmp(tok[i], tok[j], kl) && tok[i][kl] == '=';
        }
        if (replaced) continue;
        snprintf(kv[nk], sizeof kv[nk], "%s", tok[i]);
        char *eq = strchr(kv[nk], '=');
        if (!eq) return slpi_error_set(err, SLPI_EINPUT, "line %d: '%s' is not key=value", c->line, tok[i]);
        *eq = 0;
        keys[nk] = kv[nk];
        vals[nk] = eq + 1;
        nk++;
        size_t l = strlen(args);
        snprintf(args + l, nargs - l, " %s", tok[i]);
    }
    int rc = slpi_problem_build(p, tok[0], NULL, nk, keys, vals, NULL, err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, err); /* T and level resolved (idempotent) */
    if (rc == SLPI_OK && a->seed_offset) {               /* a confirmatory run: noise never used */
        slpi_view_noise_edit(p)->seed += a->seed_offset;
        size_t l = strlen(args);
        snprintf(args + l, nargs - l, " seed=%llu", (unsigned long long)slpi_view_noise(p)->seed);
    }
    return rc;
}

/* Record number name of c's measurement (replacing one of the same name). */
void slpi_audit_num(slpi_audit_check *c, const char *name, double v)
{
    int k = 0;
    while (k < c->nnum && strcmp(c->num_name[k], name)) k++;
    if (k == SLPI_AUDIT_MAXNUM) return;
    if (k == c->nnum) c->nnum++;
    snprintf(c->num_name[k], sizeof c->num_name[k], "%s", name);
    c->num[k] = v;
}

void slpi_audit_outcome(slpi_audit_check *c, int pass, double value)
{
    c->outcome = pass ? SLPI_CHECK_PASS : SLPI_CHECK_FAIL;
    c->value = value;
    slpi_audit_num(c, "value", value);
}

int slpi_audit_fill(const slpi_audit *a, const slpi_audit_claim *cl, const char *tmpl, char *out, size_t n)
{
    size_t l = 0;
    out[0] = 0;
    for (const char *s = tmpl; *s && l + 1 < n; s++) {
        int k;
        char name[16];
        int used = 0;
        if (*s == '{' && sscanf(s, "{%d.%15[a-zA-Z_0-9]}%n", &k, name, &used) == 2 && used > 0) {
            const slpi_audit_check *c = k >= 1 && k <= cl->count ? &a->checks[cl->first + k - 1] : NULL;
            int j = 0;
            while (c && j < c->nnum && strcmp(c->num_name[j], name)) j++;
            if (!c || j == c->nnum) {
                snprintf(out, n, "{%d.%s}", k, name);
                return -1;
            }
            if (isfinite(c->num[j]))
                l += (size_t)snprintf(out + l, n - l, "%.3g", c->num[j]);
            else
                l += (size_t)snprintf(out + l, n - l, "%s", isinf(c->num[j]) ? "inf" : "(no value)");
            s += used - 1;
            continue;
        }
        out[l++] = *s;
        out[l] = 0;
    }
    return 0;
}

void slpi_audit_unable(slpi_audit_check *c, const char *fmt, const char *msg)
{
    c->outcome = SLPI_CHECK_UNABLE;
    c->value = NAN;
    snprintf(c->evidence, sizeof c->evidence, fmt, msg);
}

int slpi_audit_problems_alloc(slpi_audit_check *c)
{
    for (int i = 0; i < SLPI_AUDIT_PROBLEMS; i++)
        if (!(c->problem[i] = slpi_problem_alloc())) {
            slpi_audit_unable(c, "%s", "out of memory");
            return 0;
        }
    return 1;
}

void slpi_audit_problems_free(slpi_audit_check *c)
{
    for (int i = 0; i < SLPI_AUDIT_PROBLEMS; i++) {
        slpi_problem_free(c->problem[i]);
        c->problem[i] = NULL;
    }
}

/* "<= X" or ">= X": pass? */
const char *slpi_audit_meets(const slpi_audit_check *c)
{
    return c->outcome == SLPI_CHECK_PASS ? "meets" : "misses";
}

int slpi_audit_compare(int op, double v, double thr)
{
    return op == SLPI_AUDIT_LE ? v <= thr : v >= thr;
}

void slpi_audit_figure_name(const slpi_audit_check *c, char *out, size_t n)
{
    snprintf(out, n, "%s-l%d", c->id, c->line);
}

/* The case with `steps` steps (T and level cleared); on a bad case the check is UNABLE
 * and -1 returned. */
int slpi_audit_steps_case(const slpi_audit *a, slpi_audit_check *c, long steps, slpi_problem *p)
{
    slpi_error err = { 0, "" };
    char args[512];
    if (slpi_audit_case(a, c, p, args, sizeof args, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return -1;
    }
    slpi_view_grid_edit(p)->steps = steps;
    slpi_view_grid_edit(p)->T = 0;
    slpi_view_grid_edit(p)->level = -1;
    return 0;
}

/* Append "sep text" to a claim field, bounded. */
void slpi_audit_append(char *dst, size_t n, const char *sep, const char *text)
{
    size_t l = strlen(dst);
    snprintf(dst + l, n - l, "%s%s", l ? sep : "", text);
}

int slpi_audit_is_control(const slpi_audit_check *c)
{
    return c->role == SLPI_ROLE_CTL_FAIL || c->role == SLPI_ROLE_CTL_PASS;
}

const char *slpi_audit_role_words(slpi_audit_role r)
{
    static const char *n[] = { "decides", "condition", "evidence", "control: must not be met", "control: must be met" };
    return (unsigned)r < 5 ? n[r] : "?";
}
