/* audit-report.c — the audit's report: claims.json (every claim with its statement, paper
 * reference, the paper's magnitude and size, the audit's size, verdict, reason and every
 * check with its number, evidence, command, figure and control) and index.html (the papers
 * cited, a summary table, then one section per claim), with provenance. */
#include <jansson.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/version.h"
#include "slpi/limits.h"
#include "core/digest.h"
#include "reports/audit.h"
#include "reports/audit-checks.h"

static const char *outcome_name(slpi_check_outcome o)
{
    static const char *n[] = { "met", "not met", "unable", "not run" };
    return (unsigned)o < 4 ? n[o] : "?";
}

static int differs(const slpi_audit_claim *cl)
{
    return strcmp(cl->expected, slpi_claim_verdict_name(cl->verdict)) != 0;
}

/* The papers: authors, title (italic in the HTML) and where; plain text in claims.json. */
static const struct {
    char key;
    const char *tag, *authors, *title, *where;
} papers[] = {
    { 'R', "RKMK", "E. Luesink, S. Ephrati, P. Cifani, B. Geurts",
      "Casimir preserving stochastic "
      "Lie–Poisson integrators",
      "arXiv:2111.13143 (Adv. Contin. Discrete Models 2024:1)" },
    { 'I', "ISO", "S. Ephrati, E. Jansson, A. Lang, E. Luesink",
      "An exponential map free implicit "
      "midpoint method for stochastic Lie–Poisson systems",
      "arXiv:2408.16701" },
    { 'V', "SVI", "F. Gay-Balmaz, M. Wu",
      "Variational integrators for stochastic Hamiltonian "
      "systems on Lie groups: properties and convergence",
      "arXiv:2412.19368" },
    { 'X', "cross-cutting", "", "", "claims derived by this project across the three papers" },
};

/* The citation of paper p: HTML (title in italics) or plain text. */
static void paper_cite(int p, int html, char *out, size_t n)
{
    if (!papers[p].title[0])
        snprintf(out, n, "%s", papers[p].where);
    else
        snprintf(out, n, "%s, %s%s%s, %s", papers[p].authors, html ? "<i>" : "", papers[p].title, html ? "</i>" : "",
                 papers[p].where);
}

static int paper_of(const slpi_audit_claim *cl)
{
    for (int p = 0; p < 4; p++)
        if (cl->id[0] == papers[p].key) return p;
    return 3;
}

/* A number for JSON: null if it is not finite (an unbounded window's edge, "inf"). */
static json_t *json_number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The bound check c's number was judged against, from its typed check in force:
 * {"x": X} (a threshold) or {"lo": LO, "hi": HI} (a window, null: an unbounded side);
 * NULL if it has none (slpi_audit_bound). reports/screen-verdict.sh reads a run's
 * margin to it. */
static json_t *check_bound(const slpi_audit *a, const slpi_audit_check *c)
{
    double lo, hi;
    int kind = slpi_audit_bound(slpi_audit_args_in_force(a, c), &lo, &hi);
    if (!kind) return NULL;
    json_t *b = json_object();
    if (kind == 1)
        json_object_set_new(b, "x", json_number(lo));
    else {
        json_object_set_new(b, "lo", json_number(lo));
        json_object_set_new(b, "hi", json_number(hi));
    }
    return b;
}

static int write_json(const slpi_audit *a, double seconds, const char *path, slpi_error *err)
{
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "format", json_string("slpi-audit 3"));
    char date[64], machine[256];
    slpi_audit_run_stamp(date, sizeof date, machine, sizeof machine);
    json_object_set_new(root, "date", json_string(date));
    json_object_set_new(root, "machine", json_string(machine));
    json_object_set_new(root, "size", json_string(a->full ? "full" : "reduced"));
    json_object_set_new(root, "seconds", json_real(seconds));
    char *prov = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&prov, &plen);
    slpi_provenance_write(pf, "");
    slpi_audit_loaded_write(pf);
    fclose(pf);
    json_object_set_new(root, "provenance", json_string(prov));
    free(prov);
    slpi_audit_digests(a, root);
    for (int j = 0; j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        json_t *o = json_object(), *checks = json_array(), *demo = json_array();
        char size[2048];
        slpi_audit_claim_size_words(a, cl, size, sizeof size);
        json_object_set_new(o, "id", json_string(cl->id));
        char cite[512];
        paper_cite(paper_of(cl), 0, cite, sizeof cite);
        json_object_set_new(o, "paper", json_string(papers[paper_of(cl)].tag));
        json_object_set_new(o, "paper_reference", json_string(cite));
        json_object_set_new(o, "source", json_string(cl->source));
        json_object_set_new(o, "statement", json_string(cl->statement));
        json_object_set_new(o, "paper_magnitude", json_string(cl->magnitude));
        json_object_set_new(o, "paper_size", json_string(cl->paper_size));
        json_object_set_new(o, "audit_size", json_string(size));
        json_object_set_new(o, "verdict", json_string(slpi_claim_verdict_name(cl->verdict)));
        json_object_set_new(o, "reason", json_string(cl->reason));
        json_object_set_new(o, "why", json_string(cl->why));
        json_object_set_new(o, "why_text", json_string(cl->why_text));
        json_object_set_new(o, "quote", json_string(cl->quote));
        json_object_set_new(o, "rule", json_string(cl->rule));
        json_object_set_new(o, "choices", json_string(cl->choices));
        json_object_set_new(o, "from_cache", json_boolean(cl->cached));
        char mw[2048];
        int nm;
        slpi_audit_multiverse_words(a, cl, &nm, mw, sizeof mw);
        json_t *mvo = json_object();
        json_object_set_new(mvo, "declared", json_string(cl->multiverse));
        json_object_set_new(mvo, "members", json_integer(nm));
        json_object_set_new(mvo, "words", json_string(mw));
        char word[64], dist[512];
        slpi_audit_multiverse_decided(a, cl, word, sizeof word, dist, sizeof dist);
        json_object_set_new(mvo, "verdict", json_string(word));
        json_object_set_new(mvo, "distribution", json_string(dist));
        json_object_set_new(o, "multiverse", mvo);
        json_t *vars = json_array();
        for (int v = 0; v < cl->nvar; v++) {
            json_t *w = json_object();
            json_object_set_new(w, "label", json_string(cl->var[v].label));
            json_object_set_new(w, "what", json_string(cl->var[v].what));
            json_object_set_new(w, "verdict", json_string(slpi_claim_verdict_name(cl->var[v].verdict)));
            json_object_set_new(w, "reason", json_string(cl->var[v].reason));
            json_array_append_new(vars, w);
        }
        json_object_set_new(o, "variants", vars);
        json_object_set_new(o, "expected", json_string(cl->expected));
        json_object_set_new(o, "expected_full", json_string(cl->expected_full));
        json_object_set_new(o, "differs_from_expected", json_boolean(differs(cl)));
        if (cl->condition[0]) json_object_set_new(o, "condition", json_string(cl->condition));
        for (int i = cl->first; i < cl->first + cl->count; i++) {
            const slpi_audit_check *c = &a->checks[i];
            json_t *k = json_object();
            json_object_set_new(k, "role", json_string(slpi_audit_role_name(c->role)));
            json_object_set_new(k, "variant", json_string(c->vlabel));
            json_object_set_new(k, "line", json_integer(c->line));
            json_t *nums = json_object();
            for (int m = 0; m < c->nnum; m++)
                if (isfinite(c->num[m])) json_object_set_new(nums, c->num_name[m], json_real(c->num[m]));
            json_object_set_new(k, "numbers", nums);
            json_object_set_new(k, "case", json_string(c->kase));
            json_object_set_new(k, "check", json_string(c->check));
            json_object_set_new(k, "outcome", json_string(outcome_name(c->outcome)));
            json_object_set_new(k, "value", json_number(c->value));
            json_t *bound = check_bound(a, c);
            if (bound) json_object_set_new(k, "bound", bound);
            json_object_set_new(k, "evidence", json_string(c->evidence));
            json_object_set_new(k, "command", json_string(c->command));
            if (c->figure[0]) json_object_set_new(k, "figure", json_string(c->figure));
            json_object_set_new(k, "seconds", json_real(c->seconds));
            if (c->role == SLPI_ROLE_CTL_FAIL || c->role == SLPI_ROLE_CTL_PASS) json_array_append(demo, k);
            json_array_append_new(checks, k);
        }
        json_object_set_new(o, "failure_demonstration", demo);
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
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* At most n characters of s (ending at a word), escaped. */
static void html_short(FILE *f, const char *s, size_t n)
{
    char buf[400];
    size_t l = strlen(s);
    if (l > n) l = n;
    if (l >= sizeof buf) l = sizeof buf - 1;
    memcpy(buf, s, l);
    buf[l] = 0;
    if (l < strlen(s)) {
        char *sp = strrchr(buf, ' ');
        if (sp) *sp = 0;
        html_text(f, buf);
        fputs(" &hellip;", f);
    } else {
        html_text(f, buf);
    }
}

/* The first decisive check of claim cl (common or of its first variant). */
static const slpi_audit_check *first_claim_check(const slpi_audit *a, const slpi_audit_claim *cl)
{
    for (int i = cl->first; i < cl->first + cl->count; i++)
        if (a->checks[i].role == SLPI_ROLE_CLAIM) return &a->checks[i];
    return &a->checks[cl->first];
}

/* Claim cl's papers' size from the archive between the HTML open and close (nothing without
 * an archive): the verdict over its FULL multiverse where one is archived (multiverse-full/),
 * the archived FULL run as one of its members; a claim whose FULL multiverse has not run
 * says that the archived run is one member. */
static void archive_cell(FILE *f, const slpi_audit *a, json_t *arch, const slpi_audit_claim *cl, const char *open,
                         const char *close)
{
    if (!arch) return;
    char aw[400], mv[512], dims[256];
    int nm = slpi_audit_multiverse_members(cl, dims, sizeof dims);
    slpi_audit_archive_words(slpi_audit_archive_claim(arch, cl->id), cl, aw, sizeof aw);
    slpi_audit_multiverse_at(a, cl, 1, mv, sizeof mv);
    fputs(open, f);
    if (mv[0]) {
        size_t w = strcspn(mv, " ");
        fprintf(f, "<b class='v %.*s'>%.*s</b> ", (int)w, mv, (int)w, mv);
        html_text(f, mv + w + (mv[w] == ' '));
        fprintf(f, " (FULL multiverse); the archived FULL run, one member: ");
    } else if (nm > 1) {
        fprintf(f, "FULL multiverse not run: the archived FULL run is one member of %d: ", nm);
    }
    html_text(f, aw);
    fputs(close, f);
}

static void variant_table(FILE *f, const slpi_audit_claim *cl)
{
    if (!cl->nvar) return;
    fprintf(f,
            "<table class='kv var'><tr><th>variant</th><th>what it reads in the paper</th>"
            "<th>verdict</th><th>measured</th></tr>\n");
    for (int v = 0; v < cl->nvar; v++) {
        const char *vn = slpi_claim_verdict_name(cl->var[v].verdict);
        fprintf(f, "<tr><td><code>%s</code></td><td>", cl->var[v].label);
        html_text(f, cl->var[v].what);
        fprintf(f, "</td><td class='v %s'>%s</td><td>", vn, vn);
        html_short(f, cl->var[v].reason, 260);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
}

/* The verdict that decides claim cl (slpi_audit_multiverse_decided) between open (a format
 * that takes the verdict twice: its class and its word) and close, its members as text. */
static void decided_html(FILE *f, const slpi_audit *a, const slpi_audit_claim *cl, const char *open, const char *close)
{
    char word[64], dist[512];
    slpi_audit_multiverse_decided(a, cl, word, sizeof word, dist, sizeof dist);
    fprintf(f, open, word, word);
    html_text(f, dist);
    fputs(close, f);
}

static void claim_section(FILE *f, const slpi_audit *a, const slpi_audit_claim *cl, json_t *arch)
{
    const char *v = slpi_claim_verdict_name(cl->verdict);
    char size[2048];
    slpi_audit_claim_size_words(a, cl, size, sizeof size);
    fprintf(f, "<section id='%s'><h3>%s ", cl->id, cl->id);
    decided_html(f, a, cl, "<span class='v %s'>%s</span> <small>", "</small></h3>\n<p class='st'>");
    html_text(f, cl->statement);
    fprintf(f, "</p>\n<table class='kv'><tr><th>where</th><td>");
    html_text(f, cl->source);
    fprintf(f, "</td></tr><tr><th>paper reports</th><td>");
    html_text(f, cl->magnitude);
    fprintf(f, "</td></tr><tr><th>paper's size</th><td>");
    html_text(f, cl->paper_size);
    fprintf(f, "</td></tr><tr><th>audit's size (%s)</th><td>", a->full ? "FULL=1" : "reduced");
    html_text(f, size);
    fprintf(f, "</td></tr><tr><th>this run's verdict</th><td><b>%s</b>: ", v);
    html_text(f, cl->reason);
    if (differs(cl)) fprintf(f, " <small>(registry expects %s)</small>", cl->expected);
    fprintf(f, "</td></tr>");
    archive_cell(f, a, arch, cl, "<tr><th>the papers' size (archived FULL=1)</th><td>", "</td></tr>");
    char mw[2048];
    int nm;
    slpi_audit_multiverse_words(a, cl, &nm, mw, sizeof mw);
    fprintf(f, "<tr><th>multiverse (<a href='#mv'>rule</a>)</th><td>");
    html_text(f, mw);
    fprintf(f, "</td></tr>");
    if (strcmp(cl->why, "-")) {
        fprintf(f, "<tr><th>measured (text from the run)</th><td>");
        html_text(f, cl->why_text);
        fprintf(f, "</td></tr>");
    }
    if (cl->quote[0]) {
        fprintf(f, "<tr><th>the paper's words</th><td>");
        html_text(f, cl->quote);
        fprintf(f, "</td></tr>");
    }
    fprintf(f, "<tr><th>rule</th><td>");
    html_text(f, cl->rule[0] ? cl->rule : "(none)");
    fprintf(f, "</td></tr>");
    if (cl->choices[0]) {
        fprintf(f, "<tr><th>our choices</th><td>");
        html_text(f, cl->choices);
        fprintf(f, "</td></tr>");
    }
    if (cl->condition[0]) {
        fprintf(f, "<tr><th>holds under</th><td>");
        html_text(f, cl->condition);
        fprintf(f, "</td></tr>");
    }
    fprintf(f, "</table>\n");
    variant_table(f, cl);
    fprintf(f, "<ul class='checks'>");
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        fprintf(f, "<li><span class='o o%d'>%s</span> <i>%s%s%s</i>: <code>", (int)c->outcome, outcome_name(c->outcome),
                slpi_audit_role_words(c->role), c->vlabel[0] ? ", variant " : "", c->vlabel);
        html_text(f, c->check);
        fprintf(f, "</code> on <code>");
        html_text(f, c->kase);
        fprintf(f, "</code><br>");
        html_text(f, c->evidence);
        if (c->command[0]) {
            fprintf(f, "<br>reproduce: <code class='cmd'>");
            html_text(f, c->command);
            fprintf(f, "</code>");
        }
        if (c->figure[0]) fprintf(f, " &middot; data: <a href='data/%s.tsv'>%s.tsv</a>", c->figure, c->figure);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul>\n");
    for (int i = cl->first; i < cl->first + cl->count; i++)
        if (a->checks[i].figure[0])
            fprintf(f, "<a href='figures/%s.png'><img class='fig' src='figures/%s.svg' alt='%s'></a>\n",
                    a->checks[i].figure, a->checks[i].figure, a->checks[i].figure);
    fprintf(f, "</section>\n");
}

/* The archived FULL=1 run's paragraph of the report: its date, revision, machine and time. */
static void archive_paragraph(FILE *f, const slpi_audit *a, json_t *arch)
{
    if (arch) {
        char rev[64];
        fprintf(f, "<p><b>Archived FULL=1 run</b> (the papers' sizes, column &ldquo;FULL&rdquo;): ");
        html_text(f,
                  json_string_value(json_object_get(arch, "date")) ? json_string_value(json_object_get(arch, "date"))
                                                                   : "undated");
        fprintf(f, ", revision <code>%s</code>, ", slpi_audit_archive_rev(arch, rev, sizeof rev));
        html_text(f,
                  json_string_value(json_object_get(arch, "machine"))
                      ? json_string_value(json_object_get(arch, "machine"))
                      : "machine not recorded");
        /* the time of the checks it holds (a --cached-only archive's own run takes 0 s) */
        double secs = 0;
        json_t *cls = json_object_get(arch, "claims");
        for (size_t i = 0; i < json_array_size(cls); i++) {
            json_t *ch = json_object_get(json_array_get(cls, i), "checks");
            for (size_t k = 0; k < json_array_size(ch); k++)
                secs += json_number_value(json_object_get(json_array_get(ch, k), "seconds"));
        }
        fprintf(f,
                "; its checks took %.0f s; its report: <code>%s/index.html</code>. Confirmatory runs "
                "of the rules set after their results (seeds + 1000, docs/claims.md#confirmatory) and the "
                "claims' multiverse runs (docs/claims.md#multiverse) are archived beside it: "
                "<code>%s/confirmatory/</code>, <code>%s/multiverse/</code>; the index of all three is "
                "<code>%s/README.md</code>.</p>\n",
                secs, a->archive, a->archive, a->archive, a->archive);
    }
}

/* The report's flags of the freeze (reports/audit-freeze.c): a changed decision path, a
 * run outside the freeze. */
static void freeze_lines(FILE *f, const slpi_audit *a, const char *frozen)
{
    if (a->rules_changed)
        fprintf(f, "RULES CHANGED: the decision digest is not the one docs/claims.md freezes (%s)\n", frozen);
    if (a->outside[0]) {
        fputs("OUTSIDE THE FREEZE: ", f);
        html_text(f, a->outside);
        fputs("\n", f);
    }
}

static int write_html(const slpi_audit *a, double seconds, const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write", path);
    int count[SLPI_CLAIM_NVERDICTS] = { 0 };
    for (int j = 0; j < a->nclaims; j++) count[a->claims[j].verdict]++;
    fprintf(f,
            "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>slpi claims audit"
            "</title>\n<style>body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;"
            "line-height:1.35}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:4px 6px;"
            "vertical-align:top;font-size:14px;text-align:left}table.sum{width:100%%}table.kv{width:100%%;"
            "margin:.4em 0}table.kv th{width:11em;background:#f4f4f4}code{font-size:12.5px}.cmd{color:#444}"
            ".v{font-weight:bold;padding:1px 5px}.CONFIRMED{background:#d9f2d9}.CONDITIONAL{background:"
            "#fff2cc}.DISCREPANCY{background:#f8d0d0}.UNABLE{background:#e0e0e0}.CRITERION-DEPENDENT,.SEED-DEPENDENT,."
            "SEED-AND-CRITERION-DEPENDENT{"
            "background:#e3d7f5}.INCOMPLETE{background:#ffffff}.o{font-weight:bold}"
            ".o0{color:#176b17}.o1{color:#a05a00}.o2,.o3{color:#666}ul.checks li{margin:.3em 0;"
            "font-size:14px}img.fig{width:100%%;max-width:820px;display:block;margin:.5em 0}"
            "section{border-top:2px solid #ccc;margin-top:1.2em}p.st{font-size:16px}"
            "</style></head><body>\n<h1>slpi &mdash; audit of the numerical claims of three papers</h1>\n");
    fprintf(f, "<p>Papers audited:</p><ul>");
    char cite[512];
    for (int p = 0; p < 3; p++) {
        paper_cite(p, 1, cite, sizeof cite);
        fprintf(f, "<li><b>%s</b>: %s</li>", papers[p].tag, cite);
    }
    char decided[256];
    slpi_audit_decided_counts(a, decided, sizeof decided);
    fprintf(f,
            "</ul>\n<p>%d claims, %d checks, %s sizes, %.0f s wall. Decided over their multiverses "
            "(<a href='#mv'>rule</a>; where none is archived, by this run): %s. This run's own verdicts "
            "(one member of each multiverse): ",
            a->nclaims, a->nchecks, a->full ? "the papers' (FULL=1)" : "reduced", seconds, decided);
    for (int v = 0; v < SLPI_CLAIM_NVERDICTS; v++)
        fprintf(f, "<span class='v %s'>%s %d</span> ", slpi_claim_verdict_name((slpi_claim_verdict)v),
                slpi_claim_verdict_name((slpi_claim_verdict)v), count[v]);
    fprintf(f,
            "</p>\n<p><b>Verdicts.</b> Every claim has decisive checks (a number computed by slpi "
            "against a threshold fixed from the paper's words or marked as our choice) and at least "
            "one control, the same check on a case where it must come out the other way. "
            "<span class='v CONFIRMED'>CONFIRMED</span>: every decisive check is met and every control "
            "behaves. <span class='v CONDITIONAL'>CONDITIONAL</span>: a decisive check is not met but "
            "the stated condition's checks are. <span class='v DISCREPANCY'>DISCREPANCY</span>: a "
            "decisive check is not met and no condition rescues it &mdash; on every variant of the "
            "paper's own setting. <span class='v CRITERION-DEPENDENT'>CRITERION-DEPENDENT</span>: the "
            "paper leaves a choice open (the exponential's rounding, an iteration cap, the reading "
            "of a noise, a size); the readings (variants) are decided one by one and disagree (table "
            "in the claim's section). <span class='v UNABLE'>UNABLE</span>: a check could not be "
            "computed or decided (a slope whose 95%% interval straddles the window, a run not "
            "finished), or a control did not come out as demanded. Slopes are decided on the "
            "batch-bootstrap 95%% interval, never on the point estimate. Reproduce with "
            "<code>make audit</code> (reduced) or <code>make audit FULL=1</code> (the papers' "
            "sizes; resumable; archived in <code>reports/full/</code>).</p>\n");
    fprintf(f,
            "<p id='mv'><b>Multiverse</b> (docs/claims.md#multiverse): a claim declares the choices "
            "the paper leaves open (seed sets, BLAS kernels, libm, fit weights, level ranges); each "
            "combination is a member, one run like this one (<code>make multiverse ONLY=ID</code>). Over "
            "the members (docs/claims.md#labels): INCOMPLETE while one has not run; CONFIRMED or "
            "DISCREPANCY only when all of at least 4 members give it; SEED-DEPENDENT when only the seeds "
            "move the verdict, CRITERION-DEPENDENT when only declared choices do, SEED-AND-CRITERION-"
            "DEPENDENT when both do (\"moved by\" names them). "
            "Each claim's section names the member this run is and the archived verdict over its "
            "members; a claim that declares no choice has one member, and its verdict rests on this "
            "run's seeds, kernel, libm and fit.</p>\n");
    json_t *arch = slpi_audit_archive_load(a);
    archive_paragraph(f, a, arch);
    fprintf(f,
            "<h2>Summary</h2>\n<table class='sum'><tr><th>claim</th><th>the paper says (where)</th>"
            "<th>paper's number</th><th>our number (%s)</th><th>sizes: paper / ours</th><th>verdict (over the "
            "multiverse)</th>%s"
            "</tr>\n",
            a->full ? "FULL" : "reduced", arch ? "<th>FULL (archived)</th>" : "");
    for (int j = 0; j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        const slpi_audit_check *c = first_claim_check(a, cl);
        char ours[1024], size[1024];
        if (cl->nvar) {
            ours[0] = 0;
            for (int w = 0; w < cl->nvar; w++) {
                const slpi_audit_check *vc = NULL;
                for (int i = cl->first; !vc && i < cl->first + cl->count; i++)
                    if (a->checks[i].role == SLPI_ROLE_CLAIM && a->checks[i].variant == w) vc = &a->checks[i];
                char m[160] = "";
                if (vc)
                    slpi_audit_measured_words(vc->check, vc->value, slpi_audit_number(vc, "lo"),
                                              slpi_audit_number(vc, "hi"), m, sizeof m);
                size_t l = strlen(ours);
                snprintf(ours + l, sizeof ours - l, "%s%s: %s (%s)", w ? "; " : "", cl->var[w].label, m,
                         slpi_claim_verdict_name(cl->var[w].verdict));
            }
        } else {
            slpi_audit_measured_words(c->check, c->value, slpi_audit_number(c, "lo"), slpi_audit_number(c, "hi"), ours,
                                      sizeof ours);
        }
        slpi_audit_claim_size_words(a, cl, size, sizeof size);
        fprintf(f, "<tr><td><a href='#%s'>%s</a></td><td>", cl->id, cl->id);
        html_short(f, cl->statement, 120);
        fprintf(f, " <small>(");
        html_text(f, cl->source);
        fprintf(f, ")</small><br><small>");
        html_short(f, strcmp(cl->why, "-") ? cl->why_text : cl->reason, 170);
        fprintf(f, "</small></td><td>");
        html_short(f, cl->magnitude, 120);
        fprintf(f, "</td><td>");
        html_text(f, ours);
        fprintf(f, "</td><td>");
        html_short(f, cl->paper_size, 120);
        fprintf(f, " / ");
        html_text(f, size);
        decided_html(f, a, cl, "</td><td class='v %s'>%s<br><small>", "</small></td>");
        archive_cell(f, a, arch, cl, "<td>", "</td>");
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    for (int p = 0; p < 4; p++) {
        paper_cite(p, 1, cite, sizeof cite);
        fprintf(f, "<h2>%s: %s</h2>\n", papers[p].tag, cite);
        for (int j = 0; j < a->nclaims; j++)
            if (paper_of(&a->claims[j]) == p) claim_section(f, a, &a->claims[j], arch);
    }
    json_decref(arch);
    fprintf(f, "<h2>Provenance</h2><pre>");
    char *prov = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&prov, &plen);
    slpi_provenance_write(pf, "");
    slpi_audit_loaded_write(pf);
    fclose(pf);
    html_text(f, prov);
    free(prov);
    json_t *dg = json_object();
    slpi_audit_digests(a, dg);
    fprintf(f, "seed offset %lld; fit %s, levels %s; registry digest %s; build digest %s; rules digest %s\n",
            (long long)json_integer_value(json_object_get(dg, "seed_offset")),
            json_string_value(json_object_get(dg, "fit")), json_string_value(json_object_get(dg, "levels")),
            json_string_value(json_object_get(dg, "registry_digest")),
            json_string_value(json_object_get(dg, "build_digest")),
            json_string_value(json_object_get(dg, "rules_digest")));
    freeze_lines(f, a, json_string_value(json_object_get(dg, "frozen_digest")));
    json_decref(dg);
    fprintf(f, "</pre><p>Machine-readable: <a href='claims.json'>claims.json</a>.</p></body></html>\n");
    int bad = ferror(f);
    if (fclose(f) || bad) return slpi_error_set(err, SLPI_ENUMERIC, "%s: cannot write", path);
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
