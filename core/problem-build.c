/* problem-build.c — problem files and the one problem builder (slpi_problem_build, slpi.h):
 * the defaults, a preset, a key file (key=value lines, '#' comments, errors at file:line)
 * and the given keys, each source giving a key once, the keys that reset defaults first
 * (slpi_problem_set_all of core/problem-keys.c, through whose table every key goes). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-build.h"
#include "core/problem-struct.h"
#include "core/problem.h"
#include "core/parse.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err)
{
    FILE *f = slpi_input_open(path, err);
    if (!f) return SLPI_EINPUT;
    enum { MAXL = 256 };
    char *k[MAXL], *v[MAXL], *where[MAXL];
    int n = 0, rc = SLPI_OK, lineno = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) { /* fgets stops at a NUL byte's line end only */
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s", path, lineno,
                                strlen(line) < sizeof line - 1 ? "NUL byte in the line" : "line too long");
            break;
        }
        if (lineno == 1 && slpi_parse_text_line(path, 1, line, strlen(line), err) != SLPI_OK) { /* a BOM */
            rc = SLPI_EINPUT;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (*s == '\0') continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected key=value, got '%s'", path, lineno, s);
            break;
        }
        if (n == MAXL) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: too many keys", path, lineno);
            break;
        }
        *eq = '\0';
        char loc[SLPI_PATH_MAX + 32];
        snprintf(loc, sizeof loc, "%s:%d", path, lineno);
        k[n] = strdup(trim(s));
        v[n] = strdup(trim(eq + 1));
        where[n] = strdup(loc);
        n++;
        if (!k[n - 1] || !v[n - 1] || !where[n - 1]) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: out of memory", path, lineno);
            break;
        }
    }
    if (rc == SLPI_OK && ferror(f)) rc = slpi_error_set(err, SLPI_EINPUT, "%s: read error", path);
    fclose(f);
    /* a file the key file names, by a relative path: relative to the key file's folder */
    const char *slash = strrchr(path, '/');
    for (int i = 0; rc == SLPI_OK && slash && i < n; i++) {
        if (!slpi_problem_key_is_path(k[i]) || v[i][0] == '/' || !v[i][0]) continue;
        size_t len = (size_t)(slash - path) + 1 + strlen(v[i]) + 1;
        char *joined = malloc(len);
        if (!joined) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", where[i]);
            break;
        }
        snprintf(joined, len, "%.*s/%s", (int)(slash - path), path, v[i]);
        free(v[i]);
        v[i] = joined;
    }
    if (rc == SLPI_OK) rc = slpi_problem_set_all(p, n, k, v, (const char *const *)where, err);
    for (int i = 0; i < n; i++) {
        free(k[i]);
        free(v[i]);
        free(where[i]);
    }
    return rc;
}

/* The one problem builder (slpi.h): the defaults, the preset, the key file (with the reset
 * keys among the given ones applied before it: a file's keys then refine the system and
 * scheme the command names), then the given keys. */
int slpi_problem_build(slpi_problem *p, const char *preset, const char *config, int nk, char *const *keys,
                       char *const *vals, const char *const *where, slpi_error *err)
{
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = preset ? slpi_problem_preset(p, preset, err) : SLPI_OK;
    int reset[256], nreset = 0;
    if (rc == SLPI_OK && config) {
        char *rk[256], *rv[256];
        const char *rw[256];
        for (int i = 0; i < nk && nreset < 256; i++)
            if (!strcmp(keys[i], "preset") || !strcmp(keys[i], "system") || !strcmp(keys[i], "scheme")) {
                reset[nreset] = i;
                rk[nreset] = keys[i];
                rv[nreset] = vals[i];
                rw[nreset++] = where ? where[i] : NULL;
            }
        rc = slpi_problem_set_all(p, nreset, rk, rv, where ? rw : NULL, err);
        int given = -1; /* the scheme named beside the file, which the file may not change */
        for (int r = 0; r < nreset; r++)
            if (!strcmp(rk[r], "scheme")) given = r;
        slpi_scheme_id k = p->sch.scheme;
        if (rc == SLPI_OK) rc = slpi_problem_load(p, config, err);
        if (rc == SLPI_OK && given >= 0 && p->sch.scheme != k)
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "%sscheme=%s is given, but %s sets scheme=%s: a key file "
                                "would override it; name the scheme in one place (docs/models.md#keys)",
                                where && rw[given] ? rw[given] : "", slpi_scheme_name(k), config,
                                slpi_scheme_name(p->sch.scheme));
    }
    if (rc != SLPI_OK || nk == 0) return rc;
    if (nreset == 0) return slpi_problem_set_all(p, nk, keys, vals, where, err);
    /* the remaining keys, in their order */
    char **ok = malloc((size_t)nk * sizeof *ok), **ov = malloc((size_t)nk * sizeof *ov);
    const char **ow = malloc((size_t)nk * sizeof *ow);
    if (!ok || !ov || !ow) {
        free(ok);
        free(ov);
        free(ow);
        return slpi_error_set(err, SLPI_EINPUT, "problem: out of memory for %d keys", nk);
    }
    int m = 0;
    for (int i = 0, r = 0; i < nk; i++) {
        if (r < nreset && reset[r] == i) {
            r++;
            continue;
        }
        ok[m] = keys[i];
        ov[m] = vals[i];
        ow[m++] = where ? where[i] : NULL;
    }
    rc = m ? slpi_problem_set_all(p, m, ok, ov, where ? ow : NULL, err) : SLPI_OK;
    free(ok);
    free(ov);
    free(ow);
    return rc;
}
