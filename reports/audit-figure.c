/* audit-figure.c — gnuplot figures of the claims audit (docs/claims.md): each check writes its
 * data to data/<name>.tsv and a script figures/<name>.gp, rendered to SVG (the page) and
 * PNG (full size on click) at a size legible at page width. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/audit-checks.h"

void slpi_audit_plot(const slpi_audit *a, const slpi_audit_check *c, const char *name,
                     const char *size, const char *xlabel, const char *ylabel,
                     const char *preamble, const char *body)
{
    char path[SLPI_PATH_MAX + 64], title[600];
    /* which check this is (a control's figure must not pass for the claim's): id, role,
     * check, and on a second line the case */
    snprintf(title, sizeof title, "%s (%s): %s%s%s", c->id, slpi_audit_role_words(c->role), c->check,
             strcmp(c->kase, "-") ? "\\n" : "", strcmp(c->kase, "-") ? c->kase : "");
    snprintf(path, sizeof path, "%s/figures/%s.gp", a->outdir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "audit: cannot write %s\n", path);
        return;
    }
    for (int t = 0; t < 2; t++) {
        fprintf(f, "set terminal %s size %s font 'sans,%d'%s\nset output '%s/figures/%s.%s'\n",
                t ? "pngcairo" : "svg", size ? size : "820,540", t ? 13 : 15, t ? "" : " dynamic",
                a->outdir, name, t ? "png" : "svg");
        fprintf(f, "set termoption noenhanced\nset title \"%s\"\nset xlabel \"%s\"\nset ylabel \"%s\"\n"
                "set key left top\n%s\nset datafile separator '\\t'\nset datafile commentschars '#'\n"
                "set grid\n%s\n", title, xlabel, ylabel, preamble, body);
    }
    fclose(f);
    char cmd[2 * SLPI_PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", path);
    if (system(cmd) != 0) fprintf(stderr, "audit: gnuplot failed on %s\n", path);
}
