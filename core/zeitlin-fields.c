/* zeitlin-fields.c — the Zeitlin family's noise fields file (key noise_fields,
 * core/zeitlin-family.h, docs/systems.md#zeitlin-family): read, counted when the key is
 * set (M, which the problem's shape needs before slpi_problem_finish), checked against N
 * and its recorded digest when the problem is finished, read again by each path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "core/problem-struct.h"
#include "core/digest.h"
#include "core/zeitlin-family.h"
#include "core/parse.h"

/* One line of the fields file (its text s, comments cut) into row[0..n) (row NULL: check
 * only): finite numbers, exactly n = N^2 - 1 of them when n > 0. */
static int fields_line(double *row, const char *path, int lineno, char *s, int n, slpi_error *err)
{
    char *save = NULL, where[SLPI_PATH_MAX + 64];
    int count = 0;
    for (char *tok = strtok_r(s, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        double v;
        snprintf(where, sizeof where, "%s:%d: coefficient %d", path, lineno, count + 1);
        if (slpi_parse_double(where, tok, -1e12, 1e12, &v, err) != SLPI_OK) return SLPI_EINPUT;
        if (row && count < n) row[count] = v;
        count++;
    }
    if (n > 0 && count != n)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%d: %d coefficients, a field of su(N) has N^2-1 = %d (one line per "
                              "xi_k, ordered l = 1..N-1, m = 0, 1, -1, ..., l, -l)%s",
                              path, lineno, count, n, count == n + 1 ? "; l = 0, the trace, is not a coefficient" : "");
    return SLPI_OK;
}

int slpi_zeitlin_fields_read(const char *path, int N, double **xi, int *M, uint64_t *digest, slpi_error *err)
{
    int n = N > 0 ? N * N - 1 : 0, lineno = 0, rc = SLPI_OK;
    FILE *f = slpi_input_open(path, err);
    if (!f) return SLPI_EINPUT;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    double *all = NULL;
    *M = 0;
    *digest = SLPI_FNV_INIT;
    while (rc == SLPI_OK && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        *digest = slpi_fnv1a(*digest, line, (size_t)len);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (slpi_parse_text_line(path, lineno, line, (size_t)len, err) != SLPI_OK) {
            rc = SLPI_EINPUT;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        if (strspn(line, " \t,") == strlen(line)) continue; /* blank or a comment */
        double *row = NULL;
        if (xi) {
            double *grown = realloc(all, ((size_t)*M + 1) * (size_t)n * sizeof *all);
            if (!grown) {
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: out of memory", path, lineno);
                break;
            }
            all = grown;
            row = all + (size_t)*M * (size_t)n;
        }
        rc = fields_line(row, path, lineno, line, n, err);
        if (rc == SLPI_OK) ++*M;
    }
    free(line);
    fclose(f);
    if (rc == SLPI_OK && *M == 0)
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "%s: no fields: one line of N^2-1 coefficients per xi_k "
                            "(docs/systems.md#zeitlin-family)",
                            path);
    if (rc != SLPI_OK || !xi)
        free(all);
    else
        *xi = all;
    return rc;
}

int slpi_zeitlin_fields_count(slpi_problem *p, slpi_error *err)
{
    p->sys.ez.n_fields = 0;
    p->sys.ez.noise_fields_digest = 0;
    if (!p->sys.ez.noise_fields[0]) return SLPI_OK;
    return slpi_zeitlin_fields_read(p->sys.ez.noise_fields, 0, NULL, &p->sys.ez.n_fields,
                                    &p->sys.ez.noise_fields_digest, err);
}

int slpi_zeitlin_fields_bind(slpi_problem *p, slpi_error *err)
{
    int M;
    uint64_t digest;
    int rc = slpi_zeitlin_fields_read(p->sys.ez.noise_fields, p->sys.ez.N, NULL, &M, &digest, err);
    if (rc == SLPI_OK && p->sys.ez.noise_fields_digest && p->sys.ez.noise_fields_digest != digest)
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "noise_fields=%s: the file's digest is %llu, the problem records "
                            "noise_fields_digest=%llu: the file changed",
                            p->sys.ez.noise_fields, (unsigned long long)digest,
                            (unsigned long long)p->sys.ez.noise_fields_digest);
    if (rc != SLPI_OK) return rc;
    p->sys.ez.n_fields = M;
    p->sys.ez.noise_fields_digest = digest;
    return SLPI_OK;
}
