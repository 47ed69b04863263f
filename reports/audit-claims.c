/* audit-claims.c — the claims registry's lines grouped into claims (reports/claims.txt,
 * read line by line by reports/audit-registry.c): each claim's check lines consecutive and
 * with one expected verdict, its description, quotes, rule, choices, multiverse and
 * variants attached, and the rules a claim as a whole must meet before anything runs
 * (docs/claims.md): a description, a control, every variant declared and used, no two
 * lines that must come out alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/errors.h"
#include "reports/audit-checks.h"

/* Two lines of cl that must come out alike: a control with the case and check of a
 * decisive line (it cannot show that the check discriminates), or two variants whose
 * decisive lines are the same cases and checks (they cannot disagree). NULL if none, else
 * what (static storage). */
static const char *same_lines(const slpi_audit *a, const slpi_audit_claim *cl, int *line)
{
    static char msg[160];
    const slpi_audit_check *k = &a->checks[cl->first];
    for (int i = 0; i < cl->count; i++)
        for (int j = 0; j < cl->count; j++)
            if (k[i].role == SLPI_ROLE_CLAIM && slpi_audit_is_control(&k[j]) && !strcmp(k[i].kase, k[j].kase) &&
                !strcmp(k[i].check, k[j].check)) {
                snprintf(msg, sizeof msg, "this control repeats the case and check of line %d", k[i].line);
                *line = k[j].line;
                return msg;
            }
    for (int v = 0; v < cl->nvar; v++)
        for (int w = v + 1; w < cl->nvar; w++) {
            int differ = 0;
            for (int i = 0; i < cl->count && !differ; i++) {
                if (k[i].role != SLPI_ROLE_CLAIM || (k[i].variant != v && k[i].variant != w)) continue;
                int twin = 0; /* the other variant has the same case and check */
                for (int j = 0; j < cl->count && !twin; j++)
                    twin = k[j].role == SLPI_ROLE_CLAIM && k[j].variant == (k[i].variant == v ? w : v) &&
                        !strcmp(k[i].kase, k[j].kase) && !strcmp(k[i].check, k[j].check) &&
                        !strcmp(k[i].full, k[j].full);
                differ = k[i].variant >= 0 && !twin;
                *line = k[i].line;
            }
            if (!differ) {
                snprintf(msg, sizeof msg, "variants %s and %s have the same cases and checks", cl->var[v].label,
                         cl->var[w].label);
                return msg;
            }
        }
    return NULL;
}

int slpi_audit_group(slpi_audit *a, const slpi_audit_desc *d, int nd, const slpi_audit_extra *x, int nx,
                     const char *path, slpi_error *err)
{
    a->claims = calloc((size_t)a->nchecks, sizeof *a->claims);
    if (!a->claims) return slpi_error_set(err, SLPI_EINPUT, "audit: out of memory");
    for (int i = 0; i < a->nchecks; i++) {
        slpi_audit_claim *cl = a->nclaims ? &a->claims[a->nclaims - 1] : NULL;
        if (cl && !strcmp(cl->id, a->checks[i].id)) {
            if (strcmp(cl->expected, a->checks[i].expected) || strcmp(cl->expected_full, a->checks[i].expected_full))
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s:%d: claim %s: expected verdict differs "
                                      "from its first line",
                                      path, a->checks[i].line, cl->id);
            cl->count++;
            continue;
        }
        for (int j = 0; j < a->nclaims; j++)
            if (!strcmp(a->claims[j].id, a->checks[i].id))
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s:%d: claim %s: its lines must be "
                                      "consecutive",
                                      path, a->checks[i].line, a->checks[i].id);
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
        for (int i = cl->first; i < cl->first + cl->count; i++) nctl += slpi_audit_is_control(&a->checks[i]);
        if (k < 0)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s:%d: claim %s has no description line "
                                  "(= %s | statement | magnitude | paper size | why)",
                                  path, a->checks[cl->first].line, cl->id, cl->id);
        strcpy(cl->statement, d[k].statement);
        strcpy(cl->magnitude, d[k].magnitude);
        strcpy(cl->paper_size, d[k].paper_size);
        strcpy(cl->why, d[k].why);
        for (const char *s = strchr(cl->why, '{'); s; s = strchr(s + 1, '{')) { /* {K.NAME} */
            int kk, used = 0;
            char name[16];
            if (sscanf(s, "{%d.%15[a-zA-Z_0-9]}%n", &kk, name, &used) == 2 && used > 0 && (kk < 1 || kk > cl->count))
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s:%d: claim %s: its text names {%d.%s}, "
                                      "but the claim has %d check lines",
                                      path, d[k].line, cl->id, kk, name, cl->count);
        }
        for (int i = 0; i < nx; i++) {
            if (strcmp(x[i].id, cl->id)) continue;
            char q[1024];
            if (x[i].kind == '"') {
                snprintf(q, sizeof q, "\"%s\" (%s)", x[i].b, x[i].a);
                slpi_audit_append(cl->quote, sizeof cl->quote, "; ", q);
            } else if (x[i].kind == '~') {
                slpi_audit_append(cl->rule, sizeof cl->rule, " ", x[i].b);
                cl->rule_line = x[i].line;
            } else if (x[i].kind == '%') {
                for (int j = 0; j < i; j++) /* one line per dimension: a second would cross with itself */
                    if (x[j].kind == '%' && !strcmp(x[j].id, cl->id) && !strcmp(x[j].a, x[i].a))
                        return slpi_error_set(err, SLPI_EINPUT,
                                              "%s:%d: claim %s: a second '%s' line (the "
                                              "first: line %d); one line per dimension",
                                              path, x[i].line, cl->id, x[i].a, x[j].line);
                snprintf(q, sizeof q, "%s %s", x[i].a, x[i].v);
                slpi_audit_append(cl->multiverse, sizeof cl->multiverse, "; ", q);
            } else if (x[i].kind == '!') {
                snprintf(q, sizeof q, "%s: %s", x[i].a, x[i].b);
                slpi_audit_append(cl->choices, sizeof cl->choices, "; ", q);
            } else {
                if (cl->nvar == SLPI_AUDIT_MAXVAR)
                    return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: more than %d variants", path, x[i].line,
                                          cl->id, SLPI_AUDIT_MAXVAR);
                slpi_audit_variant *v = &cl->var[cl->nvar++];
                memcpy(v->label, x[i].a, strlen(x[i].a) + 1); /* lengths checked at load (reports/audit-registry.c) */
                memcpy(v->what, x[i].b, strlen(x[i].b) + 1);
            }
        }
        /* every variant label used is declared, every declared one used */
        for (int i = cl->first; i < cl->first + cl->count; i++) {
            slpi_audit_check *c = &a->checks[i];
            for (int v = 0; c->vlabel[0] && v < cl->nvar; v++)
                if (!strcmp(cl->var[v].label, c->vlabel)) c->variant = v;
            if (c->vlabel[0] && c->variant < 0)
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s:%d: claim %s: variant '%s' is not declared "
                                      "(@ %s | %s | what it reads)",
                                      path, c->line, cl->id, c->vlabel, cl->id, c->vlabel);
        }
        for (int v = 0; v < cl->nvar; v++) {
            int used = 0;
            for (int i = cl->first; i < cl->first + cl->count; i++)
                used += a->checks[i].variant == v && a->checks[i].role == SLPI_ROLE_CLAIM;
            if (!used)
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s: claim %s: variant '%s' has no claim@%s "
                                      "line",
                                      path, cl->id, cl->var[v].label, cl->var[v].label);
        }
        int at = 0;
        const char *same = same_lines(a, cl, &at);
        if (same)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: claim %s: %s: the outcome cannot differ", path, at, cl->id,
                                  same);
        if (!nctl)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s:%d: claim %s has no control (a \"fails\" "
                                  "or \"passes\" line showing that its check can fail)",
                                  path, a->checks[cl->first].line, cl->id);
    }
    for (int i = 0; i < nx; i++) {
        int found = 0;
        for (int j = 0; j < a->nclaims && !found; j++) found = !strcmp(a->claims[j].id, x[i].id);
        if (!found && !a->only)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%d: '%c %s': no such claim", path, x[i].line, x[i].kind,
                                  x[i].id);
    }
    return SLPI_OK;
}
