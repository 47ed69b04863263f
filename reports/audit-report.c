/* audit-report.c — the audit's report: claims.json (every claim with its
 * verdict, the expected verdict of docs/claims.md, and every check with its number, evidence,
 * command and figure) and index.html (one section per paper, one row per claim, the
 * verdicts that differ from the expected verdict (docs/claims.md) listed first), with provenance. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "reports/reports.h"

static const char *outcome_name(slpi_check_outcome o)
{
    return o == SLPI_CHECK_PASS ? "pass" : o == SLPI_CHECK_FAIL ? "fail" : "unable";
}

static const char *role_name(slpi_audit_role r)
{
    static const char *n[] = {"claim", "cond", "ev", "qual"};
    return n[r];
}

static int differs(const slpi_audit_claim *cl)
{
    return strcmp(cl->expected, slpi_claim_verdict_name(cl->verdict)) != 0;
}

static int write_json(const slpi_audit *a, double seconds, const char *path, slpi_error *err)
{
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "format", json_string("slpi-audit 1"));
    json_object_set_new(root, "size", json_string(a->full ? "full" : "reduced"));
    json_object_set_new(root, "seconds", json_real(seconds));
    char *prov = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&prov, &plen);
    slpi_provenance_write(pf, "");
    fclose(pf);
    json_object_set_new(root, "provenance", json_string(prov));
    free(prov);
    for (int j = 0; j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        json_t *o = json_object(), *checks = json_array();
        json_object_set_new(o, "id", json_string(cl->id));
        json_object_set_new(o, "source", json_string(cl->source));
        json_object_set_new(o, "verdict", json_string(slpi_claim_verdict_name(cl->verdict)));
        json_object_set_new(o, "expected", json_string(cl->expected));
        json_object_set_new(o, "differs_from_spec", json_boolean(differs(cl)));
        if (cl->condition[0]) json_object_set_new(o, "condition", json_string(cl->condition));
        for (int i = cl->first; i < cl->first + cl->count; i++) {
            const slpi_audit_check *c = &a->checks[i];
            json_t *k = json_object();
            json_object_set_new(k, "role", json_string(role_name(c->role)));
            json_object_set_new(k, "case", json_string(c->kase));
            json_object_set_new(k, "check", json_string(c->check));
            json_object_set_new(k, "outcome", json_string(outcome_name(c->outcome)));
            json_object_set_new(k, "value", isfinite(c->value) ? json_real(c->value) : json_null());
            json_object_set_new(k, "evidence", json_string(c->evidence));
            json_object_set_new(k, "command", json_string(c->command));
            if (c->figure[0]) json_object_set_new(k, "figure", json_string(c->figure));
            json_object_set_new(k, "seconds", json_real(c->seconds));
            json_array_append_new(checks, k);
        }
        json_object_set_new(o, "checks", checks);
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "claims", arr);
    int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
    json_decref(root);
    return rc ? slpi_error_set(err, SLPI_ENUMERIC, "%s: cannot write", path) : SLPI_OK;
}

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

static void claim_row(FILE *f, const slpi_audit *a, const slpi_audit_claim *cl)
{
    fprintf(f, "<tr id='%s'%s><td><b>%s</b><br><small>", cl->id, differs(cl) ? " class='diff'" : "", cl->id);
    html_text(f, cl->source);
    fprintf(f, "</small></td><td class='v %s'>%s", slpi_claim_verdict_name(cl->verdict),
            slpi_claim_verdict_name(cl->verdict));
    if (differs(cl)) fprintf(f, "<br><small>expected %s</small>", cl->expected);
    if (cl->condition[0]) {
        fprintf(f, "<br><small>condition: ");
        html_text(f, cl->condition);
        fprintf(f, "</small>");
    }
    fprintf(f, "</td><td><ul>");
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        fprintf(f, "<li><span class='o %s'>%s</span> <i>%s</i> <code>", outcome_name(c->outcome),
                outcome_name(c->outcome), role_name(c->role));
        html_text(f, c->check);
        fprintf(f, "</code> on <code>");
        html_text(f, c->kase);
        fprintf(f, "</code><br>");
        html_text(f, c->evidence);
        if (c->command[0]) {
            fprintf(f, "<br><code class='cmd'>");
            html_text(f, c->command);
            fprintf(f, "</code>");
        }
        fprintf(f, "</li>");
    }
    fprintf(f, "</ul></td><td>");
    for (int i = cl->first; i < cl->first + cl->count; i++)
        if (a->checks[i].figure[0])
            fprintf(f, "<a href='figures/%s.svg'><img src='figures/%s.svg' width='260' alt='%s'></a>",
                    a->checks[i].figure, a->checks[i].figure, a->checks[i].figure);
    fprintf(f, "</td></tr>\n");
}

static int write_html(const slpi_audit *a, double seconds, const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write", path);
    int count[5] = {0}, ndiff = 0;
    for (int j = 0; j < a->nclaims; j++) {
        count[a->claims[j].verdict]++;
        ndiff += differs(&a->claims[j]);
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>slpi claims audit"
            "</title>\n<style>body{font-family:sans-serif;margin:1.5em;max-width:1400px}"
            "table{border-collapse:collapse;width:100%%}td,th{border:1px solid #bbb;padding:4px;"
            "vertical-align:top;font-size:13px}ul{margin:0;padding-left:1.2em}code{font-size:12px}"
            ".cmd{color:#555}.v{font-weight:bold}.CONFIRMED{background:#d9f2d9}.CONDITIONAL{background:"
            "#fff2cc}.DISCREPANCY{background:#f8d0d0}.QUALITATIVE{background:#dde8f7}.UNABLE{background:"
            "#e0e0e0}.o.pass{color:#176b17}.o.fail{color:#a00}.o.unable{color:#666}tr.diff td:first-child"
            "{border-left:6px solid #c00}.alert{border:3px solid #c00;padding:.6em;background:#fff4f4}"
            "</style></head><body>\n<h1>slpi — audit of the claims of docs/claims.md</h1>\n");
    fprintf(f, "<p>%d claims, %d checks, %s sizes, %.0f s wall. Verdicts: ", a->nclaims, a->nchecks,
            a->full ? "the papers' full" : "reduced", seconds);
    for (int v = 0; v < 5; v++)
        fprintf(f, "<span class='v %s'>%s %d</span>%s", slpi_claim_verdict_name((slpi_claim_verdict)v),
                slpi_claim_verdict_name((slpi_claim_verdict)v), count[v], v < 4 ? ", " : ".</p>\n");
    fprintf(f, "<div class='alert'><h2>Verdicts that differ from the expected verdict (docs/claims.md) (%d)</h2><ul>", ndiff);
    for (int j = 0; j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        if (!differs(cl)) continue;
        fprintf(f, "<li><a href='#%s'><b>%s</b></a>: computed <b>%s</b>, expected %s</li>", cl->id,
                cl->id, slpi_claim_verdict_name(cl->verdict), cl->expected);
    }
    fprintf(f, "</ul><p>Verdicts come from the computed checks only (reports/audit.c); the documentation's "
            "DERIVED claims are expected CONFIRMED when their property holds.</p></div>\n");
    static const struct { char key; const char *title; } papers[] = {
        {'R', "RKMK — Luesink, Ephrati, Cifani, Geurts (arXiv:2111.13143)"},
        {'I', "ISO — Ephrati, Jansson, Lang, Luesink (arXiv:2408.16701)"},
        {'V', "SVI — Gay-Balmaz, Wu (arXiv:2412.19368)"},
        {'X', "Cross-cutting (docs/claims.md#cross)"},
    };
    for (size_t p = 0; p < sizeof papers / sizeof papers[0]; p++) {
        fprintf(f, "<h2>%s</h2>\n<table><tr><th>claim</th><th>verdict</th><th>checks: evidence and "
                "the command that reproduces it</th><th>figure</th></tr>\n", papers[p].title);
        for (int j = 0; j < a->nclaims; j++)
            if (a->claims[j].id[0] == papers[p].key) claim_row(f, a, &a->claims[j]);
        fprintf(f, "</table>\n");
    }
    fprintf(f, "<h2>Provenance</h2><pre>");
    char *prov = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&prov, &plen);
    slpi_provenance_write(pf, "");
    fclose(pf);
    html_text(f, prov);
    free(prov);
    fprintf(f, "</pre><p>Machine-readable: <a href='claims.json'>claims.json</a>.</p></body></html>\n");
    fclose(f);
    return SLPI_OK;
}

int slpi_audit_write(const slpi_audit *a, double seconds, slpi_error *err)
{
    char path[SLPI_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/claims.json", a->outdir);
    int rc = write_json(a, seconds, path, err);
    snprintf(path, sizeof path, "%s/index.html", a->outdir);
    if (rc == SLPI_OK) rc = write_html(a, seconds, path, err);
    return rc;
}
