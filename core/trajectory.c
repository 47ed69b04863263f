/* trajectory.c — the trajectory TSV format (docs/design.md#formats), writer and validating reader.
 *
 * Format "slpi-trajectory 1":
 *   # slpi-trajectory 1                  first line, format name and version
 *   # key=value                          arith=fast|ref, provenance, the whole
 *                                        problem (slpi_problem_write)
 *   step<TAB>t<TAB>col...                one line of column names (no '#')
 *   0<TAB>0<TAB>value...                 one line per written step
 * Values are doubles written so they round-trip (%.17g, or %a with hex output) — or,
 * for the ref path, Arb balls "mid +/- rad" in decimal that arb_set_str reads back.
 * A file that ends in the middle of a line (a killed run) is reported as truncated.
 * The reader validates the version line, header syntax, column count, every numeric
 * field (no NaN in any column: a failed step is never written), and reports
 * file:line: problem. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slpi.h"

#define FORMAT_LINE "# slpi-trajectory 1"

int slpi_traj_write_header(FILE *f, const slpi_problem *p, const char *path_name, int ncols,
                           const char *const *cols)
{
    fprintf(f, "%s\n", FORMAT_LINE);
    fprintf(f, "# arith=%s\n", path_name);
    slpi_provenance_write(f, "# ");
    slpi_problem_write(p, f, "# ");
    fputs("step\tt", f);
    for (int i = 0; i < ncols; i++) fprintf(f, "\t%s", cols[i]);
    fputc('\n', f);
    return ferror(f) ? SLPI_EINPUT : SLPI_OK;
}

void slpi_traj_write_row(FILE *f, long step, double t, int n, const double *v, int hex)
{
    fprintf(f, "%ld\t%.17g", step, t);
    for (int i = 0; i < n; i++) fprintf(f, hex ? "\t%a" : "\t%.17g", v[i]);
    fputc('\n', f);
}

void slpi_traj_free(slpi_traj *t)
{
    for (int i = 0; i < t->nhead; i++) { free(t->head_key[i]); free(t->head_val[i]); }
    for (int i = 0; i < t->ncols; i++) free(t->col[i]);
    free(t->head_key); free(t->head_val); free(t->col);
    free(t->step); free(t->mid); free(t->rad);
    memset(t, 0, sizeof *t);
}

const char *slpi_traj_header(const slpi_traj *t, const char *key)
{
    for (int i = 0; i < t->nhead; i++)
        if (strcmp(t->head_key[i], key) == 0) return t->head_val[i];
    return NULL;
}

int slpi_traj_column(const slpi_traj *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->col[i], name) == 0) return i;
    return -1;
}

/* A cell (modified in place): a double, or a ball "mid +/- rad" (exact binary64
 * fields, core/parse.c; subnormals are exact). Returns 0 on success. */
static int parse_cell(char *s, double *mid, double *rad)
{
    char *pm = strstr(s, "+/-"), *r = NULL;
    *rad = 0.0;
    if (pm) {
        r = pm + 3;
        while (*r == ' ') r++;
        while (pm > s && pm[-1] == ' ') pm--;
        *pm = '\0';
    }
    if (slpi_parse_binary64(s, mid) != 0) return -1;
    return r && (slpi_parse_binary64(r, rad) != 0 || *rad < 0) ? -1 : 0;
}

/* realloc that keeps *p on failure: 0, or -1 (out of memory). */
static int grow(void *p, size_t bytes)
{
    void *q = realloc(*(void **)p, bytes ? bytes : 1);
    if (!q) return -1;
    *(void **)p = q;
    return 0;
}

static int push_header(slpi_traj *t, const char *line)
{
    const char *eq = strchr(line, '=');
    if (!eq) return 0;   /* a free comment line */
    if (grow(&t->head_key, (size_t)(t->nhead + 1) * sizeof(char *)) ||
        grow(&t->head_val, (size_t)(t->nhead + 1) * sizeof(char *)))
        return -1;
    char *k = strndup(line, (size_t)(eq - line)), *v = strdup(eq + 1);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    t->head_key[t->nhead] = k;
    t->head_val[t->nhead] = v;
    t->nhead++;
    return 0;
}

/* An allocation that failed while reading line `lineno`, named as such (not as the
 * end of the file: a 2.2 GB line once read as 'no column line'). */
static int out_of_memory(const char *path, long lineno, slpi_error *err)
{
    return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: out of memory reading the file (a line or a file larger "
                          "than the memory this process may use)", path, lineno);
}

int slpi_traj_read(const char *path, slpi_traj *t, slpi_error *err)
{
    memset(t, 0, sizeof *t);
    FILE *f = slpi_input_open(path, err);
    if (!f) return SLPI_EINPUT;
    size_t cap = 0;
    char *line = NULL;
    ssize_t len;
    long lineno = 0, rows_cap = 0;
    int rc = SLPI_OK, cells_cap = 0;
    char **cells = NULL;
    while ((errno = 0, len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len == 0 || line[len - 1] != '\n') {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: truncated line (file ends without a newline)",
                                path, lineno);
            break;
        }
        line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0';   /* CRLF: a port's text mode */
        if (slpi_parse_text_line(path, lineno, line, (size_t)len, err) != SLPI_OK) {
            rc = SLPI_EINPUT;
            break;
        }
        if (lineno == 1) {
            if (strncmp(line, "# slpi-trajectory ", 18) != 0) {
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:1: not an slpi trajectory (expected '%s')", path,
                                    FORMAT_LINE);
                break;
            }
            if (strcmp(line, FORMAT_LINE) != 0) {
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:1: unsupported version '%s' (this slpi reads '%s')",
                                    path, line + 2, FORMAT_LINE);
                break;
            }
            continue;
        }
        if (line[0] == '#') {
            const char *s = line + 1;
            while (*s == ' ') s++;
            if (push_header(t, s) != 0) {
                rc = out_of_memory(path, lineno, err);
                break;
            }
            continue;
        }
        /* split on tabs (as many cells as the line holds: su(64) rows have > 4096) */
        int n = 0;
        char *save = NULL;
        for (char *c = strtok_r(line, "\t", &save); c; c = strtok_r(NULL, "\t", &save)) {
            if (n == cells_cap) {
                cells_cap = cells_cap ? 2 * cells_cap : 64;
                if (grow(&cells, (size_t)cells_cap * sizeof *cells)) {
                    rc = out_of_memory(path, lineno, err);
                    break;
                }
            }
            cells[n++] = c;
        }
        if (rc != SLPI_OK) break;
        if (t->ncols == 0 && t->col == NULL) {
            if (n < 2 || strcmp(cells[0], "step") != 0 || strcmp(cells[1], "t") != 0) {
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: expected the column line 'step<TAB>t<TAB>...'",
                                    path, lineno);
                break;
            }
            t->col = calloc((size_t)(n > 2 ? n - 2 : 1), sizeof(char *));
            if (!t->col) {
                rc = out_of_memory(path, lineno, err);
                break;
            }
            t->ncols = n - 2;
            for (int i = 2; i < n && rc == SLPI_OK; i++)
                if (!(t->col[i - 2] = strdup(cells[i]))) rc = out_of_memory(path, lineno, err);
            if (rc != SLPI_OK) break;
            continue;
        }
        if (n != t->ncols + 2) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: %d columns, the header names %d", path, lineno, n,
                                t->ncols + 2);
            break;
        }
        if (t->nrows == rows_cap) {
            rows_cap = rows_cap ? 2 * rows_cap : 64;
            if (grow(&t->step, (size_t)rows_cap * sizeof(long)) ||
                grow(&t->mid, (size_t)rows_cap * (size_t)(t->ncols + 1) * sizeof(double)) ||
                grow(&t->rad, (size_t)rows_cap * (size_t)(t->ncols + 1) * sizeof(double))) {
                rc = out_of_memory(path, lineno, err);
                break;
            }
        }
        long step;
        if (slpi_parse_long("", cells[0], 0, LONG_MAX, &step, NULL) != SLPI_OK
            || (t->nrows > 0 && step <= t->step[t->nrows - 1])) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: step '%s' is not a non-negative integer above the previous one",
                                path, lineno, cells[0]);
            break;
        }
        t->step[t->nrows] = step;
        double *m = t->mid + (size_t)t->nrows * (size_t)(t->ncols + 1);
        double *r = t->rad + (size_t)t->nrows * (size_t)(t->ncols + 1);
        for (int i = 1; i < n && rc == SLPI_OK; i++)
            if (parse_cell(cells[i], &m[i - 1], &r[i - 1]) != 0)
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: column %d (%s): '%s' is not a finite number or ball",
                                    path, lineno, i + 1, i == 1 ? "t" : t->col[i - 2], cells[i]);
        if (rc != SLPI_OK) break;
        t->nrows++;
    }
    if (rc == SLPI_OK && len < 0 && errno == ENOMEM) rc = out_of_memory(path, lineno + 1, err);
    free(line);
    free(cells);
    if (rc == SLPI_OK && ferror(f)) rc = slpi_error_set(err, SLPI_EINPUT, "%s: read error", path);
    if (rc == SLPI_OK && lineno == 0) rc = slpi_error_set(err, SLPI_EINPUT, "%s: empty file", path);
    if (rc == SLPI_OK && t->col == NULL)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: no column line", path);
    fclose(f);
    if (rc != SLPI_OK) slpi_traj_free(t);
    return rc;
}
