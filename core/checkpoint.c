/* checkpoint.c — run checkpoints (docs/design.md#checkpoints; resumable runs): what `slpi run --checkpoint`
 * writes every N steps and `--resume` continues from, so that the resumed trajectory
 * is byte-identical to an uninterrupted run.
 *
 * Format "slpi-checkpoint" version 2, in the container of core/container.c (a header
 * line, sections each with its line count and digest, an end digest; version 1 had no
 * sections and is refused naming its version). One "key value" per line, in this order:
 *   section counts              the position and the solver's tally:
 *   arith NAME                  path that wrote it: fast | ref
 *   hex 0|1                     trajectory rows as %a (1) or %.17g (0)
 *   dim D                       state doubles, 1..2^20
 *   step S                      steps done; the run continues with step S (0-based)
 *   out_bytes B                 length of the output file at the checkpoint
 *   out_digest HEX16            FNV-1a 64 of those B bytes (checked before appending)
 *   total_iters I               solver iterations over steps 0..S-1
 *   max_iters I   stagnated N   capped N   clipped N   (one per line)
 *   zproduct NAME               present when the run's process formed complex products with
 *                               BLAS (the su(N) kernels): zgemm | zgemm3m, the one a resume
 *                               must form them with (docs/install.md#products); checkpoints
 *                               without it (before 2026-11-28, or no su(N) kernel) pin none
 *   section noise               empty, or with coloured noise (key noise_tau, docs/noise.md#ou):
 *   ou_eta E_1 ... E_M          the OU state eta at step S of each of the M noise
 *                               components, %a (0 for white ones)
 *   section diagnostics
 *   max_radius HEX              ref path: largest output radius so far (%a)
 *   max_prec BITS
 *   ndiag K                     0..SLPI_MAX_DIAG, then K lines
 *   diag FIRST FINAL MAXCHANGE  %a; NaN/Inf allowed (diagnostics of a state)
 *   section problem             the problem, its noise path and (stepper) its x0:
 *   problem_lines L             1..4096, then L lines
 *   problem KEY=VALUE           slpi_problem_write of the run's problem
 *   section state
 *   ntokens T                   1..2^21, then T lines
 *   x TOKEN                     the path's exact state tokens (fast: %a doubles,
 *                               counters, then what the scheme carries from step to
 *                               step, %a: ISOMP's warm start, slpi_fast_carry_get;
 *                               ref: arb_dump_str, which holds spaces: the state's
 *                               balls, then in the Lohner form its set, ref/lohner.c)
 * The container refuses another format or version, a cut file and an edited section by
 * name; then the reader checks each key and its range and the counts, and names
 * file:line. Files are written atomically (core/output.c: a temporary file in the same
 * folder, fsync, rename over PATH, fsync of the folder), so PATH always holds a whole
 * checkpoint (old or new).
 *
 * Batch checkpoints (resumable ensemble studies: `slpi converge --checkpoint`,
 * studies/converge.c), format "slpi-converge-checkpoint" version 2, the same container:
 *   section study
 *   study_lines N               then N lines "study KEY=VALUE": the study's parameters
 *                               (the caller's text: for converge its kind, levels, paths,
 *                               batches, row stride, ... and its problem, slpi_problem_write
 *                               with prefix "problem.")
 *   section batches
 *   done K                      completed batches, then K lines, batch indices increasing
 *   batch B V_1 ... V_S         the batch's row: S = stride %a doubles
 * A resume must find the same study line for line (else "the checkpoint is of another
 * study", naming the first line that differs); rows are stored as %a, so a resumed study
 * computes from exactly the numbers it saved.
 */
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "slpi/output.h"
#include "slpi/run.h"
#include "core/blas.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "core/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CKPT_MAX_DIM (1L << 20)
#define CKPT_MAX_PROBLEM_LINES 4096
#define CKPT_MAX_BYTES (1L << 30)

void slpi_checkpoint_tokens_free(char **x, int n)
{
    if (x)
        for (int i = 0; i < n; i++) free(x[i]);
    free(x);
}

void slpi_checkpoint_free(slpi_checkpoint *c)
{
    slpi_checkpoint_tokens_free(c->x, c->ntokens);
    free(c->problem);
    free(c->ou_eta);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------------ writer */

int slpi_checkpoint_begin(slpi_checkpoint_writer *w)
{
    memset(w, 0, sizeof *w);
    w->f = open_memstream(&w->buf, &w->len);
    return w->f != NULL;
}

void slpi_checkpoint_section(slpi_checkpoint_writer *w, const char *name)
{
    fflush(w->f);
    w->names[w->n] = name;
    w->off[w->n++] = w->len;
}

char *slpi_checkpoint_end(slpi_checkpoint_writer *w, const char *format, int version, size_t *len)
{
    char *text = NULL;
    if (fclose(w->f) == 0) {
        const char *texts[SLPI_CHECKPOINT_MAX_SECTIONS];
        size_t lens[SLPI_CHECKPOINT_MAX_SECTIONS];
        for (int i = 0; i < w->n; i++) {
            texts[i] = w->buf + w->off[i];
            lens[i] = (i + 1 < w->n ? w->off[i + 1] : w->len) - w->off[i];
        }
        text = slpi_container_text(len, format, version, w->n, w->names, texts, lens);
    }
    free(w->buf);
    memset(w, 0, sizeof *w);
    return text;
}

int slpi_checkpoint_commit(slpi_checkpoint_writer *w, const char *path, const char *format, int version,
                           slpi_error *err)
{
    size_t len;
    char *text = slpi_checkpoint_end(w, format, version, &len);
    if (!text) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the checkpoint", path);
    slpi_output *o;
    int rc = slpi_output_open(&o, path, SLPI_OUTPUT_REPLACE, err);
    if (rc == SLPI_OK) {
        fwrite(text, 1, len, slpi_output_file(o));
        rc = slpi_output_commit(o, err);
    }
    free(text);
    return rc;
}

/* The sections of c, in the order the reader reads them. */
static void write_body(slpi_checkpoint_writer *w, const slpi_checkpoint *c)
{
    const slpi_run_result *r = &c->res;
    FILE *f = w->f;
    slpi_checkpoint_section(w, "counts");
    fprintf(f, "arith %s\nhex %d\ndim %d\nstep %ld\nout_bytes %ld\nout_digest %016" PRIx64 "\n", c->arith, c->hex,
            c->dim, c->step, c->out_bytes, c->out_digest);
    fprintf(f, "total_iters %ld\nmax_iters %d\nstagnated %ld\ncapped %ld\nclipped %ld\n", c->total_iters, r->max_iters,
            r->stagnated, r->capped, r->clipped);
    if (c->zproduct[0]) fprintf(f, "zproduct %s\n", c->zproduct);
    slpi_checkpoint_section(w, "noise");
    if (c->nou > 0) {
        fprintf(f, "ou_eta");
        for (int i = 0; i < c->nou; i++) fprintf(f, " %a", c->ou_eta[i]);
        fputc('\n', f);
    }
    slpi_checkpoint_section(w, "diagnostics");
    fprintf(f, "max_radius %a\nmax_prec %ld\nndiag %d\n", r->max_radius, r->max_prec, r->ndiag);
    for (int i = 0; i < r->ndiag; i++)
        fprintf(f, "diag %a %a %a\n", r->diag_first[i], r->diag_final[i], r->diag_maxchange[i]);
    slpi_checkpoint_section(w, "problem");
    int nl = 0;
    for (const char *s = c->problem; *s; s++) nl += *s == '\n';
    fprintf(f, "problem_lines %d\n", nl);
    for (const char *s = c->problem; *s;) {
        const char *e = strchr(s, '\n');
        fprintf(f, "problem %.*s\n", (int)(e - s), s);
        s = e + 1;
    }
    slpi_checkpoint_section(w, "state");
    fprintf(f, "ntokens %d\n", c->ntokens);
    for (int i = 0; i < c->ntokens; i++) fprintf(f, "x %s\n", c->x[i]);
}

int slpi_checkpoint_write(const char *path, const slpi_checkpoint *c, slpi_error *err)
{
    slpi_checkpoint_writer w;
    if (!slpi_checkpoint_begin(&w))
        return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the checkpoint", path);
    write_body(&w, c);
    return slpi_checkpoint_commit(&w, path, SLPI_CKPT_FORMAT, SLPI_CKPT_VERSION, err);
}

char *slpi_checkpoint_format(const slpi_checkpoint *c, size_t *len)
{
    slpi_checkpoint_writer w;
    if (!slpi_checkpoint_begin(&w)) return NULL;
    write_body(&w, c);
    return slpi_checkpoint_end(&w, SLPI_CKPT_FORMAT, SLPI_CKPT_VERSION, len);
}

/* ------------------------------------------------------------------ reader */

int slpi_checkpoint_fail(slpi_checkpoint_reader *r, const char *fmt, const char *detail)
{
    char what[256];
    snprintf(what, sizeof what, fmt, detail);
    return slpi_error_set(r->err, SLPI_EINPUT, "%s:%ld: %s", r->name, r->line, what);
}

/* Past the "section" lines that head the next lines (the container's, core/container.c). */
static void skip_heads(slpi_checkpoint_reader *r)
{
    while (r->isec < r->ix.n && r->line + 1 == r->ix.s[r->isec].line) {
        r->pos = r->text + r->ix.s[r->isec++].body;
        r->line++;
    }
}

int slpi_checkpoint_more(slpi_checkpoint_reader *r)
{
    skip_heads(r);
    return r->pos < r->end;
}

int slpi_checkpoint_last(slpi_checkpoint_reader *r)
{
    if (!slpi_checkpoint_more(r)) return SLPI_OK;
    r->line++;
    return slpi_checkpoint_fail(r, "unexpected line before the end line%s", "");
}

/* The value of the next line "key value"; NULL (err set) if the key differs. */

char *slpi_checkpoint_value(slpi_checkpoint_reader *r, const char *key)
{
    if (!slpi_checkpoint_more(r)) {
        r->line++;
        slpi_checkpoint_fail(r, "truncated checkpoint: missing '%s' line", key);
        return NULL;
    }
    char *s = r->pos, *nl = memchr(s, '\n', (size_t)(r->end - s));
    *nl = '\0';
    r->pos = nl + 1;
    r->line++;
    size_t k = strlen(key);
    if (strncmp(s, key, k) != 0 || s[k] != ' ') {
        slpi_checkpoint_fail(r, "expected the line '%s VALUE'", key);
        return NULL;
    }
    return s + k + 1;
}

int slpi_checkpoint_long(slpi_checkpoint_reader *r, const char *key, long lo, long hi, long *out)
{
    char *v = slpi_checkpoint_value(r, key);
    if (!v) return SLPI_EINPUT;
    if (*v == ' ' || slpi_parse_long(key, v, lo, hi, out, NULL) != SLPI_OK)
        return slpi_checkpoint_fail(r, "bad value for this key: '%s'", v);
    return SLPI_OK;
}

static int read_hex64(slpi_checkpoint_reader *r, const char *key, uint64_t *out)
{
    char *v = slpi_checkpoint_value(r, key);
    if (!v) return SLPI_EINPUT;
    if (strlen(v) != 16 || strspn(v, "0123456789abcdef") != 16)
        return slpi_checkpoint_fail(r, "expected 16 hex digits: '%s'", v);
    *out = strtoull(v, NULL, 16);
    return SLPI_OK;
}

/* A %a double (finite unless allow_nonfinite) from a whole token. */
static int parse_double(const char *s, int allow_nonfinite, double *out)
{
    int rc = slpi_parse_binary64(s, out);
    return rc == 0 || (rc == -2 && allow_nonfinite);
}

/* The line "ou_eta E_1 ... E_M": finite %a doubles, at most CKPT_MAX_DIM. */
static int read_ou(slpi_checkpoint_reader *r, slpi_checkpoint *c)
{
    char *v = slpi_checkpoint_value(r, "ou_eta"), *save = NULL;
    if (!v) return SLPI_EINPUT;
    size_t n = 1;
    for (const char *q = v; *q; q++) n += *q == ' ';
    if (n > CKPT_MAX_DIM || !(c->ou_eta = calloc(n, sizeof *c->ou_eta)))
        return slpi_checkpoint_fail(r, "ou_eta: too many values (%s)", "at most 2^20");
    for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!parse_double(t, 0, &c->ou_eta[c->nou++]))
            return slpi_checkpoint_fail(r, "ou_eta: '%s' is not a finite %%a double", t);
    if (c->nou != (int)n) return slpi_checkpoint_fail(r, "ou_eta: empty values%s", "");
    return SLPI_OK;
}

static int read_header(slpi_checkpoint_reader *r, slpi_checkpoint *c)
{
    char *v = slpi_checkpoint_value(r, "arith");
    if (!v) return SLPI_EINPUT;
    if (strcmp(v, "fast") != 0 && strcmp(v, "ref") != 0)
        return slpi_checkpoint_fail(r, "arith '%s': expected fast or ref", v);
    strcpy(c->arith, v);
    long x;
    if (slpi_checkpoint_long(r, "hex", 0, 1, &x)) return SLPI_EINPUT;
    c->hex = (int)x;
    if (slpi_checkpoint_long(r, "dim", 1, CKPT_MAX_DIM, &x)) return SLPI_EINPUT;
    c->dim = (int)x;
    if (slpi_checkpoint_long(r, "step", 0, (long)1e12, &c->step) ||
        slpi_checkpoint_long(r, "out_bytes", 0, LONG_MAX, &c->out_bytes) ||
        read_hex64(r, "out_digest", &c->out_digest) ||
        slpi_checkpoint_long(r, "total_iters", 0, LONG_MAX, &c->total_iters) ||
        slpi_checkpoint_long(r, "max_iters", 0, INT_MAX, &x))
        return SLPI_EINPUT;
    slpi_run_result *res = &c->res;
    res->max_iters = (int)x;
    if (slpi_checkpoint_long(r, "stagnated", 0, c->step, &res->stagnated) ||
        slpi_checkpoint_long(r, "capped", 0, c->step, &res->capped) ||
        slpi_checkpoint_long(r, "clipped", 0, LONG_MAX, &res->clipped))
        return SLPI_EINPUT;
    if (slpi_checkpoint_more(r) && r->end - r->pos > 9 && strncmp(r->pos, "zproduct ", 9) == 0) {
        v = slpi_checkpoint_value(r, "zproduct");
        if (!v) return SLPI_EINPUT;
        if (slpi_blas_zproduct_env(v) < 0)
            return slpi_checkpoint_fail(r, "zproduct '%s': expected zgemm or zgemm3m", v);
        snprintf(c->zproduct, sizeof c->zproduct, "%s", v);
    }
    if (slpi_checkpoint_more(r) && r->end - r->pos > 7 && strncmp(r->pos, "ou_eta ", 7) == 0 &&
        read_ou(r, c) != SLPI_OK)
        return SLPI_EINPUT;
    if (!(v = slpi_checkpoint_value(r, "max_radius"))) return SLPI_EINPUT;
    if (!parse_double(v, 0, &res->max_radius) || res->max_radius < 0)
        return slpi_checkpoint_fail(r, "max_radius '%s': expected a finite non-negative %%a double", v);
    if (slpi_checkpoint_long(r, "max_prec", 0, LONG_MAX, &res->max_prec) ||
        slpi_checkpoint_long(r, "ndiag", 0, SLPI_MAX_DIAG, &x))
        return SLPI_EINPUT;
    res->ndiag = (int)x;
    for (int i = 0; i < res->ndiag; i++) {
        if (!(v = slpi_checkpoint_value(r, "diag"))) return SLPI_EINPUT;
        char *save = NULL, *a = strtok_r(v, " ", &save), *b = strtok_r(NULL, " ", &save),
             *d = strtok_r(NULL, " ", &save);
        if (!a || !b || !d || strtok_r(NULL, " ", &save) || !parse_double(a, 1, &res->diag_first[i]) ||
            !parse_double(b, 1, &res->diag_final[i]) || !parse_double(d, 1, &res->diag_maxchange[i]))
            return slpi_checkpoint_fail(r, "diag: expected three %%a doubles (first final max-change)%s", "");
    }
    res->steps_done = c->step;
    res->failed_step = -1;
    return SLPI_OK;
}

static int read_problem_and_state(slpi_checkpoint_reader *r, slpi_checkpoint *c)
{
    long nl;
    if (slpi_checkpoint_long(r, "problem_lines", 1, CKPT_MAX_PROBLEM_LINES, &nl)) return SLPI_EINPUT;
    size_t cap = 1, len = 0;
    if (!(c->problem = calloc(1, 1))) return slpi_checkpoint_fail(r, "out of memory%s", "");
    for (long i = 0; i < nl; i++) {
        char *v = slpi_checkpoint_value(r, "problem");
        if (!v) return SLPI_EINPUT;
        if (!strchr(v, '=')) return slpi_checkpoint_fail(r, "problem line '%s' is not key=value", v);
        size_t n = strlen(v);
        cap += n + 1;
        char *grown = realloc(c->problem, cap);
        if (!grown) return slpi_checkpoint_fail(r, "out of memory for the problem lines%s", "");
        c->problem = grown;
        memcpy(c->problem + len, v, n);
        c->problem[len + n] = '\n';
        len += n + 1;
        c->problem[len] = '\0';
    }
    long nt;
    if (slpi_checkpoint_long(r, "ntokens", 1, 2 * CKPT_MAX_DIM, &nt)) return SLPI_EINPUT;
    if (!(c->x = calloc((size_t)nt, sizeof(char *))))
        return slpi_checkpoint_fail(r, "out of memory for the state%s", "");
    for (int i = 0; i < nt; i++) {
        char *v = slpi_checkpoint_value(r, "x");
        if (!v) return SLPI_EINPUT;
        if (!*v) return slpi_checkpoint_fail(r, "empty state token%s", "");
        c->x[i] = strdup(v);
        c->ntokens = i + 1;
        if (!c->x[i]) return slpi_checkpoint_fail(r, "out of memory for the state%s", "");
    }
    return slpi_checkpoint_last(r);
}

/* The whole file, NUL-terminated; NULL (err set) if unreadable or too large. */
static char *slurp(const char *path, size_t *len, slpi_error *err)
{
    FILE *f = slpi_input_open(path, err);
    if (!f) return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n > (size_t)CKPT_MAX_BYTES) break;
        if (cap - n - 1 == 0) {
            char *more = realloc(buf, cap *= 2);
            if (!more) free(buf);
            buf = more;
        }
    }
    if (!buf) {
        fclose(f);
        slpi_error_set(err, SLPI_EINPUT, "%s: out of memory reading %zu bytes", path, n);
        return NULL;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n > (size_t)CKPT_MAX_BYTES) {
        slpi_error_set(err, SLPI_EINPUT, "%s: %s", path, bad ? "read error" : "larger than 1 GiB: not a checkpoint");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* As slpi_checkpoint_open on text (len bytes, NUL-terminated, malloc'd: the reader owns it). */
static int open_text(slpi_checkpoint_reader *r, const char *path, char *text, size_t len, const char *format,
                     int version, slpi_error *err)
{
    memset(r, 0, sizeof *r);
    r->name = path;
    r->err = err;
    r->text = r->pos = r->end = text;
    int rc = slpi_container_check(&r->ix, path, text, len, format, version, err);
    if (rc != SLPI_OK) {
        slpi_checkpoint_close(r);
        return rc;
    }
    r->end = text + len - 1; /* the end line: its start */
    while (r->end > text && r->end[-1] != '\n') r->end--;
    r->line = 1;
    r->pos = r->ix.n ? text : r->end;
    return SLPI_OK;
}

int slpi_checkpoint_open(slpi_checkpoint_reader *r, const char *path, const char *format, int version, slpi_error *err)
{
    size_t len;
    char *text = slurp(path, &len, err);
    if (!text) {
        memset(r, 0, sizeof *r);
        return SLPI_EINPUT;
    }
    return open_text(r, path, text, len, format, version, err);
}

void slpi_checkpoint_close(slpi_checkpoint_reader *r)
{
    free(r->text);
    free(r->ix.s);
    r->ix.s = NULL;
    r->ix.n = 0;
    r->text = r->pos = r->end = NULL;
}

/* The fields of the reader r, opened on a run checkpoint, into c (freed on error). */
static int read_run(slpi_checkpoint_reader *r, slpi_checkpoint *c, int rc)
{
    if (rc != SLPI_OK) return rc;
    rc = read_header(r, c);
    if (rc == SLPI_OK) rc = read_problem_and_state(r, c);
    slpi_checkpoint_close(r);
    if (rc != SLPI_OK) slpi_checkpoint_free(c);
    return rc;
}

int slpi_checkpoint_read(const char *path, slpi_checkpoint *c, slpi_error *err)
{
    memset(c, 0, sizeof *c);
    slpi_checkpoint_reader r;
    return read_run(&r, c, slpi_checkpoint_open(&r, path, SLPI_CKPT_FORMAT, SLPI_CKPT_VERSION, err));
}

int slpi_checkpoint_parse(slpi_checkpoint *c, const char *name, const char *text, slpi_error *err)
{
    memset(c, 0, sizeof *c);
    size_t len = strlen(text);
    char *copy = len <= (size_t)CKPT_MAX_BYTES ? malloc(len + 1) : NULL;
    if (!copy) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory or larger than 1 GiB", name);
    memcpy(copy, text, len + 1);
    slpi_checkpoint_reader r;
    return read_run(&r, c, open_text(&r, name, copy, len, SLPI_CKPT_FORMAT, SLPI_CKPT_VERSION, err));
}

/* ------------------------------------------------------------------ batch checkpoints */

/* One "batch B V..." line into its row of rows; indices increase; row_check may refuse
 * the row (the reason follows "batch row: "). */
static int read_batch(slpi_checkpoint_reader *r, int nb, int stride, int prev, double *rows,
                      const char *(*row_check)(void *, int, const double *), void *arg, int *bout)
{
    char *v = slpi_checkpoint_value(r, "batch"), *end;
    if (!v) return SLPI_EINPUT;
    long b = strtol(v, &end, 10);
    if (end == v || *end != ' ' || b <= prev || b >= nb)
        return slpi_checkpoint_fail(r, "batch index '%.20s': expected increasing indices below the batch count", v);
    double *q = rows + (size_t)b * (size_t)stride;
    for (int j = 0; j < stride; j++) {
        char *t = end;
        q[j] = strtod(t, &end);
        if (end == t || (*end != ' ' && *end != '\0') || (*end == '\0') != (j + 1 == stride))
            return slpi_checkpoint_fail(r, "batch row: expected %s %%a doubles",
                                        j + 1 < stride ? "more" : "exactly stride");
    }
    const char *why = row_check ? row_check(arg, (int)b, q) : NULL;
    if (why) return slpi_checkpoint_fail(r, "batch row: %s", why);
    *bout = (int)b;
    return SLPI_OK;
}

int slpi_checkpoint_batches_write(const char *path, const char *study, const double *rows, const unsigned char *done,
                                  int nb, int stride, slpi_error *err)
{
    slpi_checkpoint_writer w;
    if (!slpi_checkpoint_begin(&w))
        return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the checkpoint", path);
    FILE *m = w.f;
    int nl = 0, nd = 0;
    for (const char *s = study; *s; s++) nl += *s == '\n';
    for (int b = 0; b < nb; b++) nd += done[b];
    slpi_checkpoint_section(&w, "study");
    fprintf(m, "study_lines %d\n", nl);
    for (const char *s = study; *s;) {
        size_t k = strcspn(s, "\n");
        fprintf(m, "study %.*s\n", (int)k, s);
        s += k + 1;
    }
    slpi_checkpoint_section(&w, "batches");
    fprintf(m, "done %d\n", nd);
    for (int b = 0; b < nb; b++) {
        if (!done[b]) continue;
        fprintf(m, "batch %d", b);
        for (int j = 0; j < stride; j++) fprintf(m, " %a", rows[(size_t)b * (size_t)stride + (size_t)j]);
        fputc('\n', m);
    }
    return slpi_checkpoint_commit(&w, path, SLPI_BATCH_CKPT_FORMAT, SLPI_BATCH_CKPT_VERSION, err);
}

/* The study lines, the done count and the batch lines of an opened batch checkpoint. */
static int read_batches(slpi_checkpoint_reader *r, const char *study, double *rows, unsigned char *done, int nb,
                        int stride, const char *(*row_check)(void *, int, const double *), void *arg)
{
    long nl = 0, nd = 0;
    int mine = 0;
    for (const char *s = study; *s; s++) mine += *s == '\n';
    int rc = slpi_checkpoint_long(r, "study_lines", 1, 65536, &nl);
    const char *s = study;
    for (long i = 0; i < nl && rc == SLPI_OK; i++) {
        char *v = slpi_checkpoint_value(r, "study");
        size_t k = strcspn(s, "\n");
        if (!v) {
            rc = SLPI_EINPUT;
        } else if (!*s || strlen(v) != k || memcmp(v, s, k) != 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "the checkpoint is of another study: it has %.200s, this study %.*s", v,
                     *s ? (int)(k < 200 ? k : 200) : 4, *s ? s : "none");
            rc = slpi_checkpoint_fail(r, "%s", msg);
        }
        s += k + (s[k] == '\n');
    }
    if (rc == SLPI_OK && nl != mine) {
        char msg[256];
        snprintf(msg, sizeof msg, "%.*s", (int)strcspn(s, "\n"), s);
        rc = slpi_checkpoint_fail(r, "the checkpoint is of another study: it lacks %s", msg);
    }
    if (rc == SLPI_OK) rc = slpi_checkpoint_long(r, "done", 0, nb, &nd);
    for (int i = 0, prev = -1; i < nd && rc == SLPI_OK; i++) {
        rc = read_batch(r, nb, stride, prev, rows, row_check, arg, &prev);
        if (rc == SLPI_OK) done[prev] = 1;
    }
    return rc == SLPI_OK ? slpi_checkpoint_last(r) : rc;
}

int slpi_checkpoint_batches_read(const char *path, const char *study, double *rows, unsigned char *done, int nb,
                                 int stride, const char *(*row_check)(void *, int, const double *), void *arg,
                                 slpi_error *err)
{
    slpi_checkpoint_reader r;
    int rc = slpi_checkpoint_open(&r, path, SLPI_BATCH_CKPT_FORMAT, SLPI_BATCH_CKPT_VERSION, err);
    if (rc == SLPI_OK) {
        rc = read_batches(&r, study, rows, done, nb, stride, row_check, arg);
        slpi_checkpoint_close(&r);
    }
    if (rc != SLPI_OK) { /* nothing of a refused file is kept, whatever step refused it */
        memset(rows, 0, (size_t)nb * (size_t)stride * sizeof *rows);
        memset(done, 0, (size_t)nb);
    }
    return rc;
}
