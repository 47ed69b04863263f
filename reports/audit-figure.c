/* audit-figure.c — gnuplot figures of the claims audit (docs/claims.md): each check writes its
 * data to data/<name>.tsv and a script figures/<name>.gp, rendered to SVG (the page) and
 * PNG (full size on click) at a size legible at page width. gnuplot is spawned and waited
 * for, not run by system(3), which would ignore SIGINT while it waits: Ctrl-C stops the
 * audit after the figure in hand (core/interrupt.c). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "slpi/limits.h"
#include "reports/audit-checks.h"

void slpi_audit_plot(const slpi_audit *a, const slpi_audit_check *c, const char *name, const char *size,
                     const char *xlabel, const char *ylabel, const char *preamble, const char *body)
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
        fprintf(f, "set terminal %s size %s font 'sans,%d'%s\nset output '%s/figures/%s.%s'\n", t ? "pngcairo" : "svg",
                size ? size : "820,540", t ? 13 : 15, t ? "" : " dynamic", a->outdir, name, t ? "png" : "svg");
        fprintf(f,
                "set termoption noenhanced\nset title \"%s\"\nset xlabel \"%s\"\nset ylabel \"%s\"\n"
                "set key left top\n%s\nset datafile separator '\\t'\nset datafile commentschars '#'\n"
                "set grid\n%s\n",
                title, xlabel, ylabel, preamble, body);
    }
    fclose(f);
    extern char **environ;
    char *argv[] = { "gnuplot", path, NULL };
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status = -1, ok = 0;
    if (posix_spawn_file_actions_init(&fa) == 0) {
        ok = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0) == 0 &&
            posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ) == 0;
        posix_spawn_file_actions_destroy(&fa);
    }
    if (ok)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(stderr, "audit: gnuplot failed on %s\n", path);
}
