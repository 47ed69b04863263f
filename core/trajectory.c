/* trajectory.c — the trajectory TSV format (docs/design.md#formats), writer and validating reader.
 *
 * Format "slpi-trajectory 1":
 *   # slpi-trajectory 1                  first line, format name and version
 *   # key=value                          arith=fast|ref, state_columns=NAME,...
 *                                        (the columns that hold the state, in its
 *                                        layout: slpi_problem_state_name), provenance,
 *                                        the whole problem (slpi_problem_write)
 *   step<TAB>t<TAB>col...                one line of column names (no '#')
 *   0<TAB>0<TAB>value...                 one line per written step
 * Values are doubles written so they round-trip (%.17g, or %a with hex output) — or,
 * for the ref path, Arb balls "mid +/- rad" in decimal that arb_set_str reads back.
 * A file that ends in the middle of a line (a killed run) is reported as truncated, and
 * a '#' line after the column line as an error (the header ends there). In the header,
 * a '#' line with '=' is a key=value line whose key is a name (letters, digits, '_', '.';
 * anything else is refused, saying so), a '#' line without '=' a comment, and a '##'
 * line always a comment.
 * The reader validates the version line, header syntax, distinct column names, column
 * count, every numeric field (no NaN in any column: a failed step is never written), and
 * reports file:line: problem. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/process.h"
#include "slpi/version.h"
#include "slpi/trajectory.h"
#include "slpi/problem-shape.h"
#include "core/parse.h"
#include "core/fpmode.h"

#define FORMAT_LINE "# slpi-trajectory 1"

int slpi_traj_write_header(FILE *f, const slpi_problem *p, const char *path_name, int ncols, const char *const *cols)
{
    fprintf(f, "%s\n", FORMAT_LINE);
    fprintf(f, "# arith=%s\n# state_columns=", path_name);
    for (int i = 0, dim = slpi_problem_state_dim(p); i < dim && i < ncols; i++)
        fprintf(f, "%s%s", i ? "," : "", cols[i]);
    fputc('\n', f);
    slpi_provenance_write(f, "# ");
    slpi_problem_write(p, f, "# ");
    fputs("step\tt", f);
    for (int i = 0; i < ncols; i++) fprintf(f, "\t%s", cols[i]);
    fputc('\n', f);
    return ferror(f) ? SLPI_EINPUT : SLPI_OK;
}

void slpi_traj_write_row(FILE *f, long step, double t, int n, const double *v, int hex)
{
    slpi_fpmode r = slpi_round_nearest(); /* %.17g reads back as v whatever the caller's direction */
    fprintf(f, "%ld\t%.17g", step, t);
    for (int i = 0; i < n; i++) fprintf(f, hex ? "\t%a" : "\t%.17g", v[i]);
    fputc('\n', f);
    slpi_round_restore(r);
}

void slpi_traj_free(slpi_traj *t)
{
    for (int i = 0; i < t->nhead; i++) {
        free(t->head_key[i]);
        free(t->head_val[i]);
    }
    for (int i = 0; i < t->ncols; i++) free(t->col[i]);
    free(t->head_key);
    free(t->head_val);
    free(t->col);
    free(t->step);
    free(t->mid);
    free(t->rad);
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
    if (!eq) return 0; /* a free comment line */
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

/* qsort's order of two cells: by name, equal names in the line's order (the cells point
 * into the one line, left to right) */
static int by_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcmp(x, y);
    return c ? c : (x > y) - (x < y); /* equal names in the line's order */
}

/* The column line's n names must differ: a column is read by its name (slpi_traj_column,
 * verify's state columns), so a repeated name would let a reader take either copy. Sorted
 * (n log n: a su(1024) state has a million columns); 1, 0 with err set (the first repeated
 * name's two columns, as file:line), -1 out of memory. */
static int distinct_names(char **cells, int n, const char *path, long lineno, slpi_error *err)
{
    char **s = malloc((size_t)n * sizeof *s);
    if (!s) return -1;
    memcpy(s, cells, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, by_name);
    int k = 0;
    while (k + 1 < n && strcmp(s[k], s[k + 1]) != 0) k++;
    int ok = k + 1 >= n;
    if (!ok) {
        int i = 0, j;
        while (cells[i] != s[k]) i++;
        for (j = i + 1; cells[j] != s[k + 1]; j++) continue;
        slpi_error_set(err, SLPI_EINPUT,
                       "%s:%ld: columns %d and %d are both named '%.100s': a column is read by "
                       "its name",
                       path, lineno, i + 1, j + 1, cells[i]);
    }
    free(s);
    return ok;
}

/* An allocation that failed while reading line `lineno`, named as such (not as the
 * end of the file: a 2.2 GB line once read as 'no column line'). */
static int out_of_memory(const char *path, long lineno, slpi_error *err)
{
    return slpi_error_set(err, SLPI_EINPUT,
                          "%s:%ld: out of memory reading the file (a line or a file larger "
                          "than the memory this process may use)",
                          path, lineno);
}

/* The reader: one line, its cells and one row at a time; what it keeps besides the
 * header does not grow with the file. */
struct slpi_traj_reader {
    FILE *f;
    const char *path;
    slpi_traj head;  /* header and columns; nrows counts the rows read */
    long *head_line; /* line of each header entry */
    long lineno, prev_step;
    char *line, **cells;
    size_t cap;
    int cells_cap;
    double *mid, *rad; /* the current row: ncols + 1 each */
};

/* The next line without its newline (CRLF too) and split into cells when it is not a
 * '#' line: 1, 0 at the end of the file, -1 with err set. *n gets the cell count
 * (0 for a '#' line, whose text is r->line). */
static int next_line(slpi_traj_reader *r, int *n, slpi_error *err)
{
    ssize_t len = (errno = 0, getline(&r->line, &r->cap, r->f));
    /* a signal that cut a read from a pipe or a FIFO (a regular file's reads are not cut):
     * Ctrl-C is reported as such, never as the truncated line or read error it leaves */
    if (ferror(r->f) && errno == EINTR && slpi_interrupt_pending())
        return slpi_error_set(err, SLPI_EINTR, "%s: interrupted while reading it, at line %ld", r->path, r->lineno + 1),
               -1;
    if (len < 0) {
        if (errno == ENOMEM) return out_of_memory(r->path, r->lineno + 1, err), -1;
        if (ferror(r->f)) return slpi_error_set(err, SLPI_EINPUT, "%s: read error", r->path), -1;
        return 0;
    }
    r->lineno++;
    char *line = r->line;
    if (len == 0 || line[len - 1] != '\n')
        return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: truncated line (file ends without a newline)", r->path,
                              r->lineno),
               -1;
    line[--len] = '\0';
    if (len > 0 && line[len - 1] == '\r') line[--len] = '\0'; /* CRLF: a port's text mode */
    if (slpi_parse_text_line(r->path, r->lineno, line, (size_t)len, err) != SLPI_OK) return -1;
    *n = 0;
    if (r->lineno == 1 || line[0] == '#') return 1;
    /* split on tabs (as many cells as the line holds: su(64) rows have > 4096) */
    char *save = NULL;
    for (char *c = strtok_r(line, "\t", &save); c; c = strtok_r(NULL, "\t", &save)) {
        if (*n == r->cells_cap) {
            r->cells_cap = r->cells_cap ? 2 * r->cells_cap : 64;
            if (grow(&r->cells, (size_t)r->cells_cap * sizeof *r->cells))
                return out_of_memory(r->path, r->lineno, err), -1;
        }
        r->cells[(*n)++] = c;
    }
    return 1;
}

void slpi_traj_close(slpi_traj_reader *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    slpi_traj_free(&r->head);
    free(r->head_line);
    free(r->line);
    free(r->cells);
    free(r->mid);
    free(r->rad);
    free(r);
}

int slpi_traj_open(slpi_traj_reader **out, const char *path, slpi_error *err)
{
    *out = NULL;
    slpi_traj_reader *r = calloc(1, sizeof *r);
    if (!r) return out_of_memory(path, 0, err);
    r->path = path;
    r->prev_step = -1;
    if (!(r->f = slpi_input_open(path, err))) {
        free(r);
        return SLPI_EINPUT;
    }
    slpi_traj *t = &r->head;
    int n, got;
    while ((got = next_line(r, &n, err)) > 0) {
        char *line = r->line;
        if (r->lineno == 1) {
            if (strncmp(line, "# slpi-trajectory ", 18) != 0)
                got =
                    slpi_error_set(err, SLPI_EINPUT, "%s:1: not an slpi trajectory (expected '%s')", path, FORMAT_LINE);
            else if (strcmp(line, FORMAT_LINE) != 0)
                got = slpi_error_set(err, SLPI_EINPUT, "%s:1: unsupported version '%s' (this slpi reads '%s')", path,
                                     line + 2, FORMAT_LINE);
            if (got != 1) break;
            continue;
        }
        if (line[0] == '#') {
            if (line[1] == '#') continue; /* '##': always a comment */
            const char *s = line + 1;
            while (*s == ' ') s++;
            const char *eq = strchr(s, '='), *e = s;
            while (eq && e < eq && (isalnum((unsigned char)*e) || *e == '_' || *e == '.')) e++;
            if (eq && (e != eq || e == s)) {
                got = slpi_error_set(err, SLPI_EINPUT,
                                     "%s:%ld: a '#' line with '=' is a key=value line, and '%.*s' "
                                     "is not a key (letters, digits, '_', '.'): write a comment as '## ...'",
                                     path, r->lineno, (int)(eq - s > 40 ? 40 : eq - s), s);
                break;
            }
            int had = t->nhead;
            if (push_header(t, s) != 0 || (t->nhead > had && grow(&r->head_line, (size_t)t->nhead * sizeof(long)))) {
                got = out_of_memory(path, r->lineno, err);
                break;
            }
            if (t->nhead > had) r->head_line[had] = r->lineno;
            continue;
        }
        if (n < 2 || strcmp(r->cells[0], "step") != 0 || strcmp(r->cells[1], "t") != 0) {
            got = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: expected the column line 'step<TAB>t<TAB>...'", path,
                                 r->lineno);
            break;
        }
        t->col = calloc((size_t)(n > 2 ? n - 2 : 1), sizeof(char *));
        r->mid = calloc((size_t)n, sizeof(double));
        r->rad = calloc((size_t)n, sizeof(double));
        if (!t->col || !r->mid || !r->rad) {
            got = out_of_memory(path, r->lineno, err);
            break;
        }
        int distinct = distinct_names(r->cells, n, path, r->lineno, err);
        if (distinct != 1) {
            got = distinct < 0 ? out_of_memory(path, r->lineno, err) : -1;
            break;
        }
        t->ncols = n - 2;
        for (int i = 2; i < n && got == 1; i++)
            if (!(t->col[i - 2] = strdup(r->cells[i]))) got = out_of_memory(path, r->lineno, err);
        break;
    }
    if (got == 0)
        got = slpi_error_set(err, SLPI_EINPUT, r->lineno == 0 ? "%s: empty file" : "%s: no column line", path);
    if (got != 1) {
        slpi_traj_close(r);
        return SLPI_EINPUT;
    }
    *out = r;
    return SLPI_OK;
}

const slpi_traj *slpi_traj_head(const slpi_traj_reader *r)
{
    return &r->head;
}

long slpi_traj_header_line(const slpi_traj_reader *r, int i)
{
    return i >= 0 && i < r->head.nhead ? r->head_line[i] : 0;
}

long slpi_traj_line(const slpi_traj_reader *r)
{
    return r->lineno;
}

int slpi_traj_next(slpi_traj_reader *r, slpi_traj_row *row, slpi_error *err)
{
    const slpi_traj *t = &r->head;
    int n, got;
    if ((got = next_line(r, &n, err)) <= 0) return got;
    const char *path = r->path;
    /* the header ends at the column line: a later key could not apply to the rows read
     * before it, and a commented-out row would go unchecked */
    if (r->line[0] == '#')
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: a '#' line among the rows (the header ends at the column "
                              "line)",
                              path, r->lineno),
               -1;
    if (n != t->ncols + 2)
        return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: %d columns, the header names %d", path, r->lineno, n,
                              t->ncols + 2),
               -1;
    long step;
    if (slpi_parse_long("", r->cells[0], 0, LONG_MAX, &step, NULL) != SLPI_OK || step <= r->prev_step)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: step '%s' is not a non-negative integer above the previous one", path, r->lineno,
                              r->cells[0]),
               -1;
    for (int i = 1; i < n; i++)
        if (parse_cell(r->cells[i], &r->mid[i - 1], &r->rad[i - 1]) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: column %d (%s): '%s' is not a finite number or ball", path,
                                  r->lineno, i + 1, i == 1 ? "t" : t->col[i - 2], r->cells[i]),
                   -1;
    r->prev_step = step;
    r->head.nrows++;
    row->step = step;
    row->mid = r->mid;
    row->rad = r->rad;
    return 1;
}

int slpi_traj_read(const char *path, slpi_traj *t, slpi_error *err)
{
    memset(t, 0, sizeof *t);
    slpi_traj_reader *r;
    int rc = slpi_traj_open(&r, path, err);
    if (rc != SLPI_OK) return rc;
    size_t w = (size_t)r->head.ncols + 1;
    long rows_cap = 0, nrows = 0;
    slpi_traj_row row;
    int got;
    while ((got = slpi_traj_next(r, &row, err)) > 0) {
        if (nrows == rows_cap) {
            rows_cap = rows_cap ? 2 * rows_cap : 64;
            if (grow(&t->step, (size_t)rows_cap * sizeof(long)) ||
                grow(&t->mid, (size_t)rows_cap * w * sizeof(double)) ||
                grow(&t->rad, (size_t)rows_cap * w * sizeof(double))) {
                got = out_of_memory(path, slpi_traj_line(r), err);
                break;
            }
        }
        t->step[nrows] = row.step;
        memcpy(t->mid + (size_t)nrows * w, row.mid, w * sizeof(double));
        memcpy(t->rad + (size_t)nrows * w, row.rad, w * sizeof(double));
        nrows++;
    }
    /* the header moves to t with the rows */
    slpi_traj *h = &r->head;
    t->nhead = h->nhead;
    t->head_key = h->head_key;
    t->head_val = h->head_val;
    t->ncols = h->ncols;
    t->col = h->col;
    t->nrows = nrows;
    memset(h, 0, sizeof *h);
    slpi_traj_close(r);
    if (got < 0) {
        slpi_traj_free(t);
        return SLPI_EINPUT;
    }
    return SLPI_OK;
}
