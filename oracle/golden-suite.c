/* golden-suite.c — the golden cases as a suite (regeneration and the fast-vs-certified check): regenerate
 * the files of a folder (`make golden`, `slpi golden --write`), and check every case
 * on both paths with the table of the worst scores per scheme x system pair. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stddef.h>

#include "core/view-grid.h"
#include "core/clock.h"
#include "slpi/errors.h"
#include "slpi/output.h"
#include "slpi/tools.h"
#include "core/progress.h"

static void case_path(const char *dir, const char *name, char *buf, size_t n)
{
    char file[200];
    slpi_golden_file_name(name, file, sizeof file);
    snprintf(buf, n, "%s/%s", dir, file);
}

int slpi_golden_save(const char *path, const slpi_golden *g, slpi_error *err)
{
    slpi_output *o; /* core/output.c: a whole file or the old one, never half */
    int rc = slpi_output_open(&o, path, SLPI_OUTPUT_REPLACE, err);
    if (rc == SLPI_OK && slpi_golden_write(slpi_output_file(o), g) != SLPI_OK) {
        slpi_output_abort(o);
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: write error", path);
    } else if (rc == SLPI_OK) {
        rc = slpi_output_commit(o, err);
    }
    return rc;
}

int slpi_golden_regenerate(const char *dir, const char *only, FILE *log, slpi_error *err)
{
    int found = 0;
    long ncases = 0;
    for (const char *const *c = slpi_golden_cases(); *c; c++) ncases += !only || strcmp(only, *c) == 0;
    slpi_progress *pg = slpi_progress_begin("golden --write, cases", ncases);
    for (const char *const *c = slpi_golden_cases(); *c; c++) {
        if (only && strcmp(only, *c) != 0) continue;
        found = 1;
        char path[SLPI_PATH_MAX];
        case_path(dir, *c, path, sizeof path);
        slpi_golden g;
        double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
        int rc = slpi_golden_make(*c, &g, err);
        if (rc != SLPI_OK) {
            slpi_progress_end(pg);
            return rc;
        }
        rc = slpi_golden_save(path, &g, err);
        if (log && rc == SLPI_OK)
            fprintf(log, "wrote %s (%ld steps, %.2f s)\n", path, slpi_view_grid(g.problem)->steps,
                    slpi_clock_seconds(CLOCK_MONOTONIC) - t0);
        slpi_golden_clear(&g);
        slpi_progress_add(pg, 1);
        if (rc != SLPI_OK) {
            slpi_progress_end(pg);
            return rc;
        }
    }
    slpi_progress_end(pg);
    if (!found) return slpi_error_set(err, SLPI_EINPUT, "golden case '%s': unknown (see `slpi golden --list`)", only);
    return SLPI_OK;
}

/* Worst scores of one scheme x system pair. */
typedef struct {
    char pair[128];
    int cases;
    long steps;
    slpi_verdict ref, fast;
    int inside; /* fresh ref balls inside the stored ones, every case */
    slpi_score state, inv;
    double seconds;
} pair_row;

static void pair_of(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name);
    char *s = strchr(buf, '/');
    if (s && (s = strchr(s + 1, '/'))) *s = '\0';
}

static void print_table(FILE *f, const pair_row *rows, int n)
{
    fprintf(f, "%-28s %5s %5s %9s %12s %12s %-6s %-6s %-6s %6s\n", "pair (worst case)", "cases", "steps", "max ulps",
            "state ratio", "inv ratio", "ref", "inside", "fast", "s");
    for (int i = 0; i < n; i++) {
        const pair_row *r = rows + i;
        char ulps[32];
        if (r->state.max_ulps < 0)
            snprintf(ulps, sizeof ulps, "-");
        else
            snprintf(ulps, sizeof ulps, "%.0f", r->state.max_ulps);
        fprintf(f, "%-28s %5d %5ld %9s %12.3g %12.3g %-6s %-6s %-6s %6.2f\n", r->pair, r->cases, r->steps, ulps,
                r->state.hi, r->inv.hi, slpi_verdict_name(r->ref), r->inside ? "yes" : "no", slpi_verdict_name(r->fast),
                r->seconds);
    }
    fprintf(f,
            "ratios: |fast - exact| / (n u scale), certified upper bounds; threshold %g. ref: the fresh\n"
            "certified balls overlap the stored ones (inside: and lie inside them)\n",
            SLPI_ORACLE_THRESHOLD);
}

int slpi_golden_check_files(int n, const char *const *paths, const char *const *names, FILE *report,
                            slpi_verdict *verdict, slpi_error *err)
{
    int nrows = 0, rc = SLPI_OK;
    pair_row *rows = calloc((size_t)(n > 0 ? n : 1), sizeof *rows);
    *verdict = SLPI_VERDICT_PASS;
    slpi_progress *pg = slpi_progress_begin("golden, cases", n);
    char pair[128] = ""; /* the pair of the case read last ("": none read) */
    for (int c = 0; c < n && rc == SLPI_OK; c++, slpi_progress_add(pg, 1)) {
        slpi_golden g;
        slpi_golden_result res;
        double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
        pair[0] = '\0';
        if ((rc = slpi_golden_read(paths[c], &g, err)) != SLPI_OK) break;
        if (names && strcmp(g.name, names[c]) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: holds case '%s', expected '%s'", paths[c], g.name, names[c]);
        if (rc == SLPI_OK) rc = slpi_golden_check(&g, &res, err);
        if (rc == SLPI_EINTR) /* Ctrl-C in its certified walk: name the case */
            slpi_error_set(err, rc, "interrupted in case '%s' (%d of %d cases checked)", g.name, c, n);
        long steps = slpi_view_grid(g.problem)->steps;
        pair_of(g.name, pair, sizeof pair);
        if (rc == SLPI_OK && report && slpi_verdict_worse(res.ref, res.fast) != SLPI_VERDICT_PASS)
            fprintf(report, "%s: %s: %s\n", g.name, slpi_verdict_name(slpi_verdict_worse(res.ref, res.fast)), res.msg);
        slpi_golden_clear(&g);
        if (rc != SLPI_OK) break;
        *verdict = slpi_verdict_worse(*verdict, slpi_verdict_worse(res.ref, res.fast));
        pair_row *r = NULL;
        for (int i = 0; i < nrows && !r; i++)
            if (strcmp(rows[i].pair, pair) == 0) r = rows + i;
        if (!r) {
            r = rows + nrows++;
            snprintf(r->pair, sizeof r->pair, "%s", pair);
            r->state.max_ulps = r->inv.max_ulps = -1;
            r->inside = 1;
        }
        r->inside &= res.ref_encloses;
        r->cases++;
        if (steps > r->steps) r->steps = steps;
        r->ref = slpi_verdict_worse(r->ref, res.ref);
        r->fast = slpi_verdict_worse(r->fast, res.fast);
        slpi_score_merge(&r->state, &res.state);
        slpi_score_merge(&r->inv, &res.inv);
        r->seconds += slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    }
    slpi_progress_end(pg);
    /* stopped (interrupted, or a case unreadable or not the one expected): the rows of the
     * pairs whose every case was checked, so the report is the start of the whole one; the
     * last row is one of them only when the case that stopped starts another pair */
    if (rc != SLPI_OK && nrows > 0 && (!pair[0] || strcmp(rows[nrows - 1].pair, pair) == 0)) nrows--;
    if (report && nrows > 0) print_table(report, rows, nrows);
    free(rows);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths of the *.golden files of dir, sorted by name, into *out (*n of them). */
static int dir_files(const char *dir, char ***out, int *n, slpi_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return slpi_error_set(err, SLPI_EINPUT, "--dir %s: cannot open the folder: %s", dir, strerror(errno));
    char **p = NULL;
    int k = 0, rc = SLPI_OK;
    for (struct dirent *e; rc == SLPI_OK && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, ".golden") != 0 || e->d_name[0] == '.') continue;
        char **q = realloc(p, (size_t)(k + 1) * sizeof *q);
        if (q) p = q;
        if (!q || !(p[k] = malloc(strlen(dir) + len + 2))) {
            rc = slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
            break;
        }
        sprintf(p[k++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (rc == SLPI_OK && k == 0) rc = slpi_error_set(err, SLPI_EINPUT, "--dir %s: no .golden files", dir);
    if (rc == SLPI_OK) qsort(p, (size_t)k, sizeof *p, by_name);
    *out = p;
    *n = k;
    return rc;
}

int slpi_golden_check_dir(const char *dir, FILE *report, slpi_verdict *verdict, slpi_error *err)
{
    const char *const *names = dir ? NULL : slpi_golden_cases();
    char **paths = NULL;
    int n = 0, rc = SLPI_OK;
    if (dir) {
        rc = dir_files(dir, &paths, &n, err);
    } else { /* the built-in cases, each in its own file: a missing one is an error */
        dir = slpi_golden_dir();
        while (names[n]) n++;
        paths = calloc((size_t)n, sizeof *paths);
        for (int i = 0; paths && i < n && rc == SLPI_OK; i++)
            if ((paths[i] = malloc(SLPI_PATH_MAX)))
                case_path(dir, names[i], paths[i], SLPI_PATH_MAX);
            else
                rc = slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
        if (!paths) rc = slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
    }
    if (rc == SLPI_OK) rc = slpi_golden_check_files(n, (const char *const *)paths, names, report, verdict, err);
    for (int i = 0; paths && i < n; i++) free(paths[i]);
    free(paths);
    return rc;
}
