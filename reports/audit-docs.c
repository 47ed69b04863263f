/* audit-docs.c — the per-claim entries of docs/claims.md, generated from the claims
 * registry (reports/claims.txt) alone, so that the docs and the registry cannot disagree:
 * for each claim its statement, the paper's words it tests (quoted, with location), what
 * the paper reports and at what size, the rule that decides it, the thresholds and sizes
 * that are our choice (with the reason), its variants, its checks and the verdict the
 * registry expects. `slpi audit --docs FILE` writes them; reports/claims-docs.sh splices
 * them into docs/claims.md and tests/reports/t-audit-docs.sh fails on any difference. No number
 * measured by a run appears here: the measured texts are in the report. */
#include <ctype.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "reports/audit.h"

/* Markdown-safe text: '|' and '*' escaped, '<' '>' as entities. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '`') fputc('\\', f);
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

static void claim_entry(FILE *f, const slpi_audit *a, const slpi_audit_claim *cl)
{
    char anchor[16];
    size_t i = 0;
    for (; cl->id[i] && i + 1 < sizeof anchor; i++) anchor[i] = (char)tolower((unsigned char)cl->id[i]);
    anchor[i] = 0;
    fprintf(f, "<a id=\"%s\"></a>\n#### %s — ", anchor, cl->id);
    md_text(f, cl->source);
    if (strcmp(cl->expected, cl->expected_full))
        fprintf(f, " · expected **%s** (reduced), **%s** (FULL=1, the papers' sizes)\n\n", cl->expected,
                cl->expected_full);
    else
        fprintf(f, " · expected **%s**\n\n", cl->expected);
    md_text(f, cl->statement);
    fprintf(f, "\n\n");
    if (cl->quote[0]) {
        fprintf(f, "- the paper's words: ");
        md_text(f, cl->quote);
        fprintf(f, "\n");
    }
    fprintf(f, "- the paper reports: ");
    md_text(f, cl->magnitude);
    fprintf(f, "; size: ");
    md_text(f, cl->paper_size);
    fprintf(f, "\n- rule: ");
    md_text(f, cl->rule[0] ? cl->rule : "(none stated)");
    fprintf(f, "\n");
    if (cl->choices[0]) {
        fprintf(f, "- our choices (not in the paper): ");
        md_text(f, cl->choices);
        fprintf(f, "\n");
    }
    for (int v = 0; v < cl->nvar; v++) {
        fprintf(f, "%s`%s`: ", v ? "; " : "- variants (decided one by one): ", cl->var[v].label);
        md_text(f, cl->var[v].what);
        if (v == cl->nvar - 1) fprintf(f, "\n");
    }
    fprintf(f, "- multiverse ([rule](#multiverse)): ");
    md_text(f, cl->multiverse[0] ? cl->multiverse : "one member (no choice declared)");
    fprintf(f, "\n- checks:");
    for (int k = cl->first; k < cl->first + cl->count; k++) {
        const slpi_audit_check *c = &a->checks[k];
        fprintf(f, "%s %s%s%s `", k > cl->first ? ";" : "", slpi_audit_role_words(c->role), c->vlabel[0] ? " @" : "",
                c->vlabel);
        fputs(c->check, f);
        fprintf(f, "` on `%s`", c->kase);
        if (strcmp(c->full, "-")) fprintf(f, " (FULL: `%s`)", c->full);
    }
    fprintf(f, "\n\n");
}

int slpi_audit_docs(const slpi_audit *a, FILE *f)
{
    static const struct {
        char key;
        const char *title;
    } part[] = {
        { 'R', "[RKMK] — TMK on the heavy top and sine-Euler" },
        { 'I', "[ISO] — the isospectral midpoint method" },
        { 'V', "[SVI] — variational integrators with the Cayley map" },
        { 'X', "Across the papers" },
    };
    for (int p = 0; p < 4; p++) {
        fprintf(f, "### %s\n\n", part[p].title);
        for (int j = 0; j < a->nclaims; j++)
            if (a->claims[j].id[0] == part[p].key) claim_entry(f, a, &a->claims[j]);
    }
    return ferror(f) ? SLPI_EINPUT : SLPI_OK;
}
