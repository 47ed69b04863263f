/* golden.c — the golden-case file format "slpi-golden 1": writer and validating reader
 * (the oracle's stored certified cases; docs/design.md#formats). A golden case depends on nothing but its file:
 * the problem, the initial state and every increment are stored exactly, and the
 * certified balls are what the ref path (docs/conventions.md#two-paths) proved about the exact discrete
 * result of the scheme on those inputs. (docs/architecture.md lists the golden format among core's
 * file formats; it lives here because only oracle/ reads or writes it and it needs the
 * ref path's balls. The reader is one function, slpi_golden_read, for fuzzing.)
 *
 * Format (text, one record per line, fields separated by one TAB):
 *   # slpi-golden 1                 first line: format name and version
 *   # key=value                     case=NAME, what=TEXT, the promises
 *                                   checkpoints=S1,S2,... (the checkpoint steps, all
 *                                   present, in this order) and invariants=N1,N2,...
 *                                   (the invariant names every checkpoint holds, in this
 *                                   order; may be empty) — a file with a checkpoint
 *                                   block or an invariant line removed is refused —
 *                                   then provenance (slpi, git, Arb, FLINT, MPFR, GMP,
 *                                   OpenBLAS core, libc, compiler, flags), informative
 *   problem<TAB>key=value           the whole problem (slpi_problem_write): it goes
 *                                   through slpi_problem_set_all and _finish, so it
 *                                   round-trips like a file for slpi_problem_load
 *   x0<TAB>v1<TAB>...<TAB>vdim      the initial state, core's layout, hex floats (%a)
 *   dW<TAB>n<TAB>w1<TAB>...<TAB>wM  the M increments of step n, hex floats, for
 *                                   n = 0 .. steps-1 in order (after truncation)
 *   checkpoint<TAB>step<TAB>prec    a checkpoint after `step` steps (increasing,
 *                                   1 <= step <= steps), balls computed at prec bits
 *   state<TAB>i<TAB>name<TAB>ball   state coordinate i = 0 .. dim-1, in order
 *   inv<TAB>name<TAB>ball           invariants (the ref path's names), >= 0 of them
 *   end                             last line
 * Balls are Arb's decimal "mid +/- rad" (or an exact "mid"), readable by arb_set_str;
 * the decimal rounding is inside the radius. Doubles may be written in any form
 * strtod reads exactly (the writer uses %a). Every error names file:line. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem.h"
#include "slpi/diag.h"
#include "slpi/tools.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/problem-finish.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "core/problem-store.h"
#include "oracle/oracle.h"
#include "core/parse.h"

#define GOLDEN_LINE "# slpi-golden 1"
#define BALL_READ_PREC 512
#define GOLDEN_MAX_VALUES (1 << 24) /* increments: golden cases are short */

void slpi_golden_clear(slpi_golden *g)
{
    for (int i = 0; i < g->nhead; i++) {
        free(g->head_key[i]);
        free(g->head_val[i]);
    }
    free(g->head_key);
    free(g->head_val);
    for (int c = 0; c < g->ncheck; c++) {
        slpi_golden_checkpoint *k = g->check + c;
        if (k->state) _arb_vec_clear(k->state, g->dim);
        if (k->inv) _arb_vec_clear(k->inv, SLPI_MAX_DIAG);
        for (int i = 0; i < k->ninv; i++) free(k->inv_name[i]);
        free(k->inv_name);
    }
    free(g->check);
    free(g->x0);
    free(g->dW);
    slpi_problem_free(g->problem);
    memset(g, 0, sizeof *g);
}

/* A ball as Arb's "mid +/- rad" decimal, enough digits for prec bits. */
static void write_ball(FILE *f, const arb_t x, long prec)
{
    char *s = arb_get_str(x, (slong)((double)prec * 0.30103) + 3, 0);
    size_t n = strlen(s);
    int bracket = n >= 2 && s[0] == '[' && s[n - 1] == ']';
    const char *body = bracket ? s + 1 : s;
    int len = bracket ? (int)n - 2 : (int)n;
    fprintf(f, "%s%.*s", strncmp(body, "+/-", 3) == 0 ? "0 " : "", len, body);
    flint_free(s);
}

static void write_hex_row(FILE *f, int n, const double *v)
{
    for (int i = 0; i < n; i++) fprintf(f, "\t%a", v[i]);
    fputc('\n', f);
}

int slpi_golden_write(FILE *f, const slpi_golden *g)
{
    fprintf(f, "%s\n# case=%s\n# what=%s\n# checkpoints=", GOLDEN_LINE, g->name, g->what);
    for (int c = 0; c < g->ncheck; c++) fprintf(f, "%s%ld", c ? "," : "", g->check[c].step);
    fputs("\n# invariants=", f);
    for (int i = 0; g->ncheck > 0 && i < g->check[0].ninv; i++)
        fprintf(f, "%s%s", i ? "," : "", g->check[0].inv_name[i]);
    fputc('\n', f);
    for (int i = 0; i < g->nhead; i++) fprintf(f, "# %s=%s\n", g->head_key[i], g->head_val[i]);
    slpi_problem_write(g->problem, f, "problem\t");
    fputs("x0", f);
    write_hex_row(f, g->dim, g->x0);
    for (long n = 0; n < slpi_view_grid(g->problem)->steps; n++) {
        fprintf(f, "dW\t%ld", n);
        write_hex_row(f, g->M, g->dW + n * g->M);
    }
    for (int c = 0; c < g->ncheck; c++) {
        const slpi_golden_checkpoint *k = g->check + c;
        fprintf(f, "checkpoint\t%ld\t%ld\n", k->step, k->prec);
        for (int i = 0; i < g->dim; i++) {
            char name[64];
            slpi_problem_state_name(g->problem, i, name, sizeof name);
            fprintf(f, "state\t%d\t%s\t", i, name);
            write_ball(f, k->state + i, k->prec);
            fputc('\n', f);
        }
        for (int i = 0; i < k->ninv; i++) {
            fprintf(f, "inv\t%s\t", k->inv_name[i]);
            write_ball(f, k->inv + i, k->prec);
            fputc('\n', f);
        }
    }
    fputs("end\n", f);
    return ferror(f) ? SLPI_EINPUT : SLPI_OK;
}

/* ------------------------------------------------------------------ reader */

typedef struct {
    const char *path;
    long line;
    slpi_error *err;
} where;

static int bad(const where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const where *w, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return slpi_error_set(w->err, SLPI_EINPUT, "%s:%ld: %s", w->path, w->line, msg);
}

/* Split a line into TAB-separated fields in place; *field is reallocated to hold them. */
static int split_tabs(char *line, char ***field, int *cap)
{
    int n = 1;
    for (const char *s = line; *s; s++) n += *s == '\t';
    if (n > *cap) {
        *cap = n;
        *field = realloc(*field, (size_t)n * sizeof(char *));
    }
    char *s = line;
    for (int i = 0; i < n; i++) {
        (*field)[i] = s;
        char *t = strchr(s, '\t');
        if (t) *t = '\0', s = t + 1;
    }
    return n;
}

static int parse_double(const char *s, double *v)
{
    return slpi_parse_binary64(s, v) == 0 ? 0 : -1;
}

static int parse_long(const char *s, long *v)
{
    return slpi_parse_long("", s, LONG_MIN, LONG_MAX, v, NULL) == SLPI_OK ? 0 : -1;
}

static int parse_ball(const char *s, arb_t b)
{
    if (!*s || isspace((unsigned char)s[0])) return -1;
    if (arb_set_str(b, s, BALL_READ_PREC) != 0 || !arb_is_finite(b)) return -1;
    return 0;
}

/* Reader state: which records have been seen. */
typedef struct {
    int nkeys, cap;
    char **keys, **vals, **wh;
    int problem_done, have_x0, ended;
    char **field; /* the fields of the current line */
    int field_cap;
    long ndw;
    int state_next;       /* next state index expected in the current checkpoint */
    char *promised_steps; /* the header's checkpoints=... and invariants=..., */
    char *promised_inv;
    long steps_line, inv_line; /* and their lines */
} reader;

/* A finished problem a golden file can hold and --check run again: its own data, within
 * GOLDEN_MAX_VALUES increments. */
static int golden_holds(const slpi_problem *p, slpi_error *err)
{
    const slpi_noise_view *noise = slpi_view_noise(p);
    const slpi_system_view *sys = slpi_view_system(p);
    const char *key = sys->x0_file[0] ? "x0_file"
        : noise->noise_file[0]        ? "noise_file"
        : sys->ez.noise_fields[0]     ? "noise_fields"
        : noise->seed_from_file       ? "seed"
                                      : NULL;
    const char *val = sys->x0_file[0] ? sys->x0_file
        : noise->noise_file[0]        ? noise->noise_file
        : sys->ez.noise_fields[0]     ? sys->ez.noise_fields
                                      : "file";
    if (key)
        return slpi_error_set(
            err, SLPI_EINPUT,
            "%s=%.300s: the problem reads a file, and a golden case holds its own "
            "data (problem, x0, increments): golden --check could never run it (docs/models.md#golden)",
            key, val);
    int M = slpi_problem_noise_count(p);
    if (slpi_view_grid(p)->steps > GOLDEN_MAX_VALUES / (M + 1))
        return slpi_error_set(err, SLPI_EINPUT, "steps=%ld with M = %d: more increments than a golden case holds (%d)",
                              slpi_view_grid(p)->steps, M, GOLDEN_MAX_VALUES);
    return SLPI_OK;
}

int slpi_golden_check_problem(const slpi_problem *p, slpi_error *err)
{
    char *text = NULL, **keys = NULL, **vals = NULL;
    size_t len = 0;
    int n = 0, rc = SLPI_OK;
    FILE *m = open_memstream(&text, &len);
    if (!m) return slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
    slpi_problem_write(p, m, "");
    if (fclose(m) != 0 || !text) return slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
    for (char *c = text; *c; c++) n += *c == '\n';
    keys = calloc((size_t)n + 1, sizeof *keys);
    vals = calloc((size_t)n + 1, sizeof *vals);
    n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); keys && vals && line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        keys[n] = line;
        vals[n++] = eq + 1;
    }
    slpi_problem *q = slpi_problem_alloc();
    if (!keys || !vals || !q) rc = slpi_error_set(err, SLPI_EINPUT, "golden: out of memory");
    if (rc == SLPI_OK) rc = slpi_problem_build(q, NULL, NULL, n, keys, vals, NULL, err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(q, err);
    if (rc == SLPI_OK) rc = golden_holds(q, err);
    slpi_problem_free(q);
    free(keys);
    free(vals);
    free(text);
    return rc;
}

static int finish_problem(slpi_golden *g, reader *r, const where *w)
{
    if (r->nkeys == 0) return bad(w, "no 'problem' lines before this record");
    if (!g->problem && !(g->problem = slpi_problem_alloc())) return bad(w, "out of memory");
    slpi_problem_init(g->problem, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_build(g->problem, NULL, NULL, r->nkeys, r->keys, r->vals, (const char *const *)r->wh, w->err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(g->problem, w->err);
    if (rc != SLPI_OK && strncmp(w->err->msg, w->path, strlen(w->path)) != 0) {
        char msg[sizeof w->err->msg];
        snprintf(msg, sizeof msg, "%s", w->err->msg);
        return bad(w, "the problem (complete at this line): %s", msg);
    }
    if (rc != SLPI_OK) return rc;
    slpi_error herr;
    if (golden_holds(g->problem, &herr) != SLPI_OK) return bad(w, "%s", herr.msg);
    g->dim = slpi_problem_state_dim(g->problem);
    g->M = slpi_problem_noise_count(g->problem);
    g->x0 = calloc((size_t)g->dim, sizeof(double));
    g->dW = calloc((size_t)(slpi_view_grid(g->problem)->steps * g->M + 1), sizeof(double));
    r->problem_done = 1;
    return SLPI_OK;
}

static int read_problem(reader *r, const where *w, int nf, char **f)
{
    if (r->problem_done) return bad(w, "'problem' line after the x0 line");
    char *eq = nf == 2 ? strchr(f[1], '=') : NULL;
    if (!eq || eq == f[1]) return bad(w, "expected 'problem<TAB>key=value'");
    if (r->nkeys == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->keys = realloc(r->keys, (size_t)r->cap * sizeof(char *));
        r->vals = realloc(r->vals, (size_t)r->cap * sizeof(char *));
        r->wh = realloc(r->wh, (size_t)r->cap * sizeof(char *));
    }
    *eq = '\0';
    r->keys[r->nkeys] = strdup(f[1]);
    r->vals[r->nkeys] = strdup(eq + 1);
    char buf[SLPI_PATH_MAX + 32];
    snprintf(buf, sizeof buf, "%s:%ld", w->path, w->line);
    r->wh[r->nkeys] = strdup(buf);
    r->nkeys++;
    return SLPI_OK;
}

static int read_x0(slpi_golden *g, reader *r, const where *w, int nf, char **f)
{
    if (r->have_x0) return bad(w, "second x0 line");
    int rc = finish_problem(g, r, w);
    if (rc != SLPI_OK) return rc;
    if (nf != g->dim + 1) return bad(w, "x0 has %d values, the state has %d", nf - 1, g->dim);
    for (int i = 0; i < g->dim; i++)
        if (parse_double(f[i + 1], &g->x0[i]) != 0)
            return bad(w, "x0 value %d '%s' is not a finite double", i + 1, f[i + 1]);
    double *given = calloc((size_t)g->dim, sizeof(double));
    int explicit_x0 = slpi_problem_explicit_x0(g->problem, given, w->err);
    int same = explicit_x0 <= 0 || memcmp(given, g->x0, (size_t)g->dim * sizeof(double)) == 0;
    free(given);
    if (explicit_x0 < 0) return w->err->code;
    if (!same) return bad(w, "x0 line differs from the problem's x0 key");
    r->have_x0 = 1;
    return SLPI_OK;
}

static int read_dw(slpi_golden *g, reader *r, const where *w, int nf, char **f)
{
    long n;
    if (!r->have_x0) return bad(w, "dW line before the x0 line");
    if (g->ncheck > 0) return bad(w, "dW line after a checkpoint");
    if (nf < 2 || parse_long(f[1], &n) != 0 || n != r->ndw)
        return bad(w, "expected increments of step %ld, found '%s'", r->ndw, nf > 1 ? f[1] : "");
    if (n >= slpi_view_grid(g->problem)->steps)
        return bad(w, "step %ld: the problem has only %ld steps", n, slpi_view_grid(g->problem)->steps);
    if (nf != g->M + 2) return bad(w, "step %ld has %d increments, the problem has M = %d", n, nf - 2, g->M);
    for (int k = 0; k < g->M; k++)
        if (parse_double(f[k + 2], &g->dW[n * g->M + k]) != 0)
            return bad(w, "increment %d of step %ld, '%s', is not a finite double", k + 1, n, f[k + 2]);
    r->ndw++;
    return SLPI_OK;
}

static int close_checkpoint(const slpi_golden *g, const reader *r, const where *w)
{
    if (g->ncheck > 0 && r->state_next != g->dim)
        return bad(w, "checkpoint at step %ld has %d of %d state balls", g->check[g->ncheck - 1].step, r->state_next,
                   g->dim);
    return SLPI_OK;
}

static int read_checkpoint(slpi_golden *g, reader *r, const where *w, int nf, char **f)
{
    long step, prec;
    if (!r->have_x0) return bad(w, "checkpoint before the x0 line");
    if (r->ndw != slpi_view_grid(g->problem)->steps)
        return bad(w, "%ld dW lines before the first checkpoint, the problem has %ld steps", r->ndw,
                   slpi_view_grid(g->problem)->steps);
    int rc = close_checkpoint(g, r, w);
    if (rc != SLPI_OK) return rc;
    if (nf != 3 || parse_long(f[1], &step) != 0 || parse_long(f[2], &prec) != 0)
        return bad(w, "expected 'checkpoint<TAB>step<TAB>prec'");
    if (step < 1 || step > slpi_view_grid(g->problem)->steps || (g->ncheck > 0 && step <= g->check[g->ncheck - 1].step))
        return bad(w, "checkpoint step %ld is not in 1..%ld above the previous one", step,
                   slpi_view_grid(g->problem)->steps);
    if (prec < 32 || prec > 1 << 20) return bad(w, "checkpoint precision %ld bits out of range", prec);
    g->check = realloc(g->check, (size_t)(g->ncheck + 1) * sizeof *g->check);
    slpi_golden_checkpoint *k = g->check + g->ncheck++;
    memset(k, 0, sizeof *k);
    k->step = step;
    k->prec = prec;
    k->state = _arb_vec_init(g->dim);
    r->state_next = 0;
    return SLPI_OK;
}

static int read_state(slpi_golden *g, reader *r, const where *w, int nf, char **f)
{
    long i;
    if (g->ncheck == 0) return bad(w, "state line before a checkpoint");
    slpi_golden_checkpoint *k = g->check + g->ncheck - 1;
    if (k->ninv > 0) return bad(w, "state line after the invariants");
    if (nf != 4 || parse_long(f[1], &i) != 0) return bad(w, "expected 'state<TAB>i<TAB>name<TAB>ball'");
    if (i != r->state_next) return bad(w, "state index %ld, expected %d", i, r->state_next);
    if (i >= g->dim) return bad(w, "state index %ld beyond the state dimension %d", i, g->dim);
    char name[64];
    slpi_problem_state_name(g->problem, (int)i, name, sizeof name);
    if (strcmp(name, f[2]) != 0) return bad(w, "state %ld is named '%s', the problem calls it '%s'", i, f[2], name);
    if (parse_ball(f[3], k->state + i) != 0) return bad(w, "'%s' is not a finite ball 'mid +/- rad'", f[3]);
    r->state_next++;
    return SLPI_OK;
}

static int read_inv(slpi_golden *g, reader *r, const where *w, int nf, char **f)
{
    if (g->ncheck == 0) return bad(w, "inv line before a checkpoint");
    int rc = close_checkpoint(g, r, w);
    if (rc != SLPI_OK) return rc;
    slpi_golden_checkpoint *k = g->check + g->ncheck - 1;
    if (nf != 3 || f[1][0] == '\0') return bad(w, "expected 'inv<TAB>name<TAB>ball'");
    if (k->ninv == SLPI_MAX_DIAG) return bad(w, "more than %d invariants", SLPI_MAX_DIAG);
    arb_t b;
    arb_init(b);
    int ok = parse_ball(f[2], b) == 0;
    if (ok) {
        if (!k->inv) k->inv = _arb_vec_init(SLPI_MAX_DIAG);
        k->inv_name = realloc(k->inv_name, (size_t)(k->ninv + 1) * sizeof(char *));
        k->inv_name[k->ninv] = strdup(f[1]);
        arb_swap(k->inv + k->ninv, b);
        k->ninv++;
    }
    arb_clear(b);
    return ok ? SLPI_OK : bad(w, "'%s' is not a finite ball 'mid +/- rad'", f[2]);
}

static int read_record(slpi_golden *g, reader *r, const where *w, char *line)
{
    if (r->ended) return bad(w, "text after the 'end' line");
    if (line[0] == '#') {
        const char *s = line + 1;
        while (*s == ' ') s++;
        const char *eq = strchr(s, '=');
        if (!eq || eq == s) return bad(w, "expected a '# key=value' header line");
        if (r->nkeys > 0 || r->have_x0) return bad(w, "header line after the problem");
        if (strncmp(s, "case=", 5) == 0)
            snprintf(g->name, sizeof g->name, "%s", eq + 1);
        else if (strncmp(s, "what=", 5) == 0)
            snprintf(g->what, sizeof g->what, "%s", eq + 1);
        else if (strncmp(s, "checkpoints=", 12) == 0 || strncmp(s, "invariants=", 11) == 0) {
            char **slot = s[0] == 'c' ? &r->promised_steps : &r->promised_inv;
            if (*slot) return bad(w, "second '%.*s' header line", (int)(eq - s), s);
            *slot = strdup(eq + 1);
            *(s[0] == 'c' ? &r->steps_line : &r->inv_line) = w->line;
        } else {
            g->head_key = realloc(g->head_key, (size_t)(g->nhead + 1) * sizeof(char *));
            g->head_val = realloc(g->head_val, (size_t)(g->nhead + 1) * sizeof(char *));
            g->head_key[g->nhead] = strndup(s, (size_t)(eq - s));
            g->head_val[g->nhead] = strdup(eq + 1);
            g->nhead++;
        }
        return SLPI_OK;
    }
    int nf = split_tabs(line, &r->field, &r->field_cap);
    char **f = r->field;
    if (strcmp(f[0], "problem") == 0) return read_problem(r, w, nf, f);
    if (strcmp(f[0], "x0") == 0) return read_x0(g, r, w, nf, f);
    if (strcmp(f[0], "dW") == 0) return read_dw(g, r, w, nf, f);
    if (strcmp(f[0], "checkpoint") == 0) return read_checkpoint(g, r, w, nf, f);
    if (strcmp(f[0], "state") == 0) return read_state(g, r, w, nf, f);
    if (strcmp(f[0], "inv") == 0) return read_inv(g, r, w, nf, f);
    if (strcmp(f[0], "end") == 0 && nf == 1) {
        if (g->ncheck == 0) return bad(w, "'end' before any checkpoint");
        int rc = close_checkpoint(g, r, w);
        r->ended = 1;
        return rc;
    }
    return bad(w, "unknown record '%.40s'", f[0]);
}

/* The header's promises against what the file holds: every promised checkpoint step,
 * in order, and in each checkpoint every promised invariant, in order. */
static int check_promises(const slpi_golden *g, const reader *r, const where *w)
{
    if (!r->promised_steps || !r->promised_inv)
        return slpi_error_set(w->err, SLPI_EINPUT, "%s: no '# %s=' header line (the file must state what it holds)",
                              w->path, r->promised_steps ? "invariants" : "checkpoints");
    where at = { w->path, r->steps_line, w->err };
    char *steps = strdup(r->promised_steps), *save = NULL, name[32];
    int c = 0, rc = SLPI_OK;
    snprintf(name, sizeof name, "checkpoints:");
    for (char *tok = strtok_r(steps, ",", &save); tok && rc == SLPI_OK; tok = strtok_r(NULL, ",", &save), c++) {
        long step;
        if (slpi_parse_long(name, tok, 1, LONG_MAX, &step, w->err) != SLPI_OK)
            rc = bad(&at, "%s", w->err->msg);
        else if (c >= g->ncheck || g->check[c].step != step)
            rc = bad(&at, "the header promises a checkpoint at step %ld; the file %s", step,
                     c < g->ncheck ? "has another one in its place" : "lacks it");
    }
    free(steps);
    if (rc == SLPI_OK && c != g->ncheck)
        rc = bad(&at, "the file holds %d checkpoints, the header promises %d", g->ncheck, c);
    at.line = r->inv_line;
    for (int k = 0; k < g->ncheck && rc == SLPI_OK; k++) {
        const slpi_golden_checkpoint *ck = g->check + k;
        char *names = strdup(r->promised_inv);
        int i = 0;
        save = NULL;
        for (char *tok = strtok_r(names, ",", &save); tok && rc == SLPI_OK; tok = strtok_r(NULL, ",", &save), i++)
            if (i >= ck->ninv || strcmp(ck->inv_name[i], tok) != 0)
                rc = bad(&at,
                         "the header promises the invariant '%s' in every checkpoint; the checkpoint at step %ld %s",
                         tok, ck->step, i < ck->ninv ? "has another one in its place" : "lacks it");
        if (rc == SLPI_OK && i != ck->ninv)
            rc = bad(&at, "the checkpoint at step %ld holds %d invariants, the header promises %d", ck->step, ck->ninv,
                     i);
        free(names);
    }
    return rc;
}

int slpi_golden_read(const char *path, slpi_golden *g, slpi_error *err)
{
    memset(g, 0, sizeof *g);
    FILE *fp = slpi_input_open(path, err);
    if (!fp) return SLPI_EINPUT;
    reader r;
    memset(&r, 0, sizeof r);
    where w = { path, 0, err };
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = SLPI_OK;
    while (rc == SLPI_OK && (len = getline(&line, &cap, fp)) >= 0) {
        w.line++;
        if (len == 0 || line[len - 1] != '\n') {
            rc = bad(&w, "truncated line (file ends without a newline)");
            break;
        }
        line[--len] = '\0';
        if ((rc = slpi_parse_text_line(path, w.line, line, (size_t)len, err)) != SLPI_OK) break;
        if (w.line == 1) {
            if (strcmp(line, GOLDEN_LINE) != 0)
                rc = strncmp(line, "# slpi-golden ", 14) == 0
                    ? bad(&w, "unsupported version '%.40s' (this slpi reads '%s')", line + 2, GOLDEN_LINE)
                    : bad(&w, "not a golden file (expected '%s')", GOLDEN_LINE);
            continue;
        }
        rc = read_record(g, &r, &w, line);
    }
    free(line);
    if (rc == SLPI_OK && ferror(fp)) rc = slpi_error_set(err, SLPI_EINPUT, "%s: read error", path);
    if (rc == SLPI_OK && w.line == 0) rc = slpi_error_set(err, SLPI_EINPUT, "%s: empty file", path);
    if (rc == SLPI_OK && !r.ended)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s:%ld: file ends before the 'end' line", path, w.line);
    if (rc == SLPI_OK && g->name[0] == '\0')
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: no '# case=' header line", path);
    if (rc == SLPI_OK) rc = check_promises(g, &r, &w);
    fclose(fp);
    free(r.promised_steps);
    free(r.promised_inv);
    for (int i = 0; i < r.nkeys; i++) {
        free(r.keys[i]);
        free(r.vals[i]);
        free(r.wh[i]);
    }
    free(r.keys);
    free(r.vals);
    free(r.wh);
    free(r.field);
    if (rc != SLPI_OK) slpi_golden_clear(g);
    return rc;
}
