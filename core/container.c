/* container.c — the one container of every checkpoint slpi writes (docs/design.md#checkpoints):
 * `slpi run --checkpoint` and slpi_stepper_save (core/checkpoint.c), the studies' batch
 * checkpoints (`slpi converge`), `slpi ensemble --checkpoint`, `slpi mlmc --checkpoint`,
 * and the Python package's (slpi.run's and slpi.ensemble's, through slpi/container.h).
 *
 * A container is text, every line ending in '\n':
 *   # FORMAT VERSION            the format of what it holds and its version
 *   section NAME N HEX16        then N lines: the section's content; HEX16 is the
 *   ...                         FNV-1a 64 (core/digest.h) of those lines' bytes
 *   section NAME N HEX16        (as many sections as the format has, in its order)
 *   ...
 *   end HEX16                   FNV-1a 64 of the first line and every section line
 *                               (each with its '\n'): the index, whose section
 *                               digests cover the sections' lines
 * NAME is 1..63 characters of [a-z0-9._-]. Nothing follows the end line; no NUL byte.
 * The reader checks, in this order, and refuses naming the file, the line and the part:
 * the first line (empty, binary, of another format, of another version), the walk of the
 * sections to the end line (a cut file: it names the section it ends in and how many of
 * its lines are left), each section's digest (an edited file: it names the first
 * section whose lines differ), then the end digest (an edited header or section line).
 * So an edit is named by its section: a key of a run's counts, a row of an array.
 * Like every digest of the tree it detects edits and cuts, not forgeries. */
#include "slpi/errors.h"
#include "core/container.h"
#include "core/digest.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTAINER_MAX_SECTIONS 4096
#define CONTAINER_MAX_LINES (1L << 31)

const char *slpi_container_bad_name(const char *name)
{
    size_t k = strlen(name);
    if (k == 0 || k >= SLPI_CONTAINER_NAME_MAX) return "a section's name needs 1..63 characters";
    if (strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._-") != k)
        return "a section's name is made of a-z, 0-9, '.', '_' and '-'";
    return NULL;
}

/* The lines of a section's text: NULL, or why they are not whole lines. */
static const char *bad_text(const char *t, size_t len, long *nlines)
{
    *nlines = 0;
    if (len && t[len - 1] != '\n') return "a section's text must end with a newline";
    if (memchr(t, '\0', len)) return "a section's text holds a NUL byte";
    for (const char *p = t, *e = t + len; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) ++*nlines;
    return NULL;
}

long slpi_container_size(const char *format, int version, int n, const char *const *names, const char *const *texts,
                         const size_t *lens)
{
    if (strcspn(format, " \n") != strlen(format) || !*format || n < 0 || n > CONTAINER_MAX_SECTIONS) return -1;
    long size = snprintf(NULL, 0, "# %s %d\n", format, version) + 21; /* and "end HEX16\n" */
    for (int i = 0; i < n; i++) {
        long nl;
        if (slpi_container_bad_name(names[i]) || bad_text(texts[i], lens[i], &nl)) return -1;
        size += snprintf(NULL, 0, "section %s %ld ", names[i], nl) + 17 + (long)lens[i];
    }
    return size;
}

char *slpi_container_text(size_t *len, const char *format, int version, int n, const char *const *names,
                          const char *const *texts, const size_t *lens)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    if (!m) return NULL;
    int ok = strcspn(format, " \n") == strlen(format) && *format && n >= 0 && n <= CONTAINER_MAX_SECTIONS;
    char line[160];
    int k = snprintf(line, sizeof line, "# %s %d\n", format, version);
    ok = ok && k < (int)sizeof line;
    uint64_t d = slpi_fnv1a(SLPI_FNV_INIT, line, ok ? (size_t)k : 0); /* the end digest: over the index */
    fwrite(line, 1, ok ? (size_t)k : 0, m);
    for (int i = 0; ok && i < n; i++) {
        long nl;
        ok = !slpi_container_bad_name(names[i]) && !bad_text(texts[i], lens[i], &nl);
        if (ok) {
            k = snprintf(line, sizeof line, "section %s %ld %016" PRIx64 "\n", names[i], nl,
                         slpi_fnv1a(SLPI_FNV_INIT, texts[i], lens[i]));
            d = slpi_fnv1a(d, line, (size_t)k);
            fwrite(line, 1, (size_t)k, m);
            fwrite(texts[i], 1, lens[i], m);
        }
    }
    fprintf(m, "end %016" PRIx64 "\n", d);
    if (fclose(m) != 0 || !ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------------------------ reader */

typedef struct {
    const char *name, *text;
    size_t len, pos; /* the next line starts at pos */
    long line;       /* the number of the last line read */
    slpi_error *err;
} walker;

/* The next line [pos, its '\n'), its length in *k; -1 at the end of the text, 0 for a cut
 * line (no '\n': the text ends inside it). */
static int next_line(walker *w, size_t *k)
{
    *k = 0;
    if (w->pos >= w->len) return -1;
    const char *s = w->text + w->pos, *nl = memchr(s, '\n', w->len - w->pos);
    *k = nl ? (size_t)(nl - s) : w->len - w->pos;
    return nl != NULL;
}

static int fail(walker *w, long line, const char *fmt, const char *a, const char *b)
{
    char what[400];
    snprintf(what, sizeof what, fmt, a, b);
    return slpi_error_set(w->err, SLPI_EINPUT, "%s:%ld: %s", w->name, line, what);
}

/* The first line "# FORMAT VERSION". */
static int check_header(walker *w, const char *format, int version)
{
    size_t k;
    char got[128], want[128];
    snprintf(want, sizeof want, "# %s %d", format, version);
    int whole = next_line(w, &k);
    snprintf(got, sizeof got, "%.*s", (int)(k < 100 ? k : 100), w->text);
    w->line = 1;
    if (!whole && strncmp(got, want, strlen(got)) == 0)
        return fail(w, 1, "a cut file: it ends inside its first line '%s'%s", got, "");
    if (strncmp(got, "# ", 2) != 0 || strchr(got + 2, ' ') == NULL)
        return fail(w, 1, "not a checkpoint: its first line is '%s', expected '%s'", got, want);
    char *sp = strchr(got + 2, ' ');
    *sp = '\0';
    if (strcmp(got + 2, format) != 0)
        return fail(w, 1, "not a checkpoint of format %s: its first line names %s", format, got + 2);
    *sp = ' ';
    if (!whole) return fail(w, 1, "a cut file, or not a checkpoint: it ends inside its first line '%s'%s", got, "");
    if (strcmp(got, want) != 0) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "%s version %.20s: this slpi reads version %d only; start again without resuming "
                 "(or resume with the slpi that wrote it)",
                 format, sp + 1, version);
        return fail(w, 1, "%s%s", msg, "");
    }
    w->pos = k + 1;
    return SLPI_OK;
}

/* A "section NAME N HEX16" line of k bytes at pos into s (digest into *d). */
static int parse_section_line(walker *w, size_t k, slpi_container_section_at *s, uint64_t *d)
{
    char line[160], hex[17];
    long n;
    int used = 0;
    if (k >= sizeof line) return 0;
    memcpy(line, w->text + w->pos, k);
    line[k] = '\0';
    if (sscanf(line, "section %63s %ld %16[0-9a-f]%n", s->name, &n, hex, &used) != 3 || (size_t)used != k ||
        strlen(hex) != 16 || n < 0 || n > CONTAINER_MAX_LINES || slpi_container_bad_name(s->name))
        return 0;
    s->nlines = n;
    *d = strtoull(hex, NULL, 16);
    return 1;
}

/* The section s's lines from pos; a cut file refused naming it. */
static int walk_body(walker *w, slpi_container_section_at *s)
{
    s->body = w->pos;
    for (long i = 0; i < s->nlines; i++) {
        size_t k;
        int got = next_line(w, &k);
        if (got != 1) {
            char msg[160];
            snprintf(msg, sizeof msg, "a cut file: section %s holds %ld of its %ld lines", s->name, i, s->nlines);
            return fail(w, w->line + 1, "%s%s", msg, "");
        }
        w->pos += k + 1;
        w->line++;
    }
    s->len = w->pos - s->body;
    return SLPI_OK;
}

/* The walk from line 2 to the end line: the sections into ix, the end line's digest into
 * *end and that of the first line and the section lines into *index. */
static int walk(walker *w, slpi_container_index *ix, long *bad, uint64_t *end, uint64_t *index)
{
    int cap = 0;
    *index = slpi_fnv1a(SLPI_FNV_INIT, w->text, w->pos);
    for (;;) {
        size_t k;
        int got = next_line(w, &k);
        const char *last = ix->n ? ix->s[ix->n - 1].name : NULL;
        if (got == -1 || (got == 0 && (k < 4 || strncmp(w->text + w->pos, "end ", 4) == 0)))
            return fail(w, w->line + 1,
                        last ? "a cut file: it ends after section %s, with no end line%s"
                             : "a cut file: it ends after its first line, with no end line%s%s",
                        last ? last : "", "");
        if (k >= 4 && strncmp(w->text + w->pos, "end ", 4) == 0) {
            w->line++;
            char hex[17] = "";
            if (k != 20 || strspn(w->text + w->pos + 4, "0123456789abcdef") < 16)
                return fail(w, w->line, "a damaged end line: expected 'end' and 16 hex digits%s%s", "", "");
            memcpy(hex, w->text + w->pos + 4, 16);
            *end = strtoull(hex, NULL, 16);
            if (w->pos + k + 1 != w->len) return fail(w, w->line + 1, "text after the end line%s%s", "", "");
            return SLPI_OK;
        }
        if (ix->n == cap) {
            slpi_container_section_at *t =
                cap < CONTAINER_MAX_SECTIONS ? realloc(ix->s, (size_t)(cap = cap ? 2 * cap : 8) * sizeof *t) : NULL;
            if (!t) return fail(w, w->line + 1, "out of memory, or more than 4096 sections%s%s", "", "");
            ix->s = t;
        }
        slpi_container_section_at *s = &ix->s[ix->n];
        uint64_t d;
        w->line++;
        if (got == 0 || !parse_section_line(w, k, s, &d))
            return fail(w, w->line,
                        got ? "expected 'section NAME LINES DIGEST' or the end line%s%s"
                            : "a cut file: it ends inside a section line%s%s",
                        "", "");
        s->line = w->line;
        *index = slpi_fnv1a(*index, w->text + w->pos, k + 1);
        w->pos += k + 1;
        ix->n++;
        if (walk_body(w, s) != SLPI_OK) return SLPI_EINPUT;
        if (*bad < 0 && slpi_fnv1a(SLPI_FNV_INIT, w->text + s->body, s->len) != d) *bad = ix->n - 1;
    }
}

int slpi_container_check(slpi_container_index *ix, const char *name, const char *text, size_t len, const char *format,
                         int version, slpi_error *err)
{
    walker w = { name, text, len, 0, 0, err };
    ix->n = 0;
    ix->s = NULL;
    const char *nul = memchr(text, '\0', len);
    long bad = -1;
    uint64_t end = 0, index = 0;
    int rc;
    if (len == 0) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: an empty file, not a checkpoint", name);
    } else if (nul) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: a NUL byte at offset %zu: a binary file, not a checkpoint", name,
                            (size_t)(nul - text));
    } else if ((rc = check_header(&w, format, version)) == SLPI_OK &&
               (rc = walk(&w, ix, &bad, &end, &index)) == SLPI_OK) {
        if (bad >= 0) {
            const slpi_container_section_at *s = &ix->s[bad];
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "%s:%ld: section %s (lines %ld-%ld) differs from its digest: an edited file", name,
                                s->line, s->name, s->line + 1, s->line + s->nlines);
        } else if (index != end) {
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "%s:%ld: the end digest differs: its first line or a section line was edited", name,
                                w.line);
        }
    }
    if (rc != SLPI_OK) {
        free(ix->s);
        ix->s = NULL;
        ix->n = 0;
    }
    return rc;
}
